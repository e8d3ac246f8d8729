// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench bench: how fast the harness itself is. Boots each variant
 * several times with an empty plan and reports the time from QEMU's start
 * to the guest agent's ready frame, and each kernel's cold build time.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "options.h"
#include "plan.h"
#include "results.h"
#include "runner.h"
#include "schema.h"
#include "stats.h"
#include "util.h"

#include <linux/slabbench.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int bench_variant(const char *variant, long boots, const struct vm_opts *vm)
{
	double *ready = xcalloc(boots, sizeof(*ready)), *wall = xcalloc(boots, sizeof(*wall));
	struct plan *plan = plan_new();
	struct runner_guest rg;
	struct summary r, w;
	int ret = -1;
	long i;

	plan_file(plan, PLAN_INFO, SB_PATH_INFO);
	if (runner_guest_open(&rg, variant, vm))
		goto out_free;
	/* --timeout always holds a value here: the command's default is one. */
	if (runner_guest_stage(&rg, plan, false, vm->cpus_list.v[0], vm->timeout))
		goto out;
	for (i = 0; i < boots; i++) {
		char *what = xasprintf("bench %s: boot %ld", variant, i + 1);
		struct vm_outcome o;
		int bad;

		progress("bench %s: boot %ld/%ld", variant, i + 1, boots);
		if (vm_boot(&rg.stage.vm, &o)) {
			free(what);
			goto out;
		}
		bad = runner_verdict(what, &o, o.ready_s < 0 ? "the agent never became ready" : NULL);
		free(what);
		if (bad) {
			vm_outcome_free(&o);
			goto out;
		}
		ready[i] = o.ready_s;
		wall[i] = o.wall_s;
		if (i == 0)
			printf("%-10s accel %s, %ld vCPUs, %s\n", variant, o.accel, rg.stage.vm.cpus,
			       rg.g.release);
		vm_outcome_free(&o);
	}
	progress_done();
	summarize(ready, boots, &r);
	summarize(wall, boots, &w);
	printf("%-10s boot to agent ready: median %.2f s, min %.2f s, max %.2f s (%ld boots); "
	       "whole boot %.2f s median\n", variant, r.median, r.min, r.max, boots, w.median);
	if (rg.g.build_seconds >= 0)
		printf("%-10s cold kernel build: %.0f s (make -j%ld)\n", variant, rg.g.build_seconds,
		       getenv("SLABBENCH_JOBS") ? atol(getenv("SLABBENCH_JOBS")) :
						  sysconf(_SC_NPROCESSORS_ONLN));
	else
		printf("%-10s cold kernel build: not recorded (built before build times were kept)\n",
		       variant);
	ret = 0;
out:
	runner_guest_close(&rg);
out_free:
	plan_free(plan);
	free(ready);
	free(wall);
	return ret;
}

/*
 * One "run --workload=quick" of @variant under @accel with the extra
 * kernel parameters @cmdline (may be NULL), as a user runs it, into
 * runs/spread-VARIANT-ACCEL-TAG.json; its results, *wall its seconds.
 */
static cJSON *quick_run(const char *variant, const char *accel, const char *cmdline,
			const char *tag, double *wall)
{
	char *out = xasprintf("%s/runs/spread-%s-%s%s.json", slabbench_cache(), variant, accel, tag);
	const struct runner_opts o = {
		.allocs = variant, .workload = "quick", .output = out, .boots = 1,
		.quiet = true,
		.vm = { .accel = accel, .numa = 1, .cmdline = cmdline },
	};
	double start = monotonic_seconds();
	cJSON *doc = NULL;

	if (runner_run(&o))
		error("bench --spread: run --alloc=%s --accel=%s%s%s failed", variant, accel,
		      cmdline ? " --cmdline=" : "", cmdline ? cmdline : "");
	else
		doc = results_load(out);
	*wall = monotonic_seconds() - start;
	free(out);
	return doc;
}

/*
 * The spread of one boot's repeats, not the A/A floor across boots that
 * "slabbench noise" measures.
 */
static int spread_variant(const char *variant, const char *accel)
{
	double wall;
	cJSON *doc = quick_run(variant, accel, NULL, "", &wall);

	if (!doc)
		return -1;
	printf("%-10s %-6s run --workload=quick %5.1f s; fast path ns/op CoV over its repeats:",
	       variant, accel, wall);
	for (int i = 0; i < run_nr_tests(doc); i++) {
		const cJSON *t = run_test(doc, i);
		double cov = metric_cov(test_metric(t, "ns_per_op"));

		if (!isnan(cov))
			printf(" %s %.2f%%", test_param_str(t, "api"), 100 * cov);
	}
	printf(" (goal <= %s)\n", strcmp(accel, "icount") ? "2%" : "0.5%");
	cJSON_Delete(doc);
	return 0;
}

