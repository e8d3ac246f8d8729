// SPDX-License-Identifier: GPL-2.0
/*
 * Plan verb macro: the userspace workloads of macro_table.c (hackbench,
 * a negative-dentry storm, socket or file churn, memory cgroups), each reporting its own
 * figure per repeat and the slab caches that grew most over its run, in a
 * result frame shaped like the module's, so that results, compare, report
 * and plot take them as they take the module's tests.
 */
#define _GNU_SOURCE
#include "agent.h"
#include "macro_table.h"
#include "memflush.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/slabbench.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TOP_CACHES 5

/* A spec resolved against the table: every parameter, in its order. */
struct spec {
	const struct macro_workload *m;
	/* An enum's choice, or the number. */
	long num[MACRO_MAX_PARAMS];
};

/* The value of @p given as @word; -1 if it is out of its bounds. */
static long param_value(const struct macro_param *p, const char *word)
{
	char *end;
	long n;

	if (p->choices) {
		for (n = p->min; n <= p->max; n++)
			if (!strcmp(p->choices[n], word))
				return n;
		return -1;
	}
	errno = 0;
	n = strtol(word, &end, 10);
	return *end || end == word || errno || n < p->min || n > p->max ? -1 : n;
}

/*
 * "test=NAME key=value ...": every key one of NAME's parameters, within
 * its bounds; a parameter not given takes its default (the host gives all).
 */
static int spec_parse(char *text, struct spec *s, char *why, size_t whylen)
{
	char *save = NULL, *tok, *key[MACRO_MAX_PARAMS], *val[MACRO_MAX_PARAMS];
	const char *test = NULL;
	int n = 0, i, k;

	for (tok = strtok_r(text, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || (n == MACRO_MAX_PARAMS && strncmp(tok, "test=", 5))) {
			snprintf(why, whylen, SB_VERB_MACRO ": expected test=NAME key=value ...");
			return -1;
		}
		*eq = '\0';
		if (!strcmp(tok, "test")) {
			test = eq + 1;
		} else {
			key[n] = tok;
			val[n++] = eq + 1;
		}
	}
	s->m = test ? macro_find(test) : NULL;
	if (!s->m) {
		snprintf(why, whylen, SB_VERB_MACRO ": no workload named %s", test ? test : "");
		return -1;
	}
	for (i = 0; s->m->params[i].name; i++)
		s->num[i] = s->m->params[i].def;
	for (i = 0; i < n; i++) {
		k = macro_param_index(s->m, key[i]);
		if (k < 0 || (s->num[k] = param_value(&s->m->params[k], val[i])) < 0) {
			snprintf(why, whylen, "%s: %s=%s: no such parameter, or out of bounds",
				 s->m->name, key[i], val[i]);
			return -1;
		}
	}
	return 0;
}

/* The "params" member: every parameter, as the module lists a test's. */
static void params_json(FILE *out, const struct spec *s)
{
	fputs("\"params\":{", out);
	for (int i = 0; s->m->params[i].name; i++) {
		const struct macro_param *p = &s->m->params[i];

		if (p->choices)
			fprintf(out, "%s\"%s\":\"%s\"", i ? "," : "", p->name,
				p->choices[s->num[i]]);
		else
			fprintf(out, "%s\"%s\":%ld", i ? "," : "", p->name, s->num[i]);
	}
	fputs("}", out);
}

struct cache {
	char name[64];
	double objects, bytes;
};

/* /proc/slabinfo as caches with their objects and slab bytes; -1: none read. */
static int slabinfo_read(struct cache **caches)
{
	FILE *f = fopen("/proc/slabinfo", "re");
	char line[512];
	int n = 0, cap = 0;

	*caches = NULL;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long active, num, size, per, pages, slabs;
		char name[64];

		if (sscanf(line, "%63s %lu %lu %lu %lu %lu : tunables %*u %*u %*u : slabdata %*u %lu",
			   name, &active, &num, &size, &per, &pages, &slabs) != 7)
			continue;
		if (n == cap) {
			int grown = cap ? 2 * cap : 256;
			struct cache *more = realloc(*caches, grown * sizeof(**caches));

			/* Out of memory: the caches so far, as if the file ended. */
			if (!more)
				break;
			*caches = more;
			cap = grown;
		}
		snprintf((*caches)[n].name, sizeof((*caches)[n].name), "%s", name);
		(*caches)[n].objects = active;
		(*caches)[n].bytes = (double)slabs * pages * sysconf(_SC_PAGESIZE);
		n++;
	}
	fclose(f);
	return *caches ? n : -1;
}

