# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub
# shellcheck shell=bash
# Inputs a new user gets wrong: a cache geometry the cost model cannot
# simulate, a CPU model QEMU does not list, the Slurm engine where Slurm
# is missing or its controller does not answer: each refused before
# anything runs, with exit 2, the reason in one line and no results. QEMU
# that will not start is reported in its own words, not by what the
# results then lack. Needs the slub kernel (built or cached); boots no
# guest that runs: QEMU exits at once.
. tests/e2e/lib.sh

plan 16

# The module's catalogue, read by the real QEMU before a stand-in fails.
"$SB" list --alloc=slub >/dev/null 2>&1
"$SB" run --alloc=slab --accel=cost --caches=l1d=32K/3/64 --workload=quick \
	-o "$TMP/geom.json" >/dev/null 2>"$TMP/geom.err"
rc=$?
check "--caches=l1d=32K/3/64: exit 2" test "$rc" -eq 2
check "... in one line naming the option and what is wrong: $(head -n 1 "$TMP/geom.err")" \
	test "$(cat "$TMP/geom.err")" = "slabbench: run: --caches: 'l1d=32K/3/64': the size must be a multiple of ways * line size"
check "... before any boot: no results" test ! -e "$TMP/geom.json" -a ! -e "$TMP/geom.partial.json"

# A CPU model QEMU does not list is refused as the caches are: before any boot.
"$SB" run --alloc=slub --accel=tcg --cpu-model=NoSuchCPU --workload=quick --boots=1 \
	-o "$TMP/model.json" >/dev/null 2>"$TMP/model.err"
rc=$?
check "--cpu-model=NoSuchCPU: exit 2" test "$rc" -eq 2
check "... in one line naming the model and where the list is: $(head -n 1 "$TMP/model.err")" \
	test "$(cat "$TMP/model.err")" = "slabbench: run: --cpu-model=NoSuchCPU: QEMU knows no such CPU model ('qemu-system-x86_64 -cpu help' lists them)"
check "... before any boot: no results" test ! -e "$TMP/model.json" -a ! -e "$TMP/model.partial.json"

# --engine=slurm without Slurm's commands, or without a controller that
# answers: refused before anything is built, staged or written.
mkdir "$TMP/empty" "$TMP/stubs"
PATH=$TMP/empty "$SB" run --alloc=slub --accel=cost --workload=quick --engine=slurm \
	-o "$TMP/slurm" >/dev/null 2>"$TMP/slurm.err"
rc=$?
check "--engine=slurm without sbatch: exit 2" test "$rc" -eq 2
check "... in one line naming what is missing: $(head -n 1 "$TMP/slurm.err")" \
	test "$(cat "$TMP/slurm.err")" = "slabbench: run: --engine=slurm: sbatch is not on PATH (Debian's slurm-client; docs/scale.md)"
printf '#!/bin/sh\nexit 0\n' >"$TMP/stubs/sbatch"
printf '#!/bin/sh\nexit 0\n' >"$TMP/stubs/srun"
printf '#!/bin/sh\necho "Slurmctld(primary) at ctl is DOWN"\nexit 1\n' >"$TMP/stubs/scontrol"
chmod +x "$TMP/stubs/"*
PATH=$TMP/stubs:$PATH "$SB" run --alloc=slub --accel=cost --workload=quick --engine=slurm \
	-o "$TMP/slurm" >/dev/null 2>"$TMP/ctl.err"
rc=$?
check "--engine=slurm with no controller answering: exit 2" test "$rc" -eq 2
check "... in one line with scontrol's words: $(head -n 1 "$TMP/ctl.err")" \
	test "$(cat "$TMP/ctl.err")" = "slabbench: run: --engine=slurm: no Slurm controller answers 'scontrol ping' (Slurmctld(primary) at ctl is DOWN)"
check "... and nothing written: no results, no task directories" test ! -e "$TMP/slurm"

# QEMU that will not start (here one that refuses the model it is given
# after our check, as another QEMU than the one asked might) is reported
# in its own words, not by what the results then lack.
printf '#!/bin/sh\nexec qemu-system-x86_64 "$@" -cpu NoSuchCPU\n' >"$TMP/stubs/qemu"
chmod +x "$TMP/stubs/qemu"
SLABBENCH_QEMU=$TMP/stubs/qemu "$SB" run --alloc=slub --accel=tcg --workload=quick --boots=1 \
	-o "$TMP/cpu.json" >/dev/null 2>"$TMP/cpu.err"
rc=$?
check "QEMU that will not start: exit 1" test "$rc" -eq 1
check "... in QEMU's own words, with where they are: $(grep -m 1 'failed to start' "$TMP/cpu.err")" \
	grep -q "slub guest: .*failed to start (.*/qemu.log): .*NoSuchCPU" "$TMP/cpu.err"
check "... not what the results lack, nor a console to show" \
	bash -c "! grep -Eq 'no frames|ended without|console' '$TMP/cpu.err'"
check "... and the boot's record says so" \
	jqt "$TMP/cpu.partial.json" '.boots[0].error == "QEMU failed to start"'
check "... after one attempt: one boot recorded, no guest output" \
	jqt "$TMP/cpu.partial.json" '(.boots | length) == 1 and (.boots[0].console // "" | length) == 0'
