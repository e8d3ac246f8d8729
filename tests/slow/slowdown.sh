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
# about 1 s of guest time on a quiet 2-core host). SLUB with
# slub_debug=FZPU against the A side must be a significant fast-path
# regression beyond the floor, and the gate and the report must say so.
. tests/e2e/lib.sh

plan 16

floor_boots=${SLABBENCH_SLOWDOWN_BOOTS:-10}
times='[.tests[].metrics[] | select(.name == "ns_per_op") | .runs[0]]'

"$SB" noise --alloc=slub --accel=tcg --workload=quick --boots="$floor_boots" \
	-o "$TMP/noise-runs.json" >"$TMP/noise.txt" 2>&1
check "noise: the fast path's floors under TCG from 2 x $floor_boots boots" \
	jqt "$SLABBENCH_NOISE" '[.accels.tcg.cpus[].tests[][] | .floor_pct >= 0 and .splits > 0 and
		.sd_log >= 0] | length == 2 and all'
check "noise: 2 x $floor_boots boots of one variant" \
	jqt "$TMP/noise-runs.json" ".boots | length == $((2 * floor_boots))"
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
check "A/A ($boots boots a side): compared with the floor" \
	jqt "$TMP/aa.json" '.floor | test("2 of 4 metrics have one under tcg")'
check "A/A ($boots boots a side): no fast-path time flagged" \
	jqt "$TMP/aa.json" "$times | length == 2 and all(.significant | not)"
check "A/A ($boots boots a side): no metric flagged" \
	jqt "$TMP/aa.json" '[.. | objects | select(has("significant")) | .significant] |
		length > 0 and all(. == false)'

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

"$SB" run --alloc=slub "${opts[@]}" --cmdline=slub_debug=FZPU -o "$TMP/fzpu.json" >/dev/null 2>&1
check "slub_debug=FZPU reached the guest" jqt "$TMP/fzpu.json" '.boots[0].cmdline | test("slub_debug=FZPU")'
"$SB" compare --json "$a" "$TMP/fzpu.json" >"$TMP/fzpu-cmp.json" 2>/dev/null
check "FZPU (tcg): fast path significantly worse beyond the floor in both tests" \
	jqt "$TMP/fzpu-cmp.json" '[.tests[].metrics[] | select(.name == "ns_per_op") |
		.runs[0] | .significant and .regression and .beyond_floor] | length == 2 and all'
check "FZPU (tcg): times are marked emulated" \
	jqt "$TMP/fzpu-cmp.json" '[.tests[].metrics[] | select(.name == "ns_per_op") | .emulated] | all'
"$SB" compare --fail-on-regression=20 "$a" "$TMP/fzpu.json" >/dev/null 2>"$TMP/gate.err"
check "FZPU (tcg): the gate exits 1" test $? -eq 1
check "FZPU (tcg): the gate names the regression and its floor" \
	grep -q '^regression: test 1 .*ns_per_op.*floor' "$TMP/gate.err"
"$SB" report "$a" "$TMP/fzpu.json" >"$TMP/report.txt" 2>/dev/null
# The subject may carry the census's memory result instead (stronger than
# an emulated time); the summary names the strongest change of the times.
check "FZPU (tcg): the report names a fast-path regression, an emulated time" \
	bash -c "tr -s ' \n' ' ' <'$TMP/report.txt' |
		grep -q 'The strongest evidence: fastpath time per op (fastpath.ns_per_op), +'"
check "FZPU (tcg): the report's subject names a result in words" \
	bash -c "sed -n '1,/^\$/p' '$TMP/report.txt' | tr -d '\n' |
		grep -q '^Subject: .*\(fastpath time per op .*regression (emulated TCG time\|slab and per-CPU memory x\)'"
check "FZPU (tcg): the report prints the floor beside the change" grep -q 'floor' "$TMP/report.txt"
