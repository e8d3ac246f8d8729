// SPDX-License-Identifier: GPL-2.0
/*
 * What run prints at the end says what each figure is: under the cost
 * model the exact instruction count, not the virtual clock; under TCG
 * times marked emulated; a test's spec wrapped at its words, never cut.
 */
#define _GNU_SOURCE
#include "check.h"
#include "runsummary.h"
#include "util.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static cJSON *load(const char *path)
{
	char *text = read_file(path, NULL);
	cJSON *doc = text ? cJSON_Parse(text) : NULL;

	free(text);
	return doc;
}

/* The line of @text that starts, after its indent, with @start; a copy, or NULL. */
static char *line_of(const char *text, const char *start)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *s = l + strspn(l, " ");

		if (!strncmp(s, start, strlen(start)))
			return xstrndup(l, strcspn(l, "\n"));
	}
	return NULL;
}

/* Whether every blank-separated word of @spec is a whole word of @text, in order. */
static bool words_whole(const char *text, const char *spec)
{
	const char *at = text;

	while (*spec) {
		size_t len = strcspn(spec, " ");
		char *word = xstrndup(spec, len);
		const char *w = at;
		bool found = false;

		while (!found && (w = strstr(w, word)) != NULL) {
			found = (w == text || strchr(" \n", w[-1])) && strchr(" \n", w[len]);
			if (!found)
				w++;
		}
		free(word);
		if (!found)
			return false;
		at = w + len;
		spec += len;
		spec += strspn(spec, " ");
	}
	return true;
}

static void test_tcg(void)
{
	cJSON *doc = load("tests/data/report5-slub.json"), *t;
	char *s = doc ? run_summary(doc) : NULL, *l;
	bool whole = s != NULL;

	CHECK(s && strstr(s, ", 5 boots, TCG: times are emulated, the host's speed, not hardware:\n"),
	      "TCG: the first line says the times are emulated");
	l = s ? line_of(s, "fastpath ") : NULL;
	CHECK(l && strstr(l, "fastpath api=cache size=64 iters=200000 ") &&
	      strstr(l, " ns_per_op (ns) ") && !strcmp(l + strlen(l) - 9, " emulated"),
	      "TCG: a time's row is marked emulated: %s", l ? l : "(none)");
	free(l);
	l = s ? line_of(s, "repeats=7") : NULL;
	CHECK(l && !strcmp(l, "      repeats=7"),
	      "a spec wider than its column goes on, indented, on a line of its own");
	free(l);
	l = s ? line_of(s, "overhead ") : NULL;
	CHECK(l && strstr(l, " slab_pages (pages) ") && !strcmp(l + strlen(l) - 6, " exact"),
	      "TCG: a count's row is exact, not emulated: %s", l ? l : "(none)");
	free(l);
	cJSON_ArrayForEach(t, cJSON_GetObjectItem(doc, "tests"))
		whole &= words_whole(s, cJSON_GetObjectItem(t, "spec")->valuestring + 5);
	CHECK(whole, "every word of every test's spec is there whole");
	free(s);
	cJSON_Delete(doc);
}

/* Under the cost model: the instruction count beside the first metric, exact. */
static void test_cost(void)
{
	cJSON *doc = load("tests/data/report5-slub.json"), *m, *boots, *r;
	char *s = NULL, *l;

	if (doc) {
		cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "vm"), "accel",
					  cJSON_CreateString("cost"));
		m = cJSON_AddObjectToObject(
			cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "tests"), 0),
					    "metrics"), "instructions_per_op");
		cJSON_AddStringToObject(m, "unit", "insns/op");
		cJSON_AddStringToObject(m, "better", "lower");
		boots = cJSON_AddArrayToObject(m, "boots");
		for (int b = 0; b < 5; b++) {
			double v[] = { 86.125, 86.125, b == 4 ? 90 : 86.125 };

			cJSON_AddItemToArray(boots, cJSON_CreateDoubleArray(v, 3));
		}
		/* Two of its 17 windows were entered by a context switch. */
		cJSON_AddItemToObject(m, "samples", cJSON_Duplicate(cJSON_GetArrayItem(boots, 0), 1));
		for (int w = 0; w < 12; w++)
			cJSON_AddItemToArray(cJSON_GetObjectItem(m, "samples"), cJSON_CreateNumber(86.125));
		r = cJSON_AddObjectToObject(m, "rejected");
		cJSON_AddNumberToObject(r, "windows", 2);
		cJSON_AddNumberToObject(r, "switched", 2);
		cJSON_AddNumberToObject(r, "loop_switched", 0);
		/* The batch test's windows were all entered by a context switch. */
		m = cJSON_AddObjectToObject(
			cJSON_AddObjectToObject(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "tests"),
								   1), "absent_metrics"),
			"alloc_instructions_per_op");
		cJSON_AddArrayToObject(m, "samples");
		m = cJSON_AddObjectToObject(m, "rejected");
		cJSON_AddNumberToObject(m, "windows", 15);
		cJSON_AddNumberToObject(m, "switched", 15);
		cJSON_AddNumberToObject(m, "loop_switched", 0);
		s = run_summary(doc);
	}
	CHECK(s && strstr(s, ", 5 boots, cost model (TCG plugin): instructions are exact counts, "
			  "times emulated:\n"), "cost: the first line says what the counts are");
	l = s ? line_of(s, "fastpath ") : NULL;
	CHECK(l && strstr(l, " instructions_per_op (insns/op) ") && strstr(l, " 86.125 ") &&
	      !strstr(l, " ns_per_op") && !strcmp(l + strlen(l) - 6, " exact"),
	      "cost: the instructions per op, every digit, exact; not the virtual clock: %s",
	      l ? l : "(none)");
	free(l);
	l = s ? line_of(s, "batch ") : NULL;
	CHECK(l && strstr(l, " alloc_ns_per_op (ns) ") && !strcmp(l + strlen(l) - 9, " emulated"),
	      "cost: a test without counts shows its time, marked emulated: %s", l ? l : "(none)");
	free(l);
	l = s ? line_of(s, "instructions_per_op: counted") : NULL;
	CHECK(l && strstr(l, "instructions_per_op: counted in the windows kept alone, 2 of 17 "
			  "windows") && strstr(s, "\n      rejected: a context switch entered them (2 the"),
	      "cost: a count some of whose windows were rejected says so: %s", l ? l : "(none)");
	free(l);
	l = s ? line_of(s, "alloc_instructions_per_op: ") : NULL;
	CHECK(l && strstr(l, "alloc_instructions_per_op: no count, all 15 windows rejected") &&
	      strstr(s, "a context\n      switch entered them (15 the sample's window"),
	      "cost: a count with no window kept says why under its test: %s", l ? l : "(none)");
	free(l);
	free(s);
	cJSON_Delete(doc);
}

static void test_kvm(void)
{
	cJSON *doc = load("tests/data/compare-base.json");
	char *s = doc ? run_summary(doc) : NULL, *l = s ? line_of(s, "fastpath ") : NULL;

	CHECK(s && strstr(s, "KVM: times are the host CPU's:\n"), "KVM: the first line says so");
	CHECK(l && !strcmp(l + strlen(l) - 5, " time") && !strstr(l, "emulated"),
	      "KVM: a time is a time: %s", l ? l : "(none)");
	free(l);
	free(s);
	cJSON_Delete(doc);
}

int main(void)
{
	test_tcg();
	test_cost();
	test_kvm();
	return check_done();
}
