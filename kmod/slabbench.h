/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabbench: slab allocator microbenchmarks driven over debugfs.
 *
 * The module is split as in Brouer's time_bench: a measurement core
 * (sb_core.c: pinned threads, clocks, loop overhead, the samples of a
 * run), memory accounting (sb_mem.c: slab pages, settling, what a run may
 * hold), the plumbing (sb_main.c: debugfs; sb_spec.c: parsing; sb_out.c:
 * JSON output) and the benchmarks, one file each (bench_*.c: a loop and
 * its parameters), listed in sb_benches.h.
 */
#ifndef _SLABBENCH_H
#define _SLABBENCH_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/slab.h>
#include <linux/compiler.h>
#include <linux/timekeeping.h>
#include <linux/sched.h>
#include <linux/sched/stat.h>
#include <linux/mmzone.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#endif
#include "sb_mark.h"

#define SB_MAX_PARAMS	12
#define SB_OUT_SIZE	(512 * 1024)
/* Most samples of one metric: the largest repeats= of any benchmark. */
#define SB_MAX_SAMPLES	1000
/*
 * Bound of cpu= parameters (x86 NR_CPUS at most); whether the CPU is
 * online is checked when the benchmark runs.
 */
#define SB_CPU_ID_MAX	8191
/*
 * Least time spent in untimed passes before the first timed repeat: under
 * emulation the first passes also translate the code (TCG), and right
 * after boot the guest is still settling; on hardware 50 ms costs nothing.
 */
#define SB_WARMUP_NS	(50 * NSEC_PER_MSEC)
/*
 * A known cost added to every fastpath alloc+free (module parameter
 * extra_ns, default 0): a busy loop calibrated to take that many ns, a
 * slowdown of known size for the known-answer tests of the statistics,
 * never part of a real measurement. At most SB_EXTRA_NS_MAX ns.
 */
extern unsigned int sb_extra_ns;
#define SB_EXTRA_NS_MAX	100000
/* Operations between two cond_resched() calls in a timed loop. */
#define SB_BATCH	1024
/*
 * Most memory one run may hold (further capped at a quarter of RAM), so
 * that no spec can push the guest into reclaim or the OOM killer.
 */
#define SB_MEM_CAP	(1ULL << 30)
/*
 * Most allocator operations (alloc+free pairs) one run may perform: about
 * two minutes under TCG at 1 us each, so that no spec runs for hours.
 */
#define SB_WORK_CAP	100000000ULL

/* SLAB_NO_MERGE: upstream from 6.5, in our 6.1 backport. */
#ifdef SLAB_NO_MERGE
#define SB_HAVE_SLAB_NO_MERGE	true
#else
#define SB_HAVE_SLAB_NO_MERGE	false
#endif

/* JSON output buffer; an overflow makes the whole document invalid. */
struct sb_out {
	char *buf;
	size_t len;
	size_t size;
	bool overflow;
	/* Self-test: every figure is checked against its unit's range. */
	bool check;
	char bad[96];	/* the first figure out of range, if any */
	/* SB_MAX_SAMPLES, sorted for a metric's median and quartiles. */
	s64 *sorted;
	/*
	 * Where the record stands: @depth containers open; bit d of
	 * @started says the one at depth d has a member (the next needs a
	 * comma), of @array that it is an array. @in_metrics: "metrics" is
	 * open, so no fact may follow.
	 */
	unsigned int depth;
	u32 started;
	u32 array;
	bool in_metrics;
};

int sb_out_init(struct sb_out *out, size_t size);
/* Empties @out for a new document; @check: range-check its figures. */
void sb_out_reset(struct sb_out *out, bool check);
void sb_out_free(struct sb_out *out);
__printf(2, 3) void sb_printf(struct sb_out *out, const char *fmt, ...);
void sb_out_string(struct sb_out *out, const char *s);
void sb_out_error(struct sb_out *out, const char *reason, int err);
void sb_out_milli(struct sb_out *out, s64 milli);

/*
 * A benchmark's facts about its run, the members of its result beside
 * "test", "params" and "metrics": the core writes the separators and
 * the braces. @key is NULL for an element of an array. Every fact comes
 * before the first metric.
 */
void sb_rec_u64(struct sb_out *out, const char *key, u64 v);
void sb_rec_s64(struct sb_out *out, const char *key, s64 v);
void sb_rec_bool(struct sb_out *out, const char *key, bool v);
void sb_rec_str(struct sb_out *out, const char *key, const char *s);
void sb_rec_milli(struct sb_out *out, const char *key, s64 milli);
/* A fact that is an object or an array of facts, up to sb_rec_close(). */
void sb_rec_open(struct sb_out *out, const char *key);
void sb_rec_open_array(struct sb_out *out, const char *key);
void sb_rec_close(struct sb_out *out);

