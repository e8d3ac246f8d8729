// SPDX-License-Identifier: GPL-2.0
/* Classifying x86 instructions by their prefixes and first opcode byte. */
#include "insnclass.h"

enum marker insn_marker(const uint8_t *b, size_t n)
{
	if (n != 7 || b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x80 || b[4] != 0x00 ||
	    b[5] != 0x5b || b[6] != 0x5b)
		return MARK_NONE;
	switch (b[3]) {
	case MARK_START:
	case MARK_END:
	case MARK_IDT:
	case MARK_GATE:
	case MARK_BIT0:
	case MARK_BIT1:
		return (enum marker)b[3];
	}
	return MARK_NONE;
}

static int legacy_prefix(uint8_t c)
{
	switch (c) {
	case 0xf0: case 0xf2: case 0xf3:			/* lock, repne, rep */
	case 0x2e: case 0x36: case 0x3e: case 0x26:		/* segments */
	case 0x64: case 0x65:
	case 0x66: case 0x67:					/* operand, address size */
		return 1;
	}
	return 0;
}

unsigned insn_class(const uint8_t *b, size_t n)
{
	unsigned flags = 0;
	size_t i = 0;
	uint8_t op;

	while (i < n && legacy_prefix(b[i])) {
		if (b[i] == 0xf0)
			flags |= INSN_LOCKED;
		i++;
	}
	/*
	 * 40-4f is a REX prefix in 64-bit code and a whole one-byte inc/dec
	 * in 32-bit code: only a prefix has more bytes after it.
	 */
	if (i + 1 < n && (b[i] & 0xf0) == 0x40)
		i++;
	if (i >= n)
		return flags;
	op = b[i];
	/* xchg r, r/m locks the bus whenever r/m is memory (mod != 3). */
	if ((op == 0x86 || op == 0x87) && i + 1 < n && (b[i + 1] >> 6) != 3)
		flags |= INSN_LOCKED;
	if (op == 0xfa || op == 0xfb || op == 0x9c || op == 0x9d)
		flags |= INSN_IRQFLAG;
	if (op == 0xcf)
		flags |= INSN_IRET;
	return flags;
}
