// SPDX-License-Identifier: GPL-2.0
/* The plan writer: the exact line each verb writes, as the agent parses it. */
#define _GNU_SOURCE
#include "check.h"
#include "plan.h"

#include <linux/slabbench.h>

static void test_empty(void)
{
	struct plan *p = plan_new();

	CHECK_STR(plan_text(p), "", "a new plan is empty text");
	plan_free(p);
}

static void test_verbs(void)
{
	struct plan *p = plan_new();

	plan_file(p, PLAN_INFO, SB_PATH_INFO);
	plan_write(p, SB_PATH_RUN, SB_SPEC_RELEASE);
	plan_run(p, "test=fastpath size=64");
	plan_macro(p, "test=hackbench groups=2");
	plan_profile(p, SB_VERB_RUN, "test=sizes");
	plan_cmd(p, PLAN_CONFIG, "/bin/zcat", "/proc/config.gz", NULL);
	plan_cmd(p, "uptime", NULL);
	plan_wait(p, 30);
	plan_reload(p, 20, "test=fastpath iters=100000 repeats=1");
	plan_fuzz(p, 10000, 1);
	plan_userspace(p, PLAN_USERSPACE);
	CHECK_STR(plan_text(p),
		  "file info /sys/kernel/debug/slabbench/info\n"
		  "write /sys/kernel/debug/slabbench/run release\n"
		  "run test=fastpath size=64\n"
		  "macro test=hackbench groups=2\n"
		  "profile run test=sizes\n"
		  "cmd config /bin/zcat /proc/config.gz\n"
		  "cmd uptime\n"
		  "wait 30\n"
		  "reload 20 test=fastpath iters=100000 repeats=1\n"
		  "fuzz 10000 1\n"
		  "userspace userspace\n",
		  "each verb writes its one line, in order");
	plan_free(p);
}

int main(void)
{
	test_empty();
	test_verbs();
	plan_free(NULL);
	return check_done();
}
