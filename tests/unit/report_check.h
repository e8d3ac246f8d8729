/* SPDX-License-Identifier: GPL-2.0 */
/* What the report's unit tests share: reading a report, and writing one of two documents. */
#ifndef SLABBENCH_REPORT_CHECK_H
#define SLABBENCH_REPORT_CHECK_H

#include "check.h"
#include "compare.h"
#include "report.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Whether @text has @want once its lines are joined with blanks. */
static inline bool says(const char *text, const char *want)
{
	char *flat = xstrdup(text ? text : "");
	bool ret;

	for (char *p = flat; *p; p++)
		if (*p == '\n')
			*p = ' ';
	/* The wrapping indents continuation lines of the memory section. */
	for (char *p = strstr(flat, "  "); p; p = strstr(p, "  "))
		memmove(p, p + 1, strlen(p));
	ret = strstr(flat, want) != NULL;
	if (!ret)
		printf("# no '%s' in:\n%s\n", want, text ? text : "(none)");
	free(flat);
	return ret;
}

static inline /* The report of two results documents, NULL when they do not compare. */
char *report_of(cJSON *const *docs)
{
	static const char *const paths[] = { "a.json", "b.json" };
	struct comparison c = { 0 };
	char *text = NULL;

	if (!compare_build(&c, paths, (const cJSON *const *)docs, 2, 0.05, NULL, NULL))
		text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	compare_free(&c);
	return text;
}

#endif
