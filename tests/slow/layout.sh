# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Counts robust to the kernel's layout: SLAB and SLUB each against itself
# with one patch that appends a never-called 4 KiB function to
# kernel/panic.c, so that every address after it shifts and no benchmark
# runs other code. Under
# the cost model the two must give the same instructions, loads, stores,
# locked and irq-flag instructions on every benchmark of the cost
# workload wherever its three seeds agree (the counts of windows that take
# pages from the page allocator move with the seed, and compare tests
# them across the boots), and compare's gate must pass. Slow: the padded kernel is a
# build of its own per allocator (2 to 4 minutes with a warm ccache, 10
# cold).
. tests/e2e/lib.sh

# SLAB and SLUB; LAYOUT_ALLOCS=slab runs one (each padded kernel is a
# build). Seven checks each.
allocs=${LAYOUT_ALLOCS:-slab slub}
plan $((1 + 7 * $(echo "$allocs" | wc -w)))

export SLABBENCH_VARIANTS=$TMP/variants
mkdir -p "$TMP/a/kernel" "$TMP/b/kernel" "$TMP/series"
tar -xJOf /usr/src/linux-source-6.1.tar.xz linux-source-6.1/kernel/panic.c >"$TMP/a/kernel/panic.c"
cp "$TMP/a/kernel/panic.c" "$TMP/b/kernel/panic.c"
cat >>"$TMP/b/kernel/panic.c" <<'EOF'

void slabbench_layout_padding(void);
/* Never called: 4 KiB that move every address after them. */
void slabbench_layout_padding(void)
{
	asm volatile(".fill 4096, 1, 0x90");
}
EOF
{
	printf 'From: slabbench <slabbench@localhost>\n'
	printf 'Subject: [PATCH] panic: 4 KiB of padding that nothing calls\n\n---\n'
	(cd "$TMP" && diff -u --label a/kernel/panic.c --label b/kernel/panic.c \
		a/kernel/panic.c b/kernel/panic.c)
} >"$TMP/series/0001-padding.patch"
check "the padding patch touches kernel/panic.c only" \
	test "$(grep -c '^+++ ' "$TMP/series/0001-padding.patch")" = 1
: >"$SLABBENCH_VARIANTS"
# The model's counts (instructions, accesses) of @1 and @2 that every boot
# of both (seeds 1 to 3) gives alike, as [test, metric, samples of @1,
# samples of @2]; with "false", those that the seeds move on either (the
# windows that take pages from the page allocator: docs/cost-model.md).
counts() {
	jq -nc --slurpfile a "$1" --slurpfile b "$2" --argjson steady "$3" '
		def alike(m): (m.boots | unique | length) == 1;
		[$a[0].tests | keys[] as $t | $a[0].tests[$t].metrics | to_entries[] |
		select(.value.unit | IN("insns/op", "accesses/op")) | .key as $k |
		$b[0].tests[$t].metrics[$k] as $m |
		select((alike(.value) and alike($m)) == $steady) |
		[$t, $k, .value.samples, $m.samples]]'
}

for a in $allocs; do
	echo "padded-$a  6.1+$TMP/series  base alloc-$a" >>"$SLABBENCH_VARIANTS"
	start=$SECONDS
	"$SB" run --alloc="$a,padded-$a" --accel=cost --workload=cost -o "$TMP/$a" \
		>/dev/null 2>"$TMP/$a.err"
	echo "# $a: builds and runs: $((SECONDS - start)) s"
	for v in "$a" "padded-$a"; do
		cp "$TMP/$a/$v"-cost-*[0-9].json "$TMP/$v.json" 2>/dev/null
		check "$v: the cost workload completes under --accel=cost" \
			jqt "$TMP/$v.json" '.status == "complete"'
	done
	[ -f "$TMP/padded-$a.json" ] || tail -n 20 "$TMP/$a.err"
	check "padded-$a is the series over $a's source" \
		jqt "$TMP/padded-$a.json" '.kernel.tree | test("^6.1\\+")'
	check "$a: identical instruction, load, store, locked and irq-flag counts wherever the seeds agree" \
		jqt <(counts "$TMP/$a.json" "$TMP/padded-$a.json" true) 'all(.[2] == .[3])'
	counts "$TMP/$a.json" "$TMP/padded-$a.json" true |
		jq -r '.[] | select(.[2] != .[3]) | "# \(.[0]) \(.[1]): \(.[2]) against \(.[3])"' | head -n 5
	check "$a: and the counts are there to compare" \
		jqt <(counts "$TMP/$a.json" "$TMP/padded-$a.json" true) 'length > 50'
	echo "# $a: $(counts "$TMP/$a.json" "$TMP/padded-$a.json" false | jq length) counts move" \
		"with the seed, of which the padding changed" \
		"$(counts "$TMP/$a.json" "$TMP/padded-$a.json" false | jq 'map(select(.[2] != .[3])) | length')"
	irqs() { jq -c '[.tests[].metrics | to_entries[] | select(.value.windows) | .value.irqs]' "$1"; }
	if [ "$(irqs "$TMP/$a.json")" = "$(irqs "$TMP/padded-$a.json")" ]; then
		echo "# $a: the padding left every sample's interrupts where they were"
	else
		echo "# $a: the padding moved ticks between samples"
	fi
	check "$a: some windows took interrupts, left out" \
		jqt "$TMP/padded-$a.json" '[.tests[].extra.cost_windows[][] | .intr] | add > 0'
	"$SB" compare --fail-on-regression=1 "$TMP/$a.json" "$TMP/padded-$a.json" \
		>"$TMP/$a.cmp" 2>"$TMP/$a.cmp.err"
	check "$a: compare --fail-on-regression=1 exits 0" test $? -eq 0
	grep regression "$TMP/$a.cmp.err" | head -n 5
done
