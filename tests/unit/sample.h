/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The census tests' samples (tests/data): read whole, and edited one
 * string at a time to make the broken texts the parser must refuse.
 */
#ifndef SLABBENCH_SAMPLE_H
#define SLABBENCH_SAMPLE_H

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *data_file(const char *name)
{
	char *path = xasprintf("%s/tests/data/%s", slabbench_home(), name);
	char *text = read_file(path, NULL);

	if (!text)
		printf("#   cannot read %s\n", path);
	free(path);
	return text ? text : xstrdup("");
}

/* @text with its first @old replaced by @new; a test bug if @old is not there. */
static inline char *edit(const char *text, const char *old, const char *new)
{
	const char *at = strstr(text, old);

	if (!at) {
		printf("#   '%s' is not in the sample\n", old);
		return xstrdup(text);
	}
	return xasprintf("%.*s%s%s", (int)(at - text), text, new, at + strlen(old));
}

#endif
