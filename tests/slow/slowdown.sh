# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The known answer of issue 23 under TCG: a slowdown of known size is
# flagged with the boots of an A/A that flags nothing. The module's
# extra_ns (kmod/slabbench.h) adds a busy wait of that many ns to every
# fastpath alloc+free; set to a fifth of the A side's larger fast-path
# mean, it slows both fast-path tests of 'quick' by 20% or more. Boots a
# side: $SLABBENCH_SLOWDOWN_BOOTS (default 20), and the floor slabbench
# noise measures from as many; 4 x N + N boots of 'quick' in all (about
# 20 s each on a quiet 2-core host).
. tests/e2e/lib.sh

boots=${SLABBENCH_SLOWDOWN_BOOTS:-20}
opts=(--accel=tcg --workload=quick --boots="$boots")
times='[.tests[].metrics[] | select(.name == "ns_per_op") | .runs[0]]'

"$SB" noise --alloc=slub "${opts[@]}" -o "$TMP/noise-runs.json" >/dev/null 2>&1
check "noise: the fast path's floors under TCG from 2 x $boots boots" \
	jqt "$SLABBENCH_NOISE" '[.accels.tcg.tests[][]] | length == 2'
"$SB" run --alloc=slub,slub "${opts[@]}" -o "$TMP/aa" >/dev/null 2>&1
a=$(echo "$TMP"/aa/slub-quick-*.json)
b=$(echo "$TMP"/aa/slub-2-quick-*.json)
"$SB" compare --json "$a" "$b" >"$TMP/aa.json" 2>/dev/null
check "A/A ($boots boots a side): no fast-path time flagged" \
	jqt "$TMP/aa.json" "$times | length == 2 and all(.significant | not)"

mean=$(jq '[.tests[].metrics.ns_per_op.summary.mean] | max' "$a")
extra=$(awk -v m="$mean" 'BEGIN { printf "%d", m / 5 + 0.999 }')
"$SB" run --alloc=slub "${opts[@]}" --cmdline="slabbench.extra_ns=$extra" \
	-o "$TMP/slow.json" >/dev/null 2>&1
check "extra_ns=$extra (a fifth of ${mean%.*} ns) reached the module" \
	jqt "$TMP/slow.json" ".guest.info.extra_ns == $extra"
"$SB" compare --json "$a" "$TMP/slow.json" >"$TMP/slow-cmp.json" 2>/dev/null
check "a known slowdown of 20% or more is flagged a regression in both fast-path tests" \
	jqt "$TMP/slow-cmp.json" "$times | length == 2 and all(.significant and .regression)"
echo "# A/A changes $(jq -c "$times | map(.change_pct | . * 10 | round / 10)" "$TMP/aa.json") %," \
	"slowdown $(jq -c "$times | map(.change_pct | . * 10 | round / 10)" "$TMP/slow-cmp.json") %"
