// SPDX-License-Identifier: GPL-2.0
/*
 * Making memory.stat current before the memcg workload reads its groups'
 * charges. memory.stat flushes the memory controller's per-CPU counters
 * only past a threshold of updates (6.12 and 7.3: 64 pages per online CPU,
 * per group; 6.1: global) and otherwise shows what a deferrable worker
 * last flushed, which may have run during the charging or not since.
 *
 * On 6.1 and 6.12 all controllers share one rstat tree, and reading a
 * group's cpu.stat flushes it (cgroup_base_stat_cputime_show()), memory's
 * counters with it. 7.3 keeps a tree per controller, and that read flushes
 * only the cgroup's own; what it has instead is a forced flush of the
 * parent when a memory cgroup goes offline (reparent_state_local()). So
 * where the kernel has the memcg_flush_stats tracepoint, which 6.1 and
 * 6.12 lack and 7.3 has, the cpu.stat read is not trusted: a throwaway
 * group under the root is made and removed, and the charges are read only
 * once the trace shows that removal's forced flush of the root, which
 * flushes every group, and the removal has finished. A kernel that shows
 * no such flush is refused rather than read short.
 */
#define _GNU_SOURCE
#include "agent.h"
#include "memflush.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TRACING		"/sys/kernel/tracing"
#define FLUSH_EVENT	TRACING "/events/memcg/memcg_flush_stats/enable"
#define THROWAWAY	"slabbench-flush"
/* Offline follows an RCU grace period, slow in a guest whose vCPUs take turns. */
#define OFFLINE_WAIT_S	120

/* "nr_dying_descendants" of @root's cgroup.stat; -1 if unreadable. */
static long dying(const char *root)
{
	char path[128], *text, *at;
	long n = -1;
	size_t len;

	snprintf(path, sizeof(path), "%s/cgroup.stat", root);
	text = read_path(path, &len);
	at = text ? strstr(text, "nr_dying_descendants ") : NULL;
	if (at)
		n = strtol(at + strlen("nr_dying_descendants "), NULL, 10);
	free(text);
	return n;
}

/* Empties the trace buffer: only an open with O_TRUNC does. */
static int trace_clear(void)
{
	int fd = open(TRACING "/trace", O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

bool memflush_offline_seen(char *trace, unsigned long long gone, unsigned long long root)
{
	char task[64] = "", want[48], *save = NULL;
	bool seen = false;

	snprintf(want, sizeof(want), "memcg_id=%llu ", gone);
	for (char *line = strtok_r(trace, "\n", &save); line && !seen;
	     line = strtok_r(NULL, "\n", &save)) {
		char who[64];

		if (line[0] == '#' || !strstr(line, " force=1") ||
		    sscanf(line, " %63s", who) != 1)
			continue;
		if (!strstr(line, want))
			continue;
		if (task[0]) {
			seen = !strcmp(task, who);
		} else {
			strcpy(task, who);
			snprintf(want, sizeof(want), "memcg_id=%llu ", root);
		}
	}
	return seen;
}

/*
 * Makes and removes the throwaway group, then waits for its offline work's
 * forced flush of the root (@root_id) to show in the trace. That work holds
 * cgroup_mutex throughout (css_killed_work_fn()), so a write to the root's
 * cgroup.subtree_control, which takes it, returns only once the flush is done.
 */
static int offline_flush(const char *root, unsigned long long root_id, char *why, size_t whylen)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	char path[128], *trace = NULL;
	long before = dying(root);
	bool seen = false;
	struct stat st;
	size_t len;

	snprintf(path, sizeof(path), "%s/" THROWAWAY, root);
	if (before < 0 || mkdir(path, 0755) || stat(path, &st) || rmdir(path)) {
		snprintf(why, whylen, "memcg: flushing: the group %s: %s", path, strerror(errno));
		return -1;
	}
	for (double t = now_s(); !seen && now_s() - t < OFFLINE_WAIT_S; free(trace)) {
		nanosleep(&pause, NULL);
		trace = read_path(TRACING "/trace", &len);
		seen = trace && memflush_offline_seen(trace, st.st_ino, root_id);
	}
	if (!seen) {
		snprintf(why, whylen, "memcg: refused: removing a group showed no forced flush "
			 "of the root in the trace within %d s (this kernel's cpu.stat does not "
			 "flush the memory controller), so the charges cannot be shown complete",
			 OFFLINE_WAIT_S);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", root);
	if (write_value(path, "+memory")) {
		snprintf(why, whylen, "memcg: flushing: %s: %s", path, strerror(errno));
		return -1;
	}
	/*
	 * The group's memcg and its per-CPU counters are freed only once it is
	 * released: until then they would be in the census as the kernel's.
	 * Another group dying meanwhile could end this wait early; the memcg
	 * workload removes its own groups only after reading them.
	 */
	for (double t = now_s(); dying(root) > before && now_s() - t < OFFLINE_WAIT_S;)
		nanosleep(&pause, NULL);
	if (dying(root) > before) {
		snprintf(why, whylen, "memcg: the removed group %s/" THROWAWAY " still not released "
			 "after %d s: its memory would be counted as the kernel's", root,
			 OFFLINE_WAIT_S);
		return -1;
	}
	return 0;
}

int memcg_flush_all(const char *root, int groups, const char **how, char *why, size_t whylen)
{
	char path[128], *text, *size;
	struct stat st;
	size_t len;
	int ret;

	for (int g = 0; g < groups; g++) {
		snprintf(path, sizeof(path), "%s/slabbench-%d/cpu.stat", root, g);
		text = read_path(path, &len);
		if (!text) {
			snprintf(why, whylen, "memcg: %s unreadable, so the group's charges "
				 "cannot be flushed", path);
			return -1;
		}
		free(text);
	}
	if (access(TRACING "/events", F_OK) &&
	    mount("tracefs", TRACING, "tracefs", 0, NULL) && errno != EBUSY) {
		snprintf(why, whylen, "memcg: refused: no tracefs (%s), so whether reading "
			 "cpu.stat flushes the memory controller cannot be told", strerror(errno));
		return -1;
	}
	if (access(FLUSH_EVENT, F_OK)) {
		*how = "cpu.stat (one rstat tree: no memcg_flush_stats tracepoint)";
		return 0;
	}
	/*
	 * Enabling an event expands the ring buffer from its boot size, in
	 * slab (a buffer_page per page) as well as pages: it is put back after.
	 */
	size = read_path(TRACING "/buffer_size_kb", &len);
	if (size)
		size[strspn(size, "0123456789")] = '\0';
	if (!size || !size[0] || stat(root, &st) || trace_clear() ||
	    write_value(TRACING "/tracing_on", "1") || write_value(FLUSH_EVENT, "1")) {
		snprintf(why, whylen, "memcg: flushing: %s: %s", FLUSH_EVENT, strerror(errno));
		free(size);
		return -1;
	}
	ret = offline_flush(root, st.st_ino, why, whylen);
	write_value(FLUSH_EVENT, "0");
	trace_clear();
	if (write_value(TRACING "/buffer_size_kb", size) && !ret) {
		snprintf(why, whylen, "memcg: the trace buffer could not be put back to %s kB: "
			 "its memory would be counted as the kernel's", size);
		ret = -1;
	}
	free(size);
	*how = "a removed group's forced flush of the root, seen in the trace";
	return ret;
}
