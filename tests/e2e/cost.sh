# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub slub-7.3
# shellcheck shell=bash
# The cost model on Linux guests (--accel=cost): the module's windows
# joined to the plugin's counts; a known instruction count (calib's
# two-instruction loop), known misses (a stride past a small LLC, a
# re-read inside L1d), the counts against icount's clock, identical
# counts from run to run (three runs) on slab and slub, counts net of
# the benchmark's twin loop (the twin net of itself is 0), interrupt
# handlers left out of the windows (as many as the module counted), no
# window entered by a context switch (PREEMPT_NONE), windows that the
# scheduler entered rejected on slub-7.3 (PREEMPT_LAZY), and the gate:
# slub_debug=FZPU against SLUB raises instructions per op and fails it,
# each allocator against itself changes nothing.
. tests/e2e/lib.sh

plan 58

# Counts per op of the cost-model metrics in units $2 of every test, in order.
counts() {
	jq -c --argjson units "$2" '[.tests[].metrics | to_entries[] |
		select(.value.unit | IN($units[])) | [.key, .value.samples]]' "$1"
}

# The acceptance run, three times: slab and slub, one result each in a
# directory. Three boots each, seeds 1 to 3, is --accel=cost's default.
for i in 1 2 3; do
	"$SB" run --alloc=slab,slub --accel=cost --workload=quick -o "$TMP/q$i" \
		>/dev/null 2>"$TMP/quick$i.err"
	for v in slab slub; do
		cp "$TMP/q$i"/"$v"-quick-*[0-9].json "$TMP/$v$i.json"
		check "$v: quick under --accel=cost, run $i, completes" \
			jqt "$TMP/$v$i.json" '.status == "complete"'
	done
done
out=$TMP/slub1.json
check "the model and its geometry are recorded" \
	jqt "$out" '.vm.accel == "cost" and (.vm.cost_model.geometry | test("^l1d=.* l2=.* llc="))'
check "every sample of every test has the eight metrics of the model" \
	jqt "$out" '[.tests[].metrics | [.instructions_per_op, .loads_per_op, .stores_per_op,
		.locked_per_op, .irqflag_per_op, .l1d_misses_per_op, .l2_misses_per_op,
		.llc_misses_per_op] | .[] | .samples | length == 15] | all'
check "the fast path costs between 50 and 1000 instructions" \
	jqt "$out" '[.tests[].metrics.instructions_per_op.samples[] | . > 50 and . < 1000] | all'
check "raw per-window counts are kept" \
	jqt "$out" '[.tests[].extra.cost_windows[0][] | .insns > 0 and .ops == 20000] | all'
for v in slab slub; do
	check "$v (PREEMPT_NONE): no switch of the task in any window" \
		jqt "$TMP/${v}1.json" '[.tests[].metrics.ns_per_op.switches | length == 15,
			(.[] == 0)] | all'
	check "$v: every sample records its crowded batches beside its switches" \
		jqt "$TMP/${v}1.json" '[.tests[].metrics.ns_per_op | .crowded | length == 15] | all'
	check "$v: nor in its twin loop's: no window rejected, no count absent" \
		jqt "$TMP/${v}1.json" '[.tests[] | (.metrics[] | has("rejected")),
			has("absent_metrics"), (.extra.cost_windows[][] | has("rejected"))] | any | not'
done
# On a preemptible kernel (7.3 has PREEMPT_LAZY at least) the scheduler
# can run inside an allocator's call: a window that a switch entered, or
# that ended a batch with another task runnable, is no sample. What is
# kept counts one figure per fast path.
"$SB" run --alloc=slub-7.3 --accel=cost --workload=quick -o "$TMP/s73.json" \
	>"$TMP/s73.out" 2>"$TMP/s73.err"
