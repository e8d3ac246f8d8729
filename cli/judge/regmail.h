/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The regression report as a mail, after the kernel test robot's: to the
 * people and lists the tree's own scripts/get_maintainer.pl names, on the
 * thread of the patch series it tested, with the configs, a reproducer
 * and the results attached.
 */
#ifndef SLABBENCH_REGMAIL_H
#define SLABBENCH_REGMAIL_H

#include "compare.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

/* The lines of a mail's body at most: the full report goes as report.txt. */
#define REGMAIL_BODY_LINES 150

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
 * The mail of the comparison @c (built with regmail_attached as its
 * paths) of results @paths[1] against @paths[0] (@docs, loaded), its
 * census at @phase (NULL: the default): a body of at most
 * REGMAIL_BODY_LINES lines that leads with what changed (report_brief()),
 * the whole report attached as report.txt. NULL after a message.
 */
char *regmail_comparison(const struct regmail_opts *o, const char *const *paths,
			 const cJSON *const *docs, const struct comparison *c,
			 const char *phase);

/*
 * The mail of the bisection in @dir (slabbench bisect -o DIR, finished):
 * how it was found, then the report of the first bad commit against the
 * good one as regmail_comparison() gives it, with a "#regzbot
 * introduced:" line naming the commit, to the people its files name.
 * NULL after a message.
 */
char *regmail_bisect(const struct regmail_opts *o, const char *dir);

/* The first bad commit of the bisection in @dir, from git bisect run's log; NULL if none. */
char *regmail_first_bad(const char *dir);

#endif
