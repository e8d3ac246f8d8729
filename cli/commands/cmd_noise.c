// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench noise: one variant against itself (A/A). Boots it 2 x N
 * times, or takes results files of it, and keeps per accelerator, test
 * and metric the distribution of the changes between halves of its
 * boots in the noise-floor file, which compare and report consult.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "compare.h"
#include "noise.h"
#include "options.h"
#include "runner.h"
#include "util.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fmt_needed(char *out, size_t size, int n)
{
	if (n < 0)
		snprintf(out, size, ">%d", NOISE_MAX_BOOTS);
	else
		snprintf(out, size, "%d", n);
}

/*
 * The floors just measured, a line each, for the terminal, with the
 * boots a side that a comparison needs to find a change of 5% and of 20%
 * (80% power at alpha 0.05, before Benjamini-Hochberg).
 */
static void print_floors(const cJSON *noise, const cJSON *doc, const struct run_id *id)
{
	printf("%-40s %-24s %8s %10s %10s\n", "test", "metric", "floor", "boots/side",
	       "for 5%/20%");
	for (int t = 0; t < run_nr_tests(doc); t++) {
		const cJSON *test = run_test(doc, t), *m;

		cJSON_ArrayForEach(m, test_metrics(test)) {
			int k;
			double f = noise_floor(noise, id->accel, id->cpus, test_spec(test),
					       m->string, &k);
			char n5[16], n20[16], need[40];

			if (isnan(f))
				continue;
			fmt_needed(n5, sizeof(n5), noise_boots_for(noise, id->accel, id->cpus,
								   test_spec(test), m->string, 5));
			fmt_needed(n20, sizeof(n20), noise_boots_for(noise, id->accel, id->cpus,
								     test_spec(test), m->string, 20));
			snprintf(need, sizeof(need), "%s/%s", n5, n20);
			printf("%-40.40s %-24.24s %7.2f%% %10d %10s\n", test_spec(test) + 5,
			       m->string, f, k, need);
		}
	}
}

/* Measures @n files into the floor file; the exit status. */
static int measure(const char *const *paths, int n)
{
	char *path = noise_path(), *dir = xstrdup(path), *text = NULL;
	cJSON **docs = compare_load(paths, n, false), *noise = NULL;
	struct run_id *ids = NULL;
	bool missing;
	int measured, ret = 2;

	if (!docs)
		goto out;
	noise = noise_load(path, &missing);
	if (!noise && !missing)
		goto out;
	if (!noise)
		noise = noise_new();
	measured = noise_measure(noise, paths, (const cJSON *const *)docs, n);
	if (measured < 0)
		goto out;
	ret = 1;
	text = cJSON_Print(noise);
	if (!text || mkdir_p(dirname(dir)) || write_output(path, text))
		goto out;
	ids = run_ids(paths, (const cJSON *const *)docs, 1);
	print_floors(noise, docs[0], &ids[0]);
	printf("%d metric floors of %s under %s written to %s\n", measured, ids[0].variant,
	       ids[0].accel, path);
	ret = 0;
out:
	run_ids_free(ids, 1);
	compare_unload(docs, n);
	cJSON_Delete(noise);
	free(text);
	free(dir);
	free(path);
	return ret;
}

int cmd_noise(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "noise", .args = "[RESULTS.json...]", .max_args = -1,
		.about = "Measures the A/A noise floor: boots one variant 2 x N times (--boots=N a\n"
			 "side) with the workload, or takes RESULTS files of one variant, and for\n"
			 "every time metric records the distribution of the change between two\n"
			 "halves of its boots (every split into equal halves) under the run's\n"
			 "accelerator and CPU count. The floor is the 95th percentile of the\n"
			 "change's size; compare and report scale it to their boots and never\n"
			 "flag a change inside that. It prints the boots a side a comparison\n"
			 "needs to find a change of 5% and of 20%. The file is\n"
			 "$SLABBENCH_NOISE, else noise.json in the cache directory; a metric's\n"
			 "entry is replaced by each new measurement (docs/noise.md).\n",
	};
	struct runner_opts o = {
		.allocs = "slub", .workload = "quick", .boots = RUN_BOOTS,
		.vm = { .accel = "auto", .numa = 1 },
	};
	struct opt opts[] = {
		OPT_STRING(0, "alloc", &o.allocs, "VARIANT", "the variant to measure"),
		OPT_STRING(0, "workload", &o.workload, "FILE",
			   "a workload file, or a name in workloads/"),
		{ .type = OPT_T_STRING, .short_name = 'o', .name = "output", .value = &o.output,
		  .argh = "FILE", .help = "results file of the A/A boots",
		  .deftext = "results/noise-VARIANT-WORKLOAD.json" },
		OPT_VM(&o.vm, 1),
		OPT_INTEGER("repeat", &o.repeat, "N", 1, 1000, NULL, "override every test's repeats"),
		{ .type = OPT_T_LONG, .name = "boots", .value = &o.boots, .argh = "N", .min = 2,
		  .max = 50, .help = "boots a side: 2 x N boots in all",
		  .deftext = OPT_STR(RUN_BOOTS) },
		OPT_END(),
	};
	int first = options_parse(&usage, opts, argc, argv), ret;
	char *out = NULL, *name;
	const char *path;

	if (first < 0)
		return 2;
	if (first < argc)
		return measure((const char *const *)argv + first, argc - first);
	if (strchr(o.allocs, ',')) {
		error("noise: --alloc=%s: one variant, measured against itself", o.allocs);
		return 2;
	}
	if (!o.output) {
		char *base;

		name = xstrdup(o.workload);
		base = basename(name);
		base[strcspn(base, ".")] = '\0';
		out = xasprintf("results/noise-%s-%s.json", o.allocs, base);
		free(name);
		if (mkdir_p("results")) {
			free(out);
			return 1;
		}
		o.output = out;
	}
	o.boots *= 2;
	ret = runner_run(&o);
	path = o.output;
	if (!ret)
		ret = measure(&path, 1);
	free(out);
	return ret;
}
