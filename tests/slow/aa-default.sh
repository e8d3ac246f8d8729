# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The acceptance of issue 14: SLUB against SLUB under TCG on the whole
# 'default' workload, with the default number of boots (5 a side,
# interleaved), flags nothing, with the floor that slabbench noise
# measures from 2 x 5 more boots. Slow: 20 boots of the whole catalogue,
# about 25 s each on a quiet 2-core host; measured 659 s on our shared
# one (load average 6 to 9). The cheap A/A on 'quick' is in
# tests/e2e/knownanswer.sh.
. tests/e2e/lib.sh

plan 4

opts=(--accel=tcg --workload=default)
"$SB" noise --alloc=slub "${opts[@]}" -o "$TMP/noise-runs.json" >/dev/null 2>&1
check "noise: floors of the default workload's times under TCG" \
	jqt "$SLABBENCH_NOISE" '[.accels.tcg.cpus[].tests[][]] | length > 20'
"$SB" run --alloc=slub,slub "${opts[@]}" -o "$TMP/aa" >/dev/null 2>&1
a=$(echo "$TMP"/aa/slub-default-*.json)
b=$(echo "$TMP"/aa/slub-2-default-*.json)
check "slub against slub (default, tcg): both runs complete with 5 boots" \
	jqt "$b" '.status == "complete" and (.boots | length == 5)'
"$SB" compare --json "$a" "$b" >"$TMP/aa.json" 2>/dev/null
check "slub against slub (default, tcg): no metric flagged beyond the floor" \
	jqt "$TMP/aa.json" '[.. | objects | select(has("significant")) | .significant] | length > 0 and all(. == false)'
"$SB" compare --fail-on-regression=0 "$a" "$b" >/dev/null 2>&1
check "slub against slub (default, tcg): the gate passes" test $? -eq 0
# For the record: what statistics alone (no floor) would flag.
SLABBENCH_NOISE=$TMP/none.json "$SB" compare --json "$a" "$b" >"$TMP/alone.json" 2>/dev/null
echo "# without the floor: $(jq '[.. | objects | select(has("significant")) | select(.significant)] | length' "$TMP/alone.json") flagged of $(jq '[.. | objects | select(has("tested")) | select(.tested)] | length' "$TMP/alone.json") tested"