/* Metric @name of the result, in "metrics". */
void sb_out_metric(struct sb_out *out, const char *name, const char *unit,
		   bool lower_is_better, const s64 *milli, unsigned int n);

/* One coordinate of a sweep point: a word if @str is set, else @num. */
struct sb_label {
	const char *key;
	const char *str;
	u64 num;
};

struct sb_samples;

/*
 * Metric @metric of @s at @point: its samples and their "summary", under
 * "NAME[k=v,...]" with "labels" if @labels is set (it ends at a NULL
 * key); with the samples' interrupts ("irqs") and, for SB_NS, their
 * cost-model windows ("windows", "ops_per_window", and the twin loop's
 * "loop_window", "loop_switches" and "gross" samples), as @s->flags
 * asks, and with either the task's context switches ("switches").
 */
void sb_out_samples(struct sb_out *out, const char *name,
		    const struct sb_label *labels, const char *unit,
		    bool lower_is_better, const struct sb_samples *s,
		    unsigned int metric, unsigned int point);
/* SB_NS or SB_CYCLES of @s per operation, lower is better. */
void sb_out_clock(struct sb_out *out, const char *name,
		  const struct sb_label *labels, const struct sb_samples *s,
		  unsigned int clock, unsigned int point);
/* Both clocks of @s at @point: "ns_per_@per", then "cycles_per_@per". */
void sb_out_clocks(struct sb_out *out, const char *per,
		   const struct sb_label *labels, const struct sb_samples *s,
		   unsigned int point);
/*
 * "point_order" of @s: per repeat, the points in the order they ran, each
 * written by @label(@out, index, @arg) as a fact without a key.
 */
void sb_out_samples_order(struct sb_out *out, const struct sb_samples *s,
			  void (*label)(struct sb_out *out, u32 idx,
					const void *arg),
			  const void *arg);
/* "loop_overhead_ns": the twin loop's time per operation at point 0. */
void sb_out_loop_overhead(struct sb_out *out, const struct sb_samples *s);
/*
 * The points of a benchmark that times its allocations and its frees
 * apart, and its output: "loop_overhead_ns" (of the allocations' loop)
 * and "metrics", alloc_ns_per_op, free_ns_per_op, then their cycles.
 */
enum { SB_ALLOC, SB_FREE, SB_SIDES };
void sb_out_alloc_free(struct sb_out *out, const struct sb_samples *s);

enum sb_param_type {
	SB_U64,
	SB_ENUM,
};

struct sb_param {
	const char *name;
	const char *desc;
	enum sb_param_type type;
	u64 def;
	u64 min;
	u64 max;
	/* SB_ENUM: NULL-terminated; the value is the index. */
	const char * const *choices;
};

struct sb_ctx;

struct sb_bench {
	const char *name;
	const char *desc;
	const struct sb_param *params;
	unsigned int nr_params;
	/*
	 * Runs, then gives the core its facts (sb_rec_*()) and metrics
	 * (sb_out_metric() and the like) to write; 0 or -errno.
	 */
	int (*run)(struct sb_ctx *ctx);
	/* Parameters of its run in the self-test: small, quick, complete. */
	const char *selftest;
	/*
	 * Why this kernel cannot run it (run is NULL), or NULL: the
	 * catalogue publishes it, specs and the self-test are refused it.
	 */
	const char *absent;
};

/*
 * sb_bench_@id, for its line in sb_benches.h: @table its parameters (an
 * array), @run_fn its run and @selftest_spec its self-test's parameters.
 */
#define SB_DEFINE_BENCH(id, description, table, run_fn, selftest_spec)	\
const struct sb_bench sb_bench_##id = {					\
	.name = #id,							\
	.desc = description,						\
	.params = table,						\
	.nr_params = ARRAY_SIZE(table),					\
	.run = run_fn,							\
	.selftest = selftest_spec,					\
}

/*
 * The samples of a run, kept by the core so that a benchmark holds only
 * its loop: @nr_metrics figures per sweep point and repeat (a timed
 * benchmark's are SB_NS and SB_CYCLES per operation, net of the point's
 * twin loop), and per point and repeat the sample's window, the
 * interrupts taken in it and the task's context switches. A benchmark without a sweep has one point, 0.
 */
