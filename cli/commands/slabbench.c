// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench: compare the kernel's slab allocators in QEMU guests.
 * Subcommands are looked up in one table, as git does with its builtins.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "build and boot guest kernels, run a workload, write results JSON" },
	{ "kernel", cmd_kernel, "build, list or clean the cached guest kernels" },
	{ "bench", cmd_bench, "benchmark the harness: boot-to-ready times, kernel build times" },
	{ "list", cmd_list, "the workloads, and the module's tests with their parameters" },
	{ "compare", cmd_compare, "compare results files boot by boot: changes, intervals, tests" },
	{ "noise", cmd_noise, "measure the A/A noise floor of one variant, which compare consults" },
	{ "plot", cmd_plot, "gnuplot charts of results: sizes, memory overhead, hit rates, scaling" },
	{ "report", cmd_report, "a regression report of two results files, for a mail to linux-mm" },
	{ "bisect", cmd_bisect, "the first commit of a git tree at which a metric regressed" },
	{ "watch", cmd_watch, "follow a branch: test each new tip, bisect and mail a regression" },
	{ "selftest", cmd_selftest, "the module's self-test and unload test in each guest (KTAP)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: slabbench [--help] [--version] COMMAND [ARGS]\n\n"
		   "Benchmarks the kernel's slab allocators (SLAB, SLUB, SLOB) in QEMU guests.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'slabbench COMMAND --help' describes a command.\n");
}

static const struct command *lookup(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	error("'%s' is not a command (see 'slabbench --help')", name);
	return NULL;
}

/*
 * help [--markdown] [COMMAND]: a command's --help, or as Markdown the
 * generated part of its page under docs/commands/ (make docs), or the
 * index of those pages, all from the tables that parse the options.
 */
static int help(int argc, char **argv)
{
	bool markdown = argc > 1 && !strcmp(argv[1], "--markdown");
	const struct command *c;
	char *sub[] = { NULL, markdown ? "--help-markdown" : "--help", NULL };

	argc -= markdown;
	argv += markdown;
	if (argc > 2)
		return error("help: expected [--markdown] [COMMAND]"), 2;
	if (argc == 1 && !markdown) {
		usage(stdout);
		return 0;
	}
	if (argc == 1) {
		printf("| command | what it does |\n| --- | --- |\n");
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			printf("| [%s](%s.md) | %s |\n", commands[i].name, commands[i].name,
			       commands[i].summary);
		return 0;
	}
	c = lookup(argv[1]);
	if (!c)
		return 2;
	if (markdown)
		printf("# slabbench %s\n\n%c%s.\n\n", c->name, toupper(c->summary[0]),
		       c->summary + 1);
	fflush(stdout);
	sub[0] = (char *)c->name;
	return c->fn(2, sub);
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version")) {
		printf("slabbench %s\n", SLABBENCH_VERSION);
		return 0;
	}
	c = lookup(argv[1]);
	return c ? c->fn(argc - 1, argv + 1) : 2;
}
