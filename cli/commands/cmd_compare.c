// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench compare: a base results file against others of the same
 * workload, in the spirit of mmtests' compare-kernels.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "compare.h"
#include "noise.h"
#include "options.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct compare_opts {
	bool json, allow_partial;
	double alpha, fail_pct;		/* fail_pct < 0: no check */
	const char *output;
};

/* Returns the index of the first results file, or -1. */
static int parse_compare_opts(int argc, char **argv, struct compare_opts *o)
{
	static const struct usage usage = {
		.cmd = "compare", .args = "BASE.json OTHER.json...", .min_args = 2,
		.max_args = -1,
		.about = "Compares each metric of every test of OTHER runs with the BASE run, boot\n"
			 "by boot: each boot's median, the spread within boots, the change and its\n"
			 "95% interval. Times are tested across boots (Welch's t-test on boot\n"
			 "medians, 3 boots a side or more, Benjamini-Hochberg over the metrics) and\n"
			 "flagged only beyond the A/A noise floor of $SLABBENCH_NOISE, else the\n"
			 "cache's noise.json (slabbench noise), scaled to the boots compared; each\n"
			 "states the smallest change it could detect (80% power), and a line per\n"
			 "run how many could detect a change of the --fail-on-regression size,\n"
			 "else 5%. Counts are shown as differences.\n"
			 "The runs must be of the same workload.\n",
	};
	struct opt opts[] = {
		OPT_BOOLEAN(0, "json", &o->json, "every figure as JSON instead of the table"),
		OPT_DOUBLE("alpha", &o->alpha, "A", 0, 1, true,
			   "false discovery rate (Benjamini-Hochberg)"),
		OPT_DOUBLE("fail-on-regression", &o->fail_pct, "PCT", 0, INFINITY, false,
			   "exit 1 if a significant change for the worse\n"
			   "(beyond the noise floor) is larger than PCT percent"),
		OPT_BOOLEAN(0, "allow-partial", &o->allow_partial,
			    "compare the partial results of failed runs too"),
		OPT_STRING('o', "output", &o->output, "FILE", "write the output to FILE (atomically)"),
		OPT_END(),
	};

	*o = (struct compare_opts){ .alpha = 0.05, .fail_pct = -1 };
	return options_parse(&usage, opts, argc, argv);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct comparison c = { 0 };
	const char **paths;
	cJSON **docs;
	char *text = NULL, *report = NULL, *noise_file = NULL;
	cJSON *noise = NULL;
	bool missing = false;
	int first = parse_compare_opts(argc, argv, &o), n, ret = 2, regressions = 0;

	if (first < 0)
		return 2;
	n = argc - first;
	paths = (const char **)argv + first;
	docs = compare_load(paths, n, o.allow_partial);
	noise_file = noise_path();
	noise = noise_load(noise_file, &missing);
	if (!docs || (!noise && !missing) ||
	    compare_build(&c, paths, (const cJSON *const *)docs, n, o.alpha, noise, noise_file))
		goto out;
	/* What a regression must be to matter: the gate's size, else CMP_MATTERS. */
	if (o.fail_pct >= 0)
		c.matters = o.fail_pct;
	if (!noise)
		warning("%s", c.floor_note);
	for (int i = 0; i < c.nr_warnings; i++)
		warning("%s", c.warnings[i]);
	if (o.json) {
		cJSON *j = compare_json(&c);
		char *s = cJSON_Print(j);

		cJSON_Delete(j);
		text = xasprintf("%s\n", s ? s : "");
		free(s);
	} else {
		text = compare_text(&c);
	}
	if (write_output(o.output, text))
		goto out;
	ret = 0;
	if (o.fail_pct >= 0) {
		regressions = compare_regressions(&c, o.fail_pct, &report);
		fputs(report, stderr);
		if (regressions) {
			error("compare: %d significant regression%s (beyond the noise floor) larger than %g%%", regressions,
			      regressions > 1 ? "s" : "", o.fail_pct);
			ret = 1;
		}
	}
out:
	cJSON_Delete(noise);
	free(noise_file);
	compare_unload(docs, n);
	free(text);
	free(report);
	compare_free(&c);
	return ret;
}
