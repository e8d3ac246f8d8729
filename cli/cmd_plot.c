// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench plot: charts of one or more results files, above all where
 * each allocator's memory goes.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "compare.h"
#include "plot.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>

static const char plot_usage[] =
	"usage: slabbench plot [--allow-partial] -o DIR RESULTS.json...\n"
	"\n"
	"Draws, as DIR/NAME.png and DIR/NAME.svg with gnuplot (data in NAME.dat):\n"
	"  sizes     kmalloc+kfree cost against object size, a line per run\n"
	"  overhead  memory per live object, stacked by cause, with each run's\n"
	"            overhead against the first run's\n"
	"  hitrate   per-CPU cache hit rates per run and test\n"
	"  scaling   throughput against CPUs\n"
	"  remote    cost of remote frees, on each side\n"
	"A chart whose test is in no results file is skipped with a message.\n";

int cmd_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "allow-partial", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL;
	bool partial = false;
	cJSON **docs;
	int c, n, ret;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 'p':
			partial = true;
			break;
		case 'h':
			fputs(plot_usage, stdout);
			return 0;
		default:
			return error("plot: %s: unknown option or missing value", argv[optind - 1]), 2;
		}
	}
	n = argc - optind;
	if (!dir || n < 1)
		return error("plot: expected -o DIR and at least one results file (see 'slabbench plot --help')"), 2;
	docs = compare_load((const char **)argv + optind, n, partial);
	if (!docs)
		return 2;
	ret = plot_results((const cJSON *const *)docs, n, dir) ? 1 : 0;
	compare_unload(docs, n);
	return ret;
}
