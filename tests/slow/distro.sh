# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The distro variants built and booted (make test recipe checks are
# tests/e2e/distro.sh): slab-distro, slub-distro, slub-6.12-distro and
# slub-7.3-distro from Debian's configs, each with the census, the cost
# model's known answer on the first three, and slub-distro held to Debian's packaged kernel
# booted in the same guest: about the same slab caches after boot, and
# Slab within 10% (issue 22's representativeness check; the figures are
# in docs/measured.md). Each build is timed; a cold one takes tens of
# minutes on 2 cores.
. tests/e2e/lib.sh

plan 37

for v in slub-distro slab-distro slub-7.3-distro slub-6.12-distro; do
	start=$SECONDS
	"$SB" kernel build "$v" >/dev/null
	check "$v: the kernel builds" test $? -eq 0
	echo "# $v: kernel ready in $((SECONDS - start)) s"
done

out=$TMP/runs
"$SB" run --alloc=slab-distro,slub-distro,slub-7.3-distro,debian --workload=quick --boots=1 \
	-o "$out" >/dev/null 2>"$TMP/run.err"
check "the three distro variants run the quick workload" test $? -eq 0
tail -n 3 "$TMP/run.err" | sed 's/^/# /'
# The one result of variant $1.
result() {
	local files=("$out/$1"-quick-*.json)
	echo "${files[0]}"
}
for v in slab-distro slub-distro slub-7.3-distro; do
	f=$(result "$v")
	check "$v: complete" jqt "$f" '.status == "complete"'
	check "$v: the results say distro config" jqt "$f" '.kernel.config_family == "distro"'
	check "$v: with Debian's memory cgroups, hardening and init-on-alloc" \
		jqt "$f" '.kernel.slab_options | .MEMCG == "y" and
			.SLAB_FREELIST_HARDENED == "y" and .INIT_ON_ALLOC_DEFAULT_ON == "y"'
	check "$v: the census's page total is the kernel's slab counter in every read" \
		jqt "$f" '[.boots[].snapshots[] | .census.checks.counter] | length > 0 and
			all(. == "exact")'
done
for v in slab-distro slub-distro; do
	check "$v: PREEMPT_VOLUNTARY and MEMCG_KMEM, as Debian builds 6.1" \
		jqt "$(result "$v")" '.kernel.preempt == "PREEMPT_VOLUNTARY" and
			.kernel.slab_options.MEMCG_KMEM == "y"'
done
# x86 has no PREEMPT_VOLUNTARY in 7.x; MEMCG_KMEM went (on with MEMCG).
check "slub-7.3-distro: PREEMPT_LAZY, switchable at boot, as Debian builds 7.3" \
	jqt "$(result slub-7.3-distro)" '.kernel.preempt == "PREEMPT_LAZY" and
		.kernel.slab_options.PREEMPT_DYNAMIC == "y"'
check "slab-distro runs SLAB" jqt "$(result slab-distro)" \
	'.kernel.allocator_config | index("CONFIG_SLAB_DEPRECATED=y") != null'

# After boot, before any test: the caches slabinfo lists and meminfo's Slab.
sd=$(result slub-distro)
db=$(result debian)
caches() {
	jq -r '.boots[0].snapshots.before.slabinfo' "$1" | awk 'NR > 2 { print $1 }' | sort
}
caches "$sd" >"$TMP/sd.caches"
caches "$db" >"$TMP/db.caches"
only_sd=$(comm -23 "$TMP/sd.caches" "$TMP/db.caches" | wc -l)
only_db=$(comm -13 "$TMP/sd.caches" "$TMP/db.caches" | wc -l)
both=$(comm -12 "$TMP/sd.caches" "$TMP/db.caches" | wc -l)
echo "# caches after boot: $both in both, $only_sd only in slub-distro, $only_db only in debian"
comm -3 "$TMP/sd.caches" "$TMP/db.caches" | tr -d '\t' | tr '\n' ' ' | sed 's/^/# differ: /'
echo
check "slub-distro and Debian's kernel share at least 90% of their caches after boot" \
	test $((both * 10)) -ge $(((both + only_sd + only_db) * 9))
