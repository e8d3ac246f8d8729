// SPDX-License-Identifier: GPL-2.0
/*
 * merge: checks the assumption every benchmark here rests on, that a cache
 * made with SLAB_NO_MERGE is a cache of its own. Two identical mergeable
 * caches must come back as one aliased cache (when the allocator merges at
 * all), two identical SLAB_NO_MERGE caches as two distinct ones.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include "slabbench.h"

enum { P_SIZE };

static const struct sb_param merge_params[] = {
	[P_SIZE] = { "size", "object size of the caches", SB_U64, 64, 8, 4096 },
};

static int merge_run(struct sb_ctx *ctx)
{
	unsigned int size = ctx->val[P_SIZE];
	struct kmem_cache *a1, *a2 = NULL, *b1 = NULL, *b2 = NULL;
	bool aliased, own;
	int ret = -ENOMEM;

	/*
	 * Distinct names: SLUB names the sysfs entry of an unmerged cache
	 * after it, and a duplicate would be an error of its own.
	 */
	a1 = kmem_cache_create("slabbench-merge-a1", size, 0, 0, NULL);
	if (!a1)
		goto out;
	a2 = kmem_cache_create("slabbench-merge-a2", size, 0, 0, NULL);
	b1 = sb_cache_create("slabbench-merge-b1", size);
	b2 = sb_cache_create("slabbench-merge-b2", size);
	if (!a2 || !b1 || !b2)
		goto out;
	aliased = a1 == a2;
	own = b1 != b2 && b1 != a1 && b2 != a1;
	sb_rec_bool(ctx->out, "slab_no_merge", SB_HAVE_SLAB_NO_MERGE);
	sb_rec_bool(ctx->out, "mergeable_aliased", aliased);
	sb_rec_bool(ctx->out, "no_merge_distinct", own);
	ret = own ? 0 : sb_fail(ctx, "caches made with sb_cache_create were merged");
out:
	kmem_cache_destroy(b2);
	kmem_cache_destroy(b1);
	kmem_cache_destroy(a2);
	kmem_cache_destroy(a1);
	return ret;
}

SB_DEFINE_BENCH(merge,
		"checks that SLAB_NO_MERGE caches are never merged (harness self-test)",
		merge_params, merge_run, "");
