# SPDX-License-Identifier: GPL-2.0
# kernels: slab debian
# shellcheck shell=bash
# Issue 22's guest-side prerequisites on a small kernel: the boot-like
# user space runs on every vCPU before the after-boot snapshot (and not
# when the workload says false); results record QEMU's CPU model; the
# memcg workload is refused, with its reason in the results, on a kernel
# without a memory controller, and charges the groups on Debian's kernel.
. tests/e2e/lib.sh

plan 14

for us in true false; do
	cat >"$TMP/us-$us.json" <<JSON
{ "name": "us-$us", "boot_userspace": $us, "tests": [
  { "test": "caches", "params": { "caches": 1, "objs": 4, "hold": 0, "free_pct": 0, "seed": 1 } } ] }
JSON
	run_complete "us-$us.out" "boot_userspace $us: the run completes" \
		--boots=1 --alloc=slab --cpus=3 --workload="$TMP/us-$us.json"
done
check "boot_userspace true: user space ran on each of the 3 vCPUs, pinned" \
	jqt "$TMP/us-true.out.json" '.boots[0].userspace | .cpus_ran == 3 and .cpus_online == 3 and .pinned'
check "boot_userspace true: the commands are recorded, the pin checker first" \
	jqt "$TMP/us-true.out.json" '.boots[0].userspace.commands | length > 1 and .[0] == "/bin/cat /proc/self/stat"'
check "boot_userspace false: no user space before the after-boot snapshot" \
	jqt "$TMP/us-false.out.json" '.boots[0] | has("userspace") | not'
check "results record QEMU's CPU model" jqt "$TMP/us-true.out.json" '.vm.cpu_model == "max"'

"$SB" run --boots=1 --alloc=slab --workload=memcg -o "$TMP/memcg.json" >/dev/null 2>"$TMP/memcg.err"
check "memcg on a kernel without MEMCG: the run fails" test $? -eq 1
check "memcg: the refusal names the reason" \
	grep -q 'memcg: refused: this kernel has no cgroup v2' "$TMP/memcg.err"
check "memcg: the partial results keep the refusal" \
	jqt "$TMP/memcg.partial.json" '.status == "partial" and (.boots[0].error | test("memcg: refused"))'
check "memcg: no figure was recorded" jqt "$TMP/memcg.partial.json" '.tests[0] | has("metrics") | not'

# Debian's packaged kernel has MEMCG_KMEM (and no census): the groups are
# charged, and each pipe's buffer array is a kmalloc-cg-1k object.
cat >"$TMP/memcg-small.json" <<'JSON'
{ "name": "memcg-small", "boot_userspace": true, "tests": [
  { "test": "memcg", "params": { "groups": 3, "files": 100, "sockets": 10, "pipes": 50, "hold": 1 },
    "census": ["0s"] } ] }
JSON
run_complete memcg-debian "memcg on Debian's kernel: the run completes" \
	--boots=1 --alloc=debian --workload="$TMP/memcg-small.json"
# At least the pipes' buffer arrays, 150 objects of kmalloc-cg-1k, all
# charged and read after the groups' counters were flushed.
check "memcg: the groups were charged at least their 150 pipe buffer arrays (150 kB)" \
	jqt "$TMP/memcg-debian.json" '.tests[0].metrics.charged_slab_kb.samples[0] >= 150'
check "memcg: compare reads its results (the charges in kB, a count)" \
	bash -c "'$SB' compare '$TMP/memcg-debian.json' '$TMP/memcg-debian.json' |
		grep -q 'charged_slab_kb (kB)'"
check "memcg: 150 pipes held, kmalloc-cg-1k grew to hold their 150 buffer arrays" \
	jqt "$TMP/memcg-debian.json" '[.boots[0].snapshots | .before, ."t0.0s" | .slabinfo | split("\n")[]
		| select(startswith("kmalloc-cg-1k ")) | split(" ") | map(select(. != ""))[2] | tonumber]
		| .[1] >= 150 and .[1] > .[0]'
