/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kind of a metric, from its unit: what compare may test and what it
 * may only show (docs/concepts.md, Glossary: "exact, statistical, modelled").
 */
#ifndef SLABBENCH_KIND_H
#define SLABBENCH_KIND_H

#include <stdbool.h>

enum metric_kind {
	KIND_TIME,	/* statistical: tested across boots */
	KIND_CYCLES,	/* the TSC twin of a time: shown beside it, never tested */
	KIND_EXACT,	/* counts, memory, rates of counting passes: values and deltas */
	KIND_MODEL,	/* simulated by the cost model: deltas, labelled "model" */
};

/* The kind of @unit; -1 for a unit slabbench does not know. */
int metric_kind(const char *unit, enum metric_kind *kind);
/* "time", "cycles", "exact", "model". */
const char *metric_kind_name(enum metric_kind kind);
/*
 * Whether a change of @unit is shown as a difference (b - a) rather than
 * a percent: exact and model figures, and rates in percent, whose
 * change is in percentage points.
 */
bool kind_shows_difference(enum metric_kind kind);

#endif
