// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench report: a base and a new results file as a plain-text
 * regression report, ready to paste into a mail to linux-mm.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "compare.h"
#include "noise.h"
#include "options.h"
#include "regmail.h"
#include "report.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More runs must be of BASE's or NEW's variant: other counts of the same sweep. */
static int same_variants(const char *const *paths, const cJSON *const *docs, int n)
{
	struct run_id *ids = run_ids(paths, docs, n);
	int ret = 0;

	for (int r = 2; r < n && !ret; r++)
		if (strcmp(ids[r].variant, ids[0].variant) && strcmp(ids[r].variant, ids[1].variant))
			ret = error("report: %s: variant %s is neither BASE's (%s) nor NEW's (%s)",
				    paths[r], ids[r].variant, ids[0].variant, ids[1].variant);
	run_ids_free(ids, n);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "report", .args = "BASE.json NEW.json [MORE.json...]",
		.max_args = -1,
		.about = "Writes a regression report of NEW against BASE, at most 72 columns wide:\n"
			 "a subject naming the strongest result of any kind (a hardware time, the\n"
			 "cost model's exact counts, slab memory, an emulated time) and, when no\n"
			 "time changed, the smallest change the times could have found\n"
			 "('inconclusive' when none could find --matters), a summary, the setup\n"
			 "(boots, floor, emulation), both kernels, their generations (release and\n"
			 "per-CPU design; a warning when they differ), how their configs differ,\n"
			 "the results (boot medians, spread within boots,\n"
			 "%change with its 95% interval and floor; Welch's t-test across boots with\n"
			 "Benjamini-Hochberg), memory, and the commands that reproduce it.\n"
			 "Memory states the ratio of NEW's slab memory to BASE's from the census,\n"
			 "with its 95% confidence interval over boots (5 boots a side or more);\n"
			 "SLUB's 30% over SLAB appears only when the whole interval is above\n"
			 "x1.30, does not when it is below, and is otherwise inconclusive.\n"
			 "MORE are runs of BASE's and NEW's variants at other CPU counts (a\n"
			 "--cpus sweep): the census ratio is then given at each count.\n"
			 "\n"
			 "--mbox=FILE writes the report as a mail in mbox form instead, as the\n"
			 "kernel test robot sends one: To the lists and Cc the people that the\n"
			 "tree's scripts/get_maintainer.pl names for the allocator's files (or,\n"
			 "with --bisect, for the first bad commit's files, its author Cc'd too);\n"
			 "the subject names the tree, the commit and the change; a variant from a\n"
			 "patch series replies to the series' cover letter. Its body, at most 150\n"
			 "lines, leads with what changed and the memory answer, then the machine,\n"
			 "the kernels, the tags (never wrapped; with --bisect a '#regzbot\n"
			 "introduced:' line) and how to reproduce; attached are the whole report\n"
			 "(report.txt), the full comparison (compare.txt), the configs'\n"
			 "difference, reproduce.sh and the results.\n",
	};
	struct regmail_opts m = { 0 };
	struct comparison c = { 0 };
	const char *output = NULL, *phase = NULL, *mbox = NULL, *bisect = NULL;
	double matters = CMP_MATTERS;
	char *text = NULL, *noise_file = noise_path();
	cJSON **docs = NULL, *noise = NULL;
	bool missing = false;
	int first, n = 0, ret = 2;
	struct opt opts[] = {
		OPT_STRING('o', "output", &output, "FILE",
			   "write it to FILE (atomically) instead of stdout"),
		{ .type = OPT_T_STRING, .name = "phase", .value = &phase, .argh = "WHEN",
		  .help = "the census snapshot: before, after, tN.PHASE",
		  .deftext = "the first held phase tN.0s, else after" },
		OPT_DOUBLE("matters", &matters, "PCT", 0, INFINITY, true,
			   "the size of change that matters: the subject calls the\n"
			   "times inconclusive when none could have found it"),
		OPT_STRING(0, "mbox", &mbox, "FILE", "write a mail in mbox form to FILE (atomically)"),
		OPT_STRING(0, "bisect", &bisect, "DIR",
			   "with --mbox, instead of BASE and NEW: the mail\nof a finished bisection (bisect -o DIR)"),
		{ .type = OPT_T_STRING, .name = "from", .value = &m.from, .argh = "ADDR",
		  .help = "the sender", .deftext = "git config user.name and user.email" },
		OPT_STRING(0, "to", &m.to, "LIST", "more recipients (comma-separated)"),
		OPT_STRING(0, "cc", &m.cc, "LIST", "more Cc (comma-separated)"),
		OPT_BOOLEAN(0, "no-maintainers", &m.no_maintainers,
			    "only --to and --cc: get_maintainer.pl is not run"),
		{ .type = OPT_T_STRING, .name = "maintainers-tree", .value = &m.maintainers_tree,
		  .argh = "DIR", .help = "the kernel tree whose get_maintainer.pl answers",
		  .deftext = "NEW's git tree, or its unpacked source" },
		{ .type = OPT_T_STRING, .name = "reported-by", .value = &m.reported_by,
		  .argh = "ADDR", .help = "the Reported-by: tag's identity", .deftext = "--from" },
		OPT_STRING(0, "closes", &m.closes, "URL", "a Closes: tag (where the report is kept)"),
		OPT_STRING(0, "link", &m.link, "URL", "a Link: tag"),
		{ .type = OPT_T_STRING, .name = "in-reply-to", .value = &m.in_reply_to,
		  .argh = "<ID>", .help = "the Message-Id the mail answers",
		  .deftext = "a series' cover letter" },
		{ .type = OPT_T_STRING, .name = "tree-name", .value = &m.tree_name,
		  .argh = "NAME", .help = "the subject's [NAME]: \"linux:master\"",
		  .deftext = "the tree's directory, or linux-RELEASE" },
		OPT_END(),
	};
	const char **paths;

	first = options_parse(&usage, opts, argc, argv);
	if (first < 0)
		return 2;
	n = argc - first;
	if ((bisect && (!mbox || n)) || (mbox && output)) {
		error("report: %s", bisect && (!mbox || n) ?
		      "--bisect=DIR takes --mbox and no results files" :
		      "--mbox and --output: the one or the other");
		free(noise_file);
		return 2;
	}
	if (bisect) {
		text = regmail_bisect(&m, bisect);
		ret = text && !write_output(mbox, text) ? 0 : 1;
		free(text);
		free(noise_file);
		return ret;
	}
	if (n < 2) {
		error("report: BASE.json and NEW.json are needed (see --help)");
		free(noise_file);
		return 2;
	}
	paths = (const char **)argv + first;
	if (mbox && n != 2) {
		error("report: --mbox takes BASE and NEW only (it attaches both)");
		goto out;
	}
	docs = compare_load(paths, n, false);
	noise = noise_load(noise_file, &missing);
	/* The mail's report names the files as they are attached. */
	if (!docs || (!noise && !missing) || same_variants(paths, (const cJSON *const *)docs, n) ||
	    compare_build(&c, mbox ? regmail_attached : paths, (const cJSON *const *)docs, 2, 0.05,
			  noise, noise_file))
		goto out;
	c.matters = matters;
	if (mbox) {
		char *mail = regmail_comparison(&m, paths, (const cJSON *const *)docs, &c, phase);

		ret = mail && !write_output(mbox, mail) ? 0 : 1;
		free(mail);
	} else {
		text = report_text(&c, (const cJSON *const *)docs, n, phase);
		ret = write_output(output, text) ? 1 : 0;
	}
out:
	cJSON_Delete(noise);
	free(noise_file);
	free(text);
	compare_free(&c);
	compare_unload(docs, n);
	return ret;
}
