/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A complete results document of timed metrics, as the noise and report
 * tests build them: one test, fastpath, whose metrics the caller adds
 * with fixture_metric().
 */
#ifndef SLABBENCH_TIMED_FIXTURE_H
#define SLABBENCH_TIMED_FIXTURE_H

#include "results.h"

#include <cjson/cJSON.h>

/* Variant @variant under @accel at 2 vCPUs, workload "w"; its metrics object in *metrics. */
static inline cJSON *fixture_timed_doc(const char *variant, const char *accel, cJSON **metrics)
{
	cJSON *doc = cJSON_CreateObject(), *vm, *t;

	cJSON_AddNumberToObject(doc, "schema", RESULTS_SCHEMA);
	cJSON_AddStringToObject(doc, "status", "complete");
	vm = cJSON_AddObjectToObject(doc, "vm");
	cJSON_AddStringToObject(vm, "accel", accel);
	cJSON_AddNumberToObject(vm, "cpus", 2);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "kernel"), "variant", variant);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "workload"), "name", "w");
	t = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "tests"), t);
	cJSON_AddStringToObject(t, "test", "fastpath");
	cJSON_AddStringToObject(t, "spec", "test=fastpath");
	*metrics = cJSON_AddObjectToObject(t, "metrics");
	return doc;
}

/* Metric @name in @unit, @better, of the @n samples @x, each a boot of its own. */
static inline void fixture_metric(cJSON *metrics, const char *name, const char *unit,
				  const char *better, const double *x, int n)
{
	cJSON *m = cJSON_AddObjectToObject(metrics, name), *boots;

	cJSON_AddStringToObject(m, "unit", unit);
	cJSON_AddStringToObject(m, "better", better);
	cJSON_AddItemToObject(m, "samples", cJSON_CreateDoubleArray(x, n));
	boots = cJSON_AddArrayToObject(m, "boots");
	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(boots, cJSON_CreateDoubleArray(&x[i], 1));
}

#endif
