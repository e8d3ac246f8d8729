/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bare multiboot v1 guest for the cost plugin's known answers: no
 * Linux, interrupts off and the PICs masked, so every window's counts
 * follow from the code below alone. Windows 1-9 run in 32-bit protected
 * mode without paging (physical = virtual); windows 20-23 in 64-bit mode
 * with page tables of its own.
 * tests/e2e/costplugin.sh holds the expected figures; the comment above
 * each window says how they follow. Built twice more as a long workload
 * for timing the plugin (BENCH=1: inside one window; BENCH=2: no window),
 * and once with misplaced markers (BAD).
 *
 * It reports on COM1 and powers off through isa-debug-exit (port 0xf4):
 * writing 0x10 makes QEMU exit with status 33.
 */
	.set MB_MAGIC, 0x1badb002
	.set MB_FLAGS, 0	/* an ELF image: QEMU takes the load addresses from it */

	.section .multiboot, "a"
	.balign 4
	.long MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)

/* The cost-model marker: nopl 0x5b5b00XX(%eax), a NOP on any x86. */
.macro MARK xx
	.byte 0x0f, 0x1f, 0x80, \xx, 0x00, 0x5b, 0x5b
.endm

/* The window id, most significant bit first, then START. */
.macro START id
	.set sb_bit, 31
	.rept 32
	MARK (0x10 + (((\id) >> sb_bit) & 1))
	.set sb_bit, sb_bit - 1
	.endr
	MARK 0x01
.endm

.macro END
	MARK 0x02
.endm

	.text
	.code32
	.globl _start
_start:
	mov $stack_top, %esp
	mov $0xff, %al
	out %al, $0x21
	out %al, $0xa1

#if defined(BAD)
	/*
	 * Misplaced markers: a START after 3 bits, an END with no window
	 * open; neither makes a window. Then a good window 10 of one
	 * instruction.
	 */
	MARK 0x11
	MARK 0x10
	MARK 0x11
	MARK 0x01
	nop
	END
	START 10
	nop
	END
#elif !defined(BENCH)
	/* Window 1: 1000 x (dec, jnz) = 2000 instructions, no memory. */
	mov $1000, %ecx
	START 1
1:	dec %ecx
	jnz 1b
	END

	/*
	 * Window 2: 100 x 7 instructions; per iteration the loads are mov
	 * from memory, add to memory (read), pop, and the stores mov to
	 * memory, add to memory (write), push: 700 instructions, 300 loads,
	 * 300 stores.
	 */
	mov $mixbuf, %esi
	mov $100, %ecx
	START 2
1:	mov (%esi), %eax
	mov %eax, 4(%esi)
	add %eax, 8(%esi)
	push %eax
	pop %eax
	dec %ecx
	jnz 1b
	END

	/*
	 * Window 3: one load per 64-byte line across 64 KiB, 1024 loads;
	 * run with every cache smaller than that, each load misses at
	 * every level: 4096 instructions, 1024 misses per level.
	 */
	mov $bigbuf, %esi
	mov $1024, %ecx
	START 3
1:	mov (%esi), %eax
	add $64, %esi
	dec %ecx
	jnz 1b
	END

	/*
	 * Windows 4 and 5: a 512-byte buffer never touched before, read a
	 * line at a time: once (8 loads, 8 cold misses per level), then ten
	 * times more (80 loads, no miss: it fits in any L1d of 512 bytes or
	 * more with at least 8 sets or 1 way per line).
	 */
	mov $warmbuf, %esi
	mov $8, %ecx
	START 4
1:	mov (%esi), %eax
	add $64, %esi
	dec %ecx
	jnz 1b
	END

	mov $10, %edx
	START 5
2:	mov $warmbuf, %esi
	mov $8, %ecx
1:	mov (%esi), %eax
	add $64, %esi
	dec %ecx
	jnz 1b
	dec %edx
	jnz 2b
	END

	/*
	 * Window 6: a 4-byte load 2 bytes before a line boundary, then a
	 * store to the same place: 2 instructions, 1 load, 1 store. The two
	 * lines are read just before, outside any window: with sim=window
	 * the model never saw that, and the load misses twice per level
	 * (the store finds both lines); with sim=always they hit.
	 */
	mov $splitbuf + 62, %esi
	mov (%esi), %eax
	START 6
	mov (%esi), %eax
	mov %eax, (%esi)
	END

	/*
	 * Window 7: 14 instructions. Locked: lock inc, lock cmpxchg, xchg
	 * with memory, lock inc after an operand-size prefix, lock inc after
	 * a segment prefix = 5 (xchg between registers is not locked).
	 * Interrupt flag: cli, sti, cli, pushf, popf, pushfw, popfw = 7 (sti
	 * holds interrupts off for one instruction: the cli after it).
	 * Every memory operand is read and written once (7 loads, 7
	 * stores); pushes store, pops load.
	 */
	mov $mixbuf, %esi
	xor %eax, %eax
	START 7
	lock incl (%esi)
	lock cmpxchg %ecx, 4(%esi)
	xchg %eax, 8(%esi)
	xchg %eax, %ebx
	.byte 0x66, 0xf0, 0xff, 0x06	/* lock incw (%esi) */
	.byte 0x3e, 0xf0, 0xff, 0x06	/* lock incl %ds:(%esi) */
	cli
	sti
	cli
	pushf
	popf
	.byte 0x66, 0x9c		/* pushfw */
	.byte 0x66, 0x9d		/* popfw */
	inc %eax			/* 0x40: inc, not a REX prefix, in 32-bit code */
	END

	/*
	 * Window 8: 100000 x (dec, jnz) = 200000 instructions between two
	 * reads of the TSC, which under -icount shift=0 advances by one per
	 * instruction: the host compares the two counts.
	 */
	rdtsc
	mov %eax, %edi
	mov $100000, %ecx
	START 8
