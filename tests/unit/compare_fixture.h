/* SPDX-License-Identifier: GPL-2.0 */
/* Results documents of one metric, and their comparison, for compare's unit tests. */
#ifndef SLABBENCH_COMPARE_FIXTURE_H
#define SLABBENCH_COMPARE_FIXTURE_H

#include "compare.h"
#include "results.h"

#include <cjson/cJSON.h>

/* A results document of one test with one metric: each sample a boot of its own. */
static inline cJSON *doc_new(const char *workload, const char *spec, const char *allocator,
		      const char *better, const double *x, int n)
{
	cJSON *doc = cJSON_CreateObject(), *t, *m, *s, *vm, *kernel, *guest, *boots;

	cJSON_AddNumberToObject(doc, "schema", RESULTS_SCHEMA);
	cJSON_AddStringToObject(doc, "status", "complete");
	vm = cJSON_AddObjectToObject(doc, "vm");
	cJSON_AddStringToObject(vm, "accel", "kvm");
	cJSON_AddBoolToObject(vm, "emulated_time", 0);
	cJSON_AddNumberToObject(vm, "cpus", 2);
	kernel = cJSON_AddObjectToObject(doc, "kernel");
	cJSON_AddStringToObject(kernel, "tree", "6.1");
	cJSON_AddStringToObject(kernel, "release", "6.1.192");
	cJSON_AddStringToObject(kernel, "variant", allocator);
	guest = cJSON_AddObjectToObject(doc, "guest");
	cJSON_AddStringToObject(cJSON_AddObjectToObject(guest, "info"), "allocator", allocator);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "workload"), "name", workload);
	t = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "tests"), t);
	cJSON_AddStringToObject(t, "test", "fastpath");
	cJSON_AddStringToObject(t, "spec", spec);
	m = cJSON_AddObjectToObject(cJSON_AddObjectToObject(t, "metrics"), "ns_per_op");
	cJSON_AddStringToObject(m, "unit", "ns");
	cJSON_AddStringToObject(m, "better", better);
	s = cJSON_AddArrayToObject(m, "samples");
	boots = cJSON_AddArrayToObject(m, "boots");
	for (int i = 0; i < n; i++) {
		cJSON_AddItemToArray(s, cJSON_CreateNumber(x[i]));
		cJSON_AddItemToArray(boots, cJSON_CreateDoubleArray(&x[i], 1));
	}
	return doc;
}

static inline cJSON *metric(cJSON *doc)
{
	return cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
		cJSON_GetObjectItem(doc, "tests"), 0), "metrics"), "ns_per_op");
}

static inline void set_unit(cJSON *doc, const char *unit)
{
	cJSON_ReplaceItemInObject(metric(doc), "unit", cJSON_CreateString(unit));
}

/* Five boots of a time about 100. */
static const double base_x[] = { 100, 102, 99, 101, 98 };

/* @b compared with @a, no floor. */
static inline int build(struct comparison *c, cJSON *a, cJSON *b)
{
	static const char *const paths[] = { "a.json", "b.json" };
	const cJSON *docs[] = { a, b };

	return compare_build(c, paths, docs, 2, 0.05, NULL, NULL);
}

#endif
