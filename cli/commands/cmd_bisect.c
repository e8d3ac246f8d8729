// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench bisect: the first commit of a user's tree at which a metric
 * regressed. The command checks its options and names the directory;
 * the bisection is bisect.c's.
 */
#define _GNU_SOURCE
#include "bisect.h"
#include "commands.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A revision of @tree as its full commit id, or NULL after a message. */
static char *resolve(const char *tree, const char *what, const char *rev)
{
	char *c = git_commit(tree, rev);

	if (!c)
		error("bisect: --%s: %s has no revision '%s'", what, tree, rev);
	return c;
}

static int check_args(struct bisect *b, char **tree, char **workload, char **good, char **bad)
{
	char *gitdir;
	const char *dot = strchr(b->metric ? b->metric : "", '.');

	if (!b->r.tree || !b->good || !b->bad || !b->metric || isnan(b->threshold))
		return error("bisect: --tree, --good, --bad, --metric and --threshold are needed");
	if (!dot || dot == b->metric || !dot[1])
		return error("bisect: --metric: '%s' is not TEST.METRIC", b->metric);
	if (revision_setup(&b->r, tree, workload))
		return -1;
	gitdir = git_line(*tree, "rev-parse", "--git-dir", NULL);
	if (!gitdir)
		return error("bisect: --tree: %s is not a git tree", *tree);
	free(gitdir);
	*good = resolve(*tree, "good", b->good);
	*bad = *good ? resolve(*tree, "bad", b->bad) : NULL;
	if (!*bad)
		return -1;
	if (!strcmp(*good, *bad))
		return error("bisect: --good and --bad are the same commit %.12s", *good);
	return 0;
}

int cmd_bisect(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "bisect",
		.about = "Finds the first commit of a git tree at which TEST.METRIC of a workload\n"
			 "regressed by PCT percent or more. Each revision is a variant TREE@COMMIT\n"
			 "with the --alloc-config fragments (docs/user-kernels.md), built in a kept\n"
			 "build directory (only what changed is rebuilt), booted and run as 'run'\n"
			 "does, and judged against the good revision as 'compare' judges a change:\n"
			 "exact counts (--accel=cost) by any change, times across boots beyond the\n"
			 "noise floor. git bisect runs in a bare clone in DIR that shares the\n"
			 "tree's objects; the tree itself is only read. Revisions that do not build\n"
			 "or boot are skipped (git bisect skip). Ends with the first bad commit,\n"
			 "the figures of good, bad and first bad, and DIR/report.txt.\n",
	};
	struct bisect b = {
		.threshold = NAN,
		.r = { .cmd = "bisect", .alloc_config = "base alloc-slub", .workload = "quick",
		       .vm = { .accel = "auto", .numa = 1 } },
	};
	const char *step_dir = NULL, *output = NULL;
	char *tree = NULL, *good = NULL, *bad = NULL, *dir = NULL, *absdir = NULL;
	char *workload = NULL;
	struct bisect_found found = { 0 };
	int ret = 2;
	struct opt opts[] = {
		BISECT_OPTS(&b),
		{ .type = OPT_T_STRING, .short_name = 'o', .name = "output", .value = &output,
		  .argh = "DIR", .help = "results, logs and the report",
		  .deftext = "results/bisect-GOOD-BAD" },
		OPT_STRING(0, "step", &step_dir, "DIR", "(run by git bisect run) one step"),
		OPT_END(),
	};

	if (options_parse(&usage, opts, argc, argv) < 0)
		return 2;
	if (step_dir)
		return bisect_step(step_dir);
	/* Reading the user's tree must not refresh its index. */
	setenv("GIT_OPTIONAL_LOCKS", "0", 1);
	if (check_args(&b, &tree, &workload, &good, &bad))
		goto out;
	dir = output ? xstrdup(output) : xasprintf("results/bisect-%.12s-%.12s", good, bad);
	if (mkdir_p(dir))
		goto out;
	absdir = realpath(dir, NULL);
	b.r.dir = absdir;
	if (bisect_start(&b, tree))
		goto out;
	b.good = good;
	b.bad = bad;
	ret = 1;
	if (!bisect_find(&b, &found)) {
		bisect_print(&b, &found);
		ret = bisect_report(&b, &found) ? 1 : 0;
	}
out:
	free(found.first);
	free(absdir);
	free(dir);
	free(workload);
	free(tree);
	free(good);
	free(bad);
	return ret;
}
