# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Known answers for compare and its gate. The same kernel against itself
# must show no significant change: under icount, where guest time counts
# instructions and repeats agree to 0.1%, this holds every time (under
# plain TCG the host's own speed swings by tens of percent, see README).
# SLUB with slub_debug=FZPU against plain SLUB must be a significant
# fast-path regression, and the gate must say so, under plain TCG.
. tests/e2e/lib.sh

for n in a b; do
	"$SB" run --alloc=slub --workload=quick --accel=icount -o "$TMP/ic-$n.json" >/dev/null 2>&1
done
"$SB" compare --json "$TMP/ic-a.json" "$TMP/ic-b.json" >"$TMP/same.json" 2>/dev/null
check "slub against slub (icount): compare succeeds" test $? -eq 0
check "slub against slub (icount): no significant change in any metric" \
	jqt "$TMP/same.json" '[.. | objects | select(has("significant")) | .significant] | length > 0 and all(. == false)'
"$SB" compare --fail-on-regression=5 "$TMP/ic-a.json" "$TMP/ic-b.json" >/dev/null 2>&1
check "slub against slub (icount): the gate passes" test $? -eq 0

"$SB" run --alloc=slub --workload=quick --accel=tcg -o "$TMP/tcg.json" >/dev/null 2>&1
"$SB" run --alloc=slub --workload=quick --accel=tcg --cmdline=slub_debug=FZPU \
	-o "$TMP/fzpu.json" >/dev/null 2>&1
check "slub_debug=FZPU reached the guest" jqt "$TMP/fzpu.json" '.boots[0].cmdline | test("slub_debug=FZPU")'
"$SB" compare --json "$TMP/tcg.json" "$TMP/fzpu.json" >"$TMP/fzpu-cmp.json" 2>/dev/null
check "FZPU (tcg): fast path significantly worse in both tests" \
	jqt "$TMP/fzpu-cmp.json" '[.tests[].metrics[] | select(.name == "ns_per_op") | .runs[0] |
		.significant and .regression] | length == 2 and all'
"$SB" compare --fail-on-regression=20 "$TMP/tcg.json" "$TMP/fzpu.json" >/dev/null 2>"$TMP/gate.err"
check "FZPU (tcg): the gate exits 1" test $? -eq 1
check "FZPU (tcg): the gate names the regression" grep -q '^regression: test 1 .*ns_per_op' "$TMP/gate.err"
