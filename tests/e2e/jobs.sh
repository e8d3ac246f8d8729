# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub
# shellcheck shell=bash
# run -j: two cost-model guests at once give the exact counts of a serial
# run (slab and slub, two boots each, quick under --accel=cost); the boots
# start in the interleaved order and record it, each guest on its own
# host CPU when the host has two.
. tests/e2e/lib.sh

# Two checks more where the host has two CPUs to pin guests to.
two_cpus=$(($(nproc) >= 2))
plan $((14 + 2 * two_cpus))

counts() {
	jq -c '[.tests[].metrics | to_entries[] |
		select(.value.unit | IN("insns/op", "accesses/op", "misses/op")) |
		[.key, .value.samples]]' "$1"
}

for j in 1 2; do
	start=$SECONDS
	"$SB" run --boots=2 --alloc=slab,slub --accel=cost --workload=quick -j "$j" \
		-o "$TMP/j$j" >/dev/null 2>"$TMP/j$j.err"
	echo "# -j $j: $((SECONDS - start)) s for 4 guests"
	for v in slab slub; do
		cp "$TMP/j$j"/"$v"-quick-*[0-9].json "$TMP/$v-j$j.json"
		check "$v: -j $j completes, 2 boots, vm.jobs $j" \
			jqt "$TMP/$v-j$j.json" ".status == \"complete\" and (.boots | length) == 2 and .vm.jobs == $j"
	done
done

for v in slab slub; do
	check "$v: -j 2 and -j 1 give identical instructions, accesses and misses" \
		test "$(counts "$TMP/$v-j1.json")" = "$(counts "$TMP/$v-j2.json")"
	check "$v: and the samples carry counts at all" \
		jqt "$TMP/$v-j2.json" '[.tests[].metrics.instructions_per_op.samples[] | . > 0] | all'
	"$SB" compare --fail-on-regression=0.001 "$TMP/$v-j1.json" "$TMP/$v-j2.json" \
		>"$TMP/cmp-$v.txt" 2>&1
	check "$v: compare -j 1 against -j 2: no change in the model's metrics, the gate passes" \
		bash -c "[ $? -eq 0 ] && ! grep -A1 '_per_op (\(insns\|accesses\|misses\)/op)' \
			'$TMP/cmp-$v.txt' | grep -q 'worse\|better'"
done

check "-j 2: the boots started interleaved, slab then slub, and say so" \
	test "$(jq -c '[.boots[].order]' "$TMP/slab-j2.json") $(jq -c '[.boots[].order]' "$TMP/slub-j2.json")" = "[0,2] [1,3]"
if [ "$two_cpus" -eq 1 ]; then
	check "-j 2: guests that ran at once were on different host CPUs" \
		test "$(jq -r '.boots[0].host_cpus' "$TMP/slab-j2.json")" != \
			"$(jq -r '.boots[0].host_cpus' "$TMP/slub-j2.json")"
	check "-j 2: each pinned to one CPU (single-threaded TCG)" \
		jqt "$TMP/slab-j2.json" '[.boots[].host_cpus | test("^[0-9]+$")] | all'
fi
check "-j 1: no boot is pinned" jqt "$TMP/slab-j1.json" '[.boots[] | has("host_cpus") | not] | all'
check "-j 2 under the cost model warns of no timing" bash -c "! grep -q 'not comparable' '$TMP/j2.err'"
check "run --help says when -j is safe" bash -c "'$SB' run --help | grep -q 'Safe for exact'"
