// SPDX-License-Identifier: GPL-2.0
/*
 * The capacity chart's data (plots/sheaves.gp): the points of the
 * sheaves workload (sheafprice.h) as one block per variant and CPU
 * count, in the order of the asks, each labelled with its capacity and
 * refills; a panel per CPU count, since 64 vCPUs hold eight times what
 * 8 do. A point without an instruction count (no cost-model run of
 * the same variant and ask) cannot be placed and is left out, said once.
 */
#define _GNU_SOURCE
#include "plot.h"
#include "sheafprice.h"
#include "strbuf.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_ask(const void *a, const void *b)
{
	const struct sheaf_point *p = a, *q = b;
	int c;

	if (p->cpus != q->cpus)
		return p->cpus < q->cpus ? -1 : 1;
	c = strcmp(p->variant, q->variant);
	if (c)
		return c;
	return (p->asked > q->asked) - (p->asked < q->asked);
}

/* What a point's label says of its per-CPU caching. */
static void point_label(struct strbuf *b, const struct sheaf_point *p)
{
	if (p->capacity > 0)
		sb_addf(b, "\"%ld", p->capacity);
	else if (!p->capacity)
		sb_addf(b, "\"no sheaves");
	else if (p->limit > 0)
		sb_addf(b, "\"array limit %ld", p->limit);
	else
		sb_addf(b, "\"%s", p->allocator);
	if (!isnan(p->refills_per1k))
		sb_addf(b, " (%.3g)", p->refills_per1k);
	sb_addf(b, "\"");
}

char *plot_sheaves_data(const cJSON *const *docs, int n, char **vars)
{
	struct sheaf_point *pts;
	int nr = sheaf_points(docs, n, &pts), unplaced = 0, blocks = 0;
	const struct sheaf_point *head = NULL;
	struct strbuf b = { 0 }, panels = { 0 }, lo = { 0 }, hi = { 0 };

	*vars = NULL;
	if (!nr)
		return NULL;
	qsort(pts, nr, sizeof(*pts), by_ask);
	for (int i = 0; i < nr; i++) {
		const struct sheaf_point *p = &pts[i];

		if (isnan(p->insns_per_pair)) {
			unplaced++;
			continue;
		}
		if (!head || p->cpus != head->cpus) {
			if (head)
				sb_addf(&hi, " %d", blocks - 1);
			sb_addf(&panels, " %ld", p->cpus);
			sb_addf(&lo, " %d", blocks);
		}
		if (!head || strcmp(p->variant, head->variant) || p->cpus != head->cpus) {
			head = p;
			sb_addf(&b, "%s\"%s\"\n", blocks ? "\n\n" : "", p->variant);
			blocks++;
		}
		sb_addf(&b, "%.4f %.4f ", p->insns_per_pair, p->held / (1024.0 * 1024));
		point_label(&b, p);
		sb_addf(&b, "\n");
	}
	/* With nothing placed the chart's own message says what is missing. */
	if (unplaced && blocks)
		warning("plot: sheaves: %d of %d points have no instruction count (no --accel=cost run of the sheaves-cost workload on their variant): left out",
			unplaced, nr);
	free(pts);
	if (blocks) {
		sb_addf(&hi, " %d", blocks - 1);
		*vars = xasprintf("panels=\"%s\"; lo=\"%s\"; hi=\"%s\"", panels.s + 1, lo.s + 1,
				  hi.s + 1);
	}
	free(panels.s);
	free(lo.s);
	free(hi.s);
	if (!blocks) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
