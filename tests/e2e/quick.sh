# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub slub-7.3
# shellcheck shell=bash
# Builds the slab, slub and slub-7.3 guests, runs the quick workload in each and
# checks what came back: every number from the module in a booted guest.
. tests/e2e/lib.sh

repeats=$(jq '[.tests[].params.repeats] | min' workloads/quick.json)
ntests=$(jq '.tests | length' workloads/quick.json)
plan 75

for alloc in slab slub slub-7.3; do
	out=$TMP/$alloc.json
	check "$alloc: run --workload=quick exits 0" \
		"$SB" run --boots=1 --alloc=$alloc --workload=quick -o "$out"
	[ -f "$out" ] || { echo "not ok - $alloc: no results file"; continue; }
	check "$alloc: status complete" jqt "$out" '.status == "complete" and .schema == 1'
	check "$alloc: accelerator and QEMU recorded" \
		jqt "$out" '(.vm.accel | IN("kvm","tcg","icount")) and (.vm.qemu | test("QEMU"))'
	check "$alloc: guest config is the built config" jqt "$out" '.guest.config_matches_build == true'
	check "$alloc: module info has the release" jqt "$out" '.guest.info.release == .kernel.release'
	check "$alloc: the guest brought up every vCPU" jqt "$out" '.guest.info.cpus_online == .vm.cpus'
	check "$alloc: $ntests tests in the results" jqt "$out" ".tests | length == $ntests"
	check "$alloc: every metric has repeats=$repeats samples" \
		jqt "$out" "[.tests[].metrics[].samples | length == $repeats] | all"
	check "$alloc: every ns/op sample is positive" \
		jqt "$out" '[.tests[].metrics.ns_per_op.samples[] | . > 0] | all'
	check "$alloc: the clock's step is measured, and each ns/op sample has its resolution" \
		jqt "$out" '.guest.info.clock_step_ns > 0 and ([.tests[].metrics.ns_per_op |
			(.resolution | length) == (.samples | length) and
			([.resolution[] | . > 0] | all)] | all)'
	check "$alloc: objects are touched by default, and the results say so" \
		jqt "$out" '[.tests[].params.touch == 1] | all'
	check "$alloc: each sample records the interrupts of its timing windows" \
		jqt "$out" "[.tests[].metrics[] | (.irqs | length == $repeats) and all(.irqs[]; . >= 0)] | all"
	check "$alloc: console log kept, no kernel problem" \
		jqt "$out" '.boots[0].console_problem == null and (.boots[0].console | length > 0)'
	check "$alloc: meminfo before and after" \
		jqt "$out" '.boots[0].snapshots.before.meminfo.MemTotal > 0 and .boots[0].snapshots.after.meminfo.Slab > 0'
done

check "slab guest runs SLAB" jqt "$TMP/slab.json" '.guest.info.allocator == "SLAB"'
check "slab guest config has CONFIG_SLAB_DEPRECATED=y" \
	jqt "$TMP/slab.json" '.guest.allocator_config | index("CONFIG_SLAB_DEPRECATED=y") != null'
check "slab guest config has the hidden CONFIG_SLAB=y" \
	jqt "$TMP/slab.json" '.guest.allocator_config | index("CONFIG_SLAB=y") != null'
check "slub guest runs SLUB" jqt "$TMP/slub.json" '.guest.info.allocator == "SLUB"'
check "slub-7.3 guest runs SLUB on 7.3" \
	jqt "$TMP/slub-7.3.json" '.guest.info.allocator == "SLUB" and (.kernel.release | startswith("7.3"))'
# Every 7.3 kernel on x86 is preemptible: what the cost model's window
# rejection is there for (docs/cost-model.md).
check "slub-7.3 guest is preemptible (PREEMPT_LAZY), as x86 has no PREEMPT_NONE there" \
	grep -qx 'CONFIG_PREEMPT_LAZY=y' "$(vm/kernel.sh build slub-7.3 | sed -n 's/^dir=//p')/.config"
check "slub guest config has CONFIG_SLUB=y and no SLAB" \
	jqt "$TMP/slub.json" '(.guest.allocator_config | index("CONFIG_SLUB=y") != null) and
		(.guest.allocator_config | index("# CONFIG_SLAB_DEPRECATED is not set") != null)'

