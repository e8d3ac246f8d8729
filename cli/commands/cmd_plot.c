// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench plot: charts of one or more results files, above all where
 * each allocator's memory goes.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "compare.h"
#include "options.h"
#include "plot.h"
#include "util.h"
#include "vm.h"

#include <stdio.h>

int cmd_plot(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "plot", .args = "-o DIR RESULTS.json...", .min_args = 1, .max_args = -1,
		.about = "Draws, as DIR/NAME.png and DIR/NAME.svg with gnuplot (data in NAME.dat):\n"
			 "  sizes     kmalloc+kfree cost against object size, a line per run\n"
			 "  overhead  memory per live object, stacked by cause, with each run's\n"
			 "            overhead against the first run's\n"
			 "  hitrate   per-CPU cache hit rates per run and test\n"
			 "  scaling   throughput against CPUs\n"
			 "  remote    cost of remote frees, on each side\n"
			 "  sizes-insns  kmalloc+kfree instructions against object size\n"
			 "            (--accel=cost)\n"
			 "and from the slab census of runs that carry it (docs/census.md):\n"
			 "  memory-cpus   against guest CPUs, a line per allocator: bytes held\n"
			 "                beyond live object bytes, and Slab + Percpu\n"
			 "  memory-where  at each chosen CPU count, a bar per allocator stacked by\n"
			 "                where the slab memory is (live objects, free slots by\n"
			 "                place: CPU slabs, per-CPU arrays, sheaves, barns...)\n"
			 "  generations   Slab + Percpu of each SLUB against SLAB of its config\n"
			 "                against guest CPUs, a line per variant named with its\n"
			 "                release and per-CPU design, bars its 95% interval\n"
			 "  sheaves       the price of per-CPU caching: the memory the sheaves\n"
			 "                workload's caches hold (census) against instructions per\n"
			 "                alloc+free pair (sheaves-cost, --accel=cost), a point per\n"
			 "                sheaf capacity with its refills per 1000 allocations;\n"
			 "                sheaves-ref's runs give SLAB's and older SLUB's points\n"
			 "A chart whose data is in no results file is skipped with a message.\n",
	};
	struct plot_opts po = { 0 };
	const char *dir = NULL;
	bool partial = false;
	cJSON **docs;
	int first, n, ret;
	struct opt opts[] = {
		OPT_STRING('o', "output", &dir, "DIR", "the directory of the charts"),
		OPT_BOOLEAN(0, "allow-partial", &partial, "plot the partial results of failed runs too"),
		{ .type = OPT_T_STRING, .name = "phase", .value = &po.phase, .argh = "WHEN",
		  .help = "the census snapshot: before, after, tN.PHASE",
		  .deftext = "the first held phase tN.0s, else after" },
		{ .type = OPT_T_LONGS, .name = "at", .value = &po.at, .argh = "N[,N...]",
		  .min = 1, .max = VM_CPUS_MAX, .max_count = OPT_LONGS_MAX,
		  .help = "CPU counts of memory-where", .deftext = "every count in the results" },
		OPT_END(),
	};

	first = options_parse(&usage, opts, argc, argv);
	if (first < 0)
		return 2;
	n = argc - first;
	if (!dir)
		return error("plot: expected -o DIR (see 'slabbench plot --help')"), 2;
	docs = compare_load((const char **)argv + first, n, partial);
	if (!docs)
		return 2;
	ret = plot_results((const cJSON *const *)docs, n, dir, &po) ? 1 : 0;
	compare_unload(docs, n);
	return ret;
}
