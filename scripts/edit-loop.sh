#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The patch author's loop, timed (slabbench bench --edit-loop): a series
# of one patch to mm/slub.c on top of linux-source-6.1 and slabbench's
# patches, built once; then one line of that patch changed, and the time
# from the edit to a verdict: the kernel rebuilt (ccache's counts shown),
# then `run --accel=cost` on slub and the series, three boots a side, and
# `compare`. The changed line adds a PAUSE to every slab_alloc_node(), so
# the verdict has a change to find: one instruction per allocation.
#
#   scripts/edit-loop.sh [SLABBENCH]    (default: build/slabbench)
#
# Uses a variants file and a series of its own in a temporary directory;
# the kernels it builds stay in the cache like any user's.
set -euo pipefail
cd "$(dirname "$0")/.."
SB=${1:-build/slabbench}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

export SLABBENCH_VARIANTS=$TMP/variants
mkdir "$TMP/series"
echo "edit-loop  6.1+$TMP/series  base alloc-slub" >"$SLABBENCH_VARIANTS"

note() { echo "edit-loop: $*" >&2; }

# The unpatched kernel, and the tree the series applies to (ours).
vm/kernel.sh build slub >"$TMP/slub.kv"
src=$(sed -n 's/^source=//p' "$TMP/slub.kv")
cold=$(sed -n 's/^build_seconds=//p' "$TMP/slub.kv")
grep -q '^static __always_inline void \*slab_alloc_node(' "$src/mm/slub.c" ||
	{ echo "edit-loop: no slab_alloc_node() in $src/mm/slub.c" >&2; exit 1; }

# The series' one patch, with LINE as the first statement of
# slab_alloc_node().
series() {
	mkdir -p "$TMP/a/mm" "$TMP/b/mm"
	cp "$src/mm/slub.c" "$TMP/a/mm/slub.c"
	awk -v line="$1" '{ print }
		/^static __always_inline void \*slab_alloc_node\(/ { f = 1 }
		f && /^{$/ { print "\t" line; f = 0 }' "$src/mm/slub.c" >"$TMP/b/mm/slub.c"
	(cd "$TMP" && diff -u a/mm/slub.c b/mm/slub.c) >"$TMP/series/0001-mm-slub-edit.patch" || true
}

series "/* slabbench edit loop: before the edit */"
note "building the series before the edit (not timed)"
vm/kernel.sh build edit-loop >/dev/null

series "cpu_relax(); /* slabbench edit loop: after the edit */"
# This build's own ccache counts, not the machine's: other builds may run.
export CCACHE_STATSLOG=$TMP/ccache.log
start=$(date +%s.%N)
vm/kernel.sh build edit-loop >"$TMP/edit.kv"
built=$(date +%s.%N)
stats=$(ccache --show-log-stats 2>/dev/null || true)
unset CCACHE_STATSLOG
hits=$(awk '$1 == "Hits:" { print $2; exit }' <<<"$stats")
misses=$(awk '$1 == "Misses:" { print $2; exit }' <<<"$stats")
"$SB" run --alloc=slub,edit-loop --accel=cost --workload=quick --boots=3 -o "$TMP/r" \
	>"$TMP/run.out" 2>"$TMP/run.err" || { cat "$TMP/run.err" >&2; exit 1; }
"$SB" compare "$TMP"/r/slub-quick-*[0-9].json "$TMP"/r/edit-loop-quick-*[0-9].json \
	>"$TMP/compare.out" || { cat "$TMP/compare.out" >&2; exit 1; }
done_at=$(date +%s.%N)

echo "edit to verdict (6.1 small kernel, one line of a series to mm/slub.c changed):"
printf '  cold build of the slub kernel:  %s s (recorded when it was built)\n' "$cold"
printf '  rebuild after the edit:         %.0f s (ccache: %s hits, %s misses)\n' \
	"$(echo "$built - $start" | bc)" "${hits:-0}" "${misses:-0}"
printf '  run --accel=cost, 3 boots a side, and compare: %.0f s\n' "$(echo "$done_at - $built" | bc)"
printf '  edit to verdict:                %.0f s\n' "$(echo "$done_at - $start" | bc)"
echo "  compare's verdict on the instructions per operation (slub is the base):"
grep -A2 'instructions_per_op' "$TMP/compare.out" | sed 's/^/    /'
