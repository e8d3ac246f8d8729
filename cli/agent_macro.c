// SPDX-License-Identifier: GPL-2.0
/*
 * The macro workloads the guest agent runs beside the module's tests:
 * hackbench (perf bench sched messaging), a negative-dentry storm, and
 * socket or file churn. Each reports its own figure per repeat and the
 * slab caches that grew most over its run, in a result frame shaped like
 * the module's, so that results, compare, report and plot take them as
 * they take the module's tests. cli/macro.c describes the parameters.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PERF "/usr/bin/perf"
#define PERF_DATA "/tmp/perf.data"
#define MAX_PARAMS 8
#define MAX_REPEATS 100
#define TOP_CACHES 5

struct spec {
	char *buf;
	char *test;
	int n;
	char *key[MAX_PARAMS], *val[MAX_PARAMS];
};

static int spec_parse(const char *text, struct spec *s)
{
	char *save = NULL, *tok;

	memset(s, 0, sizeof(*s));
	s->buf = strdup(text);
	for (tok = strtok_r(s->buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || s->n == MAX_PARAMS)
			return -1;
		*eq = '\0';
		if (!strcmp(tok, "test")) {
			s->test = eq + 1;
		} else {
			s->key[s->n] = tok;
			s->val[s->n++] = eq + 1;
		}
	}
	return s->test ? 0 : -1;
}

static const char *spec_word(const struct spec *s, const char *key)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->key[i], key))
			return s->val[i];
	return NULL;
}

/* A parameter's value; -1 when it is missing or not a number. */
static long spec_num(const struct spec *s, const char *key)
{
	const char *v = spec_word(s, key);
	char *end;
	long n;

	if (!v)
		return -1;
	errno = 0;
	n = strtol(v, &end, 10);
	return *end || errno || n < 0 ? -1 : n;
}

struct cache {
	char name[64];
	double objects, bytes;
};

