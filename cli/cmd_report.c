// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench report: a base and a new results file as a plain-text
 * regression report, ready to paste into a mail to linux-mm.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "compare.h"
#include "report.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char report_usage[] =
	"usage: slabbench report [-o FILE] BASE.json NEW.json\n"
	"\n"
	"Writes a regression report of NEW against BASE, at most 72 columns wide:\n"
	"a subject naming the largest significant change, a summary, the setup,\n"
	"both kernels and how their configs differ, the results (mean, %stddev,\n"
	"%change, Welch's t-test), memory, and the commands that reproduce it.\n"
	"\n"
	"  -o, --output=FILE  write it to FILE (atomically) instead of stdout\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct comparison c = { 0 };
	const char *output = NULL;
	char *text = NULL;
	cJSON **docs;
	int opt, ret = 2;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return 0;
		default:
			return error("report: %s: unknown option or missing value", argv[optind - 1]), 2;
		}
	}
	if (argc - optind != 2)
		return error("report: expected BASE.json and NEW.json (see 'slabbench report --help')"), 2;
	docs = compare_load((const char **)argv + optind, 2, false);
	if (!docs || compare_build(&c, (const char **)argv + optind, (const cJSON *const *)docs, 2, 0.05))
		goto out;
	text = report_text(&c, (const cJSON *const *)docs);
	ret = write_output(output, text) ? 1 : 0;
out:
	free(text);
	compare_free(&c);
	compare_unload(docs, 2);
	return ret;
}
