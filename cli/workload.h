/* SPDX-License-Identifier: GPL-2.0 */
/* Workload files: which tests to run, with which parameters. */
#ifndef SLABBENCH_WORKLOAD_H
#define SLABBENCH_WORKLOAD_H

#include <cjson/cJSON.h>

struct workload_test {
	char *test;
	char *spec;	/* "test=NAME key=value ...", as the module takes it */
};

struct workload {
	char *path;
	char *name;
	cJSON *json;	/* the file as read, recorded in results */
	struct workload_test *tests;
	int nr_tests;
	double timeout_s;
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
/* workloads/NAME.json in the repository, for a bare name. */
char *workload_resolve(const char *name_or_path);

#endif
