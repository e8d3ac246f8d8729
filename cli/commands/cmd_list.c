// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench list: what can be run. The workloads shipped in workloads/,
 * and the tests with their parameters as the module's own catalogue has
 * them (read from a guest once per module build, then kept).
 */
#define _GNU_SOURCE
#include "commands.h"
#include "guest.h"
#include "json.h"
#include "options.h"
#include "util.h"
#include "workload.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int json_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 5 && !strcmp(e->d_name + n - 5, ".json");
}

static int list_workloads(void)
{
	char *dir = xasprintf("%s/workloads", slabbench_home());
	struct dirent **names;
	int n = scandir(dir, &names, json_file, alphasort), bad = 0;

	if (n < 0) {
		error("%s: %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	printf("Workloads (--workload=NAME):\n");
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]->d_name);
		struct workload w;

		if (workload_load(path, 0, &w)) {
			bad = 1;
		} else {
			const cJSON *d = cJSON_GetObjectItemCaseSensitive(w.json, "description");

			printf("  %-10s %2d tests, timeout %.0f s: %s\n", w.name, w.nr_tests,
			       w.timeout_s, cJSON_IsString(d) ? d->valuestring : "");
			workload_free(&w);
		}
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
	return bad ? -1 : 0;
}

static void print_param(const cJSON *p)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name");
	const cJSON *def = cJSON_GetObjectItemCaseSensitive(p, "default");
	const cJSON *min = cJSON_GetObjectItemCaseSensitive(p, "min");
	const cJSON *max = cJSON_GetObjectItemCaseSensitive(p, "max");
	const cJSON *choices = cJSON_GetObjectItemCaseSensitive(p, "choices");
	const cJSON *desc = cJSON_GetObjectItemCaseSensitive(p, "description"), *c;
	char *assign;

	if (cJSON_IsString(def))
		assign = xasprintf("%s=%s", name->valuestring, def->valuestring);
	else
		assign = xasprintf("%s=%.0f", name->valuestring, def->valuedouble);
	printf("      %-18s ", assign);
	free(assign);
	if (cJSON_IsArray(choices)) {
		printf("{");
		cJSON_ArrayForEach(c, choices)
			printf("%s%s", c == choices->child ? "" : ", ", c->valuestring);
		printf("}");
	} else {
		printf("[%.0f, %.0f]", min->valuedouble, max->valuedouble);
	}
	printf(" %s\n", cJSON_IsString(desc) ? desc->valuestring : "");
}

static int list_tests(const char *variant)
{
	const cJSON *t, *p;
	struct guest g;
	cJSON *cat;

	if (guest_prepare(variant, &g))
		return -1;
	cat = guest_catalogue(&g);
	if (!cat) {
		guest_free(&g);
		return -1;
	}
	printf("\nTests of slabbench.ko (as built for %s) and, marked [guest],\n"
	       "macro workloads the guest agent runs; with defaults:\n", variant);
	cJSON_ArrayForEach(t, cat) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "name");
		const cJSON *desc = cJSON_GetObjectItemCaseSensitive(t, "description");
		const cJSON *absent = cJSON_GetObjectItemCaseSensitive(t, "absent");

		if (!cJSON_IsString(name))
			continue;
		printf("  %-10s %s%s\n", name->valuestring,
		       json_at(t, "kind") ? "[guest] " : "",
		       cJSON_IsString(desc) ? desc->valuestring : "");
		if (cJSON_IsString(absent))
			printf("      not available on this kernel: %s\n", absent->valuestring);
		cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(t, "params"))
			if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(p, "name")))
				print_param(p);
	}
	cJSON_Delete(cat);
	guest_free(&g);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "list",
		.about = "Lists the workloads in workloads/ (for --workload=NAME) and the\n"
			 "module's tests with every parameter's default and bounds or choices,\n"
			 "from the catalogue of the module built for VARIANT.\n",
	};
	char *variant = "slub";
	struct opt opts[] = {
		OPT_STRING(0, "alloc", &variant, "VARIANT", "whose module's catalogue to list"),
		OPT_END(),
	};

	if (options_parse(&usage, opts, argc, argv) < 0 ||
	    variants_check("list: --alloc", &variant, 1))
		return 2;
	return list_workloads() || list_tests(variant);
}
