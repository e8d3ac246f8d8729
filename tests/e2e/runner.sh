# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub
# shellcheck shell=bash
# The QEMU runner: guest size and command line, hangs, panics, signals,
# the KVM fallback and per-run inputs. Uses the slub guest.
. tests/e2e/lib.sh

# Four checks of --accel=auto on each kind of host: KVM that works, KVM
# that is broken, no KVM.
plan 39

cat >"$TMP/info.json" <<'JSON'
{ "name": "info", "tests": [ { "test": "merge" } ] }
JSON

"$SB" run --boots=1 --alloc=slub --workload="$TMP/info.json" --cpus=4 --numa=2 --mem=768 \
	--cmdline="slub_debug=- slabbench_marker=1" -o "$TMP/big.json" >/dev/null
check "--cpus=4 brings up 4 vCPUs" jqt "$TMP/big.json" '.guest.info.cpus_online == 4'
check "--numa=2 is recorded" jqt "$TMP/big.json" '.vm.numa_nodes == 2'
check "--mem=768 gives the guest 768 MB" \
	jqt "$TMP/big.json" '.boots[0].snapshots.before.meminfo.MemTotal > 600000 and
		.boots[0].snapshots.before.meminfo.MemTotal <= 786432'
check "--cmdline reaches the guest kernel" \
	jqt "$TMP/big.json" '.boots[0].cmdline | contains("slabbench_marker=1")'
# After the variant's own parameters (vm/config/base.cmdline).
check "--cmdline is recorded" jqt "$TMP/big.json" \
	'.vm.cmdline == "acpi=noirq no_timer_check slub_debug=- slabbench_marker=1"'

# Module parameters on the kernel command line (slabbench.PARAM=VALUE)
# reach the module, as modprobe would pass them: extra_ns, a busy loop
# calibrated (on the fastest of its timings) to take that many ns, on
# every fastpath alloc+free. Judged by what the module did, the spins it
# ran and the calibration it recorded, not by the time they took: under
# TCG a guest's nanosecond is the host's, and a busy host stretches it
# (slabbench bench --spread prints that time).
cat >"$TMP/fp.json" <<'JSON'
{ "name": "fp", "tests": [ { "test": "fastpath", "params": { "iters": 2000, "repeats": 2 } } ] }
JSON
"$SB" run --boots=1 --alloc=slub --workload="$TMP/fp.json" --cmdline="slabbench.extra_ns=5000" \
	-o "$TMP/extra.json" >/dev/null
check "slabbench.extra_ns=5000 reaches the module, and the fastpath results say so" \
	jqt "$TMP/extra.json" '.guest.info.extra_ns == 5000 and .tests[0].extra.extra_ns == [5000]'
check "extra_ns=5000: the spins a pair follow from the calibration's fastest timing" \
	jqt "$TMP/extra.json" '.tests[0].extra | (.spin_ps[0] ==
		([.calib_best_ns[0] * 1000 / .calib_spins[0] | floor, 1] | max)) and
		.extra_loops[0] == ((5000 * 1000 + (.spin_ps[0] / 2 | floor)) / .spin_ps[0] | floor) and
		.extra_loops[0] > 0 and .calib_spins[0] == 100000'
check "extra_ns=5000: calibrated five times before the warm-up and after each of its passes" \
	jqt "$TMP/extra.json" '.tests[0].extra.calib_timings[0] >= 6'
check "extra_ns=5000: every pair of every timed repeat ran its spins" \
	jqt "$TMP/extra.json" '.tests[0] | .extra.extra_pairs[0] == .params.iters * .params.repeats and
		.extra.extra_spins[0] == .extra.extra_pairs[0] * .extra.extra_loops[0]'
"$SB" run --boots=1 --alloc=slub --workload="$TMP/fp.json" --cmdline="slabbench.extra_ns=100001" \
	-o "$TMP/extra-big.json" >/dev/null 2>"$TMP/extra-big.err"
rc=$?
check "extra_ns above 100000: the run fails" test "$rc" -ne 0
check "and the module's reason is shown" grep -q 'extra_ns=100001: at most 100000' "$TMP/extra-big.err"

# A sweep: each allocator at each CPU count, a results file each.
"$SB" run --boots=1 --alloc=slab,slub --workload="$TMP/info.json" --cpus=1,2 -o "$TMP/sweep" >/dev/null
sweep=("$TMP"/sweep/{slab,slub}-info-cpus[12]-*.json)
check "--cpus=1,2 of two allocators: four results, named by CPUs" \
	test "${#sweep[@]}" -eq 4 -a -e "${sweep[0]}" -a -e "${sweep[3]}"
check "a sweep's point records its CPUs" \
	jqt "${sweep[2]}" '.vm.cpus == 1 and .guest.info.cpus_online == 1'
# -o naming a directory that exists, for one allocator at one CPU count:
# the results go into it, named as a sweep's (it once ran every boot and
# then failed writing the directory as a file).
"$SB" run --boots=1 --alloc=slub --workload="$TMP/info.json" -o "$TMP/sweep" >/dev/null
one=("$TMP"/sweep/slub-info-cpus2-*.json)
check "-o an existing directory, one allocator: its results file inside, named by CPUs" \
	test "${#one[@]}" -eq 2 -a -e "${one[1]}"

