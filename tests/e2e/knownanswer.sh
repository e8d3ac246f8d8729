# SPDX-License-Identifier: GPL-2.0
# kernels: slub
# shellcheck shell=bash
# Known answers for compare and its gate, under icount, where guest time
# counts instructions and a busy host does not move it: the same kernel
# against itself (A/A) must show no significant change, and a busy wait
# of a fifth of the fast path's time per operation (the module's
# extra_ns) must be flagged with 3 boots. The same under plain TCG, whose
# guest nanosecond is the host's, with the floor slabbench noise measures
# and SLUB with slub_debug=FZPU against plain SLUB: tests/slow/slowdown.sh
# (make test-slow); the cost model's count of FZPU: tests/e2e/cost.sh.
. tests/e2e/lib.sh

plan 7

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
