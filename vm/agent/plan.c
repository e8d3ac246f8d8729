// SPDX-License-Identifier: GPL-2.0
/*
 * The plan the host put into the initramfs, one verb a line (the verbs:
 * SB_VERB_* in linux/slabbench.h), carried out line by line from a table
 * of verbs; run, file, attrs, write, cmd and wait are small enough to live here.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/slabbench.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A verb's arguments that do not parse: the plan stops there. */
#define PLAN_BAD (-2)
#define MAX_WORDS 64
/* The longest wait: a day, as no boot may last longer (--timeout's bound). */
#define WAIT_MAX_S 86400

/*
 * When the last line that sends a result ended: census phases are times
 * since a test's result came back, so "wait" counts from here, and the
 * time the census reads themselves take is not added to the next phase.
 */
static struct timespec last_result;

static int run_spec(const char *index, char *spec)
{
	int fd = open(SB_PATH_RUN, O_RDWR | O_CLOEXEC);
	size_t len = 0;
	char *buf;
	int err = 0;

	if (fd < 0) {
		say("%s: %s", SB_PATH_RUN, strerror(errno));
		return -1;
	}
	say(SB_VERB_RUN " %s", spec);
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
			send_frame(SB_FRAME_ERROR, index, buf, len);
		free(buf);
		return -1;
	}
	if (!buf)
		return -1;
	send_frame(SB_FRAME_RESULT, index, buf, len);
	free(buf);
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

/* The value of " KEY=" in @text's last line that starts with "total ". */
static long long census_text_total(const char *text, const char *key)
{
	const char *total = NULL, *at;
	char pattern[64];

	for (at = text; (at = strstr(at, "\ntotal ")); at++)
		total = at;
	snprintf(pattern, sizeof(pattern), " %s=", key);
	at = total ? strstr(total, pattern) : NULL;
	return at ? strtoll(at + strlen(pattern), NULL, 10) : -1;
}

/*
 * Whether the cache record at @line (up to its newline) has objects =
 * live + every free_* field.
 */
static bool census_objects_hold(const char *line)
{
	const char *end = strchr(line, '\n'), *at = line;
	long long objects = -1, sum = 0;

	while (at && (!end || at < end)) {
		const char *eq = strchr(at, '=');

		if (!eq || (end && eq > end))
			break;
		if (eq - at == 7 && !strncmp(at, "objects", 7))
			objects = strtoll(eq + 1, NULL, 10);
		else if ((eq - at == 4 && !strncmp(at, "live", 4)) || !strncmp(at, "free_", 5))
			sum += strtoll(eq + 1, NULL, 10);
		at = strchr(eq, ' ');
		if (at)
			at++;
	}
	return objects < 0 || objects == sum;
}

/*
 * Whether a census was read at a quiet point (docs/census.md): the slab
 * counter the same before and after it, and in every cache the objects
 * its slabs hold equal to its live and free ones. Slab memory that moves
 * while the census is read (RCU callbacks, vmstat folding, a loaded
 * host's late timers) leaves the first without a verdict; a free that
 * frees no page between the page walk and the list reads (an RCU callback
 * freeing a cred or a maple node) breaks the second with the counter
 * unchanged.
 */
static bool census_quiet(const char *text)
{
	const char *line;

	if (census_text_total(text, "counter_pages") !=
	    census_text_total(text, "counter_pages_after"))
		return false;
	for (line = text; (line = strstr(line, "\ncache ")); line++)
		if (!census_objects_hold(line + 1))
			return false;
	return true;
}

#define CENSUS_TRIES 10
/* The name of a snapshot's meminfo frame: meminfo.WHEN (cli/lib/plan.h). */
#define PLAN_MEMINFO_PREFIX "meminfo."

/*
 * A snapshot's frames are held until its files have all been read, or
 * another verb runs: sending a frame writes to the virtio port, whose
 * buffers are slab memory (a meminfo frame is a kmalloc-2k object), and
 * a snapshot's files (meminfo, census, slabinfo) are read one after the
 * other with none of that in between.
 */
#define MAX_HELD 8

struct held_frame {
	const char *kind;
	char *name, *path, *buf;	/* buf NULL: no data */
	size_t len;
};