/* "slab_deltas": the caches whose slabs grew most, largest first. */
static void slab_deltas(FILE *out, const struct cache *before, int nb,
			const struct cache *after, int na)
{
	struct cache top[TOP_CACHES] = { 0 };
	int ntop = 0;

	if (nb < 0 || na < 0) {
		fputs("\"slab_deltas\":null", out);
		return;
	}
	for (int i = 0; i < na; i++) {
		struct cache d = after[i];
		int pos;

		for (int j = 0; j < nb; j++) {
			if (!strcmp(before[j].name, d.name)) {
				d.objects -= before[j].objects;
				d.bytes -= before[j].bytes;
				break;
			}
		}
		if (d.bytes <= 0)
			continue;
		for (pos = ntop; pos > 0 && top[pos - 1].bytes < d.bytes; pos--)
			if (pos < TOP_CACHES)
				top[pos] = top[pos - 1];
		if (pos < TOP_CACHES) {
			top[pos] = d;
			if (ntop < TOP_CACHES)
				ntop++;
		}
	}
	fputs("\"slab_deltas\":[", out);
	for (int i = 0; i < ntop; i++)
		fprintf(out, "%s{\"cache\":\"%s\",\"kb\":%.1f,\"objects\":%.0f}", i ? "," : "",
			top[i].name, top[i].bytes / 1024, top[i].objects);
	fputs("]", out);
}

static void metric(FILE *out, bool first, const char *name, const char *unit, bool lower,
		   const double *samples, long n)
{
	fprintf(out, "%s\"%s\":{\"unit\":\"%s\",\"better\":\"%s\",\"samples\":[", first ? "" : ",",
		name, unit, lower ? "lower" : "higher");
	for (long i = 0; i < n; i++)
		fprintf(out, "%s%.6g", i ? "," : "", samples[i]);
	fputs("]}", out);
}

/* hackbench: seconds per run of perf bench sched messaging. */
static int hackbench(const struct spec *s, FILE *out, char *why, size_t whylen)
{
	long repeats = s->num[HACKBENCH_REPEATS];
	double secs[MACRO_MAX_REPEATS];
	char g[24], l[24];
	char *argv[] = { SB_GUEST_PERF, "bench", "sched", "messaging", "-g", g, "-l", l,
			 NULL, NULL, NULL };
	size_t len = 0;
	int extra = 8;

	snprintf(g, sizeof(g), "%ld", s->num[HACKBENCH_GROUPS]);
	snprintf(l, sizeof(l), "%ld", s->num[HACKBENCH_LOOPS]);
	if (s->num[HACKBENCH_MODE] == HACKBENCH_THREAD)
		argv[extra++] = "-t";
	if (s->num[HACKBENCH_IPC] == HACKBENCH_PIPE)
		argv[extra++] = "-p";
	for (long r = 0; r < repeats; r++) {
		char *text = capture(argv, &len), *total = text ? strstr(text, "Total time:") : NULL;

		if (!total || sscanf(total, "Total time: %lf", &secs[r]) != 1) {
			snprintf(why, whylen, "hackbench: %s bench sched messaging failed",
				 SB_GUEST_PERF);
			free(text);
			return -1;
		}
		free(text);
	}
	metric(out, true, "time", "s", true, secs, repeats);
	return 0;
}

/* dentry-state: nr_dentry, nr_unused, age_limit, want_pages, nr_negative. */
static int dentry_state(double *dentries, double *negative)
{
	FILE *f = fopen("/proc/sys/fs/dentry-state", "re");
	int n = f ? fscanf(f, "%lf %*f %*f %*f %lf", dentries, negative) : 0;

	if (f)
		fclose(f);
	return n == 2 ? 0 : -1;
}

/*
 * Lookups of names that do not exist. sysfs (kernfs) keeps the negative
 * dentries they leave; tmpfs and debugfs drop them at once, and the guest
 * has no disk filesystem.
 */