# A kernel whose inputs did not change is not rebuilt.
check "a second build of slab rebuilds nothing" \
	bash -c "vm/kernel.sh build slab 2>&1 >/dev/null | grep -q 'building the' && exit 1 || exit 0"

# Checked against the module's catalogue before any benchmark boot.
for bad in '"test": "fastpth"' '"test": "fastpath", "params": { "size": 100000 }' \
	'"test": "overhead", "params": { "sise": 64 }' '"test": "batch", "params": { "order": "up" }'; do
	echo "{ \"name\": \"bad\", \"tests\": [ { $bad } ] }" >"$TMP/bad.json"
	"$SB" run --boots=1 --alloc=slub --workload="$TMP/bad.json" -o "$TMP/bad-out.json" 2>"$TMP/bad.err"
	rc=$?
	check "refused before booting: $bad" test "$rc" -eq 2 -a ! -e "$TMP/bad-out.partial.json"
	check "the message names the file and the key: $(cat "$TMP/bad.err")" \
		grep -qE "bad.json: tests\[0\]\.(test|params\.(size|sise|order)): " "$TMP/bad.err"
done
check "the range comes from the module's catalogue" grep -q 'size: 100000 out of range \[8, 8192\]' \
	<(echo '{ "name": "bad", "tests": [ { "test": "fastpath", "params": { "size": 100000 } } ] }' >"$TMP/bad.json";
	  "$SB" run --boots=1 --alloc=slub --workload="$TMP/bad.json" 2>&1)

# A test the module has but this kernel lacks: refused before booting,
# with the module's reason.
echo '{ "name": "bad", "tests": [ { "test": "nolock" } ] }' >"$TMP/bad.json"
"$SB" run --boots=1 --alloc=slub --workload="$TMP/bad.json" -o "$TMP/bad-out.json" 2>"$TMP/bad.err"
rc=$?
check "a test this kernel lacks is refused before booting" test "$rc" -eq 2 -a ! -e "$TMP/bad-out.partial.json"
check "the refusal says why: $(cat "$TMP/bad.err")" grep -q \
	"tests\[0\]\.test: test 'nolock' is not available on this kernel: kmalloc_nolock() is not in this kernel" \
	"$TMP/bad.err"

# What only the running module can refuse (an offline CPU): the run fails,
# the module's reason reaches the user, nothing complete is written.
cat >"$TMP/bad.json" <<'JSON'
{ "name": "bad", "tests": [ { "test": "fastpath", "params": { "cpu": 7 } } ] }
JSON
"$SB" run --boots=1 --alloc=slub --workload="$TMP/bad.json" -o "$TMP/bad-out.json" 2>"$TMP/bad.err"
rc=$?
check "a spec the module refuses fails the run" test "$rc" -eq 1
check "the module's reason reaches the user" grep -q 'cpu=7' "$TMP/bad.err"
check "no complete results file for a failed run" test ! -e "$TMP/bad-out.json"
check "partial results kept and marked" jqt "$TMP/bad-out.partial.json" '.status == "partial"'

"$SB" run --boots=1 --alloc=slab --workload="$TMP/nonexistent.json" 2>"$TMP/nf.err"
check "a missing workload file is a usage error" test $? -eq 2
check "the message names the file" grep -q "nonexistent.json" "$TMP/nf.err"
"$SB" run --boots=1 --alloc=slib 2>"$TMP/alloc.err"
check "an unknown allocator is a usage error" test $? -eq 2
check "the message lists the known ones" grep -q "known: slab, slub" "$TMP/alloc.err"
"$SB" run --boots=1 --cpus=0 2>/dev/null
check "--cpus=0 is refused" test $? -eq 2
"$SB" frobnicate 2>/dev/null
check "an unknown command is refused" test $? -eq 2
"$SB" run --boots=1 --help | grep -q -- '--alloc'
check "run --help describes --alloc" test $? -eq 0
# One meaning per name: the A/A noise floor is slabbench noise's; bench's
# spread of one boot's repeats is --spread.
"$SB" bench --noise 2>/dev/null
check "bench has no --noise" test $? -eq 2
check "bench --help describes --spread" bash -c "'$SB' bench --help | grep -q -- '^ *--spread '"
check "slab and slub results record the same non-allocator config" \
	bash -c "test \"\$(jq -r .kernel.common_config_sha256 '$TMP/slab.json')\" = \"\$(jq -r .kernel.common_config_sha256 '$TMP/slub.json')\""
