/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by every subcommand: errors, memory, files, paths. */
#ifndef SLABBENCH_UTIL_H
#define SLABBENCH_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Prints "slabbench: MESSAGE" on stderr; always returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Ends the program: no caller could do anything sensible. */
_Noreturn void out_of_memory(void);
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* The lines of @s: its newlines (0 for NULL). */
int text_lines(const char *s);

/* Whole file into a NUL-terminated buffer; NULL (errno set) on failure. */
char *read_file(const char *path, size_t *len);
/*
 * Writes through PATH.tmp.PID, fsync and rename, so that PATH is either
 * the old file or the whole new one, never a half.
 */
int write_file_atomic(const char *path, const char *data, size_t len);
int mkdir_p(const char *path);
/* @text to @path atomically, or to standard output when @path is NULL. */
int write_output(const char *path, const char *text);

/* Where the repository (vm/, workloads/, the agent) lives. */
const char *slabbench_home(void);
/* The cache for kernels and state: $SLABBENCH_CACHE or XDG. */
const char *slabbench_cache(void);

/* Progress lines go to a terminal only, and never in CI. */
bool progress_enabled(void);
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_done(void);

double monotonic_seconds(void);
/* Parses a whole decimal integer in [min, max]; -1 on anything else. */
int parse_long(const char *s, long min, long max, long *out);


/*
 * Runs argv with its output passed through. Returns the exit status
 * (128 + N for signal N), or -1 if it could not run.
 */
int run_wait(char *const argv[]);
/*
 * Runs argv with stdout captured into *out (NUL-terminated, *len bytes
 * when @len is not NULL, for binary output) and stderr
 * passed through. Returns the exit status, or -1 if it could not run.
 */
int run_capture(char *const argv[], char **out, size_t *len);
/*
 * Runs the NULL-terminated words @first, ...; its output without the
 * trailing newlines, or NULL when it could not run or exited non-zero.
 */
char *run_words(const char *first, ...) __attribute__((sentinel));
/* git -C @dir ARGS... (NULL-terminated): the first line of its output, or NULL. */
char *git_line(const char *dir, ...) __attribute__((sentinel));
/* The full commit id that @rev names in the git tree @dir, or NULL. */
char *git_commit(const char *dir, const char *rev);
#endif