/*
 * The module's known slowdown as time: what SLOWDOWN_NS of spins a pair
 * took under TCG. The tests hold the spins to their calibration only
 * (tests/e2e/runner.sh); a guest's nanosecond under TCG is the host's, so
 * whether the time came out near SLOWDOWN_NS says how busy the host was.
 */
#define SLOWDOWN_NS 5000

static int slowdown_variant(const char *variant)
{
	char cmdline[64];
	double wall;
	cJSON *doc;

	snprintf(cmdline, sizeof(cmdline), "slabbench.extra_ns=%d", SLOWDOWN_NS);
	doc = quick_run(variant, "tcg", cmdline, "-extra", &wall);
	if (!doc)
		return -1;
	printf("%-10s tcg    %s: fast path ns/op (emulated TCG time):", variant, cmdline);
	for (int i = 0; i < run_nr_tests(doc); i++) {
		const cJSON *t = run_test(doc, i);
		const cJSON *m = test_metric(t, "ns_per_op");
		struct summary s;

		if (!m || isnan(test_extra_num(t, "extra_loops", 0)))
			continue;
		metric_summarize(m, &s);
		printf(" %s min %.0f, median %.0f (%.0f spins a pair of %.0f ps)",
		       test_param_str(t, "api"), s.min, s.median,
		       test_extra_num(t, "extra_loops", 0), test_extra_num(t, "spin_ps", 0));
	}
	printf("\n");
	cJSON_Delete(doc);
	return 0;
}

/*
 * The patch author's loop (scripts/edit-loop.sh, which has the recipe):
 * a one-line change to a series touching mm/slub.c, timed from the edit
 * to compare's verdict, with this program driving it.
 */
static int edit_loop(void)
{
	char *script = xasprintf("%s/scripts/edit-loop.sh", slabbench_home());
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int status;

	if (n < 0) {
		free(script);
		return error("bench --edit-loop: cannot find this program: %m"), -1;
	}
	self[n] = '\0';
	status = run_wait((char *[]){ "bash", script, self, NULL });
	free(script);
	return status ? -1 : 0;
}

int cmd_bench(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "bench", .args = "[VARIANT...]", .max_args = -1,
		.about = "Boots each variant N times with nothing to run and prints the median,\n"
			 "min and max time from QEMU's start to the guest agent's ready signal,\n"
			 "and the kernel's cold build time (building it first if it is missing).\n"
			 "Default variants: slab slub slob slub-6.12. The goal is a median of at\n"
			 "most 0.8 s under TCG with 2 vCPUs.\n"
			 "\n"
			 "--spread runs 'slabbench run --workload=quick' on each variant under\n"
			 "tcg and under icount and prints its wall time and the coefficient of\n"
			 "variation of the fast path's ns/op over its 5 repeats (goals: 2% under\n"
			 "TCG, 0.5% under icount). That is the spread within one boot; the noise\n"
			 "floor across boots that compare uses is 'slabbench noise'. It then runs\n"
			 "the same under TCG with the module's known slowdown, extra_ns=5000, and\n"
			 "prints the fast path's ns/op beside the spins a pair the module ran: the\n"
			 "slowdown as time, which the tests judge by the spins alone.\n"
			 "\n"
			 "--edit-loop times the patch author's loop: a series of one patch to\n"
			 "mm/slub.c (6.1) built, one line of it changed, then the rebuild (with\n"
			 "ccache's hits), 'run --accel=cost' of slub and the series, 3 boots a\n"
			 "side, and 'compare': the edit-to-verdict time beside the cold build.\n",
	};
	struct vm_opts vm = { .accel = "tcg", .numa = 1, .timeout = 120 };
	long boots = 5;
	bool spread = false, loop = false;
	struct opt opts[] = {
		OPT_INTEGER("boots", &boots, "N", 1, 100, NULL, "boots per variant"),
		OPT_VM(&vm, 1),
		OPT_BOOLEAN(0, "spread", &spread, "time and spread of the quick workload instead"),
		OPT_BOOLEAN(0, "edit-loop", &loop, "time a one-line edit of mm/slub.c to a verdict"),
		OPT_END(),
	};
	int first = options_parse(&usage, opts, argc, argv), n, failed = 0;
	char **variants;

	if (first < 0 || vm_opts_resolve("bench", &vm))
		return 2;
	if (loop)
		return first != argc ? error("bench --edit-loop: takes no variants"), 2 :
				       edit_loop() ? 1 : 0;
	n = runner_variants("bench", argc - first, argv + first, &variants);
	if (n < 0)
		return 2;
	for (int i = 0; i < n; i++) {
		if (spread)
			failed |= spread_variant(variants[i], "tcg") ||
				  spread_variant(variants[i], "icount") ||
				  slowdown_variant(variants[i]);
		else
			failed |= bench_variant(variants[i], boots, &vm) != 0;
	}
	return failed;
}
