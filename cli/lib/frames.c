// SPDX-License-Identifier: GPL-2.0
/* Parsing the results channel's frames and routing them by table. */
#define _GNU_SOURCE
#include "frames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int word(const char **p, const char *end, char *out, size_t size)
{
	size_t n = 0;

	while (*p < end && **p != ' ' && **p != '\n') {
		if (n + 1 >= size)
			return -1;
		out[n++] = *(*p)++;
	}
	out[n] = '\0';
	return n ? 0 : -1;
}

int frame_next(const char *buf, size_t len, size_t *pos, struct frame *f)
{
	const size_t magic = strlen(SB_FRAME_MAGIC);
	const char *p = buf + *pos, *end = buf + len, *nl;
	char number[24];
	unsigned long long n;
	char *stop;

	if (p == end)
		return 0;
	nl = memchr(p, '\n', end - p);
	if (!nl)
		return end - p > SB_FRAME_HEAD_MAX ? -1 : 0;
	if ((size_t)(nl - p) < magic || memcmp(p, SB_FRAME_MAGIC, magic))
		return -1;
	p += magic;
	if (word(&p, nl, f->kind, sizeof(f->kind)) || p == nl || *p++ != ' ' ||
	    word(&p, nl, f->name, sizeof(f->name)) || p == nl || *p++ != ' ' ||
	    word(&p, nl, number, sizeof(number)) || p != nl)
		return -1;
	n = strtoull(number, &stop, 10);
	if (*stop || number[0] == '-' || n > SB_FRAME_PAYLOAD_MAX)
		return -1;
	p = nl + 1;
	if ((size_t)(end - p) < n + 1)
		return 0;
	if (p[n] != '\n')
		return -1;
	f->data = p;
	f->len = n;
	*pos = (p + n + 1) - buf;
	return 1;
}

static int name_matches(const char *pattern, const char *name)
{
	size_t n;

	if (!pattern)
		return 1;
	n = strlen(pattern);
	if (n && pattern[n - 1] == '*')
		return !strncmp(pattern, name, n - 1);
	return !strcmp(pattern, name);
}

int frames_route(const char *buf, size_t len, size_t *pos,
		 const struct frame_route *table, void *ctx)
{
	struct frame f;
	int r;

	while ((r = frame_next(buf, len, pos, &f)) == 1) {
		for (const struct frame_route *t = table; t->fn; t++) {
			if ((!t->kind || !strcmp(t->kind, f.kind)) && name_matches(t->name, f.name)) {
				r = t->fn(&f, ctx);
				if (r)
					return r;
				break;
			}
		}
	}
	return r;
}