check "slub-7.3: quick under --accel=cost completes" jqt "$TMP/s73.json" '.status == "complete"'
jq -r '.tests[] | "# slub-7.3 \(.spec): kept \(.metrics.instructions_per_op.samples // [] | unique),
	rejected \(.metrics.instructions_per_op.rejected // {})"' "$TMP/s73.json"
check "slub-7.3: each fast path's kept windows count one figure" \
	jqt "$TMP/s73.json" '[.tests[].metrics.instructions_per_op.samples | unique | length == 1] | all'
# shellcheck disable=SC2016 # $m is jq's
check "slub-7.3: the windows kept are those no switch entered and none ended crowded" \
	jqt "$TMP/s73.json" '[.tests[] | .metrics.ns_per_op as $m |
		([range(0; $m.switches | length) | select($m.switches[.] == 0 and $m.crowded[.] == 0)] |
			length) == (.metrics.instructions_per_op.samples | length)] | all'
check "three boots, QEMU seeds 1, 2 and 3: --accel=cost's default" \
	jqt "$out" '[.boots[].seed] == [1, 2, 3]'
check "and the seeds change no count of quick's fast paths (instructions, accesses)" \
	jqt "$out" '[.tests[].metrics | to_entries[] | select(.value.unit |
		IN("insns/op", "accesses/op")) | .value.samples | unique | length == 1] | all'
# shellcheck disable=SC2016 # $m and $i are jq's
check "counts net of the twin loop: sample = gross - loop, every counter, every sample" \
	jqt "$out" '[.tests[].metrics | to_entries[] | select(.value.unit |
		IN("insns/op", "accesses/op", "misses/op")) | .value as $m |
		range($m.samples | length) as $i |
		($m.gross[$i] - $m.loop[$i] - $m.samples[$i] | fabs < 1e-9)] | all'
check "the twin loop costs instructions of its own (the harness's, taken out)" \
	jqt "$out" '[.tests[].metrics.instructions_per_op.loop[] | . >= 5] | all'
check "times are net of the twin too, gross beside them" \
	jqt "$out" '[.tests[].metrics.ns_per_op | .gross[0] > .samples[0]] | all'
# The module counts a sample's interrupts over its timed span, which is
# the plugin's window and the clock reads around it: an interrupt in
# those reads is the module's alone. Which sample takes one moves with
# the module's code, since every tick lands where the instructions
# before it put it.
for v in slab slub; do
	# shellcheck disable=SC2016 # $t, $m, $p and $d are jq's
	check "$v: the plugin left out every delivery the module counted, bar at most one a boot in the clock reads" \
		jqt "$TMP/${v}1.json" '[.tests[] | . as $t | $t.metrics.ns_per_op.irqs as $m |
			[$t.extra.cost_windows[][] | .intr] as $p |
			[range($m | length) as $i | $m[$i] - $p[$i]] as $d |
			($d | all(. == 0 or . == 1)) and ($d | add) <= ($t.extra.cost_windows | length)] | all'
done
check "and windows did take interrupts (a tick every 4 ms)" \
	jqt "$out" '[.tests[].extra.cost_windows[0][] | .intr] | add > 0'
units='["insns/op", "accesses/op", "misses/op"]'
for v in slab slub; do
	check "$v: three runs of quick give identical counts: instructions, accesses, misses" \
		test "$(counts "$TMP/${v}1.json" "$units")" = "$(counts "$TMP/${v}2.json" "$units")" -a \
		"$(counts "$TMP/${v}1.json" "$units")" = "$(counts "$TMP/${v}3.json" "$units")"
	check "$v: and the samples carry counts at all" \
		jqt "$TMP/${v}1.json" '[.tests[].metrics.loads_per_op.samples[] | . > 0] | all'
done

# Ticks moved, counts not: more instructions of calib's loop before the
# fast path shift where every later timer tick lands (the samples'
# interrupts differ), as a change of earlier code does; handlers are left
# out of the windows, so not one count moves. With about one tick a
# sample, one shift can give the same pattern by chance (777,777 did on
# slab after a change to when the agent sends its frames): of three
# shifts, at least two patterns must differ, and every count be equal.
shifts="1000 333333 777777"
for n in $shifts; do
	cat >"$TMP/shift$n.json" <<JSON
{ "name": "shift", "tests": [
  { "test": "calib", "params": { "mode": "loop", "iters": $n, "repeats": 1 } },
  { "test": "fastpath", "params": { "api": "cache", "size": 64, "iters": 20000, "repeats": 5 } },
  { "test": "fastpath", "params": { "api": "kmalloc", "size": 64, "iters": 20000, "repeats": 5 } } ] }
