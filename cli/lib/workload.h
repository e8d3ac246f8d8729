/* SPDX-License-Identifier: GPL-2.0 */
/* Workload files: which tests to run, with which parameters. */
#ifndef SLABBENCH_WORKLOAD_H
#define SLABBENCH_WORKLOAD_H

#include <cjson/cJSON.h>
#include <stdbool.h>

/* The phase that shrinks every cache first; it comes after the timed ones. */
#define CENSUS_PHASE_SHRINK	"shrink"

/* A census read while a test holds memory (docs/census.md). */
struct census_phase {
	char *name;	/* "0s", "30s" or CENSUS_PHASE_SHRINK, as the file gives it */
	long seconds;	/* since the test's result came back; -1 for the shrink */
};

struct workload_test {
	char *test;
	char *spec;	/* "test=NAME key=value ...", as the module takes it */
	bool holds;	/* params.hold is 1: its objects live until "release" */
	struct census_phase *census;	/* the "census" key, in order */
	int nr_census;
};

struct workload {
	char *path;
	char *name;
	cJSON *json;	/* the file as read, recorded in results */
	struct workload_test *tests;
	int nr_tests;
	double timeout_s;
	/* A boot-like user space on every CPU before the after-boot snapshot. */
	bool boot_userspace;
	/* Seconds from that user space (or the plan's start) to the snapshot. */
	long after_boot_s;
};

/*
 * Reads and checks @path. @repeat > 0 overrides every test's "repeats".
 * Every error names the file and the key.
 */
int workload_load(const char *path, long repeat, struct workload *w);
/* Same, from text already in memory (for tests and fuzzing). */
int workload_parse(const char *path, const char *text, long repeat,
		   struct workload *w);
/*
 * Checks every test, parameter and value against @catalogue (the module's
 * debugfs "tests" document); each error names the file and the key.
 */
int workload_check(const struct workload *w, const cJSON *catalogue);
void workload_free(struct workload *w);
/*
 * workloads/NAME.json in the repository, for a bare name that is not a
 * file here; a path as it is.
 */
char *workload_resolve(const char *name_or_path);

#endif
