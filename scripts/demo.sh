#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: SLAB and SLUB guests on the default workload (the whole
# catalogue), their boots interleaved (run's default, 5 each); then the
# memory workload on both at 2, 4 and 8 CPUs (5 boots each: memory needs
# no real time, and its guests are quick); the regression report of SLUB
# against SLAB, with the census verdict at each CPU count of the sweep
# (800 private caches, 4 objects each per CPU: an upper bound, which the
# report names so and sets beside the whole kernel after boot of the
# catalogue's runs), and the charts.
set -euo pipefail
cd "$(dirname "$0")/.."

# The memory sweep's CPU counts, and its snapshot: test 2 (800 caches)
# right after it filled them (workloads/memory.json).
cpus=2,4,8
phase=t2.0s

rm -rf results/demo-runs results/demo-memory
mkdir -p results
build/slabbench run --alloc=slab,slub --workload=default -o results/demo-runs >/dev/null
cp results/demo-runs/slab-default-*.json results/demo-slab.json
cp results/demo-runs/slub-default-*.json results/demo-slub.json
# On a host loaded by other work a 4-CPU guest's vCPU threads can starve
# long enough for an RCU stall warning, which fails a run; the counts
# need no real time, so such guests are given the longest stall timeout.
# Two guests at once: the census counts, it does not time.
build/slabbench run --alloc=slab,slub --workload=memory --cpus=$cpus --boots=5 -j 2 \
	--cmdline=rcupdate.rcu_cpu_stall_timeout=300 -o results/demo-memory >/dev/null
build/slabbench report --phase=$phase -o results/demo-report.txt \
	results/demo-slab.json results/demo-slub.json results/demo-memory/*.json
build/slabbench plot -o results/demo-plots results/demo-slab.json results/demo-slub.json >/dev/null
# The census charts from the sweep, over the default runs' one point.
if ! build/slabbench plot --phase=$phase -o results/demo-plots results/demo-memory/*.json \
	>/dev/null 2>results/demo-plots/memory.log; then
	cat results/demo-plots/memory.log >&2
	exit 1
fi

echo
cat results/demo-report.txt
echo
echo "results: results/demo-slab.json results/demo-slub.json (consoles in results/demo-runs)"
echo "         results/demo-memory/*.json (memory at $cpus CPUs)"
echo "report:  results/demo-report.txt"
echo "charts:  results/demo-plots/{sizes,overhead,hitrate,scaling,remote}.{png,svg}"
echo "         results/demo-plots/{memory-cpus,memory-where}.{png,svg} (the census at $phase)"
