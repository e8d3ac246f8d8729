// SPDX-License-Identifier: GPL-2.0
/*
 * caches: what keeping objects on every CPU costs across many caches, for
 * the memory census (docs/census.md). caches private caches, named
 * sb-cache-000, sb-cache-001, ... so that the census, /proc/slabinfo and
 * /sys/kernel/slab find them, take their object sizes in turn from the
 * sizes a booted kernel uses (caches_sizes[]). Each online CPU in turn
 * allocates objs objects from every cache, on a kthread bound to it.
 *
 * free_pct > 0 is the churn workload: then, for each CPU in turn, a
 * random free_pct percent of the objects it allocated (which ones: a
 * selection sample over all of them, seeded by seed) are freed on the
 * next online CPU, which does not own their slabs (with one CPU, on the
 * same). hold=1 keeps the caches and the objects still live until the
 * next spec or SB_SPEC_RELEASE, for userspace to read where the memory
 * sits; hold=0 frees everything at once. Either way every object is
 * freed, then every cache destroyed.
 *
 * set_cpu_partial=1 writes cpu_partial to SLUB's own knob of every cache,
 * /sys/kernel/slab/NAME/cpu_partial (the directory of an unmerged cache
 * has its name), before the cache is filled. A kernel without per-CPU
 * partial slabs refuses the spec: SLAB, SLOB, and SLUB without
 * CONFIG_SLUB_CPU_PARTIAL (whose knob takes 0 and changes nothing).
 *
 * The result is exact counts only. The memory they occupy is measured by
 * the census; slab_pages_grown (the slab page counters after the churn
 * against before the caches were created, structures included) is a
 * sanity check, not a breakdown.
 */
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/fs.h>
#include <linux/err.h>
#include <linux/cpumask.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include "slabbench.h"

enum {
	P_CACHES,
	P_OBJS,
	P_HOLD,
	P_FREE_PCT,
	P_SEED,
	P_SET_CPU_PARTIAL,
	P_CPU_PARTIAL,
	P_SIZE,
	P_SHEAVES,
	P_SHEAF_CAPACITY,
};

#define CACHES_MAX		800
#define CACHES_OBJS_MAX		10000
#define CACHES_CPU_PARTIAL_MAX	10000
/* Three digits up to CACHES_MAX - 1; room for any unsigned int. */
#define CACHES_NAME_FMT		"sb-cache-%03u"
#define CACHES_NAME_LEN		24

/*
 * What a run holds beside its objects, for the check made before it
 * allocates anything; bounds, not measurements. Per cache: struct
 * kmem_cache, its kmem_cache_nodes and SLUB's sysfs directory (some 31
 * kernfs nodes). Per cache and possible CPU: the per-CPU structure, at
 * most SLAB's array_cache (976 bytes for objects up to 256 bytes).
 */
#define CACHES_STRUCT_BYTES	SZ_8K
#define CACHES_PERCPU_BYTES	SZ_1K

static const struct sb_param caches_params[] = {
	[P_CACHES] = { "caches", "private caches sb-cache-NNN, object sizes in turn from those a booted kernel uses",
		       SB_U64, 100, 1, CACHES_MAX },
	[P_OBJS] = { "objs", "objects allocated from every cache on every online CPU, on that CPU",
		     SB_U64, 8, 0, CACHES_OBJS_MAX },
	[P_HOLD] = { "hold", "1: keep the caches and live objects until the next spec",
		     SB_U64, 0, 0, 1 },
	[P_FREE_PCT] = { "free_pct", "percent of the objects of each CPU then freed on the next online CPU, chosen at random",
			 SB_U64, 0, 0, 100 },
	[P_SEED] = { "seed", "seed of the choice of objects to free", SB_U64,
		     1, 0, U32_MAX },
	[P_SET_CPU_PARTIAL] = { "set_cpu_partial", "1: write cpu_partial to /sys/kernel/slab/NAME/cpu_partial of every cache before filling it (SLUB only)",
				SB_U64, 0, 0, 1 },
	[P_CPU_PARTIAL] = { "cpu_partial", "per-CPU partial limit in objects, with set_cpu_partial=1",
			    SB_U64, 0, 0, CACHES_CPU_PARTIAL_MAX },
	[P_SIZE] = { "size", "object size of every cache in bytes; 0: sizes in turn from those a booted kernel uses",
		     SB_U64, 0, 0, 8192 },
	[P_SHEAVES] = SB_PARAM_SHEAVES,
	[P_SHEAF_CAPACITY] = SB_PARAM_SHEAF_CAPACITY,
};

