/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The regression report as a mail, after the kernel test robot's: to the
 * people and lists the tree's own scripts/get_maintainer.pl names, on the
 * thread of the patch series it tested, with the configs, a reproducer
 * and the results attached.
 */
#ifndef SLABBENCH_REGMAIL_H
#define SLABBENCH_REGMAIL_H

#include <cjson/cJSON.h>
#include <stdbool.h>

struct regmail_opts {
	const char *from;		/* NULL: git config user.name and user.email */
	const char *to, *cc;		/* comma-separated, added to get_maintainer.pl's */
	bool no_maintainers;		/* only @to and @cc */
	const char *maintainers_tree;	/* a kernel tree to ask instead of the variant's */
	const char *reported_by;	/* NULL: @from */
	const char *closes, *link;	/* the tags a fix carries, or NULL */
	const char *in_reply_to;	/* NULL: the series' cover letter, if any */
	const char *tree_name;		/* the subject's [TREE]; NULL: from the tree */
};

/* The results files' names as the mail attaches them: base, then new. */
extern const char *const regmail_attached[2];

/*
 * The mail of the comparison of results @paths[1] against @paths[0]
 * (@docs, loaded), whose report is @report (report_text() of a
 * comparison built with regmail_attached as its paths, its first line
 * the subject). NULL after a message.
 */
char *regmail_comparison(const struct regmail_opts *o, const char *const *paths,
			 const cJSON *const *docs, const char *report);

/*
 * The mail of the bisection in @dir (slabbench bisect -o DIR, finished):
 * how it was found, then the report of the first bad commit against the
 * good one, to the people its files name. NULL after a message.
 */
char *regmail_bisect(const struct regmail_opts *o, const char *dir);

/* The first bad commit of the bisection in @dir, from git bisect run's log; NULL if none. */
char *regmail_first_bad(const char *dir);

#endif
