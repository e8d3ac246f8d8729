// SPDX-License-Identifier: GPL-2.0
/*
 * overhead: what count live objects of one size cost in a private cache,
 * and what the allocator keeps after they are freed.
 *
 * Slab pages come from the node counter NR_SLAB_UNRECLAIMABLE_B, read with
 * the per-CPU deltas vmstat has not folded yet (see sb_node_pages()), as a
 * difference against a reading taken on the fresh, empty cache. Nothing
 * else should allocate slab memory meanwhile; the guest agent only waits
 * for the result, and repeats (each on a fresh cache) show the noise.
 *
 * The geometry (object stride, objects and pages per slab) is reported in
 * /proc/slabinfo's terms (objsize, objperslab, pagesperslab); see
 * ov_geometry() for where each figure comes from. kmem_cache_size()
 * returns the requested size and cannot show rounding. SLAB's on-slab
 * freelist (one or two bytes per object) counts as tail waste.
 *
 * bytes_per_object = size + rounding + tail_waste + idle, where idle is
 * the share of free slots in slabs held at the peak (and counter noise).
 * SLOB shares its pages between all caches: objects also fill holes in
 * pages it already had, so there the count of added pages can be below
 * the objects' bytes and idle can be negative.
 *
 * hold=1 checks these figures against the allocator's own: after the
 * repeats, count objects are allocated once more in a cache named
 * SB_HELD_CACHE, its figures reported under "held", and the cache kept
 * alive until the next spec (or SB_SPEC_RELEASE), so that userspace can
 * read its line in /proc/slabinfo.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/cpumask.h>
#include <linux/sort.h>
#include <linux/math64.h>
#include <linux/slabbench.h>
#include "slabbench.h"

enum { P_SIZE, P_COUNT, P_REPEATS, P_CPU, P_HOLD };

static const struct sb_param overhead_params[] = {
	[P_SIZE] = { "size", "object size in bytes", SB_U64, 64, 8, 8192 },
	[P_COUNT] = { "count", "live objects at the peak", SB_U64, 10000, 1,
		      1000000 },
	[P_REPEATS] = { "repeats", "repeats, each on a fresh cache (one sample each)",
			SB_U64, 3, 1, 100 },
	[P_CPU] = { "cpu", "CPU that allocates and frees", SB_U64, 0, 0,
		    SB_CPU_ID_MAX },
	[P_HOLD] = { "hold", "1: then keep count objects alive in cache "
		     SB_HELD_CACHE " until the next spec",
		     SB_U64, 0, 0, 1 },
};

enum {
	M_SLAB_PAGES,
	M_BYTES,
	M_ROUNDING,
	M_TAIL,
	M_IDLE,
	M_HELD_FREE,
	M_HELD_SHRINK,
	M_NR
};

static const struct {
	const char *name;
	const char *unit;
} ov_metrics[M_NR] = {
	[M_SLAB_PAGES] = { "slab_pages", "pages" },
	[M_BYTES] = { "bytes_per_object", "bytes" },
	[M_ROUNDING] = { "rounding_bytes_per_object", "bytes" },
	[M_TAIL] = { "tail_waste_bytes_per_object", "bytes" },
	[M_IDLE] = { "idle_bytes_per_object", "bytes" },
	[M_HELD_FREE] = { "held_after_free_pages", "pages" },
	[M_HELD_SHRINK] = { "held_after_shrink_pages", "pages" },
};

/*
 * Slab geometry at the peak. The allocator's figures where they are exact
 * (SLAB's own struct; SLUB fills each slab with (PAGE_SIZE << order) /
 * size objects and ksize() is that size without debug flags); what the
 * objects' addresses show otherwise, and always as a check.
 */
struct ov_geom {
	unsigned long stride;
	u64 objs_per_slab;
	unsigned long pages_per_slab;
	/* Observed: smallest gap between two objects in one slab (0: none). */
	unsigned long min_gap;
	/* Observed: most objects in one slab, and slabs holding objects. */
	u64 max_in_slab;
	u64 slabs;
};