enum { SB_NS, SB_CYCLES, SB_CLOCKS };

/*
 * The smallest step each clock (SB_NS, SB_CYCLES) takes between two
 * back-to-back reads that differ, measured at load: the shortest
 * interval it tells apart, a read's own cost included. A sample summed
 * over n intervals, net of a twin summed over m, is known to within
 * (n + m) steps: its "resolution" per operation.
 */
extern u64 sb_clock_step[SB_CLOCKS];
void sb_clock_steps(void);

/*
 * What the output gives beside the samples: "irqs", "windows" (SB_NS);
 * either brings "switches" and "crowded".
 */
#define SB_SAMPLE_IRQS		BIT(0)
#define SB_SAMPLE_WINDOWS	BIT(1)

struct sb_samples {
	unsigned int nr_metrics;
	unsigned int nr_points;
	unsigned int repeats;
	unsigned int flags;
	/* [metric][point][repeat], in thousandths. */
	s64 *val;
	/* [point][repeat] */
	u32 *windows;
	u64 *irqs;
	u64 *switches;
	u64 *crowded;
	u32 *spans;
	/* [repeat][i]: the point run i-th in that repeat (sb_samples_shuffle()). */
	u32 *order;
	/* [point]: the twin loop, and the operations of one of its samples. */
	struct sb_timer *loop;
	u64 *ops;
};

struct sb_ctx {
	const struct sb_bench *bench;
	u64 val[SB_MAX_PARAMS];
	struct sb_out *out;
	struct sb_samples samples;
	/* Set by a benchmark that fails with a reason for the user. */
	char reason[128];
};

/*
 * The benchmarks of sb_benches.h, one per bench_NAME.c, declared from
 * that list in one declaration that ends with the table of them. A list
 * macro for both would be a complex macro to checkpatch; a file read
 * twice is not.
 */
#define SB_BENCH(name) sb_bench_##name,
extern const struct sb_bench
#include "sb_benches.h"
	* const sb_benches[];
#undef SB_BENCH
extern const unsigned int sb_nr_benches;

const struct sb_bench *sb_find_bench(const char *name, size_t len);
/* Parses @spec, runs the benchmark, writes its result or {"error"} to @out. */
int sb_execute(struct sb_out *out, char *spec);
/* Closes what a benchmark's result left open: "metrics" and the record. */
void sb_rec_end(struct sb_out *out);
void sb_selftest(struct sb_out *ktap);
int sb_parse_spec(struct sb_ctx *ctx, char *spec);
void sb_out_params(struct sb_out *out, const struct sb_ctx *ctx);
void sb_out_catalogue(struct sb_out *out);

__printf(2, 3) int sb_fail(struct sb_ctx *ctx, const char *fmt, ...);

/* Measurement core (sb_core.c). */
struct sb_timer {
	u64 ns;
	u64 cycles;
	u64 start_ns;
	u64 start_cycles;
	/*
	 * Cost-model window of the sample being timed (sb_mark.h): every
	 * batch of one sample is counted under the same id, which the
	 * results give beside the sample ("windows").
	 */
	u32 window;
	/* Interrupts this CPU took inside the windows, read outside them. */
	u64 irqs;
	u64 start_irqs;
	/*
	 * Times the task was switched out inside the windows, read outside
	 * them: the cost model counts whatever ran meanwhile.
	 */
	u64 switches;
	u64 start_switches;
	/*
	 * Batches that ended with another task runnable on this CPU, on a
	 * kernel that can preempt inside an allocator's call (might_resched()
	 * or preempt_enable()). Then the scheduler may have run in this task
	 * without switching it out (schedule() picked it again), and the cost
	 * model would count that. On one CPU no other task stops being
	 * runnable without a switch, so a check at each batch's end sees
	 * every such window. Under PREEMPT_NONE the fast paths have no such
	 * point, nor has a twin loop anywhere: no allocator call, no
	 * preempt_enable(), no cond_resched().
	 */
	u64 crowded;
	/* Intervals summed into ns and cycles: each is known to a clock step. */
	u32 spans;
};

/* A new window id, unique since the module was loaded; never 0. */
u32 sb_window_next(void);
u64 sb_irq_count(void);
u64 sb_switch_count(void);

/*
 * Starts a sample: times, counts, interrupts and switches from zero,
 * under a new window id.
 */
static inline void sb_timer_reset(struct sb_timer *t)
{
	t->ns = 0;
	t->cycles = 0;
	t->window = sb_window_next();
	t->irqs = 0;
	t->switches = 0;
	t->crowded = 0;
	t->spans = 0;
	sb_mark_idt();
}

