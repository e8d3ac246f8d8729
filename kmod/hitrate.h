/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of the hitrate benchmark (bench_hitrate.c): the kprobes that
 * count what the allocator did (hitrate_probes.c), and the allocator's
 * own statistics that the counts are checked against (hitrate_stats.c).
 */
#ifndef _SB_HITRATE_H
#define _SB_HITRATE_H

#include <linux/types.h>
#include <linux/kprobes.h>
#include "slabbench.h"

#define HR_CACHE_NAME	"slabbench-hitrate"

enum {
	C_ALLOC_SLOW,
	C_FREE_SLOW,
	C_ALLOC_MOVED,
	C_FREE_MOVED,
	C_FREE_BLOCK,
	C_LOCKS,
	C_PAGES_ALLOC,
	C_PAGES_FREED,
#ifdef SB_SLUB_SHEAVES
	/* SLUB's sheaves (hitrate_sheaves.c). */
	C_MAIN_EMPTY,
	C_MAIN_FULL,
	C_ALLOC_SWAP,
	C_FREE_SWAP,
	C_BARN_GET,
	C_BARN_GET_FAIL,
	C_BARN_PUT,
	C_BARN_PUT_FAIL,
	C_REFILLS,
	C_REFILL_OBJS,
	C_FLUSHES,
	C_FLUSH_OBJS,
	C_SLAB_ALLOC,
	C_SLAB_FREE,
	C_BARN_LOCKS,
#endif
	C_NR
};


/*
 * The cache counted and the thread whose work counts, set by the benchmark
 * around its run; one run at a time, as sb_main.c serialises runs.
 */
extern struct kmem_cache *hr_cache;
extern struct task_struct *hr_task;

#if defined(CONFIG_SLAB) || defined(CONFIG_SLUB)
#define HR_PER_CPU_CACHE	1
#else
#define HR_PER_CPU_CACHE	0
#endif

/* Whether the probe runs for the benchmark's thread (and its cache). */
bool hr_mine(void);
bool hr_mine_on_cache(struct pt_regs *regs);
void hr_add(unsigned int c, u64 v);

/*
 * A probe: a kprobe (@pre) or a kretprobe (@entry, @ret, @data_size).
 * Handlers run with preemption off, possibly with IRQs off: they count,
 * nothing else, and never allocate.
 */
struct hr_probe {
	/* Key under "probes" in the result. */
	const char *name;
	/* Candidates; gcc may add .constprop.0, .isra.0 or .part.0. */
	const char * const *symbols;
	kprobe_pre_handler_t pre;
	kretprobe_handler_t entry;
	kretprobe_handler_t ret;
	size_t data_size;
};

#ifdef SB_SLUB_SHEAVES
/* The probes of SLUB with sheaves (hitrate_sheaves.c). */
#define HR_NR_SHEAF_PROBES	7
extern const struct hr_probe hr_sheaf_probes[HR_NR_SHEAF_PROBES];
/*
 * Reads hr_cache's layout: the barn that CPU @cpu uses, the node list
 * locks, the statistics. 0, or -EINVAL with a reason in @ctx when it is not the
 * layout this module knows.
 */
int hr_sheaves_prepare(struct sb_ctx *ctx, unsigned int cpu);
/* The node list locks of hr_cache, at most @max; their number. */
unsigned int hr_sheaves_node_locks(unsigned long *locks, unsigned int max);
bool hr_is_barn_lock(unsigned long lock);
unsigned int hr_sheaf_capacity(void);
#ifdef CONFIG_SLUB_STATS
/* hr_cache's struct kmem_cache_stats, per CPU. */
const unsigned int __percpu *hr_sheaves_stats(void);
#endif
#endif

/*
 * Reads from hr_cache what the probes of a run on CPU @cpu need: its
 * locks, its layout. 0 or -errno with the reason in @ctx.
 */
int hr_probes_prepare(struct sb_ctx *ctx, unsigned int cpu);
/* Registers every probe, or none and fails with the reason: 0 or -errno. */
int hr_register(struct sb_ctx *ctx);
void hr_unregister_all(void);
/* Kretprobe calls missed for want of an instance: the counts are short. */
unsigned long hr_missed(void);
/* Counter @c summed over the CPUs. */
u64 hr_total(unsigned int c);
/* Whether C_ALLOC_MOVED is counted: SLUB counts it only on a walkable list. */
bool hr_alloc_moved_counted(void);
/* "probes", each one's symbol, and what hr_probes_prepare() found. */
void hr_out_probes(struct sb_out *out);

#if defined(CONFIG_SLUB_STATS) && defined(SB_SLUB_SHEAVES)
#define HR_NR_STATS	12
#elif defined(CONFIG_SLUB_STATS) && defined(SB_SLUB_DEF_H)
#define HR_NR_STATS	4
#elif defined(CONFIG_SLAB) && defined(CONFIG_DEBUG_SLAB)
#define HR_NR_STATS	3
#else
#define HR_NR_STATS	0
#endif

#if HR_NR_STATS
/* Whether the statistics' layout was checked against hr_cache and holds. */
bool hr_stats_ok(void);
/* Statistic @i of hr_cache, summed over the CPUs where it is per CPU. */
unsigned long hr_stat(unsigned int i);
/* The statistics, @stats[i][r] for repeat r, or why they were not read. */
void hr_out_stats(struct sb_out *out, u64 * const *stats, unsigned int repeats,
		  bool ok);
#endif

#endif /* _SB_HITRATE_H */
