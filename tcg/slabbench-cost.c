// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench-cost: a QEMU TCG plugin that counts, per vCPU and only inside
 * measurement windows the guest marks, the instructions executed, the
 * memory loads and stores, locked and interrupt-flag instructions, and
 * the misses of a simulated cache hierarchy. docs/cost-model.md defines
 * every figure; the output format is the contract with cli/.
 *
 *   -plugin build/tcg/slabbench-cost.so,out=PATH[,l1d=G][,l2=G][,llc=G][,sim=window|always]
 *
 * G is SIZE/WAYS/LINE, e.g. 32K/8/64.
 *
 * Instructions are counted by a callback on each instruction rather than
 * by adding a block's length when the block starts: a block that a fault
 * leaves early would otherwise count instructions that never ran.
 *
 * Loads and stores are the accesses of instructions, never those of
 * interrupt or exception delivery (the IDT gate and GDT entry it reads,
 * the frame it pushes). QEMU 7.2 reports delivery's accesses only now and
 * then: through the memory callbacks of the last instruction that ended
 * its block with a helper call (ret, an indirect jump), which it leaves
 * armed (QEMU issue 1381, fixed in 8.0), and not when a block without
 * helpers ran since. Which one that is depends on how the code happened
 * to be cut into blocks, not on the guest: two runs counted 5 loads and
 * 5 stores apart. So an access counts only if it comes from the
 * instruction the vCPU began last (by address: an instruction that QEMU
 * runs again alone, after a device access under icount, makes no second
 * instruction callback), and none counts from a read of the IDT, which
 * only delivery does, until the next instruction begins. The guest's
 * module names the IDT with a marker (tcg/insnclass.h).
 */
#include "qemu-plugin-api.h"
#include "cachesim.h"
#include "insnclass.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum { L1D, L2, LLC, LEVELS };

static const char *const level_name[LEVELS] = { "l1d", "l2", "llc" };

/*
 * The default hierarchy is one core of AMD's Zen 4 (Ryzen 7000, EPYC
 * 9004): 32 KiB 8-way L1d, 1 MiB 8-way L2, 32 MiB 16-way L3 shared by the
 * 8 cores of a CCX, 64-byte lines everywhere ("Software Optimization
 * Guide for the AMD Zen4 Microarchitecture", AMD publication 57647, its
 * sections on the L1 data, L2 and L3 caches). The geometry only: Zen 4's
 * L3 is a victim cache of L2, the model fills every level on a miss.
 */
static const struct cache_geom default_geom[LEVELS] = {
	{ 32ULL << 10, 8, 64 },
	{ 1ULL << 20, 8, 64 },
	{ 32ULL << 20, 16, 64 },
};

struct counts {
	uint64_t insns, loads, stores, locked, irqflag;
	uint64_t miss[LEVELS];
	uint64_t intr;	/* deliveries whose handlers were left out */
};

/*
 * Owned by the thread that runs its vCPU (one thread for all of them
 * under thread=single); aligned so that MTTCG threads do not share lines.
 */
struct vcpu {
	_Alignas(64) int open;
	uint32_t window;
	uint64_t bits;	/* the bit markers seen since the last START, END or IDT */
	uint32_t nbits;
	int delivering;	/* the IDT was read since the last instruction began */
	struct counts c;
	struct cache *priv[2];	/* L1d, L2 */
	/*
	 * The line this vCPU touched last, which is therefore the most
	 * recent in its L1d: touching it again is a hit that changes nothing.
	 */
	uint64_t last_line;
	uint64_t bad_markers;
	uint64_t insn;	/* the address of the instruction begun last; 0: a marker */
	/*
	 * Handlers entered and not yet left by iret inside the open window:
	 * while not 0, nothing counts.
	 */
	uint32_t depth;
	/* The instruction begun last is a handler's (its iret included). */
	int handler;
};

/*
 * The entry points of the guest's interrupt and exception handlers (its
 * IDT gates' targets), from its GATE markers, sorted, as on_insn() keeps
 * addresses. A vCPU entering one is delivering an interrupt or an
 * exception. Replaced whole when the guest names another, so that a vCPU
 * reading them under multi-threaded TCG never sees half a copy; the old
 * copies are chained and freed at exit.
 */
struct gates {
	struct gates *old;
	size_t n;
	uintptr_t pc[];
};

/* 256 gates of 16 bytes: x86-64's whole IDT. */
#define IDT_BYTES 4096

