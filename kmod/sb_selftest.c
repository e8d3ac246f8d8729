// SPDX-License-Identifier: GPL-2.0
/*
 * The in-guest self-test, read from debugfs slabbench/selftest as KTAP.
 * Every benchmark in the table runs once with its own small "selftest"
 * parameters, and passes when it completes, every figure it reports lies
 * within its unit's range (sb_out.c), and the system's slab memory is
 * back to its level from before the run.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/cpumask.h>
#include "slabbench.h"

/*
 * Slab pages a benchmark may leave behind without leaking, per online CPU,
 * once settled (sb_settled_slab_pages() shrinks the kmalloc caches): the
 * caches of the kthreads it started and of debugfs keep slabs on their
 * per-CPU and partial lists (SLUB) or as free slabs up to the node's
 * free_limit (SLAB). The self-test parameters move more than this through
 * every benchmark, so a leak of its objects shows.
 */
#define SB_SELFTEST_SLACK_PAGES	16

/*
 * Runs @b and checks it; *@pages is the settled slab memory before it
 * and becomes that after it, the next benchmark's baseline: settling is slow
 * on KASAN kernels.
 */
static void sb_selftest_one(struct sb_out *ktap, struct sb_out *res,
			    unsigned int nr, const struct sb_bench *b, long *pages)
{
	long slack = SB_SELFTEST_SLACK_PAGES * num_online_cpus();
	long before = *pages, after;
	char *spec;
	int ret;

	if (b->absent) {
		sb_printf(ktap, "ok %u %s # SKIP %s\n", nr, b->name, b->absent);
		return;
	}
	spec = kasprintf(GFP_KERNEL, "test=%s %s", b->name, b->selftest);
	if (!spec) {
		sb_printf(ktap, "not ok %u %s\n", nr, b->name);
		return;
	}
	sb_printf(ktap, "# %s: %s\n", b->name, spec);
	sb_out_reset(res, true);
	ret = sb_execute(res, spec);
	after = sb_settled_slab_pages();
	*pages = after;
	kfree(spec);
	sb_printf(ktap, "# %s: slab pages %ld before, %ld after\n", b->name,
		  before, after);
	if (ret)
		sb_printf(ktap, "# %s: failed: %.*s\n", b->name,
			  (int)strcspn(res->buf, "\n"), res->buf);
	else if (res->bad[0])
		sb_printf(ktap, "# %s: %s\n", b->name, res->bad);
	else if (after - before > slack)
		sb_printf(ktap, "# %s: %ld slab pages not given back (slack %ld)\n",
			  b->name, after - before, slack);
	else
		ret = 1;
	sb_printf(ktap, "%sok %u %s\n", ret == 1 ? "" : "not ", nr, b->name);
}

void sb_selftest(struct sb_out *ktap)
{
	struct sb_out res;
	unsigned int i;
	long pages;

	sb_printf(ktap, "KTAP version 1\n1..%u\n", sb_nr_benches);
	if (sb_out_init(&res, SB_OUT_SIZE)) {
		for (i = 0; i < sb_nr_benches; i++)
			sb_printf(ktap, "not ok %u %s\n", i + 1, sb_benches[i]->name);
		return;
	}
	pages = sb_settled_slab_pages();
	for (i = 0; i < sb_nr_benches; i++)
		sb_selftest_one(ktap, &res, i + 1, sb_benches[i], &pages);
	sb_out_free(&res);
}