static int dentry(const struct spec *s, FILE *out, char *why, size_t whylen)
{
	long names = s->num[DENTRY_NAMES], repeats = s->num[DENTRY_REPEATS];
	double rate[MACRO_MAX_REPEATS], grown[MACRO_MAX_REPEATS], negative[MACRO_MAX_REPEATS];
	int dir = open("/sys/kernel", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0) {
		snprintf(why, whylen, "dentry: /sys/kernel: %s", strerror(errno));
		return -1;
	}
	for (long r = 0; r < repeats; r++) {
		double d0, n0, d1, n1, t;
		struct stat st;
		char name[64];

		if (dentry_state(&d0, &n0)) {
			snprintf(why, whylen, "dentry: /proc/sys/fs/dentry-state unreadable");
			close(dir);
			return -1;
		}
		t = now_s();
		for (long i = 0; i < names; i++) {
			snprintf(name, sizeof(name), "slabbench-missing-%ld-%ld", r, i);
			if (!fstatat(dir, name, &st, 0) || errno != ENOENT) {
				snprintf(why, whylen, "dentry: %s exists, or %s", name,
					 strerror(errno));
				close(dir);
				return -1;
			}
		}
		rate[r] = names / (now_s() - t);
		if (dentry_state(&d1, &n1)) {
			snprintf(why, whylen, "dentry: /proc/sys/fs/dentry-state unreadable");
			close(dir);
			return -1;
		}
		grown[r] = d1 - d0;
		negative[r] = n1 - n0;
	}
	close(dir);
	metric(out, true, "lookups_per_sec", "ops/s", false, rate, repeats);
	metric(out, false, "dentries_added", "dentries", true, grown, repeats);
	metric(out, false, "negative_dentries_added", "dentries", true, negative, repeats);
	return 0;
}

/* Create and close: AF_UNIX sockets, or files on tmpfs (and unlink). */
static int churn(const struct spec *s, FILE *out, char *why, size_t whylen)
{
	long count = s->num[CHURN_COUNT], repeats = s->num[CHURN_REPEATS];
	bool sockets = s->num[CHURN_KIND] == CHURN_SOCKET;
	double rate[MACRO_MAX_REPEATS];

	for (long r = 0; r < repeats; r++) {
		double t = now_s();

		for (long i = 0; i < count; i++) {
			int fd = sockets ? socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) :
					   open("/tmp/slabbench-churn", O_CREAT | O_WRONLY | O_CLOEXEC,
						0600);

			if (fd < 0) {
				snprintf(why, whylen, "churn: %s: %s",
					 s->m->params[CHURN_KIND].choices[s->num[CHURN_KIND]],
					 strerror(errno));
				return -1;
			}
			close(fd);
			if (!sockets)
				unlink("/tmp/slabbench-churn");
		}
		rate[r] = count / (now_s() - t);
	}
	metric(out, true, "ops_per_sec", "ops/s", false, rate, repeats);
	return 0;
}

#define CGROUP_ROOT	"/sys/fs/cgroup"
#define MEMCG_DIR	"/tmp/slabbench-memcg"

/*
 * What a memcg run with hold=1 keeps until macro_release(): its tasks
 * (each blocked reading the pipe whose write end is hold_fd), and the
 * files and groups they made.
 */
static struct {
	pid_t pids[64];
	int nr, hold_fd, groups;
} held = { .hold_fd = -1 };

/* The word @word in @path's text (blank-separated), as cgroup.controllers lists them. */
static bool file_has_word(const char *path, const char *word)
{
	size_t len;
	char *text = read_path(path, &len), *save = NULL;
	bool found = false;

	for (char *w = text ? strtok_r(text, " \n", &save) : NULL; w && !found;
	     w = strtok_r(NULL, " \n", &save))
		found = !strcmp(w, word);
	free(text);
	return found;
}

/* Field @key of group @g's memory.stat, in bytes; -1 if none (memflush.c first). */
static double memcg_stat(int g, const char *key)
{
	char path[96], line[128], name[64];
	double v, bytes = -1;
	FILE *f;

	snprintf(path, sizeof(path), CGROUP_ROOT "/slabbench-%d/memory.stat", g);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lf", name, &v) == 2 && !strcmp(name, key))
			bytes = v;
	if (f)
		fclose(f);
	return bytes;
}

/*
 * In group @g's task: into the group, then what a process of a loaded
 * system holds in accounted kernel memory. Names longer than a dentry's
 * inline name take an external one, a kmalloc-cg-* allocation. Writes a
 * byte to @ready when done, then waits for EOF on @hold. Exits non-zero
 * with nothing written if a step failed.
 */