/*
 * Object sizes, used in turn: the objsize column (the slot size) of the
 * 33 caches other than kmalloc-* in /proc/slabinfo of a booted slub guest,
 * in slabinfo's order: Debian 6.1.192, 2 vCPUs, 512 MB, snapshot
 * slabinfo.before of `slabbench run --alloc=slub` (build 80f373a021dc).
 * SLUB lists a merged cache once, under the name of its first member.
 */
static const unsigned int caches_sizes[] = {
	960,	/* UNIX */
	16,	/* ep_head */
	768,	/* sock_inode_cache */
	448,	/* skbuff_fclone_cache */
	256,	/* skbuff_head_cache */
	192,	/* proc_dir_entry */
	40,	/* pde_opener */
	648,	/* proc_inode_cache */
	120,	/* seq_file */
	704,	/* shmem_inode_cache */
	88,	/* kernfs_iattrs_cache */
	320,	/* mnt_cache */
	576,	/* inode_cache */
	192,	/* dentry */
	4096,	/* names_cache */
	704,	/* files_cache */
	768,	/* signal_cache */
	2112,	/* sighand_cache */
	4992,	/* task_struct */
	192,	/* cred_jar */
	104,	/* anon_vma */
	128,	/* pid */
	72,	/* Acpi-Operand */
	56,	/* Acpi-Parse */
	80,	/* Acpi-State */
	48,	/* Acpi-Namespace */
	992,	/* perf_event */
	256,	/* maple_node */
	200,	/* radix_tree_node */
	896,	/* mm_struct */
	64,	/* vmap_area */
	64,	/* kmem_cache_node */
	256,	/* kmem_cache */
};

static unsigned int caches_size(const struct sb_ctx *ctx, unsigned int idx)
{
	if (ctx->val[P_SIZE])
		return ctx->val[P_SIZE];
	return caches_sizes[idx % ARRAY_SIZE(caches_sizes)];
}

struct caches_run {
	unsigned int nr_caches;
	unsigned int objs;
	unsigned int nr_cpus;
	unsigned int *cpus;
	struct kmem_cache **caches;
	/* Per CPU index: nr_caches * objs objects, cache by cache; NULL: freed. */
	void ***obj;
	/* The CPU index the running kthread works for. */
	unsigned int cur;
	unsigned int free_pct;
	struct rnd_state rnd;
	u64 allocated;
	u64 freed;
	/* Slab pages before the first cache, and most the run may add. */
	long slab_base;
	long slab_cap;
};

static unsigned long caches_per_cpu(const struct caches_run *r)
{
	return (unsigned long)r->nr_caches * r->objs;
}

static bool caches_over_cap(const struct caches_run *r)
{
	return sb_slab_pages() - r->slab_base > r->slab_cap;
}

/* On CPU r->cpus[r->cur]: objs objects from every cache. */
static int caches_fill(void *arg)
{
	struct caches_run *r = arg;
	void **obj = r->obj[r->cur];
	unsigned int c, i;
	unsigned long pos = 0;

	for (c = 0; c < r->nr_caches; c++) {
		for (i = 0; i < r->objs; i++, pos++) {
			obj[pos] = kmem_cache_alloc(r->caches[c], GFP_KERNEL);
			if (!obj[pos])
				return -ENOMEM;
			r->allocated++;
			if (!(pos % SB_BATCH))
				cond_resched();
		}
		/* The pages a whole slab per CPU takes are the point here. */
		if (caches_over_cap(r))
			return -E2BIG;
	}
	return 0;
}

/*
 * On the CPU after r->cpus[r->cur]: frees free_pct percent of the objects
 * that CPU allocated, rounded down, chosen by selection sampling (Knuth's
 * algorithm S): each object in turn with probability left / remaining,
 * which frees exactly that many, every subset of that size equally
 * likely. One generator for all CPUs, used in CPU order: deterministic.
 */
static int caches_churn(void *arg)
{
	struct caches_run *r = arg;
	void **obj = r->obj[r->cur];
	unsigned long n = caches_per_cpu(r), pos;
	unsigned long left = n * r->free_pct / 100;

	for (pos = 0; pos < n && left; pos++) {
		if (reciprocal_scale(prandom_u32_state(&r->rnd), n - pos) >= left)
			continue;
		kmem_cache_free(r->caches[pos / r->objs], obj[pos]);
		obj[pos] = NULL;
		left--;
		if (!(++r->freed % SB_BATCH))
			cond_resched();
	}
	return 0;
}

/* Every object still live, then every cache, then the run itself. */
static void caches_release(void *data)
{
	struct caches_run *r = data;
	unsigned long n = caches_per_cpu(r), pos;
	unsigned int i;

	for (i = 0; r->obj && i < r->nr_cpus; i++) {
		for (pos = 0; r->obj[i] && pos < n; pos++) {
			if (r->obj[i][pos])
				kmem_cache_free(r->caches[pos / r->objs],
						r->obj[i][pos]);
			if (!(pos % SB_BATCH))
				cond_resched();
		}
		kvfree(r->obj[i]);
	}
	for (i = 0; r->caches && i < r->nr_caches; i++)
		kmem_cache_destroy(r->caches[i]);
	kfree(r->obj);
	kfree(r->caches);
	kfree(r->cpus);
	kfree(r);
}

