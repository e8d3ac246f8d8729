// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench compare: a base results file against others of the same
 * workload, in the spirit of mmtests' compare-kernels.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "compare.h"
#include "results.h"
#include "util.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char compare_usage[] =
	"usage: slabbench compare [--json] [--alpha=A] [--fail-on-regression=PCT]\n"
	"                         [--allow-partial] [-o FILE] BASE.json OTHER.json...\n"
	"\n"
	"Compares each metric of every test of OTHER runs with the BASE run: means,\n"
	"spread, percent change and Welch's two-sided t-test. The runs must be of\n"
	"the same workload.\n"
	"\n"
	"  --json                    every figure as JSON instead of the table\n"
	"  --alpha=A                 significance level, 0 < A < 1 (default 0.05)\n"
	"  --fail-on-regression=PCT  exit 1 if a significant change for the worse\n"
	"                            is larger than PCT percent\n"
	"  --allow-partial           compare the partial results of failed runs too\n"
	"  -o, --output=FILE         write the output to FILE (atomically)\n";

struct compare_opts {
	bool json, allow_partial;
	double alpha, fail_pct;		/* fail_pct < 0: no check */
	const char *output;
};

/* A whole finite decimal number in [min, max]. */
static int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_compare_opts(int argc, char **argv, struct compare_opts *o)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "fail-on-regression", required_argument, NULL, 'f' },
		{ "allow-partial", no_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct compare_opts){ .alpha = 0.05, .fail_pct = -1 };
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': o->json = true; break;
		case 'p': o->allow_partial = true; break;
		case 'o': o->output = optarg; break;
		case 'a':
			if (parse_double(optarg, 0, 1, &o->alpha) || o->alpha == 0 || o->alpha == 1)
				return error("compare: --alpha=%s: expected a number between 0 and 1",
					     optarg);
			break;
		case 'f':
			if (parse_double(optarg, 0, 1e9, &o->fail_pct))
				return error("compare: --fail-on-regression=%s: expected a percentage, 0 or more",
					     optarg);
			break;
		case 'h':
			fputs(compare_usage, stdout);
			exit(0);
		default:
			return error("compare: %s: unknown option or missing value (see 'slabbench compare --help')",
				     argv[optind - 1]);
		}
	}
	if (argc - optind < 2)
		return error("compare: expected a base results file and at least one other "
			     "(see 'slabbench compare --help')");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	struct comparison c = { 0 };
	const char **paths;
	cJSON **docs;
	char *text = NULL, *report = NULL;
	int n, ret = 2, regressions = 0;

	if (parse_compare_opts(argc, argv, &o))
		return 2;
	n = argc - optind;
	paths = (const char **)argv + optind;
	docs = compare_load(paths, n, o.allow_partial);
	if (!docs || compare_build(&c, paths, (const cJSON *const *)docs, n, o.alpha))
		goto out;
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
			error("compare: %d significant regression%s larger than %g%%", regressions,
			      regressions > 1 ? "s" : "", o.fail_pct);
			ret = 1;
		}
	}
out:
	compare_unload(docs, n);
	free(text);
	free(report);
	compare_free(&c);
	return ret;
}
