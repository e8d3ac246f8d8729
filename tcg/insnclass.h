/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the cost model needs to know about one x86 instruction, from its
 * bytes alone: whether it is one of slabbench's window markers, whether it
 * is locked, whether it touches the interrupt flag. Pure functions, so
 * that the host's unit tests can check them.
 */
#ifndef SLABBENCH_INSNCLASS_H
#define SLABBENCH_INSNCLASS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The marker is nopl 0x5b5b00XX(%rax): 0f 1f 80 XX 00 5b 5b. A NOP on
 * every x86 CPU, in 64-bit and (as nopl disp32(%eax)) 32-bit code.
 */
enum marker {
	MARK_NONE = 0,
	MARK_START = 0x01,
	MARK_END = 0x02,
	MARK_IDT = 0x03,
	MARK_GATE = 0x04,
	MARK_BIT0 = 0x10,
	MARK_BIT1 = 0x11,
};

#define INSN_LOCKED 0x1u	/* lock prefix, or xchg with a memory operand */
#define INSN_IRQFLAG 0x2u	/* cli, sti, pushf, popf */
#define INSN_IRET 0x4u		/* iret, of any operand size */

/* The marker these N bytes (one whole instruction) are, or MARK_NONE. */
enum marker insn_marker(const uint8_t *b, size_t n);

/* INSN_* flags of one whole instruction of N bytes. */
unsigned insn_class(const uint8_t *b, size_t n);

#endif
