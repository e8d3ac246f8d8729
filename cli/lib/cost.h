/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost model's counts (--accel=cost): the TCG plugin's file, and its
 * join to the module's samples. The plugin (tcg/) writes one line per
 * closed window, per vCPU; the module marks each sample's batches with
 * one window id (kmod/sb_mark.h) and gives the ids beside the samples
 * ("windows", with "ops_per_window"). A sample's counts are the sums
 * over every line of its id; divided by the operations of the window
 * they become the per-operation metrics below. A metric with a
 * "loop_window" (the benchmark's twin loop: its loop with the allocator's
 * calls taken out, over as many operations) gets its counts net of the
 * twin's as samples, and "gross" and "loop" beside them.
 */
#ifndef SLABBENCH_COST_H
#define SLABBENCH_COST_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

enum cost_counter {
	COST_INSNS, COST_LOADS, COST_STORES, COST_LOCKED, COST_IRQFLAG,
	COST_L1D, COST_L2, COST_LLC, COST_NR
};

/* Each counter's key in the plugin's file, metric stem and unit. */
extern const struct cost_counter_name {
	const char *key;
	const char *metric;
	const char *unit;
} cost_counters[COST_NR];

/*
 * The name of counter @k's metric beside the module's metric @name:
 * "ns_per_op[size=64]" -> "instructions_per_op[size=64]", the stem in
 * the place of the time's "ns"; a name without one gets the stem in
 * front ("instructions_of_NAME"). Free it.
 */
char *cost_metric_name(const char *name, enum cost_counter k);

struct cost_window {
	unsigned long id;
	unsigned long long c[COST_NR];
	/* Interrupts and exceptions delivered, whose handlers were left out. */
	unsigned long long intr;
};

struct cost_file {
	int version;
	char *geometry;		/* the header's "l1d=... l2=... llc=..." */
	/* Summed over lines and vCPUs, sorted by id. */
	struct cost_window *w;
	size_t n;
	size_t lines;
};

/*
 * Parses the plugin's @text, read from @path (for messages); 0, or -1
 * after a one-line error naming the file and line.
 */
int cost_parse(const char *path, const char *text, struct cost_file *cf);
void cost_free(struct cost_file *cf);
const struct cost_window *cost_find(const struct cost_file *cf, unsigned long id);

/*
 * To one module result @res, adds per metric with "windows" the eight
 * metrics of the model (instructions_per_op... for ns_per_op, and so on),
 * net of the metric's "loop_window" if it has one, and "cost_windows",
 * every sample's window and raw counts (and its loop's). A window that the
 * scheduler entered is no sample of the metric: a context switch (its
 * "switches", or the twin loop's "loop_switches", above 0), where the
 * plugin counted whatever ran while the task was switched out; or
 * another task runnable at a batch's end ("crowded"), where schedule()
 * may have run in the task and picked it again. It is left out
 * of the samples, marked "rejected" (with why) in "cost_windows", and
 * counted in each derived metric's "rejected" (cost_rejected()); its
 * window need not be in @cf. Returns 0, or -1 with *why set when another
 * window is not in @cf or a window list is malformed.
 */
int cost_join(cJSON *res, const struct cost_file *cf, const char *path, char **why);

/*
 * A metric's rejected windows: how many, which window a switch entered,
 * and how many no switch entered but another task was runnable in.
 */
struct cost_rejected {
	int windows;
	int switched;		/* the sample's own window */
	int loop_switched;	/* its twin loop's */
	int crowded;		/* neither, but another task was runnable in the sample's */
};

/* Whether @m had windows rejected, and how many in *@r (NULL: not wanted). */
bool cost_rejected(const cJSON *m, struct cost_rejected *r);
/* Adds @from's rejected windows to @to's: a boot's to the run's. */
void cost_rejected_merge(cJSON *to, const cJSON *from);
/*
 * "2 of 15 windows rejected: a context switch entered them (...)", or
 * another task was runnable in them; NULL if none.
 */
char *cost_rejected_words(const cJSON *m);
/* "1 window rejected", "3 windows rejected". */
char *cost_rejected_count(int n);
/*
 * Moves each metric of test @t that has no sample left, every window
 * rejected, from its "metrics" to its "absent_metrics": such a count is
 * absent, never 0 and never estimated.
 */
void cost_set_absent(cJSON *t);

/* Whether @unit is one of the model's: exact counts or simulated misses. */
int cost_unit(const char *unit);

#endif
