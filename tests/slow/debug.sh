# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Debug guests, built on demand: KASAN + kmemleak + lockdep with SLUB's
# debugging, and kmemleak + lockdep with DEBUG_SLAB. Each boots, runs the
# merge check through `slabbench run` and the self-test (the whole
# catalogue at small sizes, the unload test, the fuzzed specs, then a
# kmemleak scan), and must leave nothing on the console: no KASAN, lockdep,
# kmemleak or slab debug report. SLABBENCH_DEBUG_VARIANTS picks them and
# SLABBENCH_DEBUG_FUZZ the number of fuzzed specs (10000; under KASAN and
# single-threaded TCG they take 68 s per 1000). .ci/run: slub-debug alone
# and 1000 specs, to keep CI within its time.
. tests/e2e/lib.sh

cat >"$TMP/merge.json" <<'JSON'
{ "name": "merge", "tests": [ { "test": "merge" } ] }
JSON
read -ra variants <<<"${SLABBENCH_DEBUG_VARIANTS:-slub-debug slab-debug}"
# Four checks a variant, a fifth of its config where it is one of ours.
ours=0
for v in "${variants[@]}"; do
	case $v in slub-debug | slab-debug) ours=$((ours + 1)) ;; esac
done
plan $((2 + 4 * ${#variants[@]} + ours))
# A benchmark run through the harness on each (the self-test below covers
# the catalogue): no --cmdline, debug variants bring their own
# (vm/config/debug.cmdline).
for v in "${variants[@]}"; do
	"$SB" run --boots=1 --alloc="$v" --workload="$TMP/merge.json" --mem=1024 --timeout=900 \
		-o "$TMP/$v.json" >/dev/null 2>"$TMP/$v.err"
	check "$v: a run completes with a clean console" \
		jqt "$TMP/$v.json" '.status == "complete" and .boots[0].console_problem == null'
	[ -f "$TMP/$v.json" ] || tail -n 20 "$TMP/$v.err"
	check "$v: boots with debug.cmdline" jqt "$TMP/$v.json" \
		'.boots[0].cmdline | test("acpi=noirq") and test("watchdog_thresh=60")'
	check "$v: caches stay unmerged" jqt "$TMP/$v.json" '.tests[0].extra.no_merge_distinct[0]'
done
"$SB" selftest --timeout=3600 --fuzz="${SLABBENCH_DEBUG_FUZZ:-10000}" "${variants[@]}" \
	>"$TMP/selftest.ktap" 2>"$TMP/selftest.err"
check "selftest on ${variants[*]}: every case ok, console clean" test $? -eq 0
n=${#variants[@]}
check "kmemleak was in all $n debug kernels and found nothing" \
	test "$(grep -cx 'ok 1 kmemleak reports nothing' "$TMP/selftest.ktap")" -eq "$n"
grep '^not ok\|^# .*: failed\|given back\|^# Slab' "$TMP/selftest.ktap" | head -n 20
tail -n 5 "$TMP/selftest.err"
# The guest runs the build's .config (config_matches_build); that config
# has the debugging each variant promises.
has_config() {
	local dir opt
	dir=$("$SB" kernel list | awk -v v="$1" '$1 == v { print $NF }' | tr -d '()')
	shift
	for opt in "$@"; do
		grep -qx "$opt" "$dir/.config" || return 1
	done
}
for v in "${variants[@]}"; do
	check "$v: the guest ran the build's config" jqt "$TMP/$v.json" '.guest.config_matches_build'
	case $v in
	slub-debug) check "slub-debug has KASAN, kmemleak, lockdep and SLUB_DEBUG_ON" has_config "$v" \
		CONFIG_KASAN=y CONFIG_DEBUG_KMEMLEAK=y CONFIG_PROVE_LOCKING=y CONFIG_SLUB_DEBUG_ON=y ;;
	slab-debug) check "slab-debug has kmemleak, lockdep and DEBUG_SLAB" has_config "$v" \
		CONFIG_DEBUG_KMEMLEAK=y CONFIG_PROVE_LOCKING=y CONFIG_DEBUG_SLAB=y ;;
	esac
done