static struct vcpu *vcpus;
static int n_vcpus;
static struct cache *llc;
static pthread_mutex_t llc_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t line_shift;
static int sim_always;
static FILE *out;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static char *out_buf;
static uint64_t idt_base;	/* from the guest's IDT marker; 0: none seen */
static struct gates *gates;
static pthread_mutex_t gates_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Instructions' addresses as the callbacks carry them: the 3 bits on_insn()
 * shifts out for its flags are copies of bit 60 in a canonical address.
 */
#define PC_MASK (UINTPTR_MAX >> 3)

static void add_gate(uintptr_t pc)
{
	struct gates *g, *cur;
	size_t i, n;

	pthread_mutex_lock(&gates_lock);
	cur = gates;
	n = cur ? cur->n : 0;
	for (i = 0; i < n && cur->pc[i] < pc; i++)
		;
	if (i == n || cur->pc[i] != pc) {
		g = malloc(sizeof(*g) + (n + 1) * sizeof(g->pc[0]));
		if (g) {
			g->old = cur;
			g->n = n + 1;
			if (n)
				memcpy(g->pc, cur->pc, i * sizeof(g->pc[0]));
			g->pc[i] = pc;
			if (n)
				memcpy(g->pc + i + 1, cur->pc + i, (n - i) * sizeof(g->pc[0]));
			__atomic_store_n(&gates, g, __ATOMIC_RELEASE);
		} else {
			fprintf(stderr, "slabbench-cost: out of memory for the handlers' addresses\n");
		}
	}
	pthread_mutex_unlock(&gates_lock);
}

static int is_gate(uintptr_t pc)
{
	const struct gates *g = __atomic_load_n(&gates, __ATOMIC_ACQUIRE);
	size_t lo = 0, hi;

	if (!g || pc < g->pc[0] || pc > g->pc[g->n - 1])
		return 0;
	hi = g->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->pc[mid] < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && g->pc[lo] == pc;
}

/* Whether what the vCPU does now counts: inside a window, not in a handler. */
static inline int counting(const struct vcpu *v)
{
	return v->open && !v->handler;
}

static void close_window(unsigned int index, struct vcpu *v)
{
	pthread_mutex_lock(&out_lock);
	fprintf(out,
		"window %" PRIu32 " vcpu %u insns %" PRIu64 " loads %" PRIu64 " stores %" PRIu64
		" locked %" PRIu64 " irqflag %" PRIu64 " l1d_miss %" PRIu64 " l2_miss %" PRIu64
		" llc_miss %" PRIu64 " intr %" PRIu64 "\n",
		v->window, index, v->c.insns, v->c.loads, v->c.stores, v->c.locked, v->c.irqflag,
		v->c.miss[L1D], v->c.miss[L2], v->c.miss[LLC], v->c.intr);
	pthread_mutex_unlock(&out_lock);
	v->open = 0;
}

static void on_marker(unsigned int index, void *udata)
{
	struct vcpu *v = &vcpus[index];
	enum marker m = (enum marker)(uintptr_t)udata;

	v->insn = 0;
	v->delivering = 0;
	switch (m) {
	case MARK_BIT0:
	case MARK_BIT1:
		/* Inside a window a bit marker is just another instruction. */
		if (v->open)
			v->c.insns++;
		v->bits = v->bits << 1 | (m == MARK_BIT1);
		if (v->nbits <= 64)
			v->nbits++;	/* 65 stands for "too many" */
		return;
	case MARK_START:
		if (v->open || v->nbits != 32) {
			v->bad_markers++;
			v->open = 0;
		} else {
			memset(&v->c, 0, sizeof(v->c));
			v->window = (uint32_t)v->bits;
			v->open = 1;
			v->depth = 0;
			v->handler = 0;
		}
		break;
	case MARK_IDT:
		/* One IDT for all vCPUs, as in Linux; a window ignores it. */
		if (v->nbits == 64)
			__atomic_store_n(&idt_base, v->bits, __ATOMIC_RELAXED);
		else
			v->bad_markers++;
		if (v->open)
			v->c.insns++;
		break;
	case MARK_GATE:
		if (v->nbits == 64)
			add_gate((uintptr_t)v->bits & PC_MASK);
		else
			v->bad_markers++;
		if (v->open)
			v->c.insns++;
		break;
	case MARK_END:
		/*
		 * In a handler whose iret never came (the task switched from
		 * inside it): the counts hold another's work. No window.
		 */
		if (v->open && !v->depth) {
			close_window(index, v);
		} else {
			v->bad_markers++;
			v->open = 0;
		}
		break;
	case MARK_NONE:
		break;
	}
	v->nbits = 0;
}

