// SPDX-License-Identifier: GPL-2.0
/* The agent's plumbing: the results port and its frames, files, commands, clocks. */
#define _GNU_SOURCE
#include "agent.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/slabbench.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_OUTPUT (16 << 20)

static int port = -1;

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("slabbench-agent: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * devtmpfs creates the port's node asynchronously, and a debug kernel
 * (KASAN, lockdep) under emulation probes its devices slowly: wait up to
 * a minute. The host's own timeout still bounds the whole boot.
 */
int port_open(void)
{
	char path[300], name[64];
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	int tries, fd;

	for (tries = 0; tries < 6000; tries++) {
		DIR *d = opendir("/sys/class/virtio-ports");
		struct dirent *e;

		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name",
				 e->d_name);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				continue;
			ssize_t n = read(fd, name, sizeof(name) - 1);

			close(fd);
			if (n <= 0)
				continue;
			name[n] = '\0';
			name[strcspn(name, "\n")] = '\0';
			if (strcmp(name, SB_PORT_NAME))
				continue;
			snprintf(path, sizeof(path), "/dev/%s", e->d_name);
			port = open(path, O_WRONLY | O_CLOEXEC);
			if (port >= 0) {
				closedir(d);
				return 0;
			}
		}
		if (d)
			closedir(d);
		nanosleep(&pause, NULL);
	}
	return -1;
}

void port_close(void)
{
	fsync(port);
	close(port);
	port = -1;
}

void send_frame(const char *kind, const char *name, const char *data, size_t len)
{
	char head[SB_FRAME_HEAD_MAX];
	int n = snprintf(head, sizeof(head), SB_FRAME_MAGIC "%s %s %zu\n", kind, name, len);

	/* The host would not take it for a frame. */
	if (n < 0 || (size_t)n >= sizeof(head)) {
		say("%s %s: the frame's head is too long", kind, name);
		return;
	}
	if (write_all(port, head, n) || write_all(port, data, len) ||
	    write_all(port, "\n", 1))
		say("lost a frame on the results port: %s", strerror(errno));
}

char *read_fd(int fd, size_t *len)
{
	size_t cap = 65536, used = 0;
	char *buf = malloc(cap + 1);
	ssize_t n;

	while (buf) {
		if (used == cap) {
			char *bigger = cap < MAX_OUTPUT ? realloc(buf, 2 * cap + 1) : NULL;

			if (!bigger) {
				free(buf);
				return NULL;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		used += n;
	}
	if (buf) {
		buf[used] = '\0';
		*len = used;
	}
	return buf;
}

char *read_path(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;

	if (fd < 0)
		return NULL;
	buf = read_fd(fd, len);
	close(fd);
	return buf;
}

int write_value(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ret = -1;

	/* As "file": not every kernel has every file (kmemleak). */
	if (fd < 0 && errno == ENOENT) {
		say("write %s skipped, this kernel has no such file", path);
		return 0;
	}
	if (fd >= 0) {
		ret = write_all(fd, value, strlen(value));
		close(fd);
	}
	if (ret)
		say("write %s (%s)", path, strerror(errno));
	return ret;
}

char *capture(char *const argv[], size_t *len)
{
	int pipefd[2], status;
	char *out;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return NULL;
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	out = pid > 0 ? read_fd(pipefd[0], len) : NULL;
	close(pipefd[0]);
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * The parameters the kernel command line gives module @name as
 * NAME.PARAM=VALUE, blank-separated: the kernel applies those to built-in
 * code only, and leaves them to modprobe for a module.
 */
static char *cmdline_params(const char *name)
{
	size_t n = strlen(name), used = 0, len;
	char *cmdline = read_path("/proc/cmdline", &len), *tok, *save = NULL;
	char *out = calloc(1, cmdline ? strlen(cmdline) + 1 : 1);

	if (!out) {
		free(cmdline);
		return NULL;
	}
	for (tok = cmdline ? strtok_r(cmdline, " \n", &save) : NULL; tok;
	     tok = strtok_r(NULL, " \n", &save))
		if (!strncmp(tok, name, n) && tok[n] == '.' && tok[n + 1])
			used += sprintf(out + used, "%s%s", used ? " " : "", tok + n + 1);
	free(cmdline);
	return out;
}

int load_module(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char name[64], *params;
	int ret, err;

	if (fd < 0) {
		say("%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(base, "."), base);
	params = cmdline_params(name);
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0);
	err = errno;
	free(params);
	close(fd);
	if (ret && err != EEXIST)
		say("loading %s: %s", path, strerror(err));
	return ret && err != EEXIST ? -1 : 0;
}

double meminfo_kb(const char *field)
{
	FILE *f;
	char line[128], name[64];
	double kb = -1, v;

	write_value("/proc/sys/vm/stat_refresh", "1");
	f = fopen("/proc/meminfo", "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:\n]: %lf", name, &v) == 2 && !strcmp(name, field))
			kb = v;
	if (f)
		fclose(f);
	return kb;
}

double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
