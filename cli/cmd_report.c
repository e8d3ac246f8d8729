// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench report: a base and a new results file as a plain-text
 * regression report, ready to paste into a mail to linux-mm.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "compare.h"
#include "options.h"
#include "report.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

int cmd_report(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "report", .args = "BASE.json NEW.json", .min_args = 2, .max_args = 2,
		.about = "Writes a regression report of NEW against BASE, at most 72 columns wide:\n"
			 "a subject naming the largest significant change, a summary, the setup,\n"
			 "both kernels and how their configs differ, the results (mean, %stddev,\n"
			 "%change, Welch's t-test), memory, and the commands that reproduce it.\n",
	};
	struct comparison c = { 0 };
	const char *output = NULL;
	char *text = NULL;
	cJSON **docs;
	int first, ret = 2;
	struct opt opts[] = {
		OPT_STRING('o', "output", &output, "FILE",
			   "write it to FILE (atomically) instead of stdout"),
		OPT_END(),
	};

	first = options_parse(&usage, opts, argc, argv);
	if (first < 0)
		return 2;
	docs = compare_load((const char **)argv + first, 2, false);
	if (!docs || compare_build(&c, (const char **)argv + first, (const cJSON *const *)docs, 2, 0.05))
		goto out;
	text = report_text(&c, (const cJSON *const *)docs);
	ret = write_output(output, text) ? 1 : 0;
out:
	free(text);
	compare_free(&c);
	compare_unload(docs, 2);
	return ret;
}