# A guest that never finishes: /bin/sh as init waits on the console forever.
# The outer timeout only keeps this test from hanging in its turn; its
# bound is generous, as the host may be busy.
timeout 600 "$SB" run --boots=1 --alloc=slub --workload="$TMP/info.json" --cmdline="rdinit=/bin/sh" \
	--timeout=12 -o "$TMP/hang.json" >/dev/null 2>"$TMP/hang.err"
rc=$?
check "a hung guest fails the run, stopped by its --timeout (exit 1, not the outer 124)" \
	test "$rc" -eq 1
check "the timeout is reported" grep -q "timed out" "$TMP/hang.err"
check "the console tail is shown" grep -q -- "--- last lines of" "$TMP/hang.err"
check "the hung run's partial results say why" \
	jqt "$TMP/hang.partial.json" '.status == "partial" and .boots[0].outcome == "timed out"'

"$SB" run --boots=1 --alloc=slub --workload="$TMP/info.json" \
	--cmdline="rdinit=/nonexistent init=/nonexistent" --timeout=60 \
	-o "$TMP/panic.json" >/dev/null 2>"$TMP/panic.err"
check "a kernel panic fails the run" test $? -eq 1
check "the panic is reported" grep -q "Kernel panic" "$TMP/panic.err"
check "the panic is in the partial results" \
	jqt "$TMP/panic.partial.json" '.boots[0].console_problem | contains("Kernel panic")'

# SIGINT and SIGTERM end QEMU and keep the partial results.
for sig in INT TERM; do
	"$SB" run --boots=1 --alloc=slub --workload="$TMP/info.json" --cmdline="rdinit=/bin/sh" \
		--timeout=120 -o "$TMP/sig$sig.json" >/dev/null 2>"$TMP/sig$sig.err" &
	pid=$!
	qemu=
	for _ in $(seq 1 200); do
		qemu=$(pgrep -P "$pid" -f qemu-system || true)
		[ -n "$qemu" ] && break
		sleep 0.1
	done
	sleep 1
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	check "SIG$sig: QEMU was running" test -n "$qemu"
	check "SIG$sig: the run fails" test "$rc" -ne 0
	sleep 0.5
	check "SIG$sig: no QEMU left behind" bash -c "! kill -0 ${qemu:-0} 2>/dev/null"
	check "SIG$sig: partial results marked interrupted" \
		jqt "$TMP/sig$sig.partial.json" '.status == "partial" and .boots[0].outcome == "interrupted"'
done

# auto: KVM where a guest really comes up, else TCG, said once per host boot.
verdict=${SLABBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/slabbench}/kvm.verdict
rm -f "$verdict"
"$SB" run --boots=1 --alloc=slub --workload="$TMP/info.json" -o "$TMP/a1.json" >/dev/null 2>"$TMP/a1.err"
check "--accel=auto completes" jqt "$TMP/a1.json" '.status == "complete"'
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	if jqt "$TMP/a1.json" '.vm.accel == "kvm"'; then
		check "working KVM is used" true
		check "working KVM: no fallback said" bash -c "! grep -q 'KVM is present' '$TMP/a1.err'"
		check "working KVM: the verdict is kept" grep -q ' ok$' "$verdict"
		check "working KVM: times not marked emulated" jqt "$TMP/a1.json" '.vm.emulated_time == false'
	else
		check "broken KVM: the fallback is said" grep -q "KVM is present but" "$TMP/a1.err"
		check "broken KVM: the verdict is kept" grep -q broken "$verdict"
		"$SB" run --boots=1 --alloc=slub --workload="$TMP/info.json" -o "$TMP/a2.json" >/dev/null 2>"$TMP/a2.err"
		check "broken KVM: said only once" bash -c "! grep -q 'KVM is present' '$TMP/a2.err'"
		check "broken KVM: TCG recorded" jqt "$TMP/a2.json" '.vm.accel == "tcg" and .vm.emulated_time'
	fi
else
	check "no usable /dev/kvm: TCG" jqt "$TMP/a1.json" '.vm.accel == "tcg"'
	check "no usable /dev/kvm: nothing said of KVM" bash -c "! grep -q 'KVM' '$TMP/a1.err'"
	check "no usable /dev/kvm: no verdict kept" test ! -e "$verdict"
	check "no usable /dev/kvm: times marked emulated" jqt "$TMP/a1.json" '.vm.emulated_time == true'
fi
"$SB" run --boots=1 --alloc=slub --workload="$TMP/info.json" --accel=icount -o "$TMP/ic.json" >/dev/null
check "--accel=icount runs on one vCPU and is recorded" \
	jqt "$TMP/ic.json" '.vm.accel == "icount" and .guest.info.cpus_online == 1'
"$SB" run --boots=1 --alloc=slub --accel=icount --cpus=2 2>"$TMP/ic2.err"
check "--accel=icount with two vCPUs is refused" test $? -eq 2
check "and the reason is given" grep -q "one vCPU only" "$TMP/ic2.err"

# Per-run inputs travel in an archive of their own: the base stays as built.
base=$(vm/kernel.sh build slub "$PWD/build/slabbench-agent" 2>/dev/null | sed -n 's/^initramfs=//p')
before=$(stat -c %Y "$base")
"$SB" run --boots=1 --alloc=slub --workload=quick --repeat=2 -o "$TMP/q2.json" >/dev/null
check "a new workload does not rebuild the base initramfs" test "$(stat -c %Y "$base")" = "$before"
check "and its plan reached the guest" jqt "$TMP/q2.json" '[.tests[].metrics.ns_per_op.samples | length == 2] | all'