JSON
	"$SB" run --alloc=slab,slub --accel=cost --boots=1 --workload="$TMP/shift$n.json" -o "$TMP/s$n" \
		>/dev/null 2>"$TMP/shift$n.err"
done
fastpath_counts() {
	jq -c '[.tests[1,2].metrics | to_entries[] |
		select(.value.unit | IN("insns/op", "accesses/op")) | [.key, .value.samples]]' "$1"
}
for v in slab slub; do
	files=()
	for n in $shifts; do
		files+=("$(echo "$TMP/s$n/$v"-shift-*[0-9].json)")
	done
	patterns=$(for f in "${files[@]}"; do
		jq -c '[.tests[1,2].metrics.ns_per_op.irqs]' "$f"; done | sort -u | wc -l)
	counts=$(for f in "${files[@]}"; do fastpath_counts "$f"; done | sort -u | wc -l)
	check "$v: a shift of earlier work moves the ticks (interrupts per sample differ)" \
		test "$patterns" -gt 1
	check "$v: and no instruction, load or store count moves with them" test "$counts" -eq 1
	check "$v: ... of which there are some" \
		jqt "${files[2]}" '.tests[1].metrics.instructions_per_op.samples[0] > 50'
done

for v in slab slub; do
	"$SB" compare --fail-on-regression=0.001 "$TMP/${v}1.json" "$TMP/${v}2.json" \
		>"$TMP/aa.txt" 2>"$TMP/aa.err"
	check "$v against $v: no change in the model's metrics, the gate passes" \
		bash -c "[ $? -eq 0 ] && ! grep -A1 '_per_op (\(insns\|accesses\|misses\)/op)' '$TMP/aa.txt' |
			grep -q 'worse\|better'"
done

cat >"$TMP/calib.json" <<'JSON'
{ "name": "calib", "tests": [
  { "test": "calib", "params": { "mode": "loop", "iters": 1000, "repeats": 3 } },
  { "test": "calib", "params": { "mode": "loop", "iters": 1000000, "repeats": 3 } },
  { "test": "calib", "params": { "mode": "read", "bytes": 1048576, "repeats": 3 } },
  { "test": "calib", "params": { "mode": "read", "bytes": 8192, "repeats": 3 } },
  { "test": "fastpath", "params": { "api": "twin", "iters": 5000, "repeats": 3 } },
  { "test": "fastpath", "params": { "api": "twin", "iters": 5000, "repeats": 3, "touch": 0 } } ] }
JSON
# An LLC of 256 KiB: a 1 MiB stride misses at every level, an 8 KiB
# buffer stays in the 32 KiB L1d.
"$SB" run --boots=1 --alloc=slub --accel=cost --caches=l1d=32K/8/64,l2=128K/8/64,llc=256K/16/64 \
	--workload="$TMP/calib.json" -o "$TMP/calib.out.json" >/dev/null 2>"$TMP/calib.err"
c=$TMP/calib.out.json
check "calib under a small LLC runs" jqt "$c" '.status == "complete"'
check "the geometry asked for is the plugin's" \
	jqt "$c" '.vm.cost_model.geometry == "l1d=32K/8/64 l2=128K/8/64 llc=256K/16/64"'
# The window holds the loop (2 per iteration) and what the compiler put
# before it: the difference of two lengths is exactly 2 per iteration.
check "the loop costs exactly 2 instructions per iteration" \
	jqt "$c" '[.tests[0,1].extra.cost_windows[0][0].insns] | .[1] - .[0] == 2 * 999000'
# A timer interrupt landing in a window of 2 ms is left out: every
# sample is the loop's.
check "and instructions_per_op says 2.000 in every sample" \
	jqt "$c" '[.tests[1].metrics.instructions_per_op.samples[] | . >= 2 and . < 2.0001] | all'
check "the loop's windows do no memory access" \
	jqt "$c" '[.tests[1].extra.cost_windows[0][] | .loads + .stores] | max < 10'
