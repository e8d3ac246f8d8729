/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of the hitrate benchmark (bench_hitrate.c): the kprobes that
 * count what the allocator did (hitrate_probes.c), and the allocator's
 * own statistics that the counts are checked against (hitrate_stats.c).
 */
#ifndef _SB_HITRATE_H
#define _SB_HITRATE_H

#include <linux/types.h>
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

/* Reads from hr_cache what the probes need: its locks, its layout. */
void hr_probes_prepare(void);
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

#if defined(CONFIG_SLUB_STATS) && defined(SB_SLUB_DEF_H)
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
