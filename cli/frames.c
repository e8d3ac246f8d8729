// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "frames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAME_MAX_PAYLOAD (64u << 20)

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
	const char *p = buf + *pos, *end = buf + len, *nl;
	char number[24];
	unsigned long long n;
	char *stop;

	if (p == end)
		return 0;
	nl = memchr(p, '\n', end - p);
	if (!nl)
		return end - p > 128 ? -1 : 0;
	if (nl - p < 4 || memcmp(p, "@SB ", 4))
		return -1;
	p += 4;
	if (word(&p, nl, f->kind, sizeof(f->kind)) || p == nl || *p++ != ' ' ||
	    word(&p, nl, f->name, sizeof(f->name)) || p == nl || *p++ != ' ' ||
	    word(&p, nl, number, sizeof(number)) || p != nl)
		return -1;
	n = strtoull(number, &stop, 10);
	if (*stop || number[0] == '-' || n > FRAME_MAX_PAYLOAD)
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