struct overhead {
	struct sb_ctx *ctx;
	void **objs;
	/* M_NR metrics at one point. */
	struct sb_samples *samples;
	struct ov_geom geom;
	/* Slab pages at the peak of the last repeat. */
	long pages;
	/* The same for the held cache (hold=1). */
	struct ov_geom held_geom;
	long held_pages;
	/* System-wide slab memory, in pages, in the first repeat. */
	long slab_before, sunreclaim_before, slab_peak, sunreclaim_peak;
#ifdef CONFIG_SLAB
	/* SLAB's own figures: geometry and tunables. */
	struct sb_slab_cache_head slab;
#endif
};

/* A private cache has neither SLAB_RECLAIM_ACCOUNT nor a shrinker. */
static long ov_slab_pages(void)
{
	return sb_node_pages(NR_SLAB_UNRECLAIMABLE_B);
}

static int ov_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Of the @n objects @objs of cache @s, which it sorts by address. */
static void ov_geometry(struct ov_geom *g, struct kmem_cache *s, void **objs,
			u64 n, size_t size)
{
	struct page *head, *prev = NULL;
	unsigned long gap;
	u64 i, in_slab = 0;

	sort(objs, n, sizeof(*objs), ov_cmp, NULL);
	memset(g, 0, sizeof(*g));
	for (i = 0; i < n; i++) {
		head = virt_to_head_page(objs[i]);
		if (head != prev) {
			g->slabs++;
			in_slab = 0;
			prev = head;
			g->pages_per_slab = max(g->pages_per_slab,
						1UL << compound_order(head));
		} else {
			gap = (unsigned long)objs[i] - (unsigned long)objs[i - 1];
			if (!g->min_gap || gap < g->min_gap)
				g->min_gap = gap;
		}
		g->max_in_slab = max(g->max_in_slab, ++in_slab);
	}
#ifdef CONFIG_SLAB
	g->stride = sb_slab_head(s)->size;
	g->objs_per_slab = sb_slab_head(s)->num;
	g->pages_per_slab = 1UL << sb_slab_head(s)->gfporder;
#elif defined(CONFIG_SLUB)
	/* With debug flags ksize() is smaller than the stride: take the gap. */
	g->stride = max_t(unsigned long, ksize(objs[0]), g->min_gap);
	g->objs_per_slab = g->pages_per_slab * PAGE_SIZE / g->stride;
#else
	/* SLOB packs objects of every cache into shared pages. */
	g->stride = g->min_gap ? g->min_gap : size;
	g->objs_per_slab = g->max_in_slab;
	/* Its multi-page objects are not compound pages. */
	if (size >= PAGE_SIZE)
		g->pages_per_slab = 1UL << get_order(size);
#endif
}

static void ov_free(struct kmem_cache *s, void **objs, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++) {
		kmem_cache_free(s, objs[i]);
		if (!((i + 1) % SB_BATCH))
			cond_resched();
	}
}

/* Allocates @n objects into @objs; all or none. */
static int ov_alloc(struct kmem_cache *s, void **objs, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
		if (!objs[i]) {
			ov_free(s, objs, i);
			return -ENOMEM;
		}
		if (!((i + 1) % SB_BATCH))
			cond_resched();
	}
	return 0;
}

struct ov_held {
	struct kmem_cache *s;
	void **objs;
	u64 n;
};

static void ov_release(void *data)
{
	struct ov_held *h = data;

	ov_free(h->s, h->objs, h->n);
	kmem_cache_destroy(h->s);
	kvfree(h->objs);
	kfree(h);
}

