/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a test of a refusal needs: the message the code under test writes
 * on stderr, and stand-ins for the programs it runs (QEMU, Slurm's
 * commands) in a directory of the test's own.
 */
#ifndef SLABBENCH_STUB_H
#define SLABBENCH_STUB_H

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* @fn(@arg)'s return in *@ret and, in a string to free, what it wrote on stderr. */
static inline char *stderr_of(int (*fn)(const void *), const void *arg, int *ret)
{
	int saved = dup(STDERR_FILENO);
	FILE *tmp = tmpfile();
	char *got = xcalloc(1, 4096);

	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	*ret = fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	if (!fread(got, 1, 4095, tmp))
		got[0] = '\0';
	fclose(tmp);
	return got;
}

/* @dir/@name, a shell script running @body; its path (free it), NULL when not written. */
static inline char *stub_program(const char *dir, const char *name, const char *body)
{
	char *path = xasprintf("%s/%s", dir, name), *text = xasprintf("#!/bin/sh\n%s", body);
	int bad = write_file_atomic(path, text, strlen(text)) || chmod(path, 0755);

	free(text);
	if (bad) {
		free(path);
		return NULL;
	}
	return path;
}

#endif