/* /proc/slabinfo as caches with their objects and slab bytes; -1: none. */
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
			cap = cap ? 2 * cap : 256;
			*caches = realloc(*caches, cap * sizeof(**caches));
		}
		snprintf((*caches)[n].name, sizeof((*caches)[n].name), "%s", name);
		(*caches)[n].objects = active;
		(*caches)[n].bytes = (double)slabs * pages * sysconf(_SC_PAGESIZE);
		n++;
	}
	fclose(f);
	return n;
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
	long groups = spec_num(s, "groups"), loops = spec_num(s, "loops");
	long repeats = spec_num(s, "repeats");
	const char *mode = spec_word(s, "mode"), *ipc = spec_word(s, "ipc");
	double secs[MAX_REPEATS];
	char g[24], l[24];
	char *argv[] = { PERF, "bench", "sched", "messaging", "-g", g, "-l", l, NULL, NULL, NULL };
	size_t len = 0;
	int extra = 8;

	if (groups < 1 || loops < 1 || repeats < 1 || repeats > MAX_REPEATS || !mode || !ipc) {
		snprintf(why, whylen, "hackbench: groups, loops, repeats, mode and ipc are needed");
		return -1;
	}
	snprintf(g, sizeof(g), "%ld", groups);
	snprintf(l, sizeof(l), "%ld", loops);
	if (!strcmp(mode, "thread"))
		argv[extra++] = "-t";
	if (!strcmp(ipc, "pipe"))
		argv[extra++] = "-p";
	for (long r = 0; r < repeats; r++) {
		char *text = capture(argv, &len), *total = text ? strstr(text, "Total time:") : NULL;

		if (!total || sscanf(total, "Total time: %lf", &secs[r]) != 1) {
			snprintf(why, whylen, "hackbench: %s bench sched messaging failed", PERF);
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
	long names = spec_num(s, "names"), repeats = spec_num(s, "repeats");
	double rate[MAX_REPEATS], grown[MAX_REPEATS], negative[MAX_REPEATS];
	int dir = open("/sys/kernel", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (names < 1 || repeats < 1 || repeats > MAX_REPEATS || dir < 0) {
		snprintf(why, whylen, "dentry: names and repeats are needed, and /sys/kernel");
		if (dir >= 0)
			close(dir);
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
		dentry_state(&d1, &n1);
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
	long count = spec_num(s, "count"), repeats = spec_num(s, "repeats");
	const char *kind = spec_word(s, "kind");
	bool sockets = kind && !strcmp(kind, "socket");
	double rate[MAX_REPEATS];

	if (count < 1 || repeats < 1 || repeats > MAX_REPEATS || !kind) {
		snprintf(why, whylen, "churn: kind, count and repeats are needed");
		return -1;
	}
	for (long r = 0; r < repeats; r++) {
		double t = now_s();

		for (long i = 0; i < count; i++) {
			int fd = sockets ? socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) :
					   open("/tmp/slabbench-churn", O_CREAT | O_WRONLY | O_CLOEXEC,
						0600);

			if (fd < 0) {
				snprintf(why, whylen, "churn: %s: %s", kind, strerror(errno));
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

static const struct {
	const char *name;
	int (*run)(const struct spec *s, FILE *out, char *why, size_t whylen);
} macros[] = {
	{ "hackbench", hackbench },
	{ "dentry", dentry },
	{ "churn", churn },
};

static void send_error(const char *index, const char *why)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "{\"error\":\"%s\",\"errno\":22}\n", why);

	say("%s", why);
	send_frame("error", index, buf, n);
}

int macro_run(const char *index, const char *text)
{
	struct cache *before = NULL, *after = NULL;
	int nb, na, ret = -1;
	char why[256] = "", *json = NULL;
	double slab_kb;
	size_t len = 0;
	struct spec s;
	FILE *out;

	say("macro %s", text);
	if (spec_parse(text, &s)) {
		send_error(index, "macro: expected test=NAME key=value ...");
		free(s.buf);
		return -1;
	}
	out = open_memstream(&json, &len);
	fprintf(out, "{\"test\":\"%s\",\"params\":{", s.test);
	for (int i = 0; i < s.n; i++) {
		bool number = spec_num(&s, s.key[i]) >= 0;

		fprintf(out, "%s\"%s\":%s%s%s", i ? "," : "", s.key[i], number ? "" : "\"",
			s.val[i], number ? "" : "\"");
	}
	fputs("},\"metrics\":{", out);
	nb = slabinfo_read(&before);
	slab_kb = meminfo_kb("Slab");
	for (size_t i = 0; i < sizeof(macros) / sizeof(macros[0]); i++)
		if (!strcmp(macros[i].name, s.test))
			ret = macros[i].run(&s, out, why, sizeof(why));
	if (ret && !why[0])
		snprintf(why, sizeof(why), "macro: no workload named %s", s.test);
	na = slabinfo_read(&after);
	fprintf(out, "},\"slab_kb_delta\":%.0f,", meminfo_kb("Slab") - slab_kb);
	slab_deltas(out, before, nb, after, na);
	fputs("}\n", out);
	fclose(out);
	if (ret)
		send_error(index, why);
	else
		send_frame("result", index, json, len);
	free(json);
	free(before);
	free(after);
	free(s.buf);
	return ret;
}

int profile_run(const char *index, const char *spec,
		int (*verb)(const char *index, const char *spec))
{
	char *record[] = { PERF, "record", "-a", "-e", "cpu-clock", "-F", "499", "-N",
			   "-o", PERF_DATA, NULL };
	char *report[] = { PERF, "report", "--stdio", "-i", PERF_DATA, "--sort", "sym",
			   "--no-children", "-q", "--percent-limit", "0.5", NULL };
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	struct stat st;
	size_t len = 0;
	char *text;
	pid_t pid;
	int ret, tries;

	unlink(PERF_DATA);
	pid = fork();
	if (pid == 0) {
		execv(PERF, record);
		_exit(127);
	}
	if (pid < 0) {
		say("profile: fork: %s", strerror(errno));
		return -1;
	}
	/* perf writes its header once it records; emulated, that takes a while. */
	for (tries = 0; tries < 200 && (stat(PERF_DATA, &st) || !st.st_size); tries++)
		nanosleep(&pause, NULL);
	ret = verb(index, spec);
	kill(pid, SIGINT);
	waitpid(pid, NULL, 0);
	text = capture(report, &len);
	if (!text) {
		say("profile: %s report failed", PERF);
		return -1;
	}
	send_frame("profile", index, text, len);
	free(text);
	return ret;
}
