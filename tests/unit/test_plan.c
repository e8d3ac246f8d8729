// SPDX-License-Identifier: GPL-2.0
/* The plan writer: the exact line each verb writes, as the agent parses it. */
#define _GNU_SOURCE
#include "check.h"
#include "plan.h"
#include "runner.h"
#include "workload.h"

#include <linux/slabbench.h>
#include <string.h>

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
	plan_reload(p, 20, "test=fastpath iters=1000000 repeats=1");
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
		  "reload 20 test=fastpath iters=1000000 repeats=1\n"
		  "fuzz 10000 1\n"
		  "userspace userspace\n",
		  "each verb writes its one line, in order");
	plan_free(p);
}

/* The after-boot snapshot follows the boot-like user space and the wait. */
static void test_after_boot(void)
{
	static const bool profiled[1];
	static const char *const texts[] = {
		"{\"name\":\"w\",\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"w\",\"boot_userspace\":true,\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"w\",\"boot_userspace\":true,\"after_boot_s\":30,"
		"\"tests\":[{\"test\":\"fastpath\"}]}",
	};
	static const char *const before[] = {
		"file cmdline /proc/cmdline\nwrite /proc/sys/vm/stat_refresh 1\nfile meminfo.before ",
		"file cmdline /proc/cmdline\nuserspace userspace\nwrite /proc/sys/vm/stat_refresh 1\n"
		"file meminfo.before ",
		"file cmdline /proc/cmdline\nuserspace userspace\nwait 30\n"
		"write /proc/sys/vm/stat_refresh 1\nfile meminfo.before ",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct workload w;
		struct plan *p;

		if (workload_parse("w.json", texts[i], 0, &w)) {
			CHECK(0, "workload %zu parses", i);
			continue;
		}
		p = runner_plan(&w, profiled, false, false);
		CHECK(strstr(plan_text(p), before[i]) != NULL,
		      "%s: before the after-boot snapshot, %s", i ? "boot_userspace" : "no key",
		      i == 2 ? "user space, then a 30 s wait" : i ? "user space" : "nothing");
		{
			const char *at = plan_text(p);
			int n = 0;

			while ((at = strstr(at, SB_VERB_USERSPACE " ")))
				n++, at++;
			CHECK(n == (i ? 1 : 0), "workload %zu: the user space runs %d time%s", i,
			      i ? 1 : 0, i ? "" : "s");
		}
		plan_free(p);
		workload_free(&w);
	}
}

int main(void)
{
	test_after_boot();
	test_empty();
	test_verbs();
	plan_free(NULL);
	return check_done();
}