/*
 * udata: the instruction's address (PC_MASK) shifted left by 3, and its
 * INSN_* flags.
 *
 * A window leaves out interrupt and exception handlers: from a handler's
 * entry point (a gate) to the iret that leaves it, nested ones included,
 * nothing counts, and the cache model does not see the handler's
 * accesses. Under icount a timer tick lands at the same instruction only
 * as long as nothing before it changes; left in, it moves a count
 * whenever unrelated code does.
 */
static void on_insn(unsigned int index, void *udata)
{
	struct vcpu *v = &vcpus[index];
	unsigned flags = (unsigned)(uintptr_t)udata & (INSN_LOCKED | INSN_IRQFLAG | INSN_IRET);

	v->insn = (uintptr_t)udata >> 3;
	v->delivering = 0;
	v->handler = 0;
	if (!v->open)
		return;
	if (is_gate(v->insn)) {
		v->c.intr += !v->depth;
		v->depth++;
	}
	if (v->depth) {
		v->handler = 1;
		v->depth -= !!(flags & INSN_IRET);
		return;
	}
	v->c.insns++;
	v->c.locked += !!(flags & INSN_LOCKED);
	v->c.irqflag += !!(flags & INSN_IRQFLAG);
}

static void touch_line(struct vcpu *v, uint64_t line)
{
	uint64_t miss[LEVELS] = { 0 };
	int i;

	if (line == v->last_line)
		return;
	v->last_line = line;
	if (cache_walk(v->priv, 2, line, miss) == 2) {
		pthread_mutex_lock(&llc_lock);
		miss[LLC] = !cache_touch(llc, line);
		pthread_mutex_unlock(&llc_lock);
	}
	if (counting(v))
		for (i = 0; i < LEVELS; i++)
			v->c.miss[i] += miss[i];
}

/*
 * QEMU 7.2 reports a plain access as R or W, but an atomic read-modify-
 * write under multi-threaded TCG (CF_PARALLEL) as a single RW callback:
 * that is a load and a store, as it is under thread=single. The direction
 * sits in bits 16 and up of the meminfo, above the MemOpIdx (7.2's
 * include/qemu/plugin.h, make_plugin_meminfo()); QEMU exports no accessor
 * for it.
 */
static enum qemu_plugin_mem_rw meminfo_rw(qemu_plugin_meminfo_t info)
{
	return (enum qemu_plugin_mem_rw)(info >> 16);
}

/*
 * udata: the address of the instruction the callback was registered for,
 * as on_insn() keeps it; any other than the running one's is a stale
 * callback, and a read of the IDT begins a delivery (see the top). Only
 * RAM is cached: an access to a device (MMIO) is counted as a load or
 * store but never reaches the cache model.
 */
static void on_mem(unsigned int index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct vcpu *v = &vcpus[index];
	struct qemu_plugin_hwaddr *hw;
	uint64_t size, pa, first, last, end_page;
	uint64_t idt = __atomic_load_n(&idt_base, __ATOMIC_RELAXED);

	if (idt && vaddr - idt < IDT_BYTES)
		v->delivering = 1;
	if (v->delivering || (uintptr_t)udata != v->insn || (!counting(v) && !sim_always))
		return;
	if (counting(v)) {
		enum qemu_plugin_mem_rw rw = meminfo_rw(info);

		v->c.loads += !!(rw & QEMU_PLUGIN_MEM_R);
		v->c.stores += !!(rw & QEMU_PLUGIN_MEM_W);
	}
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	size = 1ULL << qemu_plugin_mem_size_shift(info);
	first = pa >> line_shift;
	last = (pa + size - 1) >> line_shift;
	touch_line(v, first);
	if (last == first)
		return;
	/*
	 * The access straddles two lines. Within a page the second is the
	 * next physical line; across a page it is wherever the next page
	 * maps, which only the TLB knows.
	 */
	end_page = (vaddr + size - 1) >> 12;
	if (end_page != vaddr >> 12) {
		hw = qemu_plugin_get_hwaddr(info, vaddr + size - 1);
		if (!hw || qemu_plugin_hwaddr_is_io(hw))
			return;
		last = qemu_plugin_hwaddr_phys_addr(hw) >> line_shift;
	}
	touch_line(v, last);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *b = qemu_plugin_insn_data(insn);
		size_t len = qemu_plugin_insn_size(insn);
		enum marker m = insn_marker(b, len);
		uintptr_t pc = (uintptr_t)qemu_plugin_insn_vaddr(insn) & PC_MASK;

		if (m != MARK_NONE) {
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)m);
			continue;
		}
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(pc << 3 | insn_class(b, len)));
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, (void *)pc);
	}
}

