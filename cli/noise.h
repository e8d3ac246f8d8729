/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise floor: how far one kernel's figures move against themselves
 * (A/A), per accelerator, test and metric, measured from boots of one
 * variant and kept in a file (docs/noise.md). compare never flags a
 * change inside it.
 */
#ifndef SLABBENCH_NOISE_H
#define SLABBENCH_NOISE_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#define NOISE_SCHEMA 1
/* Fewer boots give no distribution worth the name: 2 a side. */
#define NOISE_MIN_BOOTS 4
/* Splits of the boots into halves beyond this are sampled, not enumerated. */
#define NOISE_MAX_SPLITS 5000

/* $SLABBENCH_NOISE, else noise.json in slabbench's cache directory. */
char *noise_path(void);

/*
 * Loads the floor file at @path. NULL with *missing set when there is
 * none; NULL after a one-line error when it is not a floor file.
 */
cJSON *noise_load(const char *path, bool *missing);

/*
 * The floor in percent of metric @metric of the test with spec @spec
 * under accelerator @accel: the 95th percentile of its A/A changes'
 * sizes. NAN when @noise (may be NULL) has none.
 */
double noise_floor(const cJSON *noise, const char *accel, const char *spec,
		   const char *metric);

/*
 * Measures the A/A distribution from @n results files of one variant,
 * workload and accelerator: the boots of all of them are pooled and
 * every split into two equal halves (NOISE_MAX_SPLITS sampled ones
 * beyond that) gives a change: the ratio of the halves' geometric means of
 * boot medians, less 1, in percent. Each time
 * metric's entry in @noise is replaced. Returns how many metrics were
 * measured, or -1 after a one-line error.
 */
int noise_measure(cJSON *noise, const char *const *paths, const cJSON *const *docs, int n);

/* A new, empty floor document. */
cJSON *noise_new(void);

#endif
