# SPDX-License-Identifier: GPL-2.0
# Debug guests, built on demand: KASAN + kmemleak + lockdep with SLUB's
# debugging, and kmemleak + lockdep with DEBUG_SLAB. Each boots, runs the
# quick workload, the merge check and the self-test (the whole catalogue
# at small sizes, the unload test, the fuzzed specs, then a kmemleak
# scan), and must leave nothing on the console: no KASAN, lockdep,
# kmemleak or slab debug report. SLABBENCH_DEBUG_VARIANTS picks them and
# SLABBENCH_DEBUG_FUZZ the number of fuzzed specs (10000; under KASAN and
# single-threaded TCG they take 68 s per 1000). .ci/run: slub-debug alone
# and 1000 specs, to keep CI within its time.
. tests/e2e/lib.sh

cat >"$TMP/merge.json" <<'JSON'
{ "name": "merge", "tests": [ { "test": "merge" } ] }
JSON
variants=${SLABBENCH_DEBUG_VARIANTS:-slub-debug slab-debug}
for v in $variants; do
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
"$SB" selftest --timeout=3600 --fuzz="${SLABBENCH_DEBUG_FUZZ:-10000}" $variants \
	>"$TMP/selftest.ktap" 2>"$TMP/selftest.err"
check "selftest on $variants: every case ok, console clean" test $? -eq 0
n=$(echo $variants | wc -w)
check "kmemleak was in all $n debug kernels and found nothing" \
	test "$(grep -cx 'ok 1 kmemleak reports nothing' "$TMP/selftest.ktap")" -eq "$n"
grep '^not ok\|^# .*: failed\|given back\|^# Slab' "$TMP/selftest.ktap" | head -n 20
tail -n 5 "$TMP/selftest.err"
# A variant left out of SLABBENCH_DEBUG_VARIANTS has no result to check;
# "if" keeps that from becoming the script's exit status.
if [ -f "$TMP/slub-debug.json" ]; then
	check "slub-debug has KASAN, kmemleak and lockdep" jqt "$TMP/slub-debug.json" \
		'.guest.config_matches_build and (.guest.allocator_config | index("CONFIG_SLUB_DEBUG=y") != null)'
fi
if [ -f "$TMP/slab-debug.json" ]; then
	check "slab-debug has DEBUG_SLAB" jqt "$TMP/slab-debug.json" \
		'.guest.allocator_config | index("CONFIG_DEBUG_SLAB=y") != null'
fi