static int ov_hold(struct overhead *o)
{
	struct sb_ctx *ctx = o->ctx;
	struct ov_held *h;
	long base;
	int ret;

	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->n = ctx->val[P_COUNT];
	h->objs = kvmalloc_array(h->n, sizeof(void *), GFP_KERNEL);
	ret = h->objs ? sb_cache_create_unmerged(ctx, SB_HELD_CACHE,
						 ctx->val[P_SIZE], &h->s) : -ENOMEM;
	if (ret)
		goto fail;
	base = ov_slab_pages();
	ret = ov_alloc(h->s, h->objs, h->n);
	if (ret)
		goto fail;
	o->held_pages = ov_slab_pages() - base;
	ov_geometry(&o->held_geom, h->s, h->objs, h->n, ctx->val[P_SIZE]);
	sb_hold(ov_release, h);
	return 0;
fail:
	kmem_cache_destroy(h->s);
	kvfree(h->objs);
	kfree(h);
	return ret;
}

static int ov_repeat(struct overhead *o, unsigned int r)
{
	struct sb_ctx *ctx = o->ctx;
	u64 n = ctx->val[P_COUNT];
	size_t size = ctx->val[P_SIZE];
	struct ov_geom *g = &o->geom;
	long base, peak, tail_milli;
	struct kmem_cache *s;
	s64 bytes;
	int ret;

	ret = sb_cache_create_unmerged(ctx, "slabbench-overhead", size, &s);
	if (ret)
		return ret;
#ifdef CONFIG_SLAB
	o->slab = *sb_slab_head(s);
#endif
	if (!r) {
		o->sunreclaim_before = ov_slab_pages();
		o->slab_before = o->sunreclaim_before +
				 sb_node_pages(NR_SLAB_RECLAIMABLE_B);
	}
	base = ov_slab_pages();
	ret = ov_alloc(s, o->objs, n);
	if (ret) {
		kmem_cache_destroy(s);
		return ret;
	}
	peak = ov_slab_pages();
	if (!r) {
		o->sunreclaim_peak = peak;
		o->slab_peak = peak + sb_node_pages(NR_SLAB_RECLAIMABLE_B);
	}
	ov_geometry(g, s, o->objs, n, size);
	ov_free(s, o->objs, n);
	sb_samples_at(o->samples, M_HELD_FREE, 0)[r] = (ov_slab_pages() - base) * 1000;
	kmem_cache_shrink(s);
	sb_samples_at(o->samples, M_HELD_SHRINK, 0)[r] = (ov_slab_pages() - base) * 1000;
	kmem_cache_destroy(s);

	o->pages = peak - base;
	sb_samples_at(o->samples, M_SLAB_PAGES, 0)[r] = o->pages * 1000;
	bytes = div64_s64((peak - base) * (s64)PAGE_SIZE * 1000, n);
	sb_samples_at(o->samples, M_BYTES, 0)[r] = bytes;
	sb_samples_at(o->samples, M_ROUNDING, 0)[r] = ((s64)g->stride - (s64)size) * 1000;
	tail_milli = div64_s64(((s64)g->pages_per_slab * PAGE_SIZE -
				(s64)g->objs_per_slab * g->stride) * 1000,
			       g->objs_per_slab);
	sb_samples_at(o->samples, M_TAIL, 0)[r] = tail_milli;
	sb_samples_at(o->samples, M_IDLE, 0)[r] = bytes - (s64)g->stride * 1000 - tail_milli;
	return 0;
}

static int ov_pinned(void *arg)
{
	struct overhead *o = arg;
	unsigned int r;
	int ret = 0;

	for (r = 0; !ret && r < o->ctx->val[P_REPEATS]; r++)
		ret = ov_repeat(o, r);
	if (!ret && o->ctx->val[P_HOLD])
		ret = ov_hold(o);
	return ret;
}

static void ov_out_kb(struct sb_out *out, const char *name, long pages)
{
	sb_rec_s64(out, name, pages * (long)(PAGE_SIZE / 1024));
}

/*
 * SLAB's tunables as the allocator set them for this cache (from the head
 * of its struct kmem_cache): how many free objects each CPU's array may
 * keep. What the arrays and the cache's other structures occupy is the
 * census's to measure (docs/census.md), not this test's to estimate.
 */
static void ov_out_tunables(struct sb_out *out, struct overhead *o)
{
#ifdef CONFIG_SLAB
	sb_out_slab_tunables(out, &o->slab);
#endif
}