#ifdef CONFIG_SLUB_CPU_PARTIAL
/* Writes @value to SLUB's knob of cache @name, as root would. */
static int caches_set_cpu_partial(struct sb_ctx *ctx, const char *name,
				  unsigned int value)
{
	char path[64], buf[16];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	int len;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/cpu_partial", name);
	len = snprintf(buf, sizeof(buf), "%u\n", value);
	f = filp_open(path, O_WRONLY, 0);
	if (IS_ERR(f))
		return sb_fail(ctx, "set_cpu_partial=1: cannot open %s (error %ld)",
			       path, PTR_ERR(f));
	n = kernel_write(f, buf, len, &pos);
	filp_close(f, NULL);
	if (n != len)
		return sb_fail(ctx, "set_cpu_partial=1: writing %u to %s failed (%zd)",
			       value, path, n);
	return 0;
}
#else
static int caches_set_cpu_partial(struct sb_ctx *ctx, const char *name,
				  unsigned int value)
{
	return sb_fail(ctx, "set_cpu_partial=1: this kernel has no per-CPU partial slabs (not SLUB, or SLUB without CONFIG_SLUB_CPU_PARTIAL)");
}
#endif

/*
 * What the run would hold at least: every CPU's objects of each cache in
 * whole pages (a CPU takes a slab of its own, SLAB a batch per CPU), the
 * pointer arrays and the caches' structures. Bigger slabs than a page
 * are caught while filling (caches_over_cap()).
 */
static int caches_check(struct sb_ctx *ctx, unsigned int nr_cpus)
{
	u64 nr = ctx->val[P_CACHES], objs = ctx->val[P_OBJS];
	u64 per_cpu = 0, bytes, cap = sb_mem_cap();
	unsigned int c;

	if (ctx->val[P_CPU_PARTIAL] && !ctx->val[P_SET_CPU_PARTIAL])
		return sb_fail(ctx, "cpu_partial=%llu without set_cpu_partial=1",
			       ctx->val[P_CPU_PARTIAL]);
	for (c = 0; c < nr; c++)
		per_cpu += PAGE_ALIGN(objs * caches_size(ctx, c)) +
			   objs * sizeof(void *);
	bytes = per_cpu * nr_cpus +
		nr * (CACHES_STRUCT_BYTES +
		      (u64)num_possible_cpus() * CACHES_PERCPU_BYTES);
	if (bytes > cap)
		return sb_fail(ctx, "would hold at least %llu bytes (%llu caches x %llu objects x %u CPUs, whole pages, structures), cap %llu",
			       bytes, nr, objs, nr_cpus, cap);
	return sb_check_work(ctx, nr * objs * nr_cpus);
}

static int caches_setup(struct sb_ctx *ctx, struct caches_run *r)
{
	unsigned long n = caches_per_cpu(r);
	const struct sb_sheaves sh = {
		.on = ctx->val[P_SHEAVES],
		.capacity = ctx->val[P_SHEAF_CAPACITY],
	};
	char name[CACHES_NAME_LEN];
	unsigned int cpu, i = 0;
	int ret;

	r->cpus = kcalloc(r->nr_cpus, sizeof(*r->cpus), GFP_KERNEL);
	r->caches = kcalloc(r->nr_caches, sizeof(*r->caches), GFP_KERNEL);
	r->obj = kcalloc(r->nr_cpus, sizeof(*r->obj), GFP_KERNEL);
	if (!r->cpus || !r->caches || !r->obj)
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		if (i == r->nr_cpus)
			break;
		r->cpus[i++] = cpu;
	}
	/* A CPU went offline since it was counted. */
	if (i < r->nr_cpus)
		return sb_fail(ctx, "%u CPUs online, %u counted", i, r->nr_cpus);
	for (i = 0; i < r->nr_cpus; i++) {
		r->obj[i] = kvcalloc(n, sizeof(void *), GFP_KERNEL);
		if (n && !r->obj[i])
			return -ENOMEM;
	}
	for (i = 0; i < r->nr_caches; i++) {
		snprintf(name, sizeof(name), CACHES_NAME_FMT, i);
		ret = sb_cache_create_sheaves(ctx, name, caches_size(ctx, i),
					      &sh, &r->caches[i]);
		if (!ret && ctx->val[P_SET_CPU_PARTIAL])
			ret = caches_set_cpu_partial(ctx, name,
						     ctx->val[P_CPU_PARTIAL]);
		if (ret)
			return ret;
	}
	return 0;
}

