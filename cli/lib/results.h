/* SPDX-License-Identifier: GPL-2.0 */
/* Results documents: building them from a guest's frames, saving, loading. */
#ifndef SLABBENCH_RESULTS_H
#define SLABBENCH_RESULTS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#define RESULTS_SCHEMA 1

struct workload;
struct cost_file;

/*
 * Adds one boot's frames to @doc: module results go into doc.tests
 * (samples appended, per-boot samples kept), files and snapshots into
 * doc.boots[boot] (@boot_obj) and doc.guest. Returns 0, or -1 with *why
 * set when the guest reported an error or the channel is malformed.
 */
int results_add_frames(cJSON *doc, cJSON *boot_obj, const struct workload *w,
		       const char *channel, size_t len, const char *build_config,
		       const char *alloc_config, char **why);
/* The cost model's counts of one boot (--accel=cost), and their file. */
struct results_cost {
	const struct cost_file *file;
	const char *path;
};

/*
 * As results_add_frames(), each module result first joined to @cost's
 * counts (cost_join()) when @cost is not NULL.
 */
int results_add_frames_cost(cJSON *doc, cJSON *boot_obj, const struct workload *w,
			    const char *channel, size_t len, const char *build_config,
			    const char *alloc_config, const struct results_cost *cost,
			    char **why);
/*
 * Recomputes every metric's summary from its samples, once the run's
 * boots are in; a count of the cost model whose every window was
 * rejected is set aside as absent (cost_set_absent()).
 */
void results_summarize(cJSON *doc);

int results_save(const char *path, const cJSON *doc);
/* Loads and checks the schema; NULL with a one-line error on failure. */
cJSON *results_load(const char *path);
cJSON *results_parse(const char *path, const char *text);

#endif
