# SPDX-License-Identifier: GPL-2.0
# kernels: none
# shellcheck shell=bash
# Known answers for the cost-model plugin (tcg/), in a bare multiboot guest
# (tests/costguest/guest.S, 32-bit then 64-bit with paging) with no Linux:
# exact instruction, load, store, locked and interrupt-flag counts, a miss
# per access when striding past every cache level, no misses when
# re-reading a buffer that fits in L1d, physical tagging, byte-identical
# output from two runs, and the instruction count against QEMU's own
# (-icount shift=0 makes the guest's TSC count instructions).
. tests/e2e/lib.sh

plan 47

PLUGIN=$PWD/build/tcg/slabbench-cost.so
GUESTS=$PWD/build/tests
# Small enough that the guest's 64 KiB stride overflows every level.
SMALL=l1d=1K/2/64,l2=2K/2/64,llc=4K/4/64

# boot GUEST NAME PLUGIN-ARGS [QEMU ARGS...]: output in $TMP/NAME.out,
# console in NAME.serial, QEMU's own stdout and stderr in NAME.log and
# its exit status in NAME.rc (33: the guest powered off as planned).
# ACCEL overrides the accelerator.
boot() {
	local guest=$1 name=$2 args=$3

	shift 3
	timeout 60 qemu-system-x86_64 -accel "${ACCEL:-tcg,thread=single}" -m 32 \
		-display none -no-reboot -serial "file:$TMP/$name.serial" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel "$GUESTS/$guest" \
		-plugin "$PLUGIN,out=$TMP/$name.out${args:+,$args}" "$@" >"$TMP/$name.log" 2>&1
	echo $? >"$TMP/$name.rc"
}

# has NAME LINE: the output holds exactly this line.
has() {
	grep -qFx "$2" "$TMP/$1.out"
}

# window NAME ID: the counts of window ID, as "insns I loads L ...".
window() {
	sed -n "s/^window $2 vcpu 0 //p" "$TMP/$1.out"
}

boot costguest a "$SMALL"
boot costguest b "$SMALL"
check "the guest ran to its end (exit status 33)" test "$(cat "$TMP/a.rc")" = 33
check "nothing on QEMU's stdout or stderr" test ! -s "$TMP/a.log"
check "header names the model's geometry" \
	test "$(head -n 1 "$TMP/a.out")" = "# slabbench-cost 2 l1d=1K/2/64 l2=2K/2/64 llc=4K/4/64"
check "fifteen windows, in the order they closed" \
	test "$(awk '$1 == "window" { printf "%s ", $2 }' "$TMP/a.out")" = "1 2 3 4 5 6 7 8 9 20 21 22 23 24 25 "
check "a loop of 1000 x 2 instructions: exactly 2000" \
	test "$(window a 1)" = "insns 2000 loads 0 stores 0 locked 0 irqflag 0 l1d_miss 0 l2_miss 0 llc_miss 0 intr 0"
# Window 2's two misses: its buffer's line and the stack's, both cold.
check "loads and stores: 700 instructions, 300 loads, 300 stores" \
	test "$(window a 2)" = "insns 700 loads 300 stores 300 locked 0 irqflag 0 l1d_miss 2 l2_miss 2 llc_miss 2 intr 0"
check "striding 64 KiB a line at a time: a miss per load at every level" \
	test "$(window a 3)" = "insns 4096 loads 1024 stores 0 locked 0 irqflag 0 l1d_miss 1024 l2_miss 1024 llc_miss 1024 intr 0"
check "a 512-byte buffer read once: 8 cold misses per level" \
	test "$(window a 4)" = "insns 32 loads 8 stores 0 locked 0 irqflag 0 l1d_miss 8 l2_miss 8 llc_miss 8 intr 0"
check "the same buffer read 10 times more: no miss" \
	test "$(window a 5)" = "insns 360 loads 80 stores 0 locked 0 irqflag 0 l1d_miss 0 l2_miss 0 llc_miss 0 intr 0"
check "an access across a line boundary touches both lines (sim=window: cold)" \
	test "$(window a 6)" = "insns 2 loads 1 stores 1 locked 0 irqflag 0 l1d_miss 2 l2_miss 2 llc_miss 2 intr 0"
# Window 7's two misses: its buffer's line and the stack's, evicted by window 3.
check "5 locked (lock prefix after other prefixes, xchg with memory) and 7 irq-flag instructions" \
	test "$(window a 7)" = "insns 14 loads 7 stores 7 locked 5 irqflag 7 l1d_miss 2 l2_miss 2 llc_miss 2 intr 0"
check "rep stosl x16: one count per iteration and one to find ECX zero, as QEMU runs it" \
	test "$(window a 9)" = "insns 17 loads 0 stores 16 locked 0 irqflag 0 l1d_miss 1 l2_miss 1 llc_miss 1 intr 0"
# Windows 20-23 run in 64-bit mode with paging.
check "64-bit, paging: one physical line read through two virtual pages misses once" \
	test "$(window a 20)" = "insns 2 loads 2 stores 0 locked 0 irqflag 0 l1d_miss 1 l2_miss 1 llc_miss 1 intr 0"
check "64-bit, paging: a load across two pages mapped apart touches the right physical lines" \
	test "$(window a 21)" = "insns 2 loads 2 stores 0 locked 0 irqflag 0 l1d_miss 2 l2_miss 2 llc_miss 2 intr 0"
