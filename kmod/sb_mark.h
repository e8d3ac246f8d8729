/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cost-model window markers: instructions that do nothing on any x86 CPU
 * (and under KVM) but that the TCG plugin in tcg/ recognises when it
 * translates them, so that it counts instructions, memory accesses and
 * simulated cache misses from just after a window's START to just before
 * its END, per vCPU.
 *
 * A marker is the 7-byte NOP "nopl disp32(%rax)", 0f 1f 80 XX 00 5b 5b
 * (disp32 = 0x5b5b00XX): XX = 0x01 START, 0x02 END, 0x03 IDT, 0x04 GATE,
 * 0x10 a bit of 0, 0x11 a bit of 1. Before each START come exactly 32 bit markers,
 * most significant bit first: the window's 32-bit id, which the results
 * carry beside the samples so that the host joins the plugin's counts to
 * them. 64 bits and IDT give the IDT's address, once per sample when
 * its timer is reset, outside the timed code: only interrupt and
 * exception delivery reads the IDT, and QEMU 7.2 reports delivery's
 * accesses to the plugin now and then as an instruction's, which the
 * plugin discards from the IDT read on. 64 bits and GATE name an
 * interrupt or exception handler's entry point, every one the IDT holds,
 * once when the module loads: the plugin leaves the handlers' work out of
 * the windows, from the entry point to the iret that leaves it, so that
 * a timer tick, which lands wherever the kernel's layout puts it, counts
 * nowhere. A nopl with a memory operand does not access memory.
 *
 * Elsewhere than x86 the helpers compile to nothing: there is no plugin
 * for other guests.
 */
#ifndef _SB_MARK_H
#define _SB_MARK_H

#include <linux/types.h>

#ifdef CONFIG_X86
#include <asm/desc.h>

static __always_inline void sb_mark_bits(u64 bits, int n)
{
	int i;

	for (i = n - 1; i >= 0; i--) {
		if (bits & (1ULL << i))
			asm volatile(".byte 0x0f,0x1f,0x80,0x11,0x00,0x5b,0x5b" ::: "memory");
		else
			asm volatile(".byte 0x0f,0x1f,0x80,0x10,0x00,0x5b,0x5b" ::: "memory");
	}
}

static inline void sb_mark_idt(void)
{
	struct desc_ptr idt;

	store_idt(&idt);
	sb_mark_bits(idt.address, 64);
	asm volatile(".byte 0x0f,0x1f,0x80,0x03,0x00,0x5b,0x5b" ::: "memory");
}

static inline void sb_mark_gates(void)
{
	struct desc_ptr idt;
	const gate_desc *g;
	unsigned int i;

	store_idt(&idt);
	g = (const gate_desc *)idt.address;
	for (i = 0; i < (idt.size + 1U) / sizeof(*g); i++) {
		if (!g[i].bits.p)
			continue;
		sb_mark_bits(gate_offset(&g[i]), 64);
		asm volatile(".byte 0x0f,0x1f,0x80,0x04,0x00,0x5b,0x5b" ::: "memory");
	}
}

/* The "memory" clobbers keep the timed code between START and END. */
static __always_inline void sb_mark_start(u32 id)
{
	sb_mark_bits(id, 32);
	asm volatile(".byte 0x0f,0x1f,0x80,0x01,0x00,0x5b,0x5b" ::: "memory");
}

static __always_inline void sb_mark_end(void)
{
	asm volatile(".byte 0x0f,0x1f,0x80,0x02,0x00,0x5b,0x5b" ::: "memory");
}
#else
static inline void sb_mark_idt(void)
{
}

static inline void sb_mark_gates(void)
{
}

static __always_inline void sb_mark_start(u32 id)
{
}

static __always_inline void sb_mark_end(void)
{
}
#endif

#endif /* _SB_MARK_H */
