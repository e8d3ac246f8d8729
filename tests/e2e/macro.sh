# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub
# shellcheck shell=bash
# Macro workloads in quick forms on the slab and slub guests: each yields
# positive figures and the slab caches that grew; perf goes into the guest
# for hackbench and --profile, which keeps the top symbols.
. tests/e2e/lib.sh

plan 24

cat >"$TMP/m.json" <<'JSON'
{ "name": "macro-quick", "tests": [
  { "test": "hackbench", "params": { "groups": 1, "loops": 20, "repeats": 2 } },
  { "test": "hackbench", "params": { "groups": 1, "loops": 20, "mode": "thread", "ipc": "pipe",
                                     "repeats": 2 } },
  { "test": "dentry", "params": { "names": 5000, "repeats": 2 } },
  { "test": "churn", "params": { "kind": "socket", "count": 5000, "repeats": 2 } },
  { "test": "churn", "params": { "kind": "file", "count": 5000, "repeats": 2 } },
  { "test": "fastpath", "params": { "iters": 2000000, "repeats": 2 } } ] }
JSON
for v in slab slub; do
	run_complete "$v" "$v: macro workloads complete" \
		--boots=1 --alloc=$v --workload="$TMP/m.json" --profile=fastpath
	check "$v: hackbench over sockets and pipes takes positive time" \
		jqt "$TMP/$v.json" '[.tests[0,1].metrics.time.samples[] > 0] | length == 4 and all'
	check "$v: hackbench ran with every parameter filled in" \
		jqt "$TMP/$v.json" '.tests[0].params | .mode == "process" and .ipc == "socket" and .groups == 1'
	check "$v: dentry lookups per second are positive" \
		jqt "$TMP/$v.json" '[.tests[2].metrics.lookups_per_sec.samples[] > 0] | all'
	check "$v: the missing names left negative dentries" \
		jqt "$TMP/$v.json" '[.tests[2].metrics.negative_dentries_added.samples[] >= 5000] | all'
	check "$v: the dentry cache is among the slabs that grew" \
		jqt "$TMP/$v.json" '[.tests[2].extra.slab_deltas[0][].cache] | index("dentry") != null'
	check "$v: socket and file churn rates are positive" \
		jqt "$TMP/$v.json" '[.tests[3,4].metrics.ops_per_sec.samples[] > 0] | all'
	check "$v: every macro workload reports slab deltas" \
		jqt "$TMP/$v.json" '[.tests[0:5][] | .extra.slab_deltas[0] | length > 0] | all'
	check "$v: --profile kept the top symbols of fastpath" \
		jqt "$TMP/$v.json" '.tests[5].profile | length > 0 and all(.percent > 0)'
	check "$v: the allocator's functions are in the profile" \
		jqt "$TMP/$v.json" '[.tests[5].profile[].symbol | test("kmem_cache|slab|cache_alloc")] | any'
done
"$SB" compare "$TMP/slab.json" "$TMP/slub.json" >"$TMP/cmp.txt" 2>/dev/null
check "compare takes macro results" grep -q 'lookups_per_sec' "$TMP/cmp.txt"
"$SB" report "$TMP/slab.json" "$TMP/slub.json" >"$TMP/report.txt"
check "report takes macro results and shows the profiles" \
	grep -q '^Profiles (perf record' "$TMP/report.txt"
check "report: hackbench in the table" grep -q 'time (s' "$TMP/report.txt"
"$SB" run --boots=1 --alloc=slub --workload="$TMP/m.json" --profile=7 2>"$TMP/p.err"
check "--profile of a test the workload lacks is refused" test $? -eq 2