check "a 1 MiB stride past a 256 KiB LLC misses once per access, at every level" \
	jqt "$c" '[.tests[2].metrics | .l1d_misses_per_op, .l2_misses_per_op, .llc_misses_per_op |
		.samples[] | . >= 0.999 and . <= 1.01] | all'
check "and loads once per access" \
	jqt "$c" '[.tests[2].metrics.loads_per_op.samples[] | . >= 1 and . <= 1.01] | all'
check "re-reading 8 KiB (inside L1d) after a warm-up misses nowhere" \
	jqt "$c" '[.tests[3].extra.cost_windows[0][] | .l1d_miss] | max == 0'
for t in 4 5; do
	check "the twin loop as the benchmark (test $t): net of its twin, 0 instructions, loads, stores" \
		jqt "$c" "[.tests[$t].metrics | .instructions_per_op, .loads_per_op, .stores_per_op |
			.samples[] == 0] | all"
	check "... of a gross of its own (test $t)" \
		jqt "$c" ".tests[$t].metrics.instructions_per_op.gross | min >= 5"
done
# shellcheck disable=SC2016 # $g is jq's
check "touch=1 adds a store and a load to the twin: its harness's own" \
	jqt "$c" '[.tests[4,5].metrics | .loads_per_op.gross[0], .stores_per_op.gross[0]] as $g |
		($g[0] - $g[2] - 1 | fabs) < 1e-9 and ($g[1] - $g[3] - 1 | fabs) < 1e-9'
# Under icount (shift=0) a nanosecond is an instruction: the calib
# window's time (raw, no overhead subtracted) against the plugin's count.
# shellcheck disable=SC2016 # $m and $i are jq's
check "instructions agree with icount's clock within 1%" \
	jqt "$c" '[.tests[1].metrics as $m | range(3) as $i |
		($m.ns_per_op.samples[$i] / $m.instructions_per_op.samples[$i] - 1) |
		fabs < 0.01] | all'

cat >"$TMP/debug.json" <<'JSON'
{ "name": "debug", "tests": [
  { "test": "fastpath", "params": { "api": "cache", "size": 64, "iters": 5000, "repeats": 3 } } ] }
JSON
"$SB" run --boots=1 --alloc=slub --accel=cost --workload="$TMP/debug.json" -o "$TMP/plain.json" \
	>/dev/null 2>&1
"$SB" run --boots=1 --alloc=slub --accel=cost --cmdline=slub_debug=FZPU --workload="$TMP/debug.json" \
	-o "$TMP/fzpu.json" >/dev/null 2>&1
insns() {
	jq '.tests[0].metrics.instructions_per_op.summary.mean' "$1"
}
# jq's "true" to /dev/null inside a function: check's own line must show.
more_than_3x() {
	jq -en "$1 > 3 * $2" >/dev/null
}
check "slub_debug=FZPU raises instructions per op several times" \
	more_than_3x "$(insns "$TMP/fzpu.json")" "$(insns "$TMP/plain.json")"
"$SB" compare --fail-on-regression=5 "$TMP/plain.json" "$TMP/fzpu.json" >/dev/null 2>"$TMP/gate.err"
check "and the gate fails on it (exit 1)" test $? -eq 1
check "naming instructions_per_op as an exact count" \
	grep -q "instructions_per_op .* exact counts of the cost model" "$TMP/gate.err"
"$SB" report "$TMP/plain.json" "$TMP/fzpu.json" >"$TMP/report.txt" 2>/dev/null
# The subject is folded (RFC 5322) to fit 72 columns: unfolded, it names the count in words.
check "report's subject names an exact count, not an emulated time" \
	bash -c "sed -n '1,/^\$/p' '$TMP/report.txt' | tr -d '\n' |
		grep -q '\(instructions\|loads\|stores\|locked\|irqflag\) per op .* regression (exact count)'"
check "report labels the model with its geometry" \
	bash -c "tr -s ' \n' ' ' <'$TMP/report.txt' | grep -q 'cost model .*LRU caches l1d='"