1:	dec %ecx
	jnz 1b
	END
	rdtsc
	sub %edi, %eax
	mov %eax, %ebx
	mov $tsc_text, %esi
	call puts
	mov %ebx, %eax
	call puthex

	/*
	 * Window 9: rep stosl of 16 words. QEMU runs a rep string
	 * instruction once per iteration and once more to find ECX zero, so
	 * the plugin (like icount) counts 17 instructions, where a CPU
	 * retires one; 16 stores into one line never touched: 1 miss.
	 */
	mov $repbuf, %edi
	mov $16, %ecx
	START 9
	rep stosl
	END
	jmp long_mode
#else
	/* 20 M x 7 instructions walking 256 KiB, a new line every 4th load. */
	mov $20000000, %ecx
#if BENCH == 1
	START 9
#endif
2:	mov $bigbuf, %esi
	mov $16384, %edx
1:	mov (%esi), %eax
	add %eax, 4(%esi)
	add $16, %esi
	dec %ecx
	jz 3f
	dec %edx
	jnz 1b
	jmp 2b
3:
#if BENCH == 1
	END
#endif
#endif
	mov $done_text, %esi
	call puts
	mov $0x10, %eax
	out %eax, $0xf4
	cli
4:	hlt
	jmp 4b

/* puts: the NUL-terminated string at %esi to COM1. */
puts:
	mov $0x3f8, %dx
1:	lodsb
	test %al, %al
	jz 2f
	out %al, %dx
	jmp 1b
2:	ret

/* puthex: %eax as 8 hex digits and a newline to COM1. */
puthex:
	mov %eax, %ebx
	mov $8, %ecx
	mov $0x3f8, %dx
1:	rol $4, %ebx
	mov %ebx, %eax
	and $0xf, %eax
	movb hexdigits(%eax), %al
	out %al, %dx
	dec %ecx
	jnz 1b
	mov $'\n', %al
	out %al, %dx
	ret

#if !defined(BENCH) && !defined(BAD)
/*
 * Into 64-bit mode with paging, for what the 32-bit windows cannot show:
 * physical tagging, an access across pages that are not physically
 * adjacent, and instructions with REX prefixes. Virtual memory is the
 * identity, in 2 MiB pages, except 2-4 MiB, in 4 KiB pages (pt1) of which
 * only two are mapped: 0x200000 onto aliaspage, 0x201000 onto farpage.
 * Physically, aliaspage is followed by gappage, then farpage.
 */
long_mode:
	mov $pdpt + 3, %eax
	mov %eax, pml4
	mov $pd + 3, %eax
	mov %eax, pdpt
	xor %ecx, %ecx
1:	mov %ecx, %eax
	shl $21, %eax
	or $0x83, %eax		/* present, writable, 2 MiB */
	mov %eax, pd(, %ecx, 8)
	inc %ecx
	cmp $16, %ecx
	jne 1b
	movl $pt1 + 3, pd + 8
	movl $aliaspage + 3, pt1
	movl $farpage + 3, pt1 + 8
	mov $pml4, %eax
	mov %eax, %cr3
	mov %cr4, %eax
	or $0x20, %eax		/* PAE */
	mov %eax, %cr4
	mov $0xc0000080, %ecx	/* EFER */
	rdmsr
	or $0x100, %eax		/* LME */
	wrmsr
	mov %cr0, %eax
	or $0x80000000, %eax	/* PG */
	mov %eax, %cr0
	lgdt gdt_ptr
	ljmp $0x08, $1f
	.code64
