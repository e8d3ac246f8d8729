/* SPDX-License-Identifier: GPL-2.0 */
/* The mail's parts (regmail.c puts them together). */
#ifndef SLABBENCH_REGMAIL_PARTS_H
#define SLABBENCH_REGMAIL_PARTS_H

#include "compare.h"
#include "mail.h"
#include "regmail.h"
#include "schema.h"

/* What the mail says of one side, and how to reach its maintainers. */
struct side {
	char *git, *commit;	/* a git tree variant */
	const char *series;	/* a series variant */
	char *title;		/* the commit's or the series' first patch's */
	char *message_id;	/* the series' cover letter's */
};

/* The mail's attachments, each owning its data. */
struct parts {
	struct mail_part p[8];
	void *owned[8];
	int n;
};

/* What the mail of a comparison or of a bisection gathered for assembly. */
struct built {
	const char *subject, *report_subject;
	const char *intro;		/* before the body, or NULL: how a bisection found it */
	const struct comparison *c;	/* of @docs, for the body */
	const char *phase;		/* the census snapshot, or NULL */
	const char *report;		/* report_text() of @c: attached whole */
	const char *regzbot;		/* the commit a bisection found, or NULL */
	const char *const *paths;
	const cJSON *const *docs;
	const struct run_id *ids;	/* of @docs */
	char *variants;			/* lines for the reproducer, or NULL */
	const char *git, *commit;	/* whose files name the maintainers */
	char **files;
	int nr_files;
	const char *maint_dir;		/* else a tree on disk */
	const char *author;		/* Cc'd: the culprit's */
	const char *in_reply_to;
};

/* regmail_headers.c */
/*
 * The mail's From (*@from), To and Cc (*@to, *@cc): the sender, and the
 * lists and people get_maintainer.pl names for @w's files (its author
 * Cc'd too), with --to and --cc. -1 after a message; free all three.
 */
int regmail_addressees(const struct regmail_opts *o, const struct built *w, char **from,
		       char **to, char **cc);
/* Files a change of the allocator @alloc ("SLUB") is in. */
int allocator_files(const char *alloc, char **files, int max);
/* The kernel source slabbench unpacked for @version ("6.1"), if it has one. */
char *cached_source(const char *version);
/* What the mail says of the side of @id, and how to reach its maintainers. */
void side_of(const struct run_id *id, struct side *s);
void side_free(struct side *s);

/* regmail_attach.c */
/*
 * Attaches to @ps the full report (report.txt), the full comparison
 * (compare.txt), the configs' difference, each config as recorded,
 * reproduce.sh and both results files; -1 after a message.
 */
int regmail_attach(struct parts *ps, const struct built *w);
/* Whether @id's kernel is one slabbench ships (not a user's tree or series). */
bool variant_built_in(const struct run_id *id);

#endif
