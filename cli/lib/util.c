// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers every subcommand shares: messages, allocation that cannot
 * fail, atomic files, the project's paths, progress, child processes.
 */
#define _GNU_SOURCE
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* One line on stderr, after a progress line is ended. */
static void say(const char *prefix, const char *fmt, va_list ap)
{
	progress_done();
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("slabbench: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("slabbench: warning: ", fmt, ap);
	va_end(ap);
}

_Noreturn void out_of_memory(void)
{
	fputs("slabbench: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		out_of_memory();
	return p;
}

int text_lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		out_of_memory();
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 65536, used = 0, n;
	char *buf;

	if (!f)
		return NULL;
	buf = xmalloc(cap + 1);
	while ((n = fread(buf + used, 1, cap - used, f)) > 0) {
		used += n;
		if (used == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	if (ferror(f)) {
		int saved = errno;

		fclose(f);
		free(buf);
		errno = saved;
		return NULL;
	}
	fclose(f);
	buf[used] = '\0';
	if (len)
		*len = used;
	return buf;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t done = 0;

	if (fd < 0) {
		error("%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		done += n;
	}
	if (fsync(fd) || close(fd)) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp, path)) {
		fd = -1;
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	error("writing %s: %s", path, strerror(errno ? errno : EIO));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

int write_output(const char *path, const char *text)
{
	if (path)
		return write_file_atomic(path, text, strlen(text));
	if (fputs(text, stdout) == EOF || fflush(stdout))
		return error("writing to standard output failed");
	return 0;
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path), *s;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			goto fail;
		*s = '/';
	}
	if (mkdir(p, 0755) && errno != EEXIST)
		goto fail;
	free(p);
	return 0;
fail:
	error("mkdir %s: %s", p, strerror(errno));
	free(p);
	return -1;
}

const char *slabbench_home(void)
{
	const char *env = getenv("SLABBENCH_HOME");

	return env && *env ? env : SLABBENCH_DEFAULT_HOME;
}

const char *slabbench_cache(void)
{
	static char *cache;
	const char *env;

	if (cache)
		return cache;
	env = getenv("SLABBENCH_CACHE");
	if (env && *env)
		cache = xstrdup(env);
	else if ((env = getenv("XDG_CACHE_HOME")) && *env)
		cache = xasprintf("%s/slabbench", env);
	else
		cache = xasprintf("%s/.cache/slabbench", getenv("HOME") ? getenv("HOME") : "/tmp");
	return cache;
}

static bool progress_shown;

bool progress_enabled(void)
{
	const char *ci = getenv("CI");

	return isatty(STDERR_FILENO) && !(ci && *ci);
}

void progress(const char *fmt, ...)
{
	va_list ap;

	if (!progress_enabled())
		return;
	va_start(ap, fmt);
	fputs("\r\033[Kslabbench: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = true;
}

void progress_done(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	progress_shown = false;
}

double monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* How @pid ended: run_wait()'s return. */
static int wait_exit(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("waitpid: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int run_wait(char *const argv[])
{
	pid_t pid = fork();

	if (pid < 0)
		return error("fork: %s", strerror(errno));
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "slabbench: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return wait_exit(pid);
}

int run_capture(char *const argv[], char **out, size_t *len)
{
	int pipefd[2];
	size_t cap = 4096, used = 0;
	ssize_t n;
	pid_t pid;

	*out = NULL;
	if (pipe2(pipefd, O_CLOEXEC))
		return error("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return error("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		execvp(argv[0], argv);
		fprintf(stderr, "slabbench: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	*out = xmalloc(cap);
	while ((n = read(pipefd[0], *out + used, cap - used - 1)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		used += n;
		if (used + 1 == cap) {
			cap *= 2;
			*out = xrealloc(*out, cap);
		}
	}
	(*out)[used] = '\0';
	if (len)
		*len = used;
	close(pipefd[0]);
	return wait_exit(pid);
}

#define MAX_WORDS 32

/* run_words() of @pre's @n words and then @ap's. */
static char *run_vwords(const char *const *pre, int n, va_list ap)
{
	char *argv[MAX_WORDS + 1], *out = NULL;
	size_t len;

	memcpy(argv, pre, n * sizeof(*argv));
	while (n < MAX_WORDS && (argv[n] = va_arg(ap, char *)))
		n++;
	argv[n] = NULL;
	if (run_capture(argv, &out, NULL)) {
		free(out);
		return NULL;
	}
	len = strlen(out);
	while (len && out[len - 1] == '\n')
		out[--len] = '\0';
	return out;
}

char *run_words(const char *first, ...)
{
	va_list ap;
	char *out;

	va_start(ap, first);
	out = run_vwords(&first, 1, ap);
	va_end(ap);
	return out;
}

char *git_line(const char *dir, ...)
{
	const char *pre[] = { "git", "-C", dir };
	va_list ap;
	char *out;

	va_start(ap, dir);
	out = run_vwords(pre, 3, ap);
	va_end(ap);
	if (out)
		out[strcspn(out, "\n")] = '\0';
	return out;
}

char *git_commit(const char *dir, const char *rev)
{
	char *spec = xasprintf("%s^{commit}", rev);
	char *c = git_line(dir, "rev-parse", "--verify", "-q", spec, NULL);

	free(spec);
	return c;
}
