#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: SLAB and SLUB guests on the default workload (the whole
# catalogue), their boots interleaved (run's default, 5 each), then the
# regression report of SLUB against SLAB and the charts.
set -euo pipefail
cd "$(dirname "$0")/.."

rm -rf results/demo-runs
mkdir -p results
build/slabbench run --alloc=slab,slub --workload=default -o results/demo-runs >/dev/null
cp results/demo-runs/slab-default-*.json results/demo-slab.json
cp results/demo-runs/slub-default-*.json results/demo-slub.json
build/slabbench report results/demo-slab.json results/demo-slub.json -o results/demo-report.txt
build/slabbench plot -o results/demo-plots results/demo-slab.json results/demo-slub.json >/dev/null

echo
cat results/demo-report.txt
echo
echo "results: results/demo-slab.json results/demo-slub.json (consoles in results/demo-runs)"
echo "report:  results/demo-report.txt"
echo "charts:  results/demo-plots/{sizes,overhead,hitrate,scaling,remote}.{png,svg}"
