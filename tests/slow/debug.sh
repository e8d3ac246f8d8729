# SPDX-License-Identifier: GPL-2.0
# Debug guests, built on demand: KASAN + kmemleak + lockdep with SLUB's
# debugging, and kmemleak + lockdep with DEBUG_SLAB. Each boots, runs the
# quick workload and the merge check, and must leave nothing on the
# console: no KASAN, lockdep, kmemleak or slab debug report.
. tests/e2e/lib.sh

cat >"$TMP/merge.json" <<'JSON'
{ "name": "merge", "tests": [ { "test": "merge" } ] }
JSON
for v in slub-debug slab-debug; do
	# No --cmdline: debug variants bring their own (vm/config/debug.cmdline).
	"$SB" run --alloc=$v --workload=quick --mem=1024 --timeout=900 \
		-o "$TMP/$v.json" >/dev/null 2>"$TMP/$v.err"
	check "$v: quick runs clean" jqt "$TMP/$v.json" '.status == "complete" and .boots[0].console_problem == null'
	[ -f "$TMP/$v.json" ] || tail -n 20 "$TMP/$v.err"
	check "$v: boots with debug.cmdline" jqt "$TMP/$v.json" \
		'.boots[0].cmdline | test("watchdog_thresh=60 acpi=noirq")'
	"$SB" run --alloc=$v --workload="$TMP/merge.json" --mem=1024 --timeout=900 \
		-o "$TMP/$v-merge.json" >/dev/null
	check "$v: caches stay unmerged" jqt "$TMP/$v-merge.json" '.tests[0].extra.no_merge_distinct[0]'
done
check "slub-debug has KASAN, kmemleak and lockdep" jqt "$TMP/slub-debug.json" \
	'.guest.config_matches_build and (.guest.allocator_config | index("CONFIG_SLUB_DEBUG=y") != null)'
check "slab-debug has DEBUG_SLAB" jqt "$TMP/slab-debug.json" \
	'.guest.allocator_config | index("CONFIG_DEBUG_SLAB=y") != null'
