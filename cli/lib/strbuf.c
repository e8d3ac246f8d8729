// SPDX-License-Identifier: GPL-2.0
/* A growing string, appended to printf-style, for tables and reports. */
#include "strbuf.h"
#include "util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void sb_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->len + n + 1 > b->cap) {
		b->cap = 2 * (b->len + n + 1);
		b->s = xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

void sb_endline(struct strbuf *b)
{
	while (b->len && b->s[b->len - 1] == ' ')
		b->len--;
	sb_addf(b, "\n");
}

void sb_wrap(struct strbuf *b, int first, int indent, int width, const char *text)
{
	int col = 0, words = 0;

	for (text += strspn(text, " "); *text; text += strspn(text, " ")) {
		int len = (int)strcspn(text, " "), at = words ? indent : first;

		if (col && col + 1 + len > width) {
			sb_endline(b);
			col = 0;
		}
		if (col) {
			sb_addf(b, " %.*s", len, text);
			col += 1 + len;
		} else {
			sb_addf(b, "%*s%.*s", at, "", len, text);
			col = at + len;
		}
		words++;
		text += len;
	}
	if (words)
		sb_endline(b);
}

void sb_shell_word(struct strbuf *b, const char *word)
{
	bool plain = *word;

	for (const char *p = word; *p && plain; p++)
		plain = isalnum((unsigned char)*p) || strchr("_-=,./:+@%", *p);
	if (plain) {
		sb_addf(b, "%s", word);
		return;
	}
	/* A quote closes the quotes, is escaped, and opens them again. */
	sb_addf(b, "'");
	for (const char *p = word; *p; p++)
		sb_addf(b, *p == '\'' ? "'\\''" : "%c", *p);
	sb_addf(b, "'");
}
