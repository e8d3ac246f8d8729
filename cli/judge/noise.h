/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise floor: how far one kernel's figures move against themselves
 * (A/A), per accelerator, guest CPU count, test and metric, measured from
 * boots of one variant and kept in a file (docs/noise.md). compare scales
 * it to its own boots and never flags a change inside that.
 */
#ifndef SLABBENCH_NOISE_H
#define SLABBENCH_NOISE_H

#include <cjson/cJSON.h>
#include <stdbool.h>

/* 2: floors kept per CPU count, with the boots' spread (1 had neither). */
#define NOISE_SCHEMA 2
/* Fewer boots give no distribution worth the name: 2 a side. */
#define NOISE_MIN_BOOTS 4
/* Splits of the boots into halves beyond this are sampled, not enumerated. */
#define NOISE_MAX_SPLITS 5000

/* $SLABBENCH_NOISE, else noise.json in slabbench's cache directory. */
char *noise_path(void);

/*
 * Loads the floor file at @path. NULL with *missing set when there is
 * none, or when it is of schema 1 (a warning says so: its floors are
 * not by CPU count); NULL after a one-line error when it is not a floor
 * file.
 */
cJSON *noise_load(const char *path, bool *missing);

/*
 * The floor in percent of metric @metric of the test with spec @spec
 * under accelerator @accel with @cpus guest CPUs: the 95th percentile of
 * its A/A changes' sizes between halves of *@boots boots each. NAN when
 * @noise (may be NULL) has none.
 */
double noise_floor(const cJSON *noise, const char *accel, double cpus, const char *spec,
		   const char *metric, int *boots);

/*
 * The boots a side that measurement found a comparison needs to find a
 * change of @change_pct (5 or 20, the ones kept: "boots_for_5pct",
 * "boots_for_20pct"); -1 beyond NOISE_MAX_BOOTS, 0 if none is kept.
 */
int noise_boots_for(const cJSON *noise, const char *accel, double cpus, const char *spec,
		    const char *metric, int change_pct);

/*
 * A floor measured between halves of @k boots, for a comparison of @na
 * boots against @nb: the A/A change is a difference of mean logarithms,
 * whose spread goes as sqrt(1/k + 1/k) for independent boots, so its
 * logarithm is scaled by sqrt((1/na + 1/nb) / (2/k)). More boots than
 * the A/A had give a lower floor, fewer a higher one.
 */
double noise_floor_scaled(double pct, int k, size_t na, size_t nb);

/*
 * The boots a side a comparison needs to find a change of @change_pct
 * with 80% power at @alpha (stats.h, detection_power()), for boots
 * whose logarithms spread by @sd_log and a floor of @floor_pct at @k
 * boots a side (NAN: none); -1 beyond NOISE_MAX_BOOTS.
 */
int noise_boots_needed(double sd_log, double floor_pct, int k, double change_pct, double alpha);
#define NOISE_MAX_BOOTS 1000

/*
 * Measures the A/A distribution from @n results files of one variant,
 * workload and accelerator: the boots of all of them are pooled and
 * every split into two equal halves (NOISE_MAX_SPLITS sampled ones
 * beyond that) gives a change: the ratio of the halves' geometric means of
 * boot medians, less 1, in percent. Each time metric's entry in @noise,
 * under the runs' CPU count, is replaced; it keeps the standard
 * deviation of the boots' logarithms too ("sd_log"), and the boots a
 * side that a change of 5% and of 20% need (noise_boots_for()). Returns
 * how many metrics were measured, or -1 after a one-line error.
 */
int noise_measure(cJSON *noise, const char *const *paths, const cJSON *const *docs, int n);

/* A new, empty floor document. */
cJSON *noise_new(void);

#endif
