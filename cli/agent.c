// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench-agent: /init of the guest. It mounts what the module needs,
 * loads slabbench.ko, carries out the plan the host put into the initramfs
 * and sends everything back as frames on a virtio-serial port of its own,
 * so that results never depend on what the console happened to print.
 *
 * Plan lines (/slabbench/plan):
 *   run SPEC           write SPEC to debugfs slabbench/run, send the result
 *   macro SPEC         run a macro workload (agent_macro.c), send its result
 *   profile VERB SPEC  the same (VERB: run or macro) under perf record -a,
 *                      then send perf report's top symbols (kind profile)
 *   file NAME PATH     send the contents of PATH (kind "missing" if absent)
 *   write PATH VALUE   write VALUE to PATH (e.g. /proc/sys/vm/stat_refresh);
 *                      a PATH this kernel lacks is skipped
 *   cmd NAME ARGV...   run ARGV (no shell), send its standard output
 *   reload N SPEC      try to unload the module while SPEC runs, then unload
 *                      and load it N times; send the outcome (KTAP) as file
 *                      "reload"
 *   fuzz N SEED        write N generated specs, mostly broken, then hostile
 *                      ones; send the outcome (KTAP) as file "fuzz"
 * Frames: "@SB KIND NAME LENGTH\n" then LENGTH bytes then "\n". KIND is
 * ready, result, error, profile, file, missing, cmd or done; see
 * cli/frames.h.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PORT_NAME "org.slabbench.results"
#define PLAN_PATH "/slabbench/plan"
#define MODULE_PATH "/lib/modules/slabbench.ko"
#define PRELOAD_DIR "/lib/modules/pre"
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

static int write_all(int fd, const char *buf, size_t len)
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

void send_frame(const char *kind, const char *name, const char *data, size_t len)
{
	char head[256];
	int n = snprintf(head, sizeof(head), "@SB %s %s %zu\n", kind, name, len);

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

static int send_file(const char *name, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len;
	char *buf;

	if (fd < 0 && errno == ENOENT) {
		/* Not every allocator has every file (SLOB: no slabinfo). */
		send_frame("missing", name, "", 0);
		return 0;
	}
	if (fd < 0) {
		say("%s: %s", path, strerror(errno));
		return -1;
	}
	buf = read_fd(fd, &len);
	close(fd);
	if (!buf)
		return -1;
	send_frame("file", name, buf, len);
	free(buf);
	return 0;
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

static int send_cmd(const char *name, char **argv)
{
	size_t len = 0;
	char *buf = capture(argv, &len);

	if (!buf) {
		say("%s: command %s failed", name, argv[0]);
		return -1;
	}
	send_frame("cmd", name, buf, len);
	free(buf);
	return 0;
}

static int write_value(const char *path, const char *value)
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

static int run_spec(const char *index, const char *spec)
{
	int fd = open(RUN_PATH, O_RDWR | O_CLOEXEC);
	size_t len = 0;
	char *buf;
	int err = 0;

	if (fd < 0) {
		say("%s: %s", RUN_PATH, strerror(errno));
		return -1;
	}
	say("run %s", spec);
	if (write(fd, spec, strlen(spec)) < 0)
		err = errno;
	buf = read_fd(fd, &len);
	close(fd);
	if (err) {
		/* The module leaves its reason in the buffer of this open file. */
		char fallback[128];

		if (!buf || !len) {
			free(buf);
			len = snprintf(fallback, sizeof(fallback),
				       "{\"error\":\"%s\",\"errno\":%d}\n",
				       strerror(err), err);
			buf = strdup(fallback);
		}
		if (buf)
			send_frame("error", index, buf, len);
		free(buf);
		return -1;
	}
	if (!buf)
		return -1;
	send_frame("result", index, buf, len);
	free(buf);
	return 0;
}

/*
 * devtmpfs creates the port's node asynchronously, and a debug kernel
 * (KASAN, lockdep) under emulation probes its devices slowly: wait up to
 * a minute. The host's own timeout still bounds the whole boot.
 */
static int open_port(void)
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
			if (strcmp(name, PORT_NAME))
				continue;
			snprintf(path, sizeof(path), "/dev/%s", e->d_name);
			fd = open(path, O_WRONLY | O_CLOEXEC);
			if (fd >= 0) {
				closedir(d);
				return fd;
			}
		}
		if (d)
			closedir(d);
		nanosleep(&pause, NULL);
	}
	return -1;
}

