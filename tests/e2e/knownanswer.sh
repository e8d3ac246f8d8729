# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Known answers for compare and its gate, with the default number of boots
# (run --boots), interleaved. The same kernel against itself (A/A) must
# show no significant change: under icount, where guest time counts
# instructions, and under plain TCG, beyond the floor slabbench noise
# measures here. SLUB with slub_debug=FZPU against plain SLUB must be a
# significant fast-path regression beyond that floor, and the gate must
# say so. A busy wait of a fifth of the fast path's time per operation
# (the module's extra_ns) must be flagged under icount with 3 boots.
. tests/e2e/lib.sh

quick=(--workload=quick)
nometric='[.. | objects | select(has("significant")) | .significant] | length > 0 and all(. == false)'

"$SB" run --alloc=slub,slub --accel=icount --boots=3 "${quick[@]}" -o "$TMP/ic" >/dev/null 2>&1
check "slub against slub (icount): both runs complete" \
	test -f "$(echo "$TMP"/ic/slub-quick-*.json)" -a -f "$(echo "$TMP"/ic/slub-2-quick-*.json)"
"$SB" compare --json "$TMP"/ic/slub-quick-*.json "$TMP"/ic/slub-2-quick-*.json >"$TMP/same.json" 2>/dev/null
check "slub against slub (icount): compare succeeds" test $? -eq 0
check "slub against slub (icount): boots interleaved (A B A B)" \
	jqt "$(echo "$TMP"/ic/slub-2-quick-*.json)" '[.boots[].order] == [1, 3, 5]'
check "slub against slub (icount): no significant change in any metric" jqt "$TMP/same.json" "$nometric"
"$SB" compare --fail-on-regression=5 "$TMP"/ic/slub-quick-*.json "$TMP"/ic/slub-2-quick-*.json >/dev/null 2>&1
check "slub against slub (icount): the gate passes" test $? -eq 0

# A slowdown of known size under icount, with the A/A's 3 boots: the
# module's extra_ns (a busy wait on every fastpath alloc+free) set to a
# fifth of the larger fast-path mean slows both tests by 20% or more,
# and both are flagged. The same under TCG, with the boots its floor
# needs: tests/slow/slowdown.sh.
ic_mean=$(jq '[.tests[].metrics.ns_per_op.summary.mean] | max' "$(echo "$TMP"/ic/slub-quick-*.json)")
ic_extra=$(awk -v m="$ic_mean" 'BEGIN { printf "%d", m / 5 + 0.999 }')
"$SB" run --alloc=slub --accel=icount --boots=3 "${quick[@]}" --cmdline="slabbench.extra_ns=$ic_extra" \
	-o "$TMP/ic-slow.json" >/dev/null 2>&1
"$SB" compare --json "$TMP"/ic/slub-quick-*.json "$TMP/ic-slow.json" >"$TMP/ic-slow-cmp.json" 2>/dev/null
check "a known slowdown (icount, extra_ns=$ic_extra, a fifth of ${ic_mean%.*} ns): 20% or more, both flagged" \
	jqt "$TMP/ic-slow-cmp.json" '[.tests[].metrics[] | select(.name == "ns_per_op") | .runs[0] |
		.significant and .regression and .change_pct >= 20] | length == 2 and all'
echo "# known slowdown under icount: $(jq -c '[.tests[].metrics[] | select(.name == "ns_per_op") | .runs[0].change_pct | . * 10 | round / 10]' "$TMP/ic-slow-cmp.json") %"

# No floor yet: compare says so and falls back to statistics alone.
"$SB" compare "$TMP"/ic/slub-quick-*.json "$TMP"/ic/slub-2-quick-*.json >/dev/null 2>"$TMP/nofloor.err"
check "no floor file: compare says so in one line" \
	test "$(grep -c "no noise floor at $SLABBENCH_NOISE" "$TMP/nofloor.err")" -eq 1

"$SB" noise --alloc=slub --accel=tcg "${quick[@]}" -o "$TMP/noise-runs.json" >"$TMP/noise.out" 2>&1
check "noise: measured the fast path's floors under TCG" \
	jqt "$SLABBENCH_NOISE" '[.accels.tcg.cpus[].tests[][] | .floor_pct >= 0 and .splits > 0 and .sd_log >= 0] | length == 2 and all'
check "noise: 2 x 5 boots of one variant" jqt "$TMP/noise-runs.json" '.boots | length == 10'

"$SB" run --alloc=slub,slub --accel=tcg "${quick[@]}" -o "$TMP/aa" >/dev/null 2>&1
base=$(echo "$TMP"/aa/slub-quick-*.json)
"$SB" compare --json "$base" "$TMP"/aa/slub-2-quick-*.json >"$TMP/aa.json" 2>/dev/null
check "slub against slub (tcg, 5 boots a side): compared with the floor" \
	jqt "$TMP/aa.json" '.floor | test("2 of 4 metrics have one under tcg")'
check "slub against slub (tcg): no metric flagged" jqt "$TMP/aa.json" "$nometric"
echo "# A/A under TCG: changes $(jq -c '[.tests[].metrics[] | select(.kind == "time") | .runs[0].change_pct | . * 10 | round / 10]' "$TMP/aa.json") %, floors $(jq -c '[.tests[].metrics[] | select(.kind == "time") | .floor_pct | . * 10 | round / 10]' "$TMP/aa.json") %"

"$SB" run --alloc=slub --accel=tcg --workload=quick --cmdline=slub_debug=FZPU \
	-o "$TMP/fzpu.json" >/dev/null 2>&1
check "slub_debug=FZPU reached the guest" jqt "$TMP/fzpu.json" '.boots[0].cmdline | test("slub_debug=FZPU")'
"$SB" compare --json "$base" "$TMP/fzpu.json" >"$TMP/fzpu-cmp.json" 2>/dev/null
check "FZPU (tcg): fast path significantly worse beyond the floor in both tests" \
	jqt "$TMP/fzpu-cmp.json" '[.tests[].metrics[] | select(.name == "ns_per_op") |
		.runs[0] | .significant and .regression and .beyond_floor] | length == 2 and all'
check "FZPU (tcg): times are marked emulated" \
	jqt "$TMP/fzpu-cmp.json" '[.tests[].metrics[] | select(.name == "ns_per_op") | .emulated] | all'
"$SB" compare --fail-on-regression=20 "$base" "$TMP/fzpu.json" >/dev/null 2>"$TMP/gate.err"
check "FZPU (tcg): the gate exits 1" test $? -eq 1
check "FZPU (tcg): the gate names the regression and its floor" \
	grep -q '^regression: test 1 .*ns_per_op.*floor' "$TMP/gate.err"
"$SB" report "$base" "$TMP/fzpu.json" >"$TMP/report.txt" 2>/dev/null
# The subject may carry the census's memory result instead (stronger than
# an emulated time); the summary names the strongest change of the times.
check "FZPU (tcg): the report names a fast-path regression, an emulated time" \
	bash -c "tr -s ' \n' ' ' <'$TMP/report.txt' |
		grep -q 'The strongest evidence: fastpath time per op (fastpath.ns_per_op), +'"
check "FZPU (tcg): the report's subject names a result in words" \
	bash -c "sed -n '1,/^\$/p' '$TMP/report.txt' | tr -d '\n' |
		grep -q '^Subject: .*\(fastpath time per op .*regression (emulated TCG time\|slab and per-CPU memory x\)'"
check "FZPU (tcg): the report prints the floor beside the change" grep -q 'floor' "$TMP/report.txt"
