// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the cost plugin's instruction classes and markers. */
#include "check.h"
#include "insnclass.h"

#define B(...) ((const uint8_t[]){ __VA_ARGS__ }), sizeof((const uint8_t[]){ __VA_ARGS__ })

static void test_markers(void)
{
	CHECK(insn_marker(B(0x0f, 0x1f, 0x80, 0x01, 0x00, 0x5b, 0x5b)) == MARK_START, "START");
	CHECK(insn_marker(B(0x0f, 0x1f, 0x80, 0x02, 0x00, 0x5b, 0x5b)) == MARK_END, "END");
	CHECK(insn_marker(B(0x0f, 0x1f, 0x80, 0x10, 0x00, 0x5b, 0x5b)) == MARK_BIT0, "bit 0");
	CHECK(insn_marker(B(0x0f, 0x1f, 0x80, 0x11, 0x00, 0x5b, 0x5b)) == MARK_BIT1, "bit 1");
	CHECK(insn_marker(B(0x0f, 0x1f, 0x80, 0x03, 0x00, 0x5b, 0x5b)) == MARK_IDT, "IDT");
	CHECK(insn_marker(B(0x0f, 0x1f, 0x80, 0x04, 0x00, 0x5b, 0x5b)) == MARK_GATE, "GATE");
	CHECK(insn_marker(B(0x0f, 0x1f, 0x80, 0x05, 0x00, 0x5b, 0x5b)) == MARK_NONE,
	      "an unassigned XX is an ordinary NOP");
	CHECK(insn_marker(B(0x0f, 0x1f, 0x80, 0x01, 0x00, 0x5b, 0x5c)) == MARK_NONE,
	      "another displacement is an ordinary NOP");
	CHECK(insn_marker(B(0x0f, 0x1f, 0x80, 0x01, 0x01, 0x5b, 0x5b)) == MARK_NONE,
	      "the byte after XX must be 0");
	CHECK(insn_marker(B(0x0f, 0x1f, 0x84, 0x00, 0x01, 0x00, 0x5b, 0x5b)) == MARK_NONE,
	      "a NOP of another length is not a marker");
	CHECK(insn_marker(B(0x66, 0x0f, 0x1f, 0x80, 0x01, 0x00, 0x5b)) == MARK_NONE,
	      "7 bytes with a prefix are not a marker");
}

static void test_locked(void)
{
	CHECK(insn_class(B(0xf0, 0xff, 0x06)) == INSN_LOCKED, "lock incl (%%esi)");
	CHECK(insn_class(B(0xf0, 0x48, 0x0f, 0xb1, 0x0e)) == INSN_LOCKED, "lock cmpxchg %%rcx,(%%rsi)");
	CHECK(insn_class(B(0x66, 0xf0, 0xff, 0x06)) == INSN_LOCKED, "lock after 66");
	CHECK(insn_class(B(0x3e, 0xf0, 0xff, 0x06)) == INSN_LOCKED, "lock after a segment prefix");
	CHECK(insn_class(B(0x87, 0x06)) == INSN_LOCKED, "xchg %%eax,(%%esi) is implicitly locked");
	CHECK(insn_class(B(0x48, 0x87, 0x46, 0x08)) == INSN_LOCKED, "xchg %%rax,8(%%rsi) after REX.W");
	CHECK(insn_class(B(0x86, 0x06)) == INSN_LOCKED, "xchg %%al,(%%esi)");
	CHECK(insn_class(B(0x87, 0xc3)) == 0, "xchg between registers is not locked");
	CHECK(insn_class(B(0x48, 0x87, 0xc3)) == 0, "xchg %%rax,%%rbx is not locked");
	CHECK(insn_class(B(0x0f, 0xb1, 0x0e)) == 0, "cmpxchg without lock is not locked");
	CHECK(insn_class(B(0x90)) == 0, "nop");
	CHECK(insn_class(B(0x87)) == 0, "a truncated xchg has no operand to judge");
}

static void test_irqflag(void)
{
	CHECK(insn_class(B(0xfa)) == INSN_IRQFLAG, "cli");
	CHECK(insn_class(B(0xfb)) == INSN_IRQFLAG, "sti");
	CHECK(insn_class(B(0x9c)) == INSN_IRQFLAG, "pushf");
	CHECK(insn_class(B(0x9d)) == INSN_IRQFLAG, "popf");
	CHECK(insn_class(B(0x66, 0x9c)) == INSN_IRQFLAG, "pushfw");
	CHECK(insn_class(B(0x48, 0x9d)) == INSN_IRQFLAG, "popf after a REX prefix");
	CHECK(insn_class(B(0x0f, 0x9c, 0xc0)) == 0, "setl is not pushf");
	CHECK(insn_class(B(0x40)) == 0, "inc %%eax (32-bit) alone is not a prefix");
	CHECK(insn_class(B(0x4d)) == 0, "dec %%ebp");
	CHECK(insn_class(B(0xf0)) == INSN_LOCKED, "a lone prefix byte reads as locked, not a crash");
}

static void test_iret(void)
{
	CHECK(insn_class(B(0x48, 0xcf)) == INSN_IRET, "iretq");
	CHECK(insn_class(B(0xcf)) == INSN_IRET, "iret");
	CHECK(insn_class(B(0x66, 0xcf)) == INSN_IRET, "iretw");
	CHECK(insn_class(B(0xcd, 0xcf)) == 0, "int $0xcf is not iret");
	CHECK(insn_class(B(0xc3)) == 0, "ret is not iret");
}

int main(void)
{
	test_markers();
	test_locked();
	test_irqflag();
	test_iret();
	return check_done();
}
