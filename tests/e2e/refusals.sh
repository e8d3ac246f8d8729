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

# refused NAME WHAT HOW LINE COMMAND...: COMMAND exits 2, and its stderr
# (kept in $TMP/NAME.err) is the one line LINE.
refused() {
	local name=$1 what=$2 how=$3 line=$4 rc
	shift 4
	"$@" >/dev/null 2>"$TMP/$name.err"
	rc=$?
	check "$what: exit 2" test "$rc" -eq 2
	check "... in one line $how: $(head -n 1 "$TMP/$name.err")" \
		test "$(cat "$TMP/$name.err")" = "$line"
}

# The module's catalogue, read by the real QEMU before a stand-in fails.
"$SB" list --alloc=slub >/dev/null 2>&1
refused geom "--caches=l1d=32K/3/64" "naming the option and what is wrong" \
	"slabbench: run: --caches: 'l1d=32K/3/64': the size must be a multiple of ways * line size" \
	"$SB" run --alloc=slab --accel=cost --caches=l1d=32K/3/64 --workload=quick \
	-o "$TMP/geom.json"
check "... before any boot: no results" test ! -e "$TMP/geom.json" -a ! -e "$TMP/geom.partial.json"

# A CPU model QEMU does not list is refused as the caches are: before any boot.
refused model "--cpu-model=NoSuchCPU" "naming the model and where the list is" \
	"slabbench: run: --cpu-model=NoSuchCPU: QEMU knows no such CPU model ('qemu-system-x86_64 -cpu help' lists them)" \
	"$SB" run --alloc=slub --accel=tcg --cpu-model=NoSuchCPU --workload=quick --boots=1 \
	-o "$TMP/model.json"
check "... before any boot: no results" test ! -e "$TMP/model.json" -a ! -e "$TMP/model.partial.json"

# --engine=slurm without Slurm's commands, or without a controller that
# answers: refused before anything is built, staged or written.
mkdir "$TMP/empty" "$TMP/stubs"
refused slurm "--engine=slurm without sbatch" "naming what is missing" \
	"slabbench: run: --engine=slurm: sbatch is not on PATH (Debian's slurm-client; docs/scale.md)" \
	env PATH="$TMP/empty" "$SB" run --alloc=slub --accel=cost --workload=quick --engine=slurm \
	-o "$TMP/slurm"
printf '#!/bin/sh\nexit 0\n' >"$TMP/stubs/sbatch"
printf '#!/bin/sh\nexit 0\n' >"$TMP/stubs/srun"
printf '#!/bin/sh\necho "Slurmctld(primary) at ctl is DOWN"\nexit 1\n' >"$TMP/stubs/scontrol"
chmod +x "$TMP/stubs/"*
refused ctl "--engine=slurm with no controller answering" "with scontrol's words" \
	"slabbench: run: --engine=slurm: no Slurm controller answers 'scontrol ping' (Slurmctld(primary) at ctl is DOWN)" \
	env PATH="$TMP/stubs:$PATH" "$SB" run --alloc=slub --accel=cost --workload=quick \
	--engine=slurm -o "$TMP/slurm"
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
