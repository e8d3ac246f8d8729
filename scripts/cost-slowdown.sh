#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The cost plugin's price: CPU seconds (user + system) of QEMU running the
# bare test guest's long loop (140 M instructions, 60 M memory accesses),
# under plain TCG and under the plugin, with the loop inside a window
# (everything counted and simulated) and outside any (the plugin only
# looks). A run of the tiny guest with no loop is QEMU's own start-up and
# is taken off each figure before the ratio. Median of N runs (default 5).
#
#   scripts/cost-slowdown.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5}
plugin=build/tcg/slabbench-cost.so
for f in "$plugin" build/tests/costguest-bench1 build/tests/costguest-bench2 build/tests/costguest-bad; do
	[ -e "$f" ] || { echo "cost-slowdown: $f is missing: run make" >&2; exit 1; }
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# cpu GUEST [PLUGIN-ARGS]: the median CPU seconds of N boots.
cpu() {
	local guest=$1 args=${2:-} i
	for ((i = 0; i < n; i++)); do
		/usr/bin/time -f '%U %S' -o "$out.t" \
			qemu-system-x86_64 -accel tcg,thread=single -m 32 -display none -no-reboot \
			-serial null -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
			-kernel "build/tests/$guest" ${args:+-plugin "$plugin,out=$out,$args"} || true
		awk 'END { print $1 + $2 }' "$out.t"
	done | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
	rm -f "$out.t"
}

base=$(cpu costguest-bad)
plain=$(cpu costguest-bench2)
nowin=$(cpu costguest-bench2 sim=window)
win=$(cpu costguest-bench1 sim=window)
always=$(cpu costguest-bench2 sim=always)
awk -v b="$base" -v p="$plain" -v o="$nowin" -v w="$win" -v a="$always" -v n="$n" 'BEGIN {
	printf "QEMU start-up and a trivial guest: %.2f s CPU (median of %d)\n", b, n
	printf "plain TCG, 140 M instructions:     %.2f s\n", p - b
	printf "plugin, outside any window:        %.2f s  (x%.1f)\n", o - b, (o - b) / (p - b)
	printf "plugin, sim=always, no window:     %.2f s  (x%.1f)\n", a - b, (a - b) / (p - b)
	printf "plugin, all inside a window:       %.2f s  (x%.1f)\n", w - b, (w - b) / (p - b)
}'
