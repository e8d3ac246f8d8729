// SPDX-License-Identifier: GPL-2.0
/*
 * The report's memory per live object, from the overhead tests: what
 * each live object costs by cause, and the slab pages kept after its
 * free and after a shrink. A figure that cannot be below zero is shown
 * as 0 where its reading was, and the reading is said with its cause.
 */
#define _GNU_SOURCE
#include "report_sections.h"
#include "numfmt.h"
#include "util.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A member of struct mem_breakdown, by its name in the table. */
struct part {
	const char *name;
	size_t offset;
	int decimals;
};

static const struct part bytes_parts[] = {
	{ "object", offsetof(struct mem_breakdown, size), 1 },
	{ "rounding", offsetof(struct mem_breakdown, rounding), 1 },
	{ "slab tail waste", offsetof(struct mem_breakdown, tail), 1 },
	{ "idle slots", offsetof(struct mem_breakdown, idle), 1 },
	{ "total", offsetof(struct mem_breakdown, total), 1 },
};

static const struct part page_parts[] = {
	{ "slab pages at the peak", offsetof(struct mem_breakdown, slab_pages), 0 },
	{ "pages 0 s after free", offsetof(struct mem_breakdown, held_free_pages), 0 },
	{ "pages after shrink", offsetof(struct mem_breakdown, held_shrink_pages), 0 },
};

static double part_of(const struct mem_breakdown *m, const struct part *p)
{
	return *(const double *)((const char *)m + p->offset);
}

/*
 * @v in @width columns at @decimals: "0*" where it reads below zero as
 * printed (what rounds to zero is 0), and the reading added to @below
 * under @who's name.
 */
static void cell(struct strbuf *b, struct strbuf *below, const char *who,
		 const struct part *p, double v, int width)
{
	char text[32];

	fmt_fixed(text, sizeof(text), v, p->decimals, false, "");
	if (text[0] == '-') {
		sb_addf(below, "%s%s %s %s", below->len ? ", " : "", who, p->name, text);
		sb_addf(b, " %*s", width, "0*");
	} else {
		sb_addf(b, " %*s", width, text);
	}
}

static void rows(struct strbuf *b, struct strbuf *below, const struct comparison *c,
		 const struct mem_breakdown *m, const struct part *parts, size_t n)
{
	for (size_t p = 0; p < n; p++) {
		sb_addf(b, "    %-22s", parts[p].name);
		for (int r = 0; r < 2; r++)
			cell(b, below, c->runs[r].label, &parts[p], part_of(&m[r], &parts[p]), 10);
		if (parts[p].offset == offsetof(struct mem_breakdown, total) && m[0].total > 0 &&
		    m[1].total >= 0) {
			char change[32];

			fmt_fixed(change, sizeof(change), 100 * (m[1].total - m[0].total) /
				  m[0].total, 1, true, "%");
			sb_addf(b, " %8s", change);
		}
		sb_endline(b);
	}
}

int report_per_object(struct strbuf *b, const struct comparison *c, const cJSON *const *docs)
{
	int n = run_nr_tests(docs[0]), shown = 0;
	struct strbuf below = { 0 };

	sb_addf(&below, "%s", "");
	for (int t = 0; t < n; t++) {
		struct mem_breakdown m[2];

		if (mem_breakdown(docs[0], t, &m[0]) || mem_breakdown(docs[1], t, &m[1]))
			continue;
		if (!shown++)
			sb_addf(b, "\n  per live object (bytes)    %10s %10s   change\n",
				c->runs[0].label, c->runs[1].label);
		sb_addf(b, "  %.0f objects of %.0f B\n", m[0].count, m[0].size);
		rows(b, &below, c, m, bytes_parts, ARRAY_SIZE(bytes_parts));
		rows(b, &below, c, m, page_parts, ARRAY_SIZE(page_parts));
	}
	if (below.len) {
		char *why = xasprintf("0*: read below zero (%s). These are differences of the "
				      "node's slab page counter against its reading on the empty "
				      "cache, which the kernel's other allocations move meanwhile "
				      "(and SLOB fills holes in pages it already had); what a cache "
				      "holds cannot be less than nothing.", below.s);

		sb_addf(b, "\n");
		sb_wrap(b, 2, 2, REPORT_WIDTH, why);
		free(why);
	}
	if (shown)
		sb_addf(b, "\n  Pages kept after free are cached for reuse and given back by a\n"
			   "  shrink or by SLAB's reaper: not a regression. The churn\n"
			   "  workload reads them 0, 5 and 30 s after.\n");
	free(below.s);
	return shown;
}
