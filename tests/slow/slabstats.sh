# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# hitrate's counts against SLAB's own statistics (DEBUG_SLAB, on the
# slab-debug guest, built on demand like every slow test): per counted
# repeat, alloc slow paths against allocmiss, free slow paths against
# freemiss, and slab pages allocated against grown slabs of 2^gfporder
# pages, within 1%, in every free order.
. tests/e2e/lib.sh

plan 5

cat >"$TMP/stats.json" <<'JSON'
{ "name": "slabstats", "tests": [
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 3, "order": "fifo" } },
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 3, "order": "lifo" } },
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 3, "order": "random" } },
  { "test": "hitrate", "params": { "size": 256, "count": 4096, "rounds": 5, "repeats": 3 } } ] }
JSON
"$SB" run --boots=1 --alloc=slab-debug --workload="$TMP/stats.json" --mem=1024 --timeout=1800 \
	-o "$TMP/slab-debug.json" >/dev/null 2>"$TMP/slab-debug.err"
check "slab-debug: hitrate runs" jqt "$TMP/slab-debug.json" '.status == "complete"'
[ -f "$TMP/slab-debug.json" ] || tail -n 20 "$TMP/slab-debug.err"
check "slab-debug: DEBUG_SLAB's counters were found and read" \
	jqt "$TMP/slab-debug.json" '[.tests[].extra.slab_stats[0] | type == "object"] | all'
# shellcheck disable=SC2016 # $d, $c, $s, $n and $p are jq's
check "slab-debug: slow paths match allocmiss and freemiss within 1%" \
	jqt "$TMP/slab-debug.json" 'def near($c): (. - $c) as $d | ($d * $d) <= (0.01 * $c) * (0.01 * $c);
		[.tests[] | .extra.slab_stats[0] as $s |
		 (.metrics.alloc_misses.samples | to_entries[] | $s.allocmiss[.key] as $c | .value | near($c)),
		 (.metrics.free_misses.samples | to_entries[] | $s.freemiss[.key] as $c | .value | near($c))]
		| length == 24 and all'
# shellcheck disable=SC2016
check "slab-debug: slab pages allocated match grown slabs within 1%" \
	jqt "$TMP/slab-debug.json" 'def near($c): (. - $c) as $d | ($d * $d) <= (0.01 * $c) * (0.01 * $c);
		[.tests[] | .extra.slab_stats[0] as $s | (.extra.ops_per_repeat[0] / 1000) as $n |
		 (.extra.slab_gfporder[0] | pow(2; .)) as $p |
		 (.metrics.slab_pages_alloc_per1k.samples | to_entries[] |
		  ($s.grown[.key] * $p) as $c | .value * $n | near($c))]
		| length == 12 and all'
check "slab-debug: the slow paths and growth were taken at all" \
	jqt "$TMP/slab-debug.json" '[.tests[].extra.slab_stats[0] | .allocmiss[], .freemiss[]] | all(. > 0)'