static struct held_frame held[MAX_HELD];
static unsigned int nr_held;

static void send_held(void)
{
	for (unsigned int i = 0; i < nr_held; i++) {
		struct held_frame *h = &held[i];

		send_frame(h->kind, h->name, h->buf ? h->buf : "", h->len);
		free(h->name);
		free(h->path);
		free(h->buf);
	}
	nr_held = 0;
}

/* Holds this frame (read from @path) after the others: @buf is taken. */
static void hold_frame(const char *kind, const char *name, const char *path, char *buf,
		       size_t len)
{
	struct held_frame *h;

	if (nr_held == MAX_HELD)
		send_held();
	h = &held[nr_held];
	h->name = strdup(name);
	h->path = strdup(path);
	if (!h->name || !h->path) {
		free(h->name);
		free(h->path);
		send_held();
		send_frame(kind, name, buf ? buf : "", len);
		free(buf);
		return;
	}
	h->kind = kind;
	h->buf = buf;
	h->len = len;
	nr_held++;
}

/*
 * The /proc files a snapshot reads beside the census stay open from the
 * plan's start, read once then: opening one allocates a proc inode and a
 * seq_file, and its first read a buffer (kmalloc-cg-4k under memory
 * cgroups), which would be the agent's own objects between the census
 * and the file it is compared with. Each snapshot reads them again from
 * offset 0.
 */
static const char *const kept_paths[] = { "/proc/meminfo", "/proc/slabinfo" };
static int kept_fds[ARRAY_SIZE(kept_paths)];

static void keep_open(void)
{
	size_t len;

	for (size_t i = 0; i < ARRAY_SIZE(kept_paths); i++) {
		kept_fds[i] = open(kept_paths[i], O_RDONLY | O_CLOEXEC);
		if (kept_fds[i] >= 0)
			free(read_fd(kept_fds[i], &len));
	}
}

/* @path opened for a snapshot: *@kept when it is a kept one, not to be closed. */
static int snapshot_open(const char *path, bool *kept)
{
	for (size_t i = 0; i < ARRAY_SIZE(kept_paths); i++) {
		if (kept_fds[i] >= 0 && !strcmp(path, kept_paths[i]) &&
		    lseek(kept_fds[i], 0, SEEK_SET) == 0) {
			*kept = true;
			return kept_fds[i];
		}
	}
	*kept = false;
	return open(path, O_RDONLY | O_CLOEXEC);
}

/*
 * Whether the census in @text agrees with the snapshot's /proc/meminfo,
 * read just before it and still held: its slab counter, read as the
 * census began, is the Slab that meminfo gave. If not (per-CPU deltas
 * folded since, a free or an allocation in between), the counters are
 * folded again and the meminfo read again, for the census to be read
 * again after it. Without a held meminfo there is nothing to agree with.
 */
static bool census_meminfo_agree(const char *text)
{
	struct held_frame *h = nr_held ? &held[nr_held - 1] : NULL;
	const char *slab;
	long long kb;
	bool kept;
	size_t len;
	char *buf;
	int fd;

	if (!h || !h->buf || strncmp(h->name, PLAN_MEMINFO_PREFIX, strlen(PLAN_MEMINFO_PREFIX)) ||
	    strcmp(h->kind, SB_FRAME_FILE))
		return true;
	slab = strstr(h->buf, "\nSlab:");
	kb = slab ? strtoll(slab + strlen("\nSlab:"), NULL, 10) : -1;
	if (kb * 1024 == census_text_total(text, "counter_pages") * sysconf(_SC_PAGESIZE))
		return true;
	write_value("/proc/sys/vm/stat_refresh", "1");
	fd = snapshot_open(h->path, &kept);
	buf = fd >= 0 ? read_fd(fd, &len) : NULL;
	if (fd >= 0 && !kept)
		close(fd);
	if (buf) {
		free(h->buf);
		h->buf = buf;
		h->len = len;
	}
	return false;
}

