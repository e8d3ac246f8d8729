// SPDX-License-Identifier: GPL-2.0
/*
 * Plan verb macro: the userspace workloads of macro_table.c (hackbench,
 * a negative-dentry storm, socket or file churn), each reporting its own
 * figure per repeat and the slab caches that grew most over its run, in a
 * result frame shaped like the module's, so that results, compare, report
 * and plot take them as they take the module's tests.
 */
#define _GNU_SOURCE
#include "agent.h"
#include "macro_table.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/slabbench.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
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

/* Each workload of macro_table.c. */
static int (*const macros[MACRO_NR])(const struct spec *s, FILE *out, char *why,
				     size_t whylen) = {
	[MACRO_HACKBENCH] = hackbench,
	[MACRO_DENTRY] = dentry,
	[MACRO_CHURN] = churn,
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
