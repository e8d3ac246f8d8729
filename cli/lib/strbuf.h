/* SPDX-License-Identifier: GPL-2.0 */
/* A growing string for text output (tables, reports). */
#ifndef SLABBENCH_STRBUF_H
#define SLABBENCH_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s;	/* NUL-terminated once anything was added */
	size_t len, cap;
};

void sb_addf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Ends a line without trailing blanks, for diffable golden files. */
void sb_endline(struct strbuf *b);

/* @word as one word of sh: as it is when it needs no quotes, else between single quotes. */
void sb_shell_word(struct strbuf *b, const char *word);

/*
 * The words of @text (blank-separated) as lines of at most @width
 * columns but for a longer word: the first from column @first, the
 * others from @indent, each ended by sb_endline(). Nothing when @text
 * has no word.
 */
void sb_wrap(struct strbuf *b, int first, int indent, int width, const char *text);

#endif
