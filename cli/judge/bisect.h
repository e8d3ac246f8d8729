/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The first commit of a user's git tree at which a metric regressed:
 * `slabbench bisect`, and `watch` when a new commit regressed.
 */
#ifndef SLABBENCH_BISECT_H
#define SLABBENCH_BISECT_H

#include "options.h"
#include "revision.h"
#include "runner.h"

#include <stdbool.h>

/* What every step needs, saved in DIR/bisect.json for the steps git runs. */
struct bisect {
	const char *good, *bad, *metric;	/* full commit ids; TEST.METRIC */
	double threshold;			/* percent */
	struct revision_run r;
};

/*
 * The options a bisection is started with, which its steps read back
 * through the same table (save(), load()); -o and --step are the
 * command's own.
 */
#define BISECT_OPTS(b)									\
	OPT_STRING(0, "tree", &(b)->r.tree, "DIR", "the git tree (only read)"),		\
	OPT_STRING(0, "good", &(b)->good, "REV", "a revision without the regression"),	\
	OPT_STRING(0, "bad", &(b)->bad, "REV", "a revision with it"),			\
	{ .type = OPT_T_STRING, .name = "alloc-config", .value = &(b)->r.alloc_config,	\
	  .argh = "LIST", .help = "the variant's config: vm/config fragments, or a\n"	\
				  "config file then fragments (as in a variants file)",	\
	  .deftext = "\"base alloc-slub\"" },						\
	OPT_STRING(0, "workload", &(b)->r.workload, "FILE",				\
		   "a workload file, or a name in workloads/"),				\
	OPT_STRING(0, "metric", &(b)->metric, "TEST.METRIC",				\
		   "the metric that regressed, e.g.\nfastpath.instructions_per_op; TEST is a "	\
		   "test's\nname or its number in the workload (1.ns_per_op)"),		\
	OPT_DOUBLE("threshold", &(b)->threshold, "PCT", 0, 1000, true,			\
		   "the smallest change in percent that is a regression"),		\
	OPT_VM(&(b)->r.vm, 1),								\
	{ .type = OPT_T_LONG, .name = "boots", .value = &(b)->r.boots, .argh = "N", .min = 1,	\
	  .max = 100, .help = "boots per revision",					\
	  .deftext = OPT_STR(RUN_COST_BOOTS) " with --accel=cost, else " OPT_STR(RUN_BOOTS) }

/* A revision's TEST.METRIC against the good one's. */
struct bisect_verdict {
	bool bad;
	double good_value, value, pct;
};

struct bisect_found {
	char *first;				/* the first bad commit (free it) */
	struct bisect_verdict bad, at_first;	/* of the bad revision, of the first bad */
	int tested, skipped;			/* commits that ran, those skipped */
};

/* A bare clone of @tree in @b->r.dir for git bisect; 0, or -1 after a message. */
int bisect_start(const struct bisect *b, const char *tree);

/*
 * Measures both ends, then lets git bisect run this program's step on
 * the commits between: 0 with @f filled, or -1 after a message
 * (@f->first freed by the caller either way).
 */
int bisect_find(struct bisect *b, struct bisect_found *f);

/* The first bad commit and the figures of good, bad and first bad. */
void bisect_print(const struct bisect *b, const struct bisect_found *f);

/* DIR/report.txt: the first bad commit against the good one; 0 or -1. */
int bisect_report(const struct bisect *b, const struct bisect_found *f);

/* One step of git bisect run, on the commit at BISECT_HEAD: git's exit code. */
int bisect_step(const char *dir);

#endif