slab_sd=$(jq '.boots[0].snapshots.before.meminfo.Slab' "$sd")
slab_db=$(jq '.boots[0].snapshots.before.meminfo.Slab' "$db")
echo "# Slab after boot: slub-distro $slab_sd kB, debian $slab_db kB"
check "slub-distro's Slab after boot is within 10% of Debian's kernel's" \
	awk -v a="$slab_sd" -v b="$slab_db" 'BEGIN { exit !(a > 0 && b > 0 && a / b < 1.1 && b / a < 1.1) }'

# The known answer on Debian's configs (PREEMPT_VOLUNTARY, switchable at
# boot): the fast path and kmalloc of quick under the cost model, 10 s
# after the boot (the cost workloads' wait: the boot's crypto self-tests
# done), three separate runs of three boots (QEMU seeds 1 to 3) each, on
# SLAB and the SLUBs of 6.1 and 6.12. Every kept window gives the same
# count in all nine boots of a kernel; a window that the scheduler
# entered (a switch of the task, or another task runnable) is rejected,
# and counted.
KA=(slab-distro slub-distro slub-6.12-distro)
jq '.name = "quick-settled" | .after_boot_s = 10' workloads/quick.json >"$TMP/ka.json"
for i in 1 2 3; do
	"$SB" run --alloc="$(IFS=,; echo "${KA[*]}")" --accel=cost --workload="$TMP/ka.json" \
		-j 2 -o "$TMP/cost$i" >/dev/null 2>"$TMP/cost$i.err"
	check "quick, settled, under --accel=cost on ${KA[*]}, run $i, completes" \
		test $? -eq 0
done
# The distinct counts of variant $2's test $3 instructions per op in run
# $1, and how many of its windows were kept.
counts() {
	local files=("$TMP/cost$1/$2"-quick-settled-*.json)
	jq -c --argjson t "$3" '.tests[$t].metrics.instructions_per_op |
		[(.samples | unique), (.samples | length)]' "${files[0]}"
}
for v in "${KA[@]}"; do
	for t in 0 1; do
		name=$(jq -r ".tests[$t] | .test + \" \" + .params.api" "$TMP/ka.json")
		for i in 1 2 3; do
			echo "# $v cost run $i, $name: $(counts $i "$v" $t) (counts, windows kept)"
		done
		check "$v: $name: windows kept in every run, one count in all three" \
			test "$(for i in 1 2 3; do counts $i "$v" $t; done |
				jq -s '(map(.[1] > 0) | all) and (map(.[0]) | add | unique | length == 1)')" = true
	done
done

# Memory cgroups: the groups' charges are read only once their counters
# are flushed: on 6.1 by reading cpu.stat, and on 7.3, where that read
# flushes only the cgroup's own counters, by a removed group's forced
# flush of the root, seen in the trace. At 16 vCPUs the groups' charges
# are below memory.stat's own flush threshold (64 pages per online CPU).
jq -n '{ name: "memcg-small", boot_userspace: true, tests: [{ test: "memcg",
	params: { groups: 3, files: 100, sockets: 10, pipes: 50, hold: 1 } }] }' >"$TMP/memcg.json"
"$SB" run --alloc=slub-distro,slub-7.3-distro --workload="$TMP/memcg.json" --cpus=16 \
	--boots=1 -o "$TMP/memcg" >/dev/null 2>"$TMP/memcg.err"
check "memcg at 16 vCPUs on slub-distro and slub-7.3-distro completes" test $? -eq 0
declare -A how=([slub-distro]="cpu.stat" [slub-7.3-distro]="a removed group's forced flush of the root")
for v in slub-distro slub-7.3-distro; do
	files=("$TMP/memcg/$v"-memcg-small-*.json)
	check "$v: memcg: at least the 50 pipes' buffer arrays charged to each group (150 kB)" \
		jqt "${files[0]}" '.tests[0].metrics.charged_slab_kb.samples[0] >= 150'
	check "$v: memcg: the counters flushed by ${how[$v]}" \
		grep -q "memcg: counters flushed by ${how[$v]}" "${files[0]%.json}.console.log"
done
