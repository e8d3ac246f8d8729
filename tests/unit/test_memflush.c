// SPDX-License-Identifier: GPL-2.0
/*
 * The guest agent's reading of the trace that shows a memory cgroup's
 * offline flush (vm/agent/memflush.c): only the removed group's forced
 * flush followed by the root's, by the same task, counts as the flush.
 */
#define _GNU_SOURCE
#include "check.h"
#include "memflush.h"

#include <stdlib.h>
#include <string.h>

#define HEAD "# tracer: nop\n#\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
#define EV(task, ts, id, force) \
	"     " task " [000] .....    " ts ": memcg_flush_stats: memcg_id=" id \
	" stats_updates=0 force=" force " needs_flush=0\n"
#define GONE(force)	EV("kworker/0:1-11", "33.167577", "340", force)
#define ROOT(task)	EV(task, "33.168078", "1", "1")
#define WORKER		EV("kworker/u8:0-12", "34.202840", "1", "1")

static bool seen(const char *text, unsigned long long gone)
{
	char *copy = strdup(text);
	bool ret = memflush_offline_seen(copy, gone, 1);

	free(copy);
	return ret;
}

int main(void)
{
	/* The trace of a 7.3 guest at 2 vCPUs, the worker's flushes about it. */
	CHECK(seen(HEAD WORKER GONE("1") ROOT("kworker/0:1-11") WORKER, 340),
	      "the removed group's forced flush, then the root's by the same task");
	CHECK(!seen(HEAD GONE("1") WORKER, 340),
	      "not when the root's forced flush was another task's (the worker's)");
	CHECK(!seen(HEAD ROOT("kworker/0:1-11") GONE("1"), 340),
	      "not when the root's flush came first");
	CHECK(!seen(HEAD GONE("0") ROOT("kworker/0:1-11"), 340),
	      "not when the group's flush was not forced");
	CHECK(!seen(HEAD GONE("1") ROOT("kworker/0:1-11"), 34),
	      "not for another group's removal (memcg_id=34 is not 340)");
	CHECK(!seen(HEAD GONE("1"), 340),
	      "not when the root's flush is missing");
	CHECK(!seen(HEAD, 340),
	      "not in an empty trace");
	return check_done();
}
