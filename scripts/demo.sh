#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: SLAB and SLUB guests on the default workload (the whole
# catalogue), then the regression report of SLUB against SLAB and the
# charts.
set -euo pipefail
cd "$(dirname "$0")/.."

mkdir -p results
for alloc in slab slub; do
	build/slabbench run --alloc=$alloc --workload=default -o results/demo-$alloc.json >/dev/null
done
build/slabbench report results/demo-slab.json results/demo-slub.json -o results/demo-report.txt
build/slabbench plot -o results/demo-plots results/demo-slab.json results/demo-slub.json >/dev/null

echo
cat results/demo-report.txt
echo
echo "results: results/demo-slab.json results/demo-slub.json"
echo "report:  results/demo-report.txt"
echo "charts:  results/demo-plots/{sizes,overhead,hitrate,scaling,remote}.{png,svg}"
