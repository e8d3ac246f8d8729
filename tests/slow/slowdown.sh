# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The known answer of issue 23 under TCG: a slowdown of known size is
# flagged with the boots that slabbench noise says a 20% change needs,
# and an A/A with as many boots flags nothing. The module's extra_ns
# (kmod/slabbench.h) adds a busy wait of that many ns to every fastpath
# alloc+free; set to a fifth of the A side's larger fast-path mean, it
# slows both fast-path tests of 'quick' by 20% or more. The floor is
# measured from 2 x $SLABBENCH_SLOWDOWN_BOOTS boots (default 10); the
# A/A and the slowdown then take 3 x N boots, N the larger of noise's
# two figures and compare's minimum of 3 (a quick boot under TCG takes
# about 1 s of guest time on a quiet 2-core host).
. tests/e2e/lib.sh

floor_boots=${SLABBENCH_SLOWDOWN_BOOTS:-10}
times='[.tests[].metrics[] | select(.name == "ns_per_op") | .runs[0]]'

"$SB" noise --alloc=slub --accel=tcg --workload=quick --boots="$floor_boots" \
	-o "$TMP/noise-runs.json" >"$TMP/noise.txt" 2>&1
check "noise: the fast path's floors under TCG from 2 x $floor_boots boots" \
	jqt "$SLABBENCH_NOISE" '[.accels.tcg.cpus[].tests[][]] | length == 2'
# The boots a side for 80% power at 20%, as the floor file keeps them.
fast='[.accels.tcg.cpus[].tests | to_entries[] | select(.key | startswith("test=fastpath")) | .value[]]'
boots=$(jq "$fast | map(.boots_for_20pct) | [max, 3] | max" "$SLABBENCH_NOISE")
check "noise keeps the boots a 20% change needs ($boots a side)" \
	jqt "$SLABBENCH_NOISE" "$fast | length == 2 and all(.boots_for_20pct | type == \"number\")"
opts=(--accel=tcg --workload=quick --boots="$boots")

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
check "a known slowdown of 20% or more is flagged a regression in both fast-path tests ($boots boots a side)" \
	jqt "$TMP/slow-cmp.json" "$times | length == 2 and all(.significant and .regression)"
echo "# floors $(jq -r "$fast | map(.floor_pct | . * 10 | round / 10 | tostring + \"%\") | join(\" and \")" "$SLABBENCH_NOISE")," \
	"A/A changes $(jq -c "$times | map(.change_pct | . * 10 | round / 10)" "$TMP/aa.json") %," \
	"slowdown $(jq -c "$times | map(.change_pct | . * 10 | round / 10)" "$TMP/slow-cmp.json") %"