/*
 * As /proc/slabinfo would show cache @name holding @active objects in
 * @pages slab pages, except active_objs: slabinfo also counts as active
 * the free objects in SLAB's per-CPU and shared arrays and in SLUB's CPU
 * slabs. num_slabs comes from the page counter, which also sees empty
 * slabs.
 */
static void ov_out_slabinfo(struct sb_out *out, const char *name,
			    const struct ov_geom *g, long pages, u64 active)
{
	u64 num_slabs = max(pages, 0L) / g->pages_per_slab;

	sb_rec_open(out, "slabinfo");
	sb_rec_str(out, "name", name);
	sb_rec_u64(out, "objsize", g->stride);
	sb_rec_u64(out, "objperslab", g->objs_per_slab);
	sb_rec_u64(out, "pagesperslab", g->pages_per_slab);
	sb_rec_u64(out, "active_objs", active);
	sb_rec_u64(out, "num_objs", num_slabs * g->objs_per_slab);
	sb_rec_u64(out, "num_slabs", num_slabs);
	sb_rec_close(out);
}

static void ov_output(struct overhead *o)
{
	struct sb_ctx *ctx = o->ctx;
	struct sb_out *out = ctx->out;
	struct ov_geom *g = &o->geom;
	unsigned int i;

	/* At the peak of the last repeat; "observed" from the addresses. */
	ov_out_slabinfo(out, "slabbench-overhead", g, o->pages, ctx->val[P_COUNT]);
	if (ctx->val[P_HOLD]) {
		sb_rec_open(out, "held");
		ov_out_slabinfo(out, SB_HELD_CACHE, &o->held_geom,
				o->held_pages, ctx->val[P_COUNT]);
		sb_rec_close(out);
	}
	sb_rec_open(out, "observed");
	sb_rec_u64(out, "min_gap", g->min_gap);
	sb_rec_u64(out, "max_objs_in_slab", g->max_in_slab);
	sb_rec_u64(out, "slabs_with_objects", g->slabs);
	sb_rec_close(out);
	sb_rec_open(out, "system_kb");
	ov_out_kb(out, "slab_before", o->slab_before);
	ov_out_kb(out, "sunreclaim_before", o->sunreclaim_before);
	ov_out_kb(out, "slab_peak", o->slab_peak);
	ov_out_kb(out, "sunreclaim_peak", o->sunreclaim_peak);
	sb_rec_close(out);
	ov_out_tunables(out, o);
	for (i = 0; i < M_NR; i++)
		sb_out_samples(out, ov_metrics[i].name, NULL,
			       ov_metrics[i].unit, true, o->samples, i, 0);
}

static int overhead_run(struct sb_ctx *ctx)
{
	u64 n = ctx->val[P_COUNT];
	struct overhead o = {
		.ctx = ctx,
		.samples = &ctx->samples,
	};
	int ret;

	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret)
		ret = sb_check_mem(ctx, n * (ctx->val[P_SIZE] + sizeof(void *) *
					     (1 + ctx->val[P_HOLD])));
	if (!ret)
		ret = sb_check_work(ctx, n * ctx->val[P_REPEATS]);
	if (!ret)
		ret = sb_samples_alloc(ctx, M_NR, 1, ctx->val[P_REPEATS], 0, n);
	if (ret)
		return ret;
	/* Allocated before any reading, so it is part of every baseline. */
	o.objs = kvmalloc_array(n, sizeof(void *), GFP_KERNEL);
	ret = -ENOMEM;
	if (!o.objs)
		goto out;
	ret = sb_run_on_cpu(ctx->val[P_CPU], ov_pinned, &o);
	if (!ret)
		ov_output(&o);
out:
	kvfree(o.objs);
	return ret;
}

SB_DEFINE_BENCH(overhead,
		"memory of count live objects in a private cache: slab pages, bytes per object by cause, pages held after free and shrink",
		overhead_params, overhead_run, "count=4000 repeats=2");