1:	mov $0x10, %eax
	mov %eax, %ds
	mov %eax, %es
	mov %eax, %ss

	/*
	 * Window 20: aliaspage's first line read through the identity map,
	 * then through 0x200000: the same physical line, so 2 loads and 1
	 * miss per level (a virtually tagged model would miss twice).
	 */
	mov $aliaspage, %esi
	mov $0x200000, %edi
	START 20
	mov (%rsi), %eax
	mov (%rdi), %eax
	END

	/*
	 * Window 21: an 8-byte load at 0x200ffc reads aliaspage's last line
	 * and farpage's first (2 misses per level), then farpage's first
	 * line through the identity map hits: 2 loads, 2 misses. Taking
	 * the physical line after aliaspage's would have missed 3 times.
	 */
	mov $0x200ffc, %esi
	mov $farpage, %edi
	START 21
	mov (%rsi), %rax
	mov (%rdi), %eax
	END

	/* Window 22: gappage's first line was never touched: 1 miss. */
	mov $gappage, %esi
	START 22
	mov (%rsi), %eax
	END

	/*
	 * Window 23: 64-bit forms. Locked: lock cmpxchg with REX.W, xchg
	 * with memory with REX.W, lock add = 3 (xchg %rax,%rbx, 48 93, is
	 * not). Interrupt flag: pushfq, popfq, cli, sti, cli = 5. Each
	 * memory operand is read and written (3 loads, 3 stores), pushfq
	 * stores, popfq loads: 9 instructions, 4 loads, 4 stores.
	 */
	mov $mixbuf, %esi
	START 23
	lock cmpxchg %rcx, (%rsi)
	xchg %rax, 8(%rsi)
	xchg %rax, %rbx
	lock addq $1, 16(%rsi)
	pushfq
	popfq
	cli
	sti
	cli
	END

	/*
	 * Window 24: an interrupt, as Linux's module marks its windows: the
	 * IDT's address in 64 bit markers and IDT first. int $0x80 and the
	 * handler's iretq are 2 instructions; the delivery's reads of the
	 * gate and the GDT and its 5 pushes are not an instruction's
	 * accesses, and iretq's 5 pops and 4 reads of the CS and SS
	 * descriptors are: 9 loads, no store.
	 */
	mov $int_handler, %eax
	mov $idt + 0x80 * 16, %edi
	mov %ax, (%rdi)
	movw $0x08, 2(%rdi)
	movw $0x8e00, 4(%rdi)	/* present, DPL 0, 64-bit interrupt gate */
	shr $16, %eax
	mov %ax, 6(%rdi)
	mov $idt_ptr, %eax
	lidt (%rax)
	mov $idt, %edx
	mov $64, %ecx
1:	shl $1, %rdx
	jc 2f
	MARK 0x10
	jmp 3f
2:	MARK 0x11
3:	dec %ecx
	jnz 1b
	MARK 0x03
	START 24
	int $0x80
	END

	/*
	 * Window 25: the same after the handlers' entry points were named
	 * (64 bits and GATE each): int $0x81's handler, which loads, stores
	 * and raises int $0x82 (a handler nested in it) before its iretq, is
	 * left out, and counting resumes after it: int and one load, 2
	 * instructions, 1 load, no store, 1 delivery.
	 */
	mov $int_handler81, %eax
	mov $idt + 0x81 * 16, %edi
	call set_gate
	mov $int_handler82, %eax
	mov $idt + 0x82 * 16, %edi
	call set_gate
	START 25
	int $0x81
	mov (%rsp), %rax
	END

	mov $done_text, %esi
	mov $0x3f8, %dx
1:	lodsb
	test %al, %al
	jz 2f
	out %al, %dx
	jmp 1b
2:	mov $0x10, %eax
	out %eax, $0xf4
3:	hlt
	jmp 3b

int_handler:
	iretq

int_handler81:
	mov (%rsp), %rax
	push %rax
	pop %rax
	int $0x82
	iretq

int_handler82:
	nop
	iretq

/* Gate %edi to handler %eax, named to the plugin: 64 bits, GATE. */
set_gate:
	mov %ax, (%rdi)
	movw $0x08, 2(%rdi)
	movw $0x8e00, 4(%rdi)
	mov %eax, %edx
	shr $16, %eax
	mov %ax, 6(%rdi)
	mov $64, %ecx
1:	shl $1, %rdx
	jc 2f
	MARK 0x10
	jmp 3f
2:	MARK 0x11
3:	dec %ecx
	jnz 1b
	MARK 0x04
	ret
	.code32

	.section .rodata
	.balign 8
gdt:	.quad 0
	.quad 0x00209a0000000000	/* 0x08: 64-bit code */
	.quad 0x0000920000000000	/* 0x10: data */
gdt_ptr:
	.word gdt_ptr - gdt - 1
	.long gdt
idt_ptr:
	.word 256 * 16 - 1
	.long idt, 0
#endif

	.section .rodata
hexdigits:	.ascii "0123456789abcdef"
tsc_text:	.asciz "tsc "
done_text:	.asciz "done\n"

	.bss
	.balign 4096
bigbuf:		.skip 65536 * 4
warmbuf:	.skip 512
splitbuf:	.skip 4096
mixbuf:		.skip 64
repbuf:		.skip 64 * 2
		.balign 16
idt:		.skip 256 * 16
		.balign 4096
pml4:		.skip 4096
pdpt:		.skip 4096
pd:		.skip 4096
pt1:		.skip 4096
aliaspage:	.skip 4096
gappage:	.skip 4096
farpage:	.skip 4096
stack:		.skip 4096
stack_top:
