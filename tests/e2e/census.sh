# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub slub-6.12 slub-7.3 debian
# shellcheck shell=bash
# The slab census (docs/census.md) end to end, with known answers. On
# slab and slub: a census at every snapshot; the kernel's slab page
# counter equal to it exactly, and /proc/meminfo's Slab read just before
# it too (the census's own memory is not slab memory); its own identities
# exact or said to be moving, no count clamped; on slub SLUB_DEBUG's node
# counts equal to the walk's; each cache equal to its /proc/slabinfo
# line; a cache holding a known number of objects counted exactly; the
# shrink phase emptying its per-CPU caches (SLOB's census is
# tests/slow/slob.sh's). On slub: with cpu_partial=0, per-CPU partial slabs hold
# fewer free objects than by default; on slub, slub-6.12 and slub-7.3 each cache
# agrees with /sys/kernel/slab. With two NUMA nodes, SLAB's alien caches
# hold the objects freed on the other node. With 8 possible CPUs of 2
# online, per-CPU structures are 4 times those at 2. On slub-7.3 (sheaves,
# no CPU slabs) at 2 and 8 vCPUs: the counter exact, every free object in
# a sheaf, a barn or a node list. Nothing is skipped: on a kernel
# without the census every check that needs one fails. Debian's kernel,
# which has none, records null and runs to the end.
. tests/e2e/lib.sh

# Per allocator 7, 3, 2 and 4 (the loops' lists below), plus the rest.
plan 77

# The census's own memory is not slab memory: its total is the Slab that
# /proc/meminfo gave just before it (it used to be 4 pages above).
for v in slab slub; do
	census_held $v
	check "$v: pages + kmalloc_large_pages = /proc/meminfo's Slab read just before, exactly, while held" \
		jqt "$TMP/$v.json" "${snaps}[0:3] | all(.census.checks.meminfo == \"exact\")"
done