static void mount_or_say(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

static int load_module(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0) {
		say("%s: %s", path, strerror(errno));
		return -1;
	}
	ret = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	if (ret && errno != EEXIST)
		say("loading %s: %s", path, strerror(errno));
	return ret && errno != EEXIST ? -1 : 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * Drivers that a distribution kernel has as modules (the virtio port this
 * agent talks through, on Debian's kernel), in the order of their names.
 */
static int load_preload_modules(void)
{
	struct dirent **names;
	char path[300];
	int n, i, ret = 0;

	n = scandir(PRELOAD_DIR, &names, NULL, by_name);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && !ret) {
			snprintf(path, sizeof(path), "%s/%s", PRELOAD_DIR, names[i]->d_name);
			ret = load_module(path);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return ret;
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

/*
 * Slab memory that loading and unloading may leave in caches without a
 * leak: debugfs and sysfs inodes and dentries, and slabs kept on per-CPU
 * and partial lists.
 */
#define RELOAD_SLACK_KB 512

/*
 * Slab memory in kB as the module reads it once RCU callbacks have run and
 * KASAN's quarantine is empty: /proc/meminfo's Slab moves by megabytes on
 * a debug kernel between two readings. -1 if the module does not answer.
 */
static double settled_slab_kb(void)
{
	size_t len = 0;
	char *text = read_path("/sys/kernel/debug/slabbench/slab_pages", &len);
	double kb = text && isdigit((unsigned char)text[0]) ?
		    strtod(text, NULL) * sysconf(_SC_PAGESIZE) / 1024 : -1;

	free(text);
	return kb;
}

/*
 * Whether @pid sleeps inside write(2): writing a spec, the writer waits
 * there while the test runs on its pinned kthread. /proc/PID/syscall
 * shows the call of a blocked task, "running" otherwise.
 */
static bool in_write(pid_t pid)
{
	char path[64], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return isdigit((unsigned char)buf[0]) && strtol(buf, NULL, 10) == SYS_write;
}

/*
 * An open debugfs file pins the module (fops->owner): unloading while a
 * run is going on must be refused, and the run must complete; then @n
 * unload and load cycles must leave slab memory where it was. The
 * attempt waits for the run to start, whatever the guest's speed, so
 * SPEC only has to outlast a poll (fastpath warms up for 50 ms).
 */
static int reload_test(long n, const char *spec)
{
	char *ktap = NULL, sync;
	size_t len = 0;
	FILE *out = open_memstream(&ktap, &len);
	int pipefd[2], status = -1, refused, cycles_ok = 1;
	char *info;
	size_t info_len = 0;
	double before, after, deadline;
	bool during;
	long i;
	pid_t child, exited = 0;

	if (!out || pipe2(pipefd, O_CLOEXEC))
		return -1;
	fprintf(out, "KTAP version 1\n1..5\n");
	child = fork();
	if (child == 0) {
		int fd = open(RUN_PATH, O_RDWR | O_CLOEXEC);

		/* The file is open: the module is pinned from here on. */
		if (write(pipefd[1], "x", 1) != 1 || fd < 0)
			_exit(2);
		_exit(write(fd, spec, strlen(spec)) < 0);
	}
	close(pipefd[1]);
	if (child < 0 || read(pipefd[0], &sync, 1) != 1) {
		fclose(out);
		free(ktap);
		return -1;
	}
	close(pipefd[0]);
	deadline = now_s() + 60;
	while (!(during = in_write(child)) && !(exited = waitpid(child, &status, WNOHANG)) &&
	       now_s() < deadline)
		usleep(1000);
	refused = syscall(SYS_delete_module, "slabbench", O_NONBLOCK) && errno == EWOULDBLOCK;
	during = during && in_write(child);
	if (!during)
		fprintf(out, "# the run was not caught in progress: %s\n", spec);
	fprintf(out, "%sok 1 unloading during a run is refused\n", refused && during ? "" : "not ");
	if (!exited)
		waitpid(child, &status, 0);
	fprintf(out, "%sok 2 the run completes\n",
		WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : "not ");
	if (!refused)
		load_module(MODULE_PATH);
	before = settled_slab_kb();
	for (i = 0; i < n && cycles_ok; i++) {
		if (syscall(SYS_delete_module, "slabbench", O_NONBLOCK)) {
			fprintf(out, "# cycle %ld: unloading: %s\n", i + 1, strerror(errno));
			cycles_ok = 0;
		}
		if (load_module(MODULE_PATH)) {
			fprintf(out, "# cycle %ld: loading failed\n", i + 1);
			cycles_ok = 0;
		}
	}
	fprintf(out, "%sok 3 unload and load %ld times\n", cycles_ok ? "" : "not ", n);
	after = settled_slab_kb();
	fprintf(out, "# Slab %.0f kB before, %.0f kB after (slack %d kB)\n", before,
		after, RELOAD_SLACK_KB);
	fprintf(out, "%sok 4 slab memory back to its baseline\n",
		before >= 0 && after >= 0 && after - before <= RELOAD_SLACK_KB ? "" : "not ");
	info = read_path("/sys/kernel/debug/slabbench/info", &info_len);
	fprintf(out, "%sok 5 the module answers\n",
		info && strstr(info, "\"module\":\"slabbench\"") ? "" : "not ");
	free(info);
	if (fclose(out))
		return -1;
	send_frame("file", "reload", ktap, len);
	free(ktap);
	return 0;
}


/* Splits a line into at most max-1 words, NULL-terminated. */
static int split(char *line, char **argv, int max)
{
	int n = 0;
	char *tok;

	while (n < max - 1 && (tok = strsep(&line, " \t")))
		if (*tok)
			argv[n++] = tok;
	argv[n] = NULL;
	return n;
}

static int run_plan(void)
{
	FILE *plan = fopen(PLAN_PATH, "re");
	char *line = NULL, *argv[64], index[16];
	unsigned int nr_run = 0, lineno = 0;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	if (!plan) {
		say("%s: %s", PLAN_PATH, strerror(errno));
		return -1;
	}
	while (!ret && (len = getline(&line, &cap, plan)) >= 0) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "run ", 4)) {
			snprintf(index, sizeof(index), "%u", nr_run++);
			ret = run_spec(index, line + 4);
		} else if (!strncmp(line, "macro ", 6)) {
			snprintf(index, sizeof(index), "%u", nr_run++);
			ret = macro_run(index, line + 6);
		} else if (!strncmp(line, "profile run ", 12)) {
			snprintf(index, sizeof(index), "%u", nr_run++);
			ret = profile_run(index, line + 12, run_spec);
		} else if (!strncmp(line, "profile macro ", 14)) {
			snprintf(index, sizeof(index), "%u", nr_run++);
			ret = profile_run(index, line + 14, macro_run);
		} else if (!strncmp(line, "file ", 5)) {
			if (split(line + 5, argv, 64) != 2)
				goto bad;
			ret = send_file(argv[0], argv[1]);
		} else if (!strncmp(line, "write ", 6)) {
			if (split(line + 6, argv, 64) != 2)
				goto bad;
			ret = write_value(argv[0], argv[1]);
		} else if (!strncmp(line, "reload ", 7)) {
			char *spec;
			long n = strtol(line + 7, &spec, 10);

			if (n < 1 || *spec != ' ')
				goto bad;
			ret = reload_test(n, spec + 1);
		} else if (!strncmp(line, "fuzz ", 5)) {
			char *end;
			long n = strtol(line + 5, &end, 10);
			unsigned long long seed;

			if (n < 1 || *end != ' ' || !isdigit((unsigned char)end[1]))
				goto bad;
			seed = strtoull(end + 1, &end, 10);
			if (*end)
				goto bad;
			ret = fuzz_test(n, seed);
		} else if (!strncmp(line, "cmd ", 4)) {
			if (split(line + 4, argv, 64) < 2)
				goto bad;
			ret = send_cmd(argv[0], argv + 1);
		} else if (line[0]) {
			goto bad;
		}
	}
	free(line);
	fclose(plan);
	return ret;
bad:
	say("%s:%u: cannot parse '%s'", PLAN_PATH, lineno, line);
	free(line);
	fclose(plan);
	return -1;
}

int main(void)
{
	char status[48];
	struct timespec now;
	int ret;

	mount_or_say("proc", "/proc", "proc");
	mount_or_say("sysfs", "/sys", "sysfs");
	mount_or_say("devtmpfs", "/dev", "devtmpfs");
	mount_or_say("debugfs", "/sys/kernel/debug", "debugfs");
	mount_or_say("tmpfs", "/tmp", "tmpfs");
	/* perf keeps state under $HOME: the only writable place is /tmp. */
	setenv("HOME", "/tmp", 1);

	if (load_preload_modules())
		say("a preloaded module failed; the results port may be missing");
	port = open_port();
	if (port < 0) {
		say("no virtio-serial port named %s", PORT_NAME);
		reboot(RB_AUTOBOOT);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	snprintf(status, sizeof(status), "%ld.%03ld", (long)now.tv_sec,
		 now.tv_nsec / 1000000);
	send_frame("ready", "uptime", status, strlen(status));

	ret = load_module(MODULE_PATH);
	if (!ret)
		ret = run_plan();
	snprintf(status, sizeof(status), "%d", ret ? 1 : 0);
	send_frame("done", "status", status, strlen(status));
	fsync(port);
	close(port);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