/*
 * The guest has powered off: flush what the windows wrote. Markers that
 * made no window are a guest bug worth one line; QEMU's plugin log
 * (qemu_plugin_outs) is silent without -d plugin, so it goes to stderr.
 */
static void at_exit(qemu_plugin_id_t id, void *udata)
{
	uint64_t bad = 0, open = 0;
	int i;

	(void)id;
	(void)udata;
	for (i = 0; i < n_vcpus; i++) {
		bad += vcpus[i].bad_markers;
		open += vcpus[i].open;
	}
	if (fclose(out))
		fprintf(stderr, "slabbench-cost: writing the output file failed\n");
	if (bad || open)
		fprintf(stderr,
			"slabbench-cost: %" PRIu64 " misplaced markers ignored, %" PRIu64
			" windows still open at exit\n",
			bad, open);
	for (i = 0; i < n_vcpus; i++) {
		cache_free(vcpus[i].priv[0]);
		cache_free(vcpus[i].priv[1]);
	}
	cache_free(llc);
	while (gates) {
		struct gates *old = gates->old;

		free(gates);
		gates = old;
	}
	free(vcpus);
	free(out_buf);
}

static int fail(const char *arg, const char *why)
{
	fprintf(stderr, "slabbench-cost: bad plugin argument '%s': %s\n", arg, why);
	return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	struct cache_geom geom[LEVELS];
	const char *path = NULL, *why;
	char text[LEVELS][48];
	int i, l;

	memcpy(geom, default_geom, sizeof(geom));
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');

		if (!eq)
			return fail(a, "expected KEY=VALUE");
		for (l = 0; l < LEVELS; l++)
			if (!strncmp(a, level_name[l], eq - a) && level_name[l][eq - a] == '\0')
				break;
		if (l < LEVELS) {
			if (cache_geom_parse(eq + 1, &geom[l], &why))
				return fail(a, why);
		} else if (!strncmp(a, "out=", 4)) {
			if (!eq[1])
				return fail(a, "the output path is empty");
			path = eq + 1;
		} else if (!strcmp(a, "sim=window")) {
			sim_always = 0;
		} else if (!strcmp(a, "sim=always")) {
			sim_always = 1;
		} else if (!strncmp(a, "sim=", 4)) {
			return fail(a, "sim is window or always");
		} else {
			return fail(a, "unknown key (out, l1d, l2, llc, sim)");
		}
	}
	if (!path)
		return fail("out", "out=PATH is required");
	for (l = 1; l < LEVELS; l++)
		if (geom[l].line != geom[L1D].line)
			return fail(level_name[l], "every level must have the line size of l1d");
	if (!info->system_emulation)
		return fail("-plugin", "the cost model needs system emulation (physical addresses)");
	if (strcmp(info->target_name, "x86_64") && strcmp(info->target_name, "i386"))
		return fail("-plugin", "the markers and instruction classes are x86's");

	line_shift = (uint32_t)__builtin_ctz(geom[L1D].line);
	n_vcpus = info->system.max_vcpus;
	/* sizeof(struct vcpu) is a multiple of its alignment, as aligned_alloc wants. */
	vcpus = aligned_alloc(_Alignof(struct vcpu), (size_t)n_vcpus * sizeof(*vcpus));
	llc = cache_new(&geom[LLC]);
	if (!vcpus || !llc)
		return fail("-plugin", "out of memory for the caches");
	memset(vcpus, 0, (size_t)n_vcpus * sizeof(*vcpus));
	for (i = 0; i < n_vcpus; i++) {
		vcpus[i].priv[0] = cache_new(&geom[L1D]);
		vcpus[i].priv[1] = cache_new(&geom[L2]);
		vcpus[i].last_line = UINT64_MAX;
		if (!vcpus[i].priv[0] || !vcpus[i].priv[1])
			return fail("-plugin", "out of memory for the caches");
	}
	out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "slabbench-cost: cannot write the output file %s\n", path);
		return -1;
	}
	/* Windows close often in a long run: write in large blocks. */
	out_buf = malloc(1 << 20);
	if (out_buf)
		setvbuf(out, out_buf, _IOFBF, 1 << 20);
	for (l = 0; l < LEVELS; l++)
		cache_geom_format(&geom[l], text[l], sizeof(text[l]));
	fprintf(out, "# slabbench-cost 2 l1d=%s l2=%s llc=%s\n", text[L1D], text[L2], text[LLC]);

	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
