// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's plan for a workload (runner_plan(), see runner.h): the
 * module's catalogue, the snapshots before and after, each test, and the
 * census phases while a test holds memory.
 */
#define _GNU_SOURCE
#include "runner.h"
#include "macro.h"
#include "plan.h"
#include "util.h"
#include "workload.h"

#include <linux/slabbench.h>
#include <stdlib.h>
#include <string.h>

/*
 * One snapshot, frames WHAT.@when. Memory counters settle first (vmstat
 * is per-CPU). /proc/slabinfo and SLUB's sysfs come right after the
 * census, so that they are compared at nearly the same point
 * (census_checks()).
 */
static void plan_snapshots(struct plan *p, const char *when, bool slub_sysfs)
{
	static const struct {
		const char *what, *path;
	} files[] = {
		{ PLAN_MEMINFO, "/proc/meminfo" },
		{ PLAN_CENSUS, SB_PATH_CENSUS },
		{ PLAN_SLABINFO, "/proc/slabinfo" },
	};
	char *name;

	plan_write(p, "/proc/sys/vm/stat_refresh", "1");
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		name = xasprintf("%s.%s", files[i].what, when);
		plan_file(p, name, files[i].path);
		free(name);
	}
	if (!slub_sysfs)
		return;
	name = xasprintf("%s.%s", PLAN_SLUB_SYSFS, when);
	plan_attrs(p, name, "/sys/kernel/slab", "slabs", "partial", "objects", "total_objects",
		   "cpu_slabs", NULL);
	free(name);
}

/*
 * While test @i holds its objects: the allocator's own view of the held
 * cache for overhead (its extra.slabinfo_check), then the census phases
 * its workload entry asks for, then the objects are released.
 */
static void plan_held(struct plan *p, const struct workload_test *t, int i, bool slub_sysfs)
{
	if (!strcmp(t->test, "overhead")) {
		char *name = xasprintf(PLAN_HELD "%d", i);

		plan_file(p, name, "/proc/slabinfo");
		free(name);
	}
	for (int k = 0; k < t->nr_census; k++) {
		char *when = xasprintf("t%d.%s", i, t->census[k].name);

		if (t->census[k].seconds < 0)
			plan_write(p, SB_PATH_CENSUS, SB_CENSUS_SHRINK);
		else
			plan_wait(p, t->census[k].seconds);
		plan_snapshots(p, when, slub_sysfs);
		free(when);
	}
	plan_write(p, SB_PATH_RUN, SB_SPEC_RELEASE);
}

struct plan *runner_plan(const struct workload *w, const bool *profiled, bool guest_config,
			 bool slub_sysfs)
{
	struct plan *p = plan_new();

	plan_file(p, PLAN_INFO, SB_PATH_INFO);
	plan_file(p, PLAN_CATALOGUE, SB_PATH_TESTS);
	plan_file(p, PLAN_CMDLINE, "/proc/cmdline");
	if (w->boot_userspace)
		plan_userspace(p, PLAN_USERSPACE);
	if (w->after_boot_s)
		plan_wait(p, w->after_boot_s);
	plan_snapshots(p, "before", slub_sysfs);
	if (guest_config)
		plan_cmd(p, PLAN_CONFIG, "/bin/zcat", "/proc/config.gz", NULL);
	for (int i = 0; i < w->nr_tests; i++) {
		bool macro = macro_known(w->tests[i].test);
		const char *verb = macro ? SB_VERB_MACRO : SB_VERB_RUN;
		char *spec = macro ? macro_spec(w->tests[i].spec) : xstrdup(w->tests[i].spec);

		if (profiled[i])
			plan_profile(p, verb, spec);
		else if (macro)
			plan_macro(p, spec);
		else
			plan_run(p, spec);
		free(spec);
		if (w->tests[i].holds)
			plan_held(p, &w->tests[i], i, slub_sysfs);
	}
	plan_snapshots(p, "after", slub_sysfs);
	return p;
}
