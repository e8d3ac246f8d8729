/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's sections (report.c puts them in order): each appends its
 * lines to @b, at most REPORT_WIDTH columns.
 */
#ifndef SLABBENCH_REPORT_SECTIONS_H
#define SLABBENCH_REPORT_SECTIONS_H

#include "report.h"
#include "slabmem.h"
#include "strbuf.h"

/* The census of the report's runs: every point, and which are each side's. */
struct census_view {
	const char *phase;
	struct slabmem_point *pts;
	int nr;
	const char *base, *other;	/* the two runs' points' labels */
	const cJSON *const *docs;	/* the two runs compared */
};

/* report_memory.c: the summary's memory sentence, of the two runs compared. */
void report_census_sentence(struct strbuf *s, const struct comparison *c,
			    const struct census_view *v);
/*
 * The subject's memory result: Slab + Percpu of the two runs compared,
 * "slab and per-CPU memory x1.12 (95% CI x1.08 to x1.16)", when its
 * interval excludes x1.00; from a workload that bounds it, named so with
 * the whole kernel after boot beside it. NULL otherwise.
 */
char *report_memory_change(const struct comparison *c, const struct census_view *v);
void report_memory(struct strbuf *b, const struct comparison *c, const cJSON *const *docs,
		   const struct census_view *v);
/* The memory answer alone, for a mail's body: the census table, else meminfo after boot. */
void report_memory_answer(struct strbuf *b, const struct comparison *c,
			  const struct census_view *v);

/* report_objects.c: the overhead tests' memory per live object; how many tests. */
int report_per_object(struct strbuf *b, const struct comparison *c, const cJSON *const *docs);

/* report_setup.c */
void report_setup(struct strbuf *b, const struct comparison *c, const cJSON *const *docs);
/* Kernels: each side's release and per-CPU design, and how their configs differ. */
void report_kernels(struct strbuf *b, const struct comparison *c, const cJSON *const *docs);
/*
 * When the two runs compared are of different generations
 * (generation_differ()), the sentence that says the comparison is across
 * them; NULL otherwise.
 */
char *report_across_generations(const struct comparison *c, const cJSON *const *docs);
/*
 * "To reproduce": the commands that run both sides and report them, at
 * every CPU count of the @n runs @docs (the two compared come first).
 */
void report_reproduce(struct strbuf *b, const struct comparison *c, const cJSON *const *docs,
		      int n);

/* report_results.c */
void report_results(struct strbuf *b, const struct comparison *c);
/* What changed significantly, at most @max rows (-1: every one), for a mail's body. */
void report_changes(struct strbuf *b, const struct comparison *c, int max);
void report_profiles(struct strbuf *b, const struct comparison *c, const cJSON *const *docs);

#endif
