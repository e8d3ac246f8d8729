#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: none
# shellcheck shell=bash
# scripts/tb-path.py, on a log of the shape QEMU writes with -d
# in_asm,exec,nochain: two calls of f (entry block 3 instructions, then
# a block of 2 or of 1), a block retranslated between them (code patched
# at boot: the new translation's size counts), and a block before the
# first call, which belongs to no call. No guest: it takes a second.
. tests/e2e/lib.sh

plan 4

cat >"$TMP/tb.log" <<'LOG'
----------------
IN: 
0xffffffff81000000:  90                       nop
0xffffffff81000001:  90                       nop
0xffffffff81000002:  c3                       retq

Trace 0: 0x7f0000000000 [0000000000000000/ffffffff81000000/0000c2b0/ff080200] 
----------------
IN: f
0xffffffff81001000:  55                       pushq    %rbp
0xffffffff81001001:  90                       nop
0xffffffff81001002:  75 0c                    jne      0xffffffff81001010

Trace 0: 0x7f0000000040 [0000000000000000/ffffffff81001000/0000c2b0/ff080200] 
----------------
IN: 
0xffffffff81001004:  90                       nop
0xffffffff81001005:  c3                       retq

Trace 0: 0x7f0000000080 [0000000000000000/ffffffff81001004/0000c2b0/ff080200] 
----------------
IN: 
0xffffffff81001004:  c3                       retq

Trace 0: 0x7f0000000040 [0000000000000000/ffffffff81001000/0000c2b0/ff080200] 
Trace 0: 0x7f00000000c0 [0000000000000000/ffffffff81001004/0000c2b0/ff080200] 
LOG
scripts/tb-path.py "$TMP/tb.log" f=ffffffff81001000 >"$TMP/out" 2>&1
check "two calls of 5 and of 4 instructions" grep -qx 'f: 2 calls; the last 2, instructions: 4 x1, 5 x1' "$TMP/out"
check "the blocks of a path are listed with their sizes" \
	grep -Eq '^  blocks of a [45] path: ffffffff81001000\+3 ffffffff81001004\+[12]$' "$TMP/out"
sed 's/^/# /' "$TMP/out"
scripts/tb-path.py "$TMP/tb.log" f=ffffffff81009999 >"$TMP/none" 2>&1
check "an entry never traced is an error naming the log" \
	grep -q "tb-path.py: $TMP/tb.log: no call of any entry was traced" "$TMP/none"
scripts/tb-path.py "$TMP/tb.log" f=xyz >"$TMP/bad" 2>&1
check "a bad entry is refused, named" grep -q 'tb-path.py: f=xyz: not NAME=ADDRESS' "$TMP/bad"