static int verb_file(char *args)
{
	char *argv[MAX_WORDS];
	bool kept;
	size_t len;
	char *buf;
	int fd;

	if (split(args, argv, MAX_WORDS) != 2)
		return PLAN_BAD;
	for (int tries = 1;; tries++) {
		fd = snapshot_open(argv[1], &kept);
		if (fd < 0 && errno == ENOENT) {
			/* Not every allocator has every file (SLOB: no slabinfo). */
			hold_frame(SB_FRAME_MISSING, argv[0], argv[1], NULL, 0);
			return 0;
		}
		if (fd < 0) {
			say("%s: %s", argv[1], strerror(errno));
			return -1;
		}
		buf = read_fd(fd, &len);
		if (!kept)
			close(fd);
		if (!buf)
			return -1;
		/* A census read while slab memory moved is read again, a little later. */
		if (strcmp(argv[1], SB_PATH_CENSUS) || tries == CENSUS_TRIES ||
		    (census_quiet(buf) && census_meminfo_agree(buf)))
			break;
		free(buf);
		usleep(20000);
	}
	hold_frame(SB_FRAME_FILE, argv[0], argv[1], buf, len);
	return 0;
}

static int verb_write(char *args)
{
	char *argv[MAX_WORDS];

	if (split(args, argv, MAX_WORDS) != 2)
		return PLAN_BAD;
	/* Releasing what the last test held: a macro's as well as the module's. */
	if (!strcmp(argv[0], SB_PATH_RUN) && !strcmp(argv[1], SB_SPEC_RELEASE))
		macro_release();
	return write_value(argv[0], argv[1]);
}

static int verb_cmd(char *args)
{
	char *argv[MAX_WORDS], *buf;
	size_t len = 0;

	if (split(args, argv, MAX_WORDS) < 2)
		return PLAN_BAD;
	buf = capture(argv + 1, &len);
	if (!buf) {
		say("%s: command %s failed", argv[0], argv[1]);
		return -1;
	}
	send_frame(SB_FRAME_CMD, argv[0], buf, len);
	free(buf);
	return 0;
}

/* " ATTR=WORD", WORD the first word of DIR/ENTRY/ATTR; nothing if unreadable. */
static void attr_word(FILE *out, const char *dir, const char *entry, const char *attr)
{
	char path[PATH_MAX], word[64];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s/%s", dir, entry, attr) >= (int)sizeof(path))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	if (fscanf(f, "%63s", word) == 1)
		fprintf(out, " %s=%s", attr, word);
	fclose(f);
}

/*
 * SLUB's /sys/kernel/slab holds one directory per cache (and a link per
 * alias): a few hundred entries of a few attributes each, which one frame
 * per file would spell out in frame headers.
 */
static int verb_attrs(char *args)
{
	char *argv[MAX_WORDS], *buf = NULL;
	struct dirent **entries;
	size_t len = 0;
	int argc = split(args, argv, MAX_WORDS), n;
	FILE *out;

	if (argc < 3)
		return PLAN_BAD;
	n = scandir(argv[1], &entries, NULL, alphasort);
	if (n < 0 && errno == ENOENT) {
		send_frame(SB_FRAME_MISSING, argv[0], "", 0);
		return 0;
	}
	if (n < 0) {
		say("%s: %s", argv[1], strerror(errno));
		return -1;
	}
	out = open_memstream(&buf, &len);
	for (int i = 0; i < n; i++) {
		const char *e = entries[i]->d_name;

		if (out && e[0] != '.') {
			fputs(e, out);
			for (int a = 2; a < argc; a++)
				attr_word(out, argv[1], e, argv[a]);
			fputc('\n', out);
		}
		free(entries[i]);
	}
	free(entries);
	if (!out || fclose(out)) {
		say("%s: out of memory", argv[0]);
		free(buf);
		return -1;
	}
	send_frame(SB_FRAME_FILE, argv[0], buf, len);
	free(buf);
	return 0;
}

static int verb_wait(char *args)
{
	struct timespec until = last_result;
	char *end;
	long s;
	int err;

	if (!isdigit((unsigned char)args[0]))
		return PLAN_BAD;
	s = strtol(args, &end, 10);
	if (*end || s > WAIT_MAX_S)
		return PLAN_BAD;
	say(SB_VERB_WAIT " %ld", s);
	until.tv_sec += s;
	/* Absolute: a signal that cuts the sleep short does not stretch it. */
	while ((err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL)) == EINTR)
		;
	if (err) {
		say(SB_VERB_WAIT " %ld: %s", s, strerror(err));
		return -1;
	}
	return 0;
}

