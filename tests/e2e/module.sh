# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub slub-6.12 slub-7.3 debian
# shellcheck shell=bash
# The module checked against the kernel and itself: its KTAP self-test,
# unload test and fuzz test on every variant, its overhead figures against
# /proc/slabinfo, the caches test's counts. Its hit-rate probes against
# SLUB_STATS are stats.sh's, which boots the statistics kernels this one
# need not wait for; SLOB's are tests/slow/slob.sh's.
. tests/e2e/lib.sh

variants=(slab slub slub-6.12 debian slub-7.3)
xc_variants=(slab slub slub-6.12 slub-7.3)
plan $((12 + ${#variants[@]} + 3 * ${#xc_variants[@]}))
selftest_each "${variants[@]}"
# kmalloc_nolock() is 6.18's: the self-test runs it on 7.3 alone and says
# why not elsewhere.
check "nolock runs on slub-7.3 only, skipped with the reason on the other four" \
	test "$(grep -cx 'ok 12 nolock' "$TMP/selftest.ktap") $(grep -cx \
		'ok 12 nolock # SKIP kmalloc_nolock() is not in this kernel (Linux 6.18 on)' \
		"$TMP/selftest.ktap")" = "1 4"
check "no case failed anywhere" bash -c "! grep -q '^not ok' '$TMP/selftest.ktap'"
# Hostile specs are refused with their reasons, "out of range" among them.
grep 'given back\|out of range' "$TMP/selftest.ktap" |
	grep -v '^# hostile: ' | head -n 20
tail -n 5 "$TMP/selftest.err"

for v in "${xc_variants[@]}"; do
	crosscheck "$v" "$(crosscheck_overhead)"
done
check "caches: the same objects freed on every allocator (seeded)" \
	test "$(caches_live "${xc_variants[@]}" | wc -l) $(caches_live "${xc_variants[@]}" |
		sort -u | wc -l)" = "${#xc_variants[@]} 1"
for v in slab slub slub-6.12 slub-7.3; do
	slabinfo_agrees "$v"
done