check "64-bit, paging: ... and not the line physically after the first page" \
	test "$(window a 22)" = "insns 1 loads 1 stores 0 locked 0 irqflag 0 l1d_miss 1 l2_miss 1 llc_miss 1 intr 0"
check "64-bit: REX-prefixed locked (3) and irq-flag (5) instructions" \
	grep -q "^window 23 vcpu 0 insns 9 loads 4 stores 4 locked 3 irqflag 5 " "$TMP/a.out"
check "an interrupt: int and iretq, 2 instructions, iretq's 9 loads; delivery's accesses not counted" \
	grep -q "^window 24 vcpu 0 insns 2 loads 9 stores 0 locked 0 irqflag 0 " "$TMP/a.out"
check "a handler not named to the plugin counts (window 24: no delivery left out)" \
	grep -q "^window 24 .* intr 0$" "$TMP/a.out"
check "a named handler, and one nested in it, are left out: int and one load remain" \
	grep -q "^window 25 vcpu 0 insns 2 loads 1 stores 0 locked 0 irqflag 0 .* intr 1$" "$TMP/a.out"
check "two runs: byte-identical output" cmp -s "$TMP/a.out" "$TMP/b.out"

boot costguest always "$SMALL,sim=always"
check "sim=always: the model sees accesses outside windows (window 6 warm)" \
	test "$(window always 6)" = "insns 2 loads 1 stores 1 locked 0 irqflag 0 l1d_miss 0 l2_miss 0 llc_miss 0 intr 0"
# Window 24's stack and GDT lines were last touched outside windows.
check "sim=always: the other windows' counts are the same" \
	test "$(grep -v '^window \(6\|24\|25\) ' "$TMP/always.out")" = "$(grep -v '^window \(6\|24\|25\) ' "$TMP/a.out")"
check "sim=always: window 24's accesses are the same, delivery's still not counted" \
	grep -q "^window 24 vcpu 0 insns 2 loads 9 stores 0 locked 0 irqflag 0 " "$TMP/always.out"
check "sim=always: window 25's counts the same, the handlers still left out" \
	grep -q "^window 25 vcpu 0 insns 2 loads 1 stores 0 locked 0 irqflag 0 .* intr 1$" "$TMP/always.out"

# Under multi-threaded TCG with 2 vCPUs, locked instructions run as
# atomics that QEMU reports as one read-write access each.
ACCEL=tcg,thread=multi boot costguest mttcg "$SMALL" -smp 2
check "multi-threaded TCG, 2 vCPUs: the same counts" cmp -s "$TMP/mttcg.out" "$TMP/a.out"

boot costguest default ""
check "the default geometry is Zen 4's" \
	test "$(head -n 1 "$TMP/default.out")" = "# slabbench-cost 2 l1d=32K/8/64 l2=1M/8/64 llc=32M/16/64"
check "instruction counts do not depend on the geometry" \
	test "$(awk '$1 == "window" { print $2, $6 }' "$TMP/default.out")" = \
	"$(awk '$1 == "window" { print $2, $6 }' "$TMP/a.out")"

# Under icount the TSC counts every instruction between the two rdtsc:
# the window's 200000 and 37 around it (2 moves, 32 bits, START, END
# and the second rdtsc).
boot costguest icount "$SMALL" -icount shift=0,sleep=off
tsc=$(sed -n 's/^tsc \([0-9a-f]*\)/\1/p' "$TMP/icount.serial")
insns=$(window icount 8 | awk '{ print $2 }')
check "under icount, window 8 counts 200000 instructions" test "$insns" = 200000
check "icount agrees within 1% (TSC delta 0x${tsc:-none} for $insns)" \
	awk -v t="$((16#${tsc:-0}))" -v i="${insns:-0}" 'BEGIN { d = t - i; if (d < 0) d = -d; exit !(i > 0 && d <= i / 100) }'
check "icount leaves the plugin's counts alone" \
	test "$(grep -v '^window 8 ' "$TMP/icount.out")" = "$(grep -v '^window 8 ' "$TMP/a.out")"

boot costguest-bad bad ""
check "misplaced markers make no window" \
	test "$(grep -c '^window' "$TMP/bad.out")" = 1
check "the good window after them counts its one instruction" \
	has bad "window 10 vcpu 0 insns 1 loads 0 stores 0 locked 0 irqflag 0 l1d_miss 0 l2_miss 0 llc_miss 0 intr 0"
check "misplaced markers are reported in one line" \
	grep -qx 'slabbench-cost: 2 misplaced markers ignored, 0 windows still open at exit' "$TMP/bad.log"

for bad in l1d=32K/8/48 l2=1M/8/128 llc=0/1/64 sim=never colour=blue out=; do
	boot costguest badarg "$bad"
	check "bad plugin argument $bad: QEMU stops" test "$(cat "$TMP/badarg.rc")" != 33
	check "bad plugin argument $bad: one line names it" \
		test "$(grep -c "^slabbench-cost: bad plugin argument '${bad%%=*}" "$TMP/badarg.log")" = 1
done
timeout 60 qemu-system-x86_64 -accel tcg -m 32 -display none -no-reboot -serial null \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel "$GUESTS/costguest" \
	-plugin "$PLUGIN" >"$TMP/noout.log" 2>&1
check "without out=PATH QEMU stops" test $? != 33
check "without out=PATH one line says so" grep -q "^slabbench-cost: bad plugin argument 'out': out=PATH is required" "$TMP/noout.log"
