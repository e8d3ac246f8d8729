/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal TAP-like harness: each CHECK prints "ok - NAME" or
 * "not ok - NAME"; tests/run.sh counts them across all test programs.
 * check_done() prints the plan, "1..N", last, as TAP allows: a program
 * cannot know beforehand how many checks its loops make, and one that dies
 * before the end prints no plan, which tests/run.sh counts as a failure.
 */
#ifndef SLABBENCH_CHECK_H
#define SLABBENCH_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond, ...)                                                    \
	do {                                                                \
		check_count++;                                              \
		if (cond) {                                                 \
			printf("ok - ");                                    \
		} else {                                                    \
			printf("not ok - %s:%d: ", __FILE__, __LINE__);     \
			check_failures++;                                   \
		}                                                           \
		printf(__VA_ARGS__);                                        \
		printf("\n");                                               \
	} while (0)

#define CHECK_STR(got, want, ...)                                           \
	do {                                                                \
		const char *g_ = (got), *w_ = (want);                       \
		CHECK(g_ && !strcmp(g_, w_), __VA_ARGS__);                  \
		if (!(g_ && !strcmp(g_, w_)))                               \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_); \
	} while (0)

#define CHECK_NEAR(got, want, tol, ...)                                     \
	do {                                                                \
		double g_ = (got), w_ = (want);                             \
		CHECK(g_ - w_ <= (tol) && w_ - g_ <= (tol), __VA_ARGS__);   \
		if (!(g_ - w_ <= (tol) && w_ - g_ <= (tol)))                \
			printf("#   got %.9g, want %.9g\n", g_, w_);        \
	} while (0)

/*
 * Whether @text has @want once wrapped lines are joined: every run of
 * newlines and blanks counts as one blank. Says what it looked in if not.
 */
static inline int check_says(const char *text, const char *want)
{
	char *flat = malloc(strlen(text ? text : "") + 1), *o = flat;
	int ret;

	if (!flat)
		return 0;

	for (const char *p = text ? text : ""; *p; p++) {
		if (*p != '\n' && *p != ' ')
			*o++ = *p;
		else if (o == flat || o[-1] != ' ')
			*o++ = ' ';
	}
	*o = '\0';
	ret = strstr(flat, want) != NULL;
	if (!ret)
		printf("# no '%s' in:\n%s\n", want, text ? text : "(none)");
	free(flat);
	return ret;
}

static inline int check_done(void)
{
	printf("1..%d\n", check_count);
	return check_failures ? 1 : 0;
}

#endif