static __always_inline u64 sb_cycles(void)
{
#ifdef CONFIG_X86
	return rdtsc_ordered();
#else
	return get_cycles();
#endif
}

static __always_inline void sb_timer_start(struct sb_timer *t)
{
	t->start_irqs = sb_irq_count();
	t->start_switches = sb_switch_count();
	t->start_ns = ktime_get_ns();
	t->start_cycles = sb_cycles();
	sb_mark_start(t->window);
}

static __always_inline void sb_timer_stop(struct sb_timer *t)
{
	u64 cycles;

	sb_mark_end();
	cycles = sb_cycles();

	t->ns += ktime_get_ns() - t->start_ns;
	t->cycles += cycles - t->start_cycles;
	t->irqs += sb_irq_count() - t->start_irqs;
	t->switches += sb_switch_count() - t->start_switches;
	t->crowded += !preempt_model_none() && !single_task_running();
	t->spans++;
}

/*
 * touch=, a parameter of every timed benchmark: a caller writes an object
 * it allocates and reads it before freeing it, so the cost of bringing
 * its first cache line in (and SLUB's free pointer inside the object)
 * belongs in the figure. One word per object dirties the line.
 */
#define SB_TOUCH_DESC	"1: write the object's first cache line after alloc and read it before free, as callers do; 0: leave objects untouched"

/*
 * What a twin loop hands out instead of an object: a line of its own,
 * which the twin's touches write and read as the real loop's touch the
 * objects. sb_twin() hides the pointer from the compiler, which would
 * otherwise drop the twin's test for NULL.
 */
extern unsigned long sb_twin_line[];

static __always_inline void *sb_twin(void)
{
	void *obj = sb_twin_line;

	OPTIMIZER_HIDE_VAR(obj);
	return obj;
}

static __always_inline void sb_touch_write(void *obj, bool touch)
{
	if (touch)
		WRITE_ONCE(*(unsigned long *)obj, (unsigned long)obj);
}

static __always_inline void sb_touch_read(const void *obj, bool touch)
{
	if (touch)
		(void)READ_ONCE(*(const unsigned long *)obj);
}

int sb_run_on_cpu(unsigned int cpu, int (*fn)(void *arg), void *arg);
int sb_run_on_cpus(const unsigned int *cpus, unsigned int nr,
		   int (*fn)(void *arg, unsigned int idx), void *arg);
void sb_loop_overhead(u64 iters, struct sb_timer *t);
/*
 * The run's samples, @ctx->samples: @nr_metrics figures at @nr_points
 * points over @repeats repeats, with what @flags asks for in the output;
 * every point's operations per sample are @ops until the benchmark says
 * otherwise. sb_execute() frees them after the run, whatever its end.
 */
int sb_samples_alloc(struct sb_ctx *ctx, unsigned int nr_metrics,
		     unsigned int nr_points, unsigned int repeats,
		     unsigned int flags, u64 ops);
void sb_samples_free(struct sb_samples *s);

/* The @repeats samples of @metric at @point. */
static inline s64 *sb_samples_at(const struct sb_samples *s,
				 unsigned int metric, unsigned int point)
{
	return s->val + (metric * s->nr_points + point) * s->repeats;
}

/* Records @t as sample @repeat of @point: clocks, window, irqs, switches. */
void sb_sample(struct sb_samples *s, unsigned int point, unsigned int repeat,
	       const struct sb_timer *t);
/*
 * The order in which repeat @repeat runs the points, kept for
 * "point_order": sweep points run in a shuffled order per repeat, so that
 * a point does not inherit the state its neighbour in ascending order
 * left, nor drift line up with the sweep. The order is fixed by @repeat,
 * the same on every kernel compared.
 */
const u32 *sb_samples_shuffle(struct sb_samples *s, unsigned int repeat);
/* The twin loop's own time per operation at @point. */
s64 sb_samples_loop_milli(const struct sb_samples *s, unsigned int point);

/*
 * Fisher-Yates over prandom seeded with @seed: the same permutation of
 * @a on every kernel compared.
 */
void sb_shuffle(u32 *a, u32 n, u64 seed);

/* Whether warm-up passes begun at @start_ns should go on. */
static inline bool sb_warming(u64 start_ns)
{
	return ktime_get_ns() - start_ns < SB_WARMUP_NS;
}
void sb_loop_overhead_batched(u64 iters, u64 batch, struct sb_timer *t);
s64 sb_per_op_milli(u64 total, u64 overhead, u64 ops);