static int caches_fill_all(struct sb_ctx *ctx, struct caches_run *r)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < r->nr_cpus; i++) {
		r->cur = i;
		ret = sb_run_on_cpu(r->cpus[i], caches_fill, r);
	}
	if (ret == -E2BIG)
		return sb_fail(ctx, "slab memory grew past %llu bytes (the cap less the pointer arrays) while filling CPU %u (%u of %u); everything freed",
			       (u64)r->slab_cap << PAGE_SHIFT, r->cpus[i - 1], i,
			       r->nr_cpus);
	if (ret == -ENOMEM)
		return sb_fail(ctx, "allocation failed on CPU %u after %llu objects",
			       r->cpus[i - 1], r->allocated);
	if (ret || !r->free_pct)
		return ret;
	prandom_seed_state(&r->rnd, ctx->val[P_SEED]);
	for (i = 0; !ret && i < r->nr_cpus; i++) {
		r->cur = i;
		ret = sb_run_on_cpu(r->cpus[(i + 1) % r->nr_cpus], caches_churn, r);
	}
	return ret;
}

static void caches_output(struct sb_ctx *ctx, struct caches_run *r)
{
	unsigned long n = caches_per_cpu(r), pos;
	struct sb_out *out = ctx->out;
	char name[CACHES_NAME_LEN];
	s64 m[4], live = 0, bytes = 0;
	unsigned int i;

	for (i = 0; i < r->nr_cpus; i++) {
		for (pos = 0; pos < n; pos++) {
			if (!r->obj[i][pos])
				continue;
			live++;
			bytes += kmem_cache_size(r->caches[pos / r->objs]);
		}
	}
	m[0] = r->allocated * 1000;
	m[1] = r->freed * 1000;
	m[2] = live * 1000;
	m[3] = bytes * 1000;

	snprintf(name, sizeof(name), CACHES_NAME_FMT, 0);
	sb_rec_u64(out, "caches", r->nr_caches);
	sb_rec_u64(out, "cpus", r->nr_cpus);
	sb_rec_str(out, "first_cache", name);
	sb_out_sheaf_capacity(out, name);
	snprintf(name, sizeof(name), CACHES_NAME_FMT, r->nr_caches - 1);
	sb_rec_str(out, "last_cache", name);
	sb_rec_bool(out, "cache_merged", false);
	if (ctx->val[P_SET_CPU_PARTIAL])
		sb_rec_u64(out, "cpu_partial_set", ctx->val[P_CPU_PARTIAL]);
	sb_rec_bool(out, "held", ctx->val[P_HOLD]);
	sb_rec_s64(out, "slab_pages_grown", sb_slab_pages() - r->slab_base);
	sb_out_metric(out, "objects_allocated", "objects", true, &m[0], 1);
	sb_out_metric(out, "objects_freed", "objects", true, &m[1], 1);
	sb_out_metric(out, "live_objects", "objects", true, &m[2], 1);
	sb_out_metric(out, "live_bytes", "bytes", true, &m[3], 1);
}

static int caches_run(struct sb_ctx *ctx)
{
	unsigned int nr_cpus = num_online_cpus();
	struct caches_run *r;
	int ret;

	ret = caches_check(ctx, nr_cpus);
	if (ret)
		return ret;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->nr_caches = ctx->val[P_CACHES];
	r->objs = ctx->val[P_OBJS];
	r->nr_cpus = nr_cpus;
	r->free_pct = ctx->val[P_FREE_PCT];
	r->slab_base = sb_slab_pages();
	/* caches_check(): the arrays alone are within the cap. */
	r->slab_cap = (sb_mem_cap() - (u64)nr_cpus * caches_per_cpu(r) *
		       sizeof(void *)) >> PAGE_SHIFT;
	ret = caches_setup(ctx, r);
	if (!ret)
		ret = caches_fill_all(ctx, r);
	if (!ret)
		caches_output(ctx, r);
	if (ret || !ctx->val[P_HOLD]) {
		caches_release(r);
		return ret;
	}
	/*
	 * The kthreads that filled the caches have exited, but their task
	 * structs and pids are freed after a grace period: wait for it, so
	 * that a census read next sees a quiet kernel.
	 */
	rcu_barrier();
	sb_hold(caches_release, r);
	return 0;
}

/*
 * A self-test of few caches: each one created and destroyed leaves slabs
 * of its sysfs and debugfs nodes partly used in caches that settling does
 * not shrink (on slub-debug, 20 caches left 39 to 127 pages).
 */
SB_DEFINE_BENCH(caches,
		"many private caches, objs objects of each allocated on every CPU, a random free_pct percent then freed on another CPU; held for the census with hold=1",
		caches_params, caches_run, "caches=4 objs=4 free_pct=50");
