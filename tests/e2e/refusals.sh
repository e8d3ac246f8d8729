# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Inputs a new user gets wrong: a cache geometry the cost model cannot
# simulate is refused before any boot, with exit 2 and the reason; QEMU
# that will not start is reported in its own words, not by what the
# results then lack. Needs the slab kernel (built or cached); boots no
# guest that runs: QEMU exits at once.
. tests/e2e/lib.sh

plan 8

"$SB" run --alloc=slab --accel=cost --caches=l1d=32K/3/64 --workload=quick \
	-o "$TMP/geom.json" >/dev/null 2>"$TMP/geom.err"
rc=$?
check "--caches=l1d=32K/3/64: exit 2" test "$rc" -eq 2
check "... in one line naming the option and what is wrong: $(head -n 1 "$TMP/geom.err")" \
	test "$(cat "$TMP/geom.err")" = "slabbench: run: --caches: 'l1d=32K/3/64': the size must be a multiple of ways * line size"
check "... before any boot: no results" test ! -e "$TMP/geom.json" -a ! -e "$TMP/geom.partial.json"

# A CPU model QEMU does not know passes our alphabet; QEMU refuses it.
"$SB" run --alloc=slab --accel=tcg --cpu-model=NoSuchCPU --workload=quick --boots=1 \
	-o "$TMP/cpu.json" >/dev/null 2>"$TMP/cpu.err"
rc=$?
check "QEMU that will not start: exit 1" test "$rc" -eq 1
check "... in QEMU's own words, with where they are: $(grep -m 1 'failed to start' "$TMP/cpu.err")" \
	grep -q "slab guest: .*failed to start (.*/qemu.log): .*NoSuchCPU" "$TMP/cpu.err"
check "... not what the results lack, nor a console to show" \
	bash -c "! grep -Eq 'no frames|ended without|console' '$TMP/cpu.err'"
check "... and the boot's record says so" \
	jqt "$TMP/cpu.partial.json" '.boots[0].error == "QEMU failed to start"'
check "... after one attempt: one boot recorded, no guest output" \
	jqt "$TMP/cpu.partial.json" '(.boots | length) == 1 and (.boots[0].console // "" | length) == 0'