/*
 * What a benchmark asks of its private cache's sheaves, SLUB's per-CPU
 * object arrays: on = 0 creates it without (from 7.0, where every other
 * cache has them; as SLAB_NOLEAKTRACE, the one permitted flag that
 * leaves them out); capacity > 0 asks for that many objects a
 * sheaf through kmem_cache_args (from 6.18). The kernel takes the larger
 * of the request and its own default (calculate_sheaf_capacity()), so
 * nothing below the default can be asked for. A kernel without sheaves
 * refuses either request rather than run without it.
 */
struct sb_sheaves {
	u64 on;
	u64 capacity;
};

#define SB_SHEAF_CAPACITY_MAX	4096
#define SB_PARAM_SHEAVES \
	{ "sheaves", "0: the private cache gets no sheaves (SLUB from 7.0; created SLAB_NOLEAKTRACE, which leaves them out)", \
	  SB_U64, 1, 0, 1 }
#define SB_PARAM_SHEAF_CAPACITY \
	{ "sheaf_capacity", "objects per sheaf asked for the private cache (SLUB from 6.18; the kernel keeps its default when that is more); 0: the default", \
	  SB_U64, 0, 0, SB_SHEAF_CAPACITY_MAX }

struct kmem_cache *sb_cache_create(const char *name, unsigned int size);
/* On failure *cache is NULL, which kmem_cache_destroy() accepts. */
int sb_cache_create_unmerged(struct sb_ctx *ctx, const char *name,
			     unsigned int size, struct kmem_cache **cache);
int sb_cache_create_sheaves(struct sb_ctx *ctx, const char *name,
			    unsigned int size, const struct sb_sheaves *sh,
			    struct kmem_cache **cache);
/*
 * The sheaf capacity the kernel gave cache @name, read from its sysfs
 * directory as root would; negative where there is none to read (a kernel
 * without sheaves for every cache, or no such file).
 */
s64 sb_cache_sheaf_capacity(const char *name);
/* "sheaf_capacity":N, of cache @name where it has one. */
void sb_out_sheaf_capacity(struct sb_out *out, const char *name);
/*
 * The private cache a benchmark measured: not merged (sb_cache_create_*()
 * saw to it) and its object size.
 */
void sb_out_cache(struct sb_out *out, struct kmem_cache *s);

/* Limits of a run, checked before it allocates anything (sb_spec.c). */
int sb_check_mem(struct sb_ctx *ctx, u64 bytes);
int sb_check_work(struct sb_ctx *ctx, u64 ops);
int sb_check_cpu(struct sb_ctx *ctx, const char *param, u64 cpu);

/* Memory accounting (sb_mem.c). */
u64 sb_mem_cap(void);
long sb_node_pages(enum node_stat_item item);
long sb_slab_pages(void);
long sb_settled_slab_pages(void);
/*
 * What a benchmark keeps alive after its result, for userspace to inspect
 * (e.g. a cache next to /proc/slabinfo): @release runs when the next spec
 * is written, on SB_SPEC_RELEASE, or at unload. Called with runs
 * serialised.
 */
void sb_hold(void (*release)(void *data), void *data);
void sb_release_held(void);

#ifdef CONFIG_SLAB
/*
 * The head of SLAB's struct kmem_cache (include/linux/slab_def.h, which a
 * module cannot include: it needs mm/slab.h). SLAB's code is frozen in 6.1
 * (removed in 6.8), so the layout cannot drift; offsets checked with
 * offsetof() against 6.1's mm/slab.h. Read-only use by counting benchmarks.
 */
struct sb_slab_cache_head {
	void __percpu *cpu_cache;	/* struct array_cache, per CPU */
	unsigned int batchcount;
	unsigned int limit;
	unsigned int shared;
	unsigned int size;		/* object stride in the slab */
	u32 reciprocal_m;
	u8 reciprocal_sh1;
	u8 reciprocal_sh2;
	slab_flags_t flags;
	unsigned int num;		/* objects per slab */
	unsigned int gfporder;		/* pages per slab = 1 << gfporder */
};

static inline const struct sb_slab_cache_head *
sb_slab_head(const struct kmem_cache *s)
{
	return (const struct sb_slab_cache_head *)s;
}

/* "slab_tunables": how many free objects each CPU's array may keep. */
void sb_out_slab_tunables(struct sb_out *out,
			  const struct sb_slab_cache_head *h);
#endif

#endif /* _SLABBENCH_H */