for v in slab slub; do
	out=$TMP/$v.json
	# The kernel's own caches move while the census reads them (RCU
	# callbacks free creds and maple nodes between the page walk and the
	# list reads, and before slabinfo is read), so exactness is required
	# of the caches only this test touches, and of the totals' sums; the
	# checks name any other cache that moved.
	check "$v: sums exact; objects = live + every free location in every sb-cache" \
		jqt "$out" "($snaps | all(.census.checks.sums == \"exact\")) and
			(${snaps}[1:3] | all((.census.caches | map(select(.name | startswith(\"sb-cache-\")))) as \$c |
			 (\$c | length == 10) and (\$c | all(.objects == .live + (.free_cpu // 0) +
				(.free_cpu_partial // 0) + (.free_cpu_array // 0) + (.free_shared // 0) +
				(.free_alien // 0) + (.free_node_partial // 0) + (.free_empty // 0)))))"
	check "$v: every sb-cache agrees with its /proc/slabinfo line exactly, at every snapshot" \
		jqt "$out" "$snaps | all(.census.checks.slabinfo != null and
			([.census.checks.failures[] | select(startswith(\"slabinfo: sb-cache-\"))] == []))"
	check "$v: sb-cache-000 holds objs x CPUs live objects exactly, before and after the shrink" \
		jqt "$out" "${snaps}[1:3] | all(.census.cpus as \$n | $held | length == 1 and .[0].live == $objs * \$n)"
done
for v in slab slub; do
	# Every identity of the census's own (objects, pages, sums, lists,
	# node counts, counter) held while held, or the counter says it moved;
	# the agent reads a census again when one fails with the counter still.
	check "$v: the census's own identities exact while held (or moving, and said so)" \
		jqt "$TMP/$v.json" "${snaps}[0:3] | all(.census.checks.identities == \"exact\" or
			.census.checks.identities == \"moving\")"
	check "$v: no count below zero, nothing clamped: live and full_slabs as the kernel read them" \
		jqt "$TMP/$v.json" "$snaps | all(.census.caches | all(.live >= 0 and .full_slabs >= 0) or
			(.census.checks.lists == \"off\"))"
done
check "slub: SLUB_DEBUG's node counts of slabs and objects are the walk's, in every sb-cache" \
	jqt "$TMP/slub.json" "${snaps}[1:3] | all(.census.checks.node != null and
		([.census.checks.failures[] | select(startswith(\"node: sb-cache-\"))] == []) and
		(.census.caches | map(select(.name | startswith(\"sb-cache-\"))) |
		 all(.node_slabs == .slabs and .node_objects == .objects)))"
check "slab: no node counts (SLUB's), no node verdict" \
	jqt "$TMP/slab.json" "$snaps | all(.census.checks.node == null)"
check "slub: after the shrink sb-cache-000 has no CPU slab, per-CPU partial or empty slab" \
	jqt "$TMP/slub.json" ".boots[0].snapshots.\"t0.shrink\" | $held |
		.[0] | .cpu_slabs == 0 and .cpu_partial_slabs == 0 and .empty_slabs == 0"
check "slab: after the shrink sb-cache-000 has nothing in per-CPU or shared arrays, no empty slab" \
	jqt "$TMP/slab.json" ".boots[0].snapshots.\"t0.shrink\" | $held |
		.[0] | .free_cpu_array == 0 and .free_shared == 0 and .empty_slabs == 0"

# SLUB with sheaves (7.3: no CPU slabs): at 2 and 8 vCPUs the census finds
# every free object in a CPU's main, spare or rcu_free sheaf, in a barn's
# full sheaves, or on a node list, and the page total is the kernel's
# counter. Each sb-cache object allocated refills the CPU's main sheaf
# from the slabs, so the held caches have free objects in main sheaves.
free_sum='([to_entries[] | select(.key | startswith("free_")) | .value] | add)'
for n in 2 8; do
	v=slub-7.3
	out=$TMP/$v-$n.json
	run_workload $v "$TMP/held.json" "$out" --cpus=$n
	check "$v at $n vCPUs: the census workload runs" jqt "$out" '.status == "complete"'
	check "$v at $n vCPUs: a census of sheaves at every snapshot, with the guest's CPUs" \
		jqt "$out" "$snaps | all(.census.allocator == \"slub\" and .census.cpu_cache == \"sheaves\" and
			.census.cpus == $n)"
	check "$v at $n vCPUs: pages + kmalloc_large_pages = the kernel's slab counter, exactly, while held" \
		jqt "$out" "${snaps}[0:3] | all(.census.checks.counter == \"exact\")"
	check "$v at $n vCPUs: and /proc/meminfo's Slab read just before, exactly, while held" \
		jqt "$out" "${snaps}[0:3] | all(.census.checks.meminfo == \"exact\")"
	check "$v at $n vCPUs: after the release exact, or moving and said so" \
		jqt "$out" ".boots[0].snapshots.after.census.checks.counter | . == \"exact\" or . == \"moving\""
	check "$v at $n vCPUs: the census's own identities exact while held (or moving, and said so)" \
		jqt "$out" "${snaps}[0:3] | all(.census.checks.identities == \"exact\" or
			.census.checks.identities == \"moving\")"
	check "$v at $n vCPUs: objects = live + every free place, sheaves and barns too, in every sb-cache" \
		jqt "$out" "${snaps}[1:3] | all((.census.caches | map(select(.name | startswith(\"sb-cache-\")))) as \$c |
			(\$c | length == 10) and (\$c | all(.objects == .live + $free_sum)))"
	check "$v at $n vCPUs: every sb-cache agrees with its /proc/slabinfo line, at every snapshot" \
		jqt "$out" "$snaps | all(.census.checks.slabinfo != null and
			([.census.checks.failures[] | select(startswith(\"slabinfo: sb-cache-\"))] == []))"
	check "$v at $n vCPUs: sb-cache-000 holds objs x CPUs live objects exactly, before and after the shrink" \
		jqt "$out" "${snaps}[1:3] | all($held | length == 1 and .[0].live == $objs * $n)"
	check "$v at $n vCPUs: while held, sb-cache-000's main sheaves hold free objects, its sheaves memory" \
		jqt "$out" ".boots[0].snapshots.\"t0.0s\" | $held | .[0] | .free_sheaf_main > 0 and
			.cpu_sheaves >= $n and .struct_sheaf > 0 and .sheaf_capacity > 0"
	check "$v at $n vCPUs: after the shrink sb-cache-000's sheaves and barns are empty, only the mains left" \
		jqt "$out" ".boots[0].snapshots.\"t0.shrink\" | $held | .[0] | .free_sheaf_main == 0 and
			.free_sheaf_spare == 0 and .free_sheaf_rcu == 0 and .free_barn == 0 and
			.barn_full_sheaves == 0 and .barn_empty_sheaves == 0 and .cpu_sheaves == $n and
			.empty_slabs == 0"
	check "$v at $n vCPUs: SLUB_DEBUG's node counts are the walk's in every sb-cache" \
		jqt "$out" "${snaps}[1:3] | all(.census.caches | map(select(.name | startswith(\"sb-cache-\"))) |
			all(.node_slabs == .slabs and .node_objects == .objects))"
done

# Many caches, filled then mostly freed: SLUB keeps slabs that became
# partial on the freeing CPU's partial list, up to cpu_partial's worth.
cat >"$TMP/partial.json" <<'JSON'
{ "name": "census-partial", "tests": [
  { "test": "caches", "params": { "caches": 100, "objs": 256, "hold": 1, "free_pct": 70, "seed": 1 },
    "census": ["0s"] } ] }
JSON
jq '.tests[0].params.set_cpu_partial = 1 | .tests[0].params.cpu_partial = 0' "$TMP/partial.json" >"$TMP/partial0.json"
sb_caches='[.boots[0].snapshots."t0.0s".census.caches[] | select(.name | startswith("sb-cache-"))]'
for w in partial partial0; do
	run_workload slub "$TMP/$w.json" "$TMP/slub-$w.json"
	check "slub ($w): the census at 0 s has the 100 caches" \
		jqt "$TMP/slub-$w.json" "$sb_caches | length == 100"
done
default=$(jq "$sb_caches | map(.free_cpu_partial) | add" "$TMP/slub-partial.json")
zero=$(jq "$sb_caches | map(.free_cpu_partial) | add" "$TMP/slub-partial0.json")
check "slub: cpu_partial=0 holds fewer free objects in per-CPU partial slabs (${zero:-none}) than the default (${default:-none})" \
	test "${zero:-x}" -lt "${default:-x}"

# SLUB's own per-cache counts in /sys/kernel/slab, read after the census
# with --slub-sysfs: on the caches this test filled and mostly freed
# (CPU, per-CPU partial and node partial slabs all in use) every one of
# slabs, partial, objects, total_objects and cpu_slabs agrees exactly.
for v in slub slub-6.12; do
	run_workload $v "$TMP/partial.json" "$TMP/$v-sysfs.json" --slub-sysfs
	check "$v: with --slub-sysfs every snapshot has SLUB's sysfs and a sysfs verdict" \
		jqt "$TMP/$v-sysfs.json" ".boots[0].snapshots | [.before, .\"t0.0s\", .after] |
			all((.sysfs | type == \"string\") and (.census.checks.sysfs | type == \"string\"))"
	check "$v: each of the 100 sb-caches agrees with /sys/kernel/slab exactly, CPU and node partials in use" \
		jqt "$TMP/$v-sysfs.json" ".boots[0].snapshots.\"t0.0s\".census |
			([.checks.failures[] | select(startswith(\"sysfs: sb-cache-\"))] == []) and
			([.caches[] | select(.name | startswith(\"sb-cache-\"))] | length == 100 and
			 (map(.cpu_partial_slabs) | add > 0) and (map(.node_partial_slabs) | add > 0))"
done
# 7.3's sysfs counts the sheaves' objects as in use, as slabinfo does.
run_workload slub-7.3 "$TMP/partial.json" "$TMP/slub-7.3-sysfs.json" --slub-sysfs
check "slub-7.3: each of the 100 sb-caches agrees with /sys/kernel/slab exactly, sheaves and node partials in use" \
	jqt "$TMP/slub-7.3-sysfs.json" ".boots[0].snapshots.\"t0.0s\".census | (.checks.sysfs | type == \"string\") and
		([.checks.failures[] | select(startswith(\"sysfs: sb-cache-\"))] == []) and
		([.caches[] | select(.name | startswith(\"sb-cache-\"))] | length == 100 and
		 (map(.free_sheaf_main) | add > 0) and (map(.node_partial_slabs) | add > 0))"
check "slub: without --slub-sysfs no sysfs is read, and its verdict is null" \
	jqt "$TMP/slub.json" "($snaps | all(has(\"sysfs\") | not)) and ($snaps | all(.census.checks.sysfs == null))"
run_workload slab "$TMP/held.json" "$TMP/slab-sysfs.json" --slub-sysfs
check "slab: --slub-sysfs finds no /sys/kernel/slab: null, and no verdict" \
	jqt "$TMP/slab-sysfs.json" ".boots[0].snapshots.before | .sysfs == null and .census.checks.sysfs == null"

# Two NUMA nodes, a CPU on each: objects freed on the other node's CPU
# go to SLAB's alien caches, which exist only there; the census reads
# every node's lists, and stays exact.
for v in slab slub; do
	run_workload $v "$TMP/partial.json" "$TMP/$v-numa.json" --numa=2 --cpus=2
	check "$v --numa=2: the census sees 2 nodes, its pages are the kernel's counter exactly" \
		jqt "$TMP/$v-numa.json" ".boots[0].snapshots.\"t0.0s\".census |
			.nodes == 2 and .checks.counter == \"exact\" and .checks.sums == \"exact\""
done
check "slab --numa=2: objects freed across nodes wait in alien caches" \
	jqt "$TMP/slab-numa.json" "[.boots[0].snapshots.\"t0.0s\".census.caches[] |
		select(.name | startswith(\"sb-cache-\")) | .free_alien] | add > 0"
check "slub --numa=2: SLUB has no alien cache" \
	jqt "$TMP/slub-numa.json" ".boots[0].snapshots.\"t0.0s\".census.caches | all(has(\"free_alien\") | not)"

# Possible CPUs above the online ones (--possible-cpus: QEMU's maxcpus,
# listed in ACPI's MADT as hot-pluggable, as on most hosts): SLAB's
# per-CPU arrays and SLUB's kmem_cache_cpu are allocated for every
# possible CPU, so at 8 possible each cache's per-CPU structures are 4
# times those at 2, and Percpu grows with them.
held_cache='.boots[0].snapshots."t0.0s".census.caches[] | select(.name == "sb-cache-000")'
# jq -e of expression $3 on two results files, $a and $b to it.
jq2() {
	jq -e -n --slurpfile a "$1" --slurpfile b "$2" "$3" >/dev/null
}
for v in slab slub; do
	run_workload $v "$TMP/held.json" "$TMP/$v-possible.json" --cpus=2 --possible-cpus=8
	check "$v --possible-cpus=8: 2 CPUs online of 8 possible, both recorded" \
		jqt "$TMP/$v-possible.json" '.vm.cpus == 2 and .vm.possible_cpus == 8 and
			.guest.info.cpus_online == 2 and .guest.info.cpus_possible == 8 and
			.boots[0].snapshots."t0.0s".census.cpus == 2'
	check "$v: without it, as many possible as online, recorded" \
		jqt "$TMP/$v.json" '.vm.possible_cpus == 2 and .guest.info.cpus_possible == 2'
	check "$v --possible-cpus=8: sb-cache-000's per-CPU structures are 4 times those at 2 possible" \
		jq2 "$TMP/$v.json" "$TMP/$v-possible.json" \
		"[\$a[0], \$b[0]] | map($held_cache | .struct_percpu) | .[0] > 0 and .[1] == 4 * .[0]"
	# shellcheck disable=SC2016 # $a and $b are jq's
	check "$v --possible-cpus=8: Percpu is larger than at 2 possible" \
		jq2 "$TMP/$v.json" "$TMP/$v-possible.json" \
		'[$a[0], $b[0]] | map(.boots[0].snapshots."t0.0s".census.total.percpu_pages) | .[1] > .[0]'
done

run_workload debian quick "$TMP/debian.json"
check "debian: a kernel without the census runs to the end" jqt "$TMP/debian.json" '.status == "complete"'
check "debian: its census is null, before and after" \
	jqt "$TMP/debian.json" '.boots[0].snapshots | [.before, .after] | all(has("census") and .census == null)'
check "debian: the results say what its tree lacks (the census, SLAB_NO_MERGE)" \
	jqt "$TMP/debian.json" '.kernel.lacks | any(test("no slab census")) and any(test("no SLAB_NO_MERGE"))'
