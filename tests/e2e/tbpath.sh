#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: none
# shellcheck shell=bash
# scripts/tb-path.py, on a log of the shape QEMU writes with -d
# in_asm,exec,nochain: three calls of f (entry block 4 instructions, one
# of them 10 bytes long, whose last 2 bytes QEMU prints on a line of
# their own; then a block of 2 or of 1), a block retranslated between
# the first two (code patched at boot: the new translation's size
# counts), and a block before the first call, which belongs to no call.
# No guest: it takes a second.
. tests/e2e/lib.sh

plan 5

cat >"$TMP/tb.log" <<'LOG'
----------------
IN: 
0xffffffff81000000:  90                       nop
0xffffffff81000001:  90                       nop
0xffffffff81000002:  c3                       retq

Trace 0: 0x7f0000000000 [0000000000000000/ffffffff81000000/0000c2b0/ff080200] 
----------------
IN: f
0xffffffff81000ff6:  55                       pushq    %rbp
0xffffffff81000ff7:  48 b8 01 01 01 01 01 01  movabsq  $0x101010101010101, %rax
0xffffffff81000fff:  01 01
0xffffffff81001001:  90                       nop
0xffffffff81001002:  75 0c                    jne      0xffffffff81001010

Trace 0: 0x7f0000000040 [0000000000000000/ffffffff81000ff6/0000c2b0/ff080200] 
----------------
IN: 
0xffffffff81001004:  90                       nop
0xffffffff81001005:  c3                       retq

Trace 0: 0x7f0000000080 [0000000000000000/ffffffff81001004/0000c2b0/ff080200] 
----------------
IN: 
0xffffffff81001004:  c3                       retq

Trace 0: 0x7f0000000040 [0000000000000000/ffffffff81000ff6/0000c2b0/ff080200] 
Trace 0: 0x7f00000000c0 [0000000000000000/ffffffff81001004/0000c2b0/ff080200] 
Trace 0: 0x7f0000000040 [0000000000000000/ffffffff81000ff6/0000c2b0/ff080200] 
Trace 0: 0x7f00000000c0 [0000000000000000/ffffffff81001004/0000c2b0/ff080200] 
LOG
scripts/tb-path.py "$TMP/tb.log" f=ffffffff81000ff6 >"$TMP/out" 2>&1
check "three calls of 6, 5 and 5 instructions (a 10-byte one counted once)" \
	grep -qx 'f: 3 calls; the last 3, instructions: 5 x2, 6 x1' "$TMP/out"
check "the blocks of a path are listed with their sizes" \
	grep -Eq '^  blocks of a 5 path: ffffffff81000ff6\+4 ffffffff81001004\+1$' "$TMP/out"
check "the loop: the last two calls took the same path" \
	grep -qx 'loop: 2 calls in a row repeat every 1, from call 2 of 3: f 5' "$TMP/out"
sed 's/^/# /' "$TMP/out"
scripts/tb-path.py "$TMP/tb.log" f=ffffffff81009999 >"$TMP/none" 2>&1
check "an entry never traced is an error naming the log" \
	grep -q "tb-path.py: $TMP/tb.log: no call of any entry was traced" "$TMP/none"
scripts/tb-path.py "$TMP/tb.log" f=xyz >"$TMP/bad" 2>&1
check "a bad entry is refused, named" grep -q 'tb-path.py: f=xyz: not NAME=ADDRESS' "$TMP/bad"
