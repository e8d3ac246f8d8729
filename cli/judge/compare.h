/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabbench compare: a base run against other runs of the same workload,
 * metric by metric. The boot is the unit: each boot is summarised by the
 * median of its repeats, and times are tested across boots (Welch's
 * t-test on boot medians, Benjamini-Hochberg over a comparison's tested
 * metrics, never inside the measured noise floor); counts are shown as
 * differences. As text and as JSON.
 */
#ifndef SLABBENCH_COMPARE_H
#define SLABBENCH_COMPARE_H

#include "kind.h"
#include "schema.h"
#include "stats.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

/* A test needs this many boots a side: fewer give changes without marks. */
#define CMP_MIN_BOOTS 3
/* The power at which compare states the smallest change a test detects. */
#define CMP_POWER 0.8
/* The size of change that matters, in percent, unless told another. */
#define CMP_MATTERS 5.0

/* One metric of one other run against the base. */
struct cmp_cell {
	bool present;		/* false: the run lacks this metric */
	struct summary s;	/* over the boots' medians */
	struct summary ls;	/* over their logarithms; n = 0 when one is not positive */
	double value;		/* shown: geometric mean of boot medians on a log row, else mean */
	double within;		/* median over boots of IQR / median; NAN if none */
	bool has_pct, has_ci, tested;
	double pct;		/* change of value, percent */
	double diff;		/* the same as a difference, in the metric's unit */
	double ci_lo, ci_hi;	/* 95% of the change shown: pct, or diff for exact kinds */
	struct welch w;
	double q;		/* Benjamini-Hochberg adjusted p; NAN untested */
	double floor;		/* the row's A/A floor scaled to these boots (percent); NAN none */
	/*
	 * Tested: the smallest rise, in percent, that the test (with the
	 * floor) finds with CMP_POWER at alpha before BH; the matching fall
	 * is 1 / (1 + d) - 1. NAN when untested.
	 */
	double detectable;
	/* A time with a sample <= 0 or below its resolution: not what the clock resolves. */
	int unresolved;		/* how many such samples */
	bool beyond_floor;	/* |pct| above the floor, or no floor known */
	bool significant;	/* q < alpha and beyond the floor; exact: any change */
	bool inside_floor;	/* q < alpha, yet inside the floor: not flagged */
	bool worse;		/* the mean moved in the metric's bad direction */
	/* The cost model's counts (cost_unit()), alike in every boot: a change is a change. */
	bool exact;
	/* The cost model's windows rejected, the scheduler entered them (cost.h). */
	int rejected;
	/* Not present because every window was rejected: why, in words; else NULL. */
	char *absent;
};

struct cmp_row {
	int test;		/* index in tests[] */
	const char *test_name, *spec, *metric, *unit;
	bool higher_better;
	enum metric_kind kind;
	const cJSON *labels;	/* a sweep point's labels, or NULL */
	struct summary base;	/* over the base's boot medians */
	struct summary lbase;	/* over their logarithms, as cells' ls */
	double base_value;
	double base_within;
	/*
	 * Changes in percent (times, cycles) are ratios: on a log row they
	 * are tested and bounded on the logarithms of boot medians, so that
	 * a slow boot (a descheduled QEMU makes one several times slower
	 * under TCG) weighs as a factor, not as its absolute excess.
	 */
	bool log;
	double floor;		/* the A/A floor in percent; NAN when none is known */
	int floor_boots;	/* boots a side of the A/A that measured it */
	int unresolved;		/* the base's unresolved samples, as a cell's */
	int rejected;		/* the base's rejected windows, as a cell's */
	struct cmp_cell *cells;	/* one per other run */
};

struct comparison {
	double alpha;
	double matters;		/* percent: a change of this size must be detectable */
	int nr_runs;		/* runs[0] is the base */
	struct run_id *runs;
	int *boots;		/* boots of each run */
	char *floor_note;	/* where the floors came from, or why there are none */
	int nr_floors;		/* rows with a floor */
	int nr_rows;
	struct cmp_row *rows;
	int nr_warnings;
	char **warnings;	/* one line each, for stderr */
};

/* Loads @n results files, each checked by run_check(); NULL after a one-line error. */
cJSON **compare_load(const char *const *paths, int n, bool allow_partial);
void compare_unload(cJSON **docs, int n);

/*
 * Compares docs[1..n-1] with docs[0], each checked by run_check();
 * @docs and @paths must outlive @c. Floors come from @noise (a floor
 * file, noise.h), read from @noise_path; with @noise NULL and a path,
 * the note says that none was found there; with neither, floors are not
 * consulted. -1, with a one-line error naming both files, when two runs
 * ran different workloads.
 */
int compare_build(struct comparison *c, const char *const *paths, const cJSON *const *docs,
		  int n, double alpha, const cJSON *noise, const char *noise_path);
/* Why run @r's changes carry no marks (too few boots), or NULL. */
char *compare_untested_why(const struct comparison *c, int r);
/* Whether @row is a time that some run of @c emulated (TCG): tables say so. */
bool compare_row_emulated(const struct comparison *c, const struct cmp_row *row);
void compare_free(struct comparison *c);

/*
 * Of run @r's tested times: how many there are (returned), in *@able
 * how many could detect a change of c->matters percent, in *@best the
 * one with the smallest detectable change (NULL when none is tested).
 */
int compare_power(const struct comparison *c, int r, int *able, const struct cmp_row **best);

/*
 * A note for a reader beside @row of run @r, or NULL: what SLUB's free
 * slow path is, where SLAB's is another thing of the same name.
 */
const char *compare_row_note(const struct comparison *c, const struct cmp_row *row);

/*
 * Significant changes in the bad direction larger than @threshold
 * percent: returns how many, and one line per change in *report.
 */
int compare_regressions(const struct comparison *c, double threshold, char **report);

/* The table for a terminal, at most 106 columns but for long names. */
char *compare_text(const struct comparison *c);
cJSON *compare_json(const struct comparison *c);

#endif