static int verb_reload(char *args)
{
	char *spec;
	long n = strtol(args, &spec, 10);

	if (n < 1 || *spec != ' ')
		return PLAN_BAD;
	return reload_test(n, spec + 1);
}

static int verb_fuzz(char *args)
{
	char *end;
	long n = strtol(args, &end, 10);
	unsigned long long seed;

	if (n < 1 || *end != ' ' || !isdigit((unsigned char)end[1]))
		return PLAN_BAD;
	seed = strtoull(end + 1, &end, 10);
	if (*end)
		return PLAN_BAD;
	return fuzz_test(n, seed);
}

static int verb_userspace(char *args)
{
	char *argv[MAX_WORDS];

	int ret;

	if (split(args, argv, MAX_WORDS) != 1)
		return PLAN_BAD;
	ret = userspace_run(argv[0]);
	/* A wait after it counts from its end: the system has been idle since. */
	clock_gettime(CLOCK_MONOTONIC, &last_result);
	return ret;
}

static int verb_profile(const char *index, char *args);

/*
 * Each verb is given the rest of its line and returns PLAN_BAD if that
 * does not parse. A verb that sends a result (or error) frame is a
 * spec_verb: the next index names the frame.
 */
static const struct verb {
	const char *name;
	spec_verb indexed;
	int (*other)(char *args);
	/* Its arguments are one spec, and it can run under perf. */
	bool profiled;
} verbs[] = {
	{ SB_VERB_RUN, run_spec, NULL, true },
	{ SB_VERB_MACRO, macro_run, NULL, true },
	{ SB_VERB_PROFILE, verb_profile, NULL, false },
	{ SB_VERB_FILE, NULL, verb_file, false },
	{ SB_VERB_WRITE, NULL, verb_write, false },
	{ SB_VERB_CMD, NULL, verb_cmd, false },
	{ SB_VERB_ATTRS, NULL, verb_attrs, false },
	{ SB_VERB_WAIT, NULL, verb_wait, false },
	{ SB_VERB_RELOAD, NULL, verb_reload, false },
	{ SB_VERB_FUZZ, NULL, verb_fuzz, false },
	{ SB_VERB_USERSPACE, NULL, verb_userspace, false },
};

/*
 * The verb a line starts with, a space after it; *@args is the rest of
 * the line. NULL if the line has no such verb.
 */
static const struct verb *verb_of(char *line, char **args)
{
	char *space = strchr(line, ' ');

	if (!space)
		return NULL;
	*space = '\0';
	*args = space + 1;
	for (size_t i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(verbs[i].name, line))
			return &verbs[i];
	return NULL;
}

/* profile VERB SPEC, VERB one of the profiled verbs. */
static int verb_profile(const char *index, char *args)
{
	const struct verb *v = verb_of(args, &args);

	if (!v || !v->profiled)
		return PLAN_BAD;
	return profile_run(index, args, v->indexed);
}

int plan_execute(void)
{
	FILE *plan = fopen(SB_GUEST_PLAN, "re");
	char *line = NULL, *args, *copy, index[16];
	unsigned int nr_run = 0, lineno = 0;
	const struct verb *v;
	size_t cap = 0;
	int ret = 0;

	if (!plan) {
		say("%s: %s", SB_GUEST_PLAN, strerror(errno));
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &last_result);
	keep_open();
	while (!ret && getline(&line, &cap, plan) >= 0) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		/* The verbs parse their line in place; a bad one is shown whole. */
		copy = strdup(line);
		v = verb_of(line, &args);
		if (!v || v->other != verb_file)
			send_held();
		if (v && v->indexed) {
			snprintf(index, sizeof(index), "%u", nr_run++);
			ret = v->indexed(index, args);
			clock_gettime(CLOCK_MONOTONIC, &last_result);
		} else {
			ret = v ? v->other(args) : PLAN_BAD;
		}
		if (ret == PLAN_BAD)
			say("%s:%u: cannot parse '%s'", SB_GUEST_PLAN, lineno, copy);
		free(copy);
	}
	send_held();
	free(line);
	fclose(plan);
	return ret ? -1 : 0;
}