static void __attribute__((noreturn)) memcg_task(const struct spec *s, int g, int ready,
						  int hold)
{
	char path[160];
	int fds[2];
	char c = 0;

	snprintf(path, sizeof(path), CGROUP_ROOT "/slabbench-%d/cgroup.procs", g);
	if (write_value(path, "0"))
		_exit(1);
	snprintf(path, sizeof(path), MEMCG_DIR "/%d", g);
	if (mkdir(path, 0700))
		_exit(1);
	for (long i = 0; i < s->num[MEMCG_FILES]; i++) {
		snprintf(path, sizeof(path),
			 MEMCG_DIR "/%d/a-name-longer-than-a-dentry-keeps-inline-%07ld", g, i);
		fds[0] = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		if (fds[0] < 0)
			_exit(1);
		close(fds[0]);
	}
	for (long i = 0; i < s->num[MEMCG_SOCKETS]; i++)
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
			_exit(1);
	for (long i = 0; i < s->num[MEMCG_PIPES]; i++)
		if (pipe2(fds, O_CLOEXEC))
			_exit(1);
	/* Closed, so that the agent sees EOF once every task wrote or died. */
	if (write(ready, &c, 1) != 1 || close(ready))
		_exit(1);
	while (read(hold, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

/* Ends what a memcg run holds: its tasks, then their files and groups. */
void macro_release(void)
{
	char path[96];
	int status;

	if (held.hold_fd >= 0)
		close(held.hold_fd);
	held.hold_fd = -1;
	for (int i = 0; i < held.nr; i++)
		while (waitpid(held.pids[i], &status, 0) < 0 && errno == EINTR)
			;
	held.nr = 0;
	for (int g = 0; g < held.groups; g++) {
		char *argv[] = { "/bin/rm", "-rf", path, NULL };
		size_t len;

		snprintf(path, sizeof(path), MEMCG_DIR "/%d", g);
		free(capture(argv, &len));
		snprintf(path, sizeof(path), CGROUP_ROOT "/slabbench-%d", g);
		if (rmdir(path))
			say("memcg: rmdir %s: %s", path, strerror(errno));
	}
	held.groups = 0;
}

/*
 * Memory cgroups: a task in each of @groups groups creates files and
 * keeps sockets and pipes, so that the kernel charges their objects to
 * the group (kmalloc-cg-*, SLAB_ACCOUNT caches, obj_cgroup). The figures
 * are the groups' own: memory.stat's slab and percpu, summed. A kernel
 * without the memory controller, or one that charged no slab to a
 * group, is refused: nothing of what this measures would have run.
 */
static int memcg(const struct spec *s, FILE *out, char *why, size_t whylen)
{
	long groups = s->num[MEMCG_GROUPS];
	double slab = 0, percpu = 0;
	int ready[2], hold[2], ret = 0, got = 0;
	const char *how = NULL;
	struct rlimit fds;
	char path[96], c;

	if (held.groups)
		macro_release();
	mkdir(CGROUP_ROOT, 0755);
	if (mount("cgroup2", CGROUP_ROOT, "cgroup2", 0, NULL) && errno != EBUSY) {
		snprintf(why, whylen, "memcg: refused: this kernel has no cgroup v2 (mount: %s), "
			 "so no memory controller (CONFIG_MEMCG_KMEM, which the small variants "
			 "lack): nothing would be charged to a memcg; run a -distro variant",
			 strerror(errno));
		return -1;
	}
	if (!file_has_word(CGROUP_ROOT "/cgroup.controllers", "memory")) {
		snprintf(why, whylen, "memcg: refused: this kernel has no memory controller "
			 "(CONFIG_MEMCG not set, or cgroup_disable=memory): nothing would be "
			 "charged to a memcg; run a -distro variant");
		return -1;
	}
	if (write_value(CGROUP_ROOT "/cgroup.subtree_control", "+memory") ||
	    (mkdir(MEMCG_DIR, 0700) && errno != EEXIST) || pipe2(ready, O_CLOEXEC) || pipe2(hold, O_CLOEXEC)) {
		snprintf(why, whylen, "memcg: setting up: %s", strerror(errno));
		return -1;
	}
	/* Two descriptors per socket pair and pipe, in each task. */
	if (!getrlimit(RLIMIT_NOFILE, &fds)) {
		fds.rlim_cur = fds.rlim_max;
		setrlimit(RLIMIT_NOFILE, &fds);
	}
	held.hold_fd = hold[1];
	for (int g = 0; g < groups && !ret; g++) {
		snprintf(path, sizeof(path), CGROUP_ROOT "/slabbench-%d", g);
		ret = mkdir(path, 0755);
		if (ret) {
			snprintf(why, whylen, "memcg: mkdir %s: %s", path, strerror(errno));
			break;
		}
		held.groups = g + 1;
		held.pids[g] = fork();
		if (!held.pids[g]) {
			close(ready[0]);
			close(hold[1]);
			memcg_task(s, g, ready[1], hold[0]);
		}
		if (held.pids[g] < 0) {
			snprintf(why, whylen, "memcg: fork: %s", strerror(errno));
			ret = -1;
		} else {
			held.nr = g + 1;
		}
	}
	close(ready[1]);
	close(hold[0]);
	/* Each task writes its byte, or exits and leaves EOF once all have. */
	while (!ret && got < groups && read(ready[0], &c, 1) == 1)
		got++;
	close(ready[0]);
	if (!ret && got < groups) {
		snprintf(why, whylen, "memcg: %ld of %ld tasks failed to create their objects",
			 groups - got, groups);
		ret = -1;
	}
	/* What the flush itself leaves in the kernel, shown: it should be nothing. */
	slab = meminfo_kb("Slab");
	percpu = meminfo_kb("Percpu");
	if (!ret && !memcg_flush_all(CGROUP_ROOT, groups, &how, why, whylen))
		say("memcg: counters flushed by %s; Slab %+.0f kB, Percpu %+.0f kB across it",
		    how, meminfo_kb("Slab") - slab, meminfo_kb("Percpu") - percpu);
	else
		ret = -1;
	slab = percpu = 0;
	for (int g = 0; g < groups && !ret; g++) {
		double b = memcg_stat(g, "slab");

		if (b < 0) {
			snprintf(why, whylen, "memcg: group %d: memory.stat unreadable, so its "
				 "charges cannot be read", g);
			ret = -1;
		} else if (b == 0) {
			snprintf(why, whylen, "memcg: refused: group %d has no slab charged (kernel "
				 "memory accounting off: cgroup.memory=nokmem?)", g);
			ret = -1;
		}
		slab += b / 1024;
		percpu += memcg_stat(g, "percpu") / 1024;
	}
	if (!ret) {
		metric(out, true, "charged_slab_kb", "kB", true, &slab, 1);
		metric(out, false, "charged_percpu_kb", "kB", true, &percpu, 1);
	}
	if (ret || !s->num[MEMCG_HOLD])
		macro_release();
	return ret;
}

/* Each workload of macro_table.c. */
static int (*const macros[MACRO_NR])(const struct spec *s, FILE *out, char *why,
				     size_t whylen) = {
	[MACRO_HACKBENCH] = hackbench,
	[MACRO_DENTRY] = dentry,
	[MACRO_CHURN] = churn,
	[MACRO_MEMCG] = memcg,
};

static void send_error(const char *index, const char *why)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "{\"error\":\"%s\",\"errno\":22}\n", why);

	say("%s", why);
	send_frame(SB_FRAME_ERROR, index, buf, n);
}

int macro_run(const char *index, char *text)
{
	struct cache *before = NULL, *after = NULL;
	int nb, na, ret;
	char why[256] = "", *json = NULL;
	double slab_kb;
	size_t len = 0;
	struct spec s;
	FILE *out;

	say(SB_VERB_MACRO " %s", text);
	if (spec_parse(text, &s, why, sizeof(why))) {
		send_error(index, why);
		return -1;
	}
	out = open_memstream(&json, &len);
	if (!out) {
		send_error(index, "out of memory for the result");
		return -1;
	}
	fprintf(out, "{\"test\":\"%s\",", s.m->name);
	params_json(out, &s);
	fputs(",\"metrics\":{", out);
	nb = slabinfo_read(&before);
	slab_kb = meminfo_kb("Slab");
	ret = macros[s.m - macro_workloads](&s, out, why, sizeof(why));
	na = slabinfo_read(&after);
	fprintf(out, "},\"slab_kb_delta\":%.0f,", meminfo_kb("Slab") - slab_kb);
	slab_deltas(out, before, nb, after, na);
	fputs("}\n", out);
	fclose(out);
	if (ret)
		send_error(index, why);
	else
		send_frame(SB_FRAME_RESULT, index, json, len);
	free(json);
	free(before);
	free(after);
	return ret;
}
