# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A user's kernels end to end, with no network: a git tree made from
# Debian's 6.1 source with slabbench's patches (the stand-in for a user's
# tree) and four commits, the third of which slows SLUB's
# kmem_cache_alloc() by a loop of 64 steps. The second appends 4 KiB that
# nothing calls to kernel/panic.c, so that every later address shifts:
# judged on exact counts at a 1% threshold, it must be good (issue 24).
# bisect must name exactly the slowing commit; a patch series of that
# commit over Debian's source, and a revision of the tree, must each run
# `quick`; the tree stays untouched.
. tests/e2e/lib.sh

plan 16

export SLABBENCH_VARIANTS=$TMP/variants
L=$TMP/linux
G=(git -C "$L" -c user.name=slabbench -c user.email=slabbench@localhost)
mkdir -p "$L"
tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$L" --strip-components=1
for p in vm/patches/6.1/*.patch; do
	patch -d "$L" -p1 -s -N --no-backup-if-mismatch <"$p" >/dev/null
done
git init -q "$L"
# No gc in the background after the commits below: it would change .git
# while the test checks that slabbench leaves it alone.
git -C "$L" config gc.auto 0
"${G[@]}" add -A -f
"${G[@]}" commit -qm "Debian's linux-source-6.1 with slabbench's patches"
cat >>"$L/kernel/panic.c" <<'EOF'

void slabbench_layout_padding(void);
/* Never called: 4 KiB that move every address after them. */
void slabbench_layout_padding(void)
{
	asm volatile(".fill 4096, 1, 0x90");
}
EOF
"${G[@]}" commit -qam "panic: 4 KiB of padding that nothing calls"
pad=$("${G[@]}" rev-parse HEAD)
slow=$(commit_slowdown)
check "the slowing commit changed mm/slub.c" \
	bash -c "git -C '$L' show $slow -- mm/slub.c | grep -q 'barrier();'"
tree_state() {
	(cd "$L" && stat -c '%Y' .git/index && git rev-parse HEAD &&
		GIT_OPTIONAL_LOCKS=0 git status --porcelain | head -n 5 && ls .git)
}
tree_state >"$TMP/before"

cat >"$TMP/fast.json" <<'JSON'
{ "name": "fast", "tests": [
  { "test": "fastpath", "params": { "api": "cache", "size": 64, "iters": 5000, "repeats": 3 } } ] }
JSON
start=$SECONDS
"$SB" bisect --tree="$L" --good=HEAD~3 --bad=HEAD --alloc-config="base alloc-slub" \
	--workload="$TMP/fast.json" --metric=fastpath.instructions_per_op --threshold=1 \
	--accel=cost -o "$TMP/bisect" >"$TMP/bisect.out" 2>"$TMP/bisect.err"
echo "# bisect: $((SECONDS - start)) s"
check "bisect exits 0" test -f "$TMP/bisect/report.txt"
[ -f "$TMP/bisect/report.txt" ] || tail -n 30 "$TMP/bisect.err"
check "bisect names exactly the slowing commit" grep -qx "$slow is the first bad commit" "$TMP/bisect.out"
check "bisect gives the figures of good, bad and first bad" \
	bash -c "grep -c 'fastpath.instructions_per_op' '$TMP/bisect.out' | grep -qx 3"
check "no step was skipped" grep -q " 0 skipped" "$TMP/bisect.out"
check "the padding commit, which shifts every later address, was run and judged good" \
	grep -q "^$pad good " "$TMP/bisect/steps"
check "the report's subject names the commit" \
	grep -q "^Subject: \[slabbench\] .*${slow:0:12}: .* regression$" "$TMP/bisect/report.txt"
check "the report's lines fit in 72 columns" \
	bash -c "! awk 'length > 72' '$TMP/bisect/report.txt' | grep -q ."
check "the report names the tree" grep -qx "$L" "$TMP/bisect/report.txt"
tree_state >"$TMP/after"
check "the user's tree is only read" cmp -s "$TMP/before" "$TMP/after"

# The slowing commit as a series over Debian's source, and the tree at
# the commit before it: each runs quick; under the cost model the series
# counts more instructions per alloc than the slub built from the same
# source without it.
"${G[@]}" format-patch -q -1 "$slow" -o "$TMP/series"
cat >"$SLABBENCH_VARIANTS" <<EOF
series   6.1+$TMP/series  base alloc-slub
at-rev   $L@HEAD~2        base alloc-slub
EOF
for v in series at-rev; do
	"$SB" run --boots=1 --alloc=$v --workload=quick -o "$TMP/$v.json" >/dev/null 2>"$TMP/$v.err"
	check "$v: runs quick" jqt "$TMP/$v.json" '.status == "complete"'
	[ -f "$TMP/$v.json" ] || tail -n 20 "$TMP/$v.err"
done
check "series: the results say where its source came from" \
	jqt "$TMP/series.json" '.kernel.config_base | test("linux-source-6.1 \\+ the series")'
check "at-rev: the results name the commit" \
	jqt "$TMP/at-rev.json" ".kernel.config_base | test(\"git $L at \")"
for v in slub series; do
	"$SB" run --boots=1 --alloc=$v --accel=cost --workload="$TMP/fast.json" \
		-o "$TMP/$v.cost.json" >/dev/null 2>&1
done
insns() { jq '.tests[0].metrics.instructions_per_op.summary.mean' "$1"; }
check "series: its patch costs instructions (slub $(insns "$TMP/slub.cost.json"), series $(insns "$TMP/series.cost.json"))" \
	awk -v a="$(insns "$TMP/slub.cost.json")" -v b="$(insns "$TMP/series.cost.json")" \
	'BEGIN { exit !(a > 0 && b > a * 1.1) }'
"$SB" report "$TMP/at-rev.json" "$TMP/series.json" >"$TMP/report.txt" 2>&1
# The report wraps at 72 columns: read it as one line.
tr -s ' \n' '  ' <"$TMP/report.txt" >"$TMP/report.flat"
check "report of two user variants names both trees" \
	bash -c "grep -q 'tree $L@' '$TMP/report.flat' && grep -q 'tree 6.1+$TMP/series' '$TMP/report.flat'"
grep -q "tree 6.1+$TMP/series" "$TMP/report.flat" || grep -A6 '^Kernels' "$TMP/report.txt" | sed 's/^/# /'
