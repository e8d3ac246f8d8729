#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: SLAB and SLUB guests on the quick workload, then the key
# figures of both side by side.
set -euo pipefail
cd "$(dirname "$0")/.."

mkdir -p results
for alloc in slab slub; do
	build/slabbench run --alloc=$alloc --workload=quick -o results/demo-$alloc.json >/dev/null
done

echo
echo "slabbench demo: quick workload, mean ns/op (stddev) over the repeats"
for alloc in slab slub; do
	jq -r '"\(.guest.info.allocator) \(.kernel.release), \(.vm.cpus) vCPUs, accel \(.vm.accel)" +
		(if .vm.emulated_time then " (times emulated: compare ratios, not absolutes)" else "" end)' \
		results/demo-$alloc.json
	jq -r '.tests[] | "  \(.spec | sub("^test=";"") | .[0:52])  \(.metrics.ns_per_op.summary.mean * 10 | round / 10) ns (\(.metrics.ns_per_op.summary.stddev * 10 | round / 10))"' \
		results/demo-$alloc.json
done
echo
echo "results: results/demo-slab.json results/demo-slub.json"
