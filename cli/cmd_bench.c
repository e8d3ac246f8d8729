// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench bench: how fast the harness itself is. Boots each variant
 * several times with an empty plan and reports the time from QEMU's start
 * to the guest agent's ready frame, and each kernel's cold build time.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "guest.h"
#include "results.h"
#include "schema.h"
#include "stats.h"
#include "util.h"
#include "vm.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char bench_usage[] =
	"usage: slabbench bench [--boots=N] [--accel=ACCEL] [--cpus=N] [VARIANT...]\n"
	"       slabbench bench --noise [VARIANT...]\n"
	"\n"
	"Boots each variant N times (default 5) with nothing to run and prints\n"
	"the median, min and max time from QEMU's start to the guest agent's\n"
	"ready signal, and the kernel's cold build time (building it first if\n"
	"it is missing). Default variants: slab slub slob slub-6.12. The goal\n"
	"is a median of at most 1.5 s under TCG with 2 vCPUs.\n"
	"\n"
	"--noise runs 'slabbench run --workload=quick' on each variant under\n"
	"tcg and under icount and prints its wall time and the coefficient of\n"
	"variation of the fast path's ns/op over its 5 repeats (goals: 2% under\n"
	"TCG, 0.5% under icount).\n";

static int bench_variant(const char *variant, long boots, const char *accel,
			 long cpus)
{
	static const char plan[] = "file info /sys/kernel/debug/slabbench/info\n";
	double *ready = xcalloc(boots, sizeof(*ready)), *wall = xcalloc(boots, sizeof(*wall));
	char *initrd = NULL, *rundir = NULL;
	struct summary r, w;
	struct guest g;
	int ret = -1;
	long i;

	if (guest_prepare(variant, &g))
		goto out_free;
	rundir = guest_rundir(variant);
	if (!rundir)
		goto out;
	if (guest_initrd(&g, plan, rundir, false, &initrd))
		goto out;
	for (i = 0; i < boots; i++) {
		struct vm_config c = {
			.label = variant, .kernel = g.bzimage, .initrd = initrd,
			.dir = rundir, .accel = accel, .cpus = cpus, .mem_mb = 512,
			.timeout_s = 120, .expected_results = 0, .cmdline = g.cmdline,
		};
		struct vm_outcome o;

		progress("bench %s: boot %ld/%ld", variant, i + 1, boots);
		if (vm_boot(&c, &o))
			goto out;
		if (o.status != VM_OK || o.ready_s < 0) {
			error("bench %s: boot %ld: %s", variant, i + 1, vm_status_name(o.status));
			print_console_tail(o.console_path, 20);
			vm_outcome_free(&o);
			goto out;
		}
		ready[i] = o.ready_s;
		wall[i] = o.wall_s;
		if (i == 0)
			printf("%-10s accel %s, %ld vCPUs, %s\n", variant, o.accel, cpus, g.release);
		vm_outcome_free(&o);
	}
	progress_done();
	summarize(ready, boots, &r);
	summarize(wall, boots, &w);
	printf("%-10s boot to agent ready: median %.2f s, min %.2f s, max %.2f s (%ld boots); "
	       "whole boot %.2f s median\n", variant, r.median, r.min, r.max, boots, w.median);
	if (g.build_seconds >= 0)
		printf("%-10s cold kernel build: %.0f s (make -j%ld)\n", variant, g.build_seconds,
		       getenv("SLABBENCH_JOBS") ? atol(getenv("SLABBENCH_JOBS")) :
						  sysconf(_SC_NPROCESSORS_ONLN));
	else
		printf("%-10s cold kernel build: not recorded (built before build times were kept)\n",
		       variant);
	ret = 0;
out:
	guest_free(&g);
out_free:
	guest_initrd_free(initrd);
	free(rundir);
	free(ready);
	free(wall);
	return ret;
}

/* One "run --workload=quick" of @variant under @accel, as a user runs it. */
static int noise_variant(const char *variant, const char *accel)
{
	char *out = xasprintf("%s/runs/noise-%s-%s.json", slabbench_cache(), variant, accel);
	char *alloc = xasprintf("--alloc=%s", variant), *acc = xasprintf("--accel=%s", accel);
	char *argv[] = { "/proc/self/exe", "run", alloc, acc, "--workload=quick", "-o", out, NULL };
	char *stdout_text = NULL;
	double start = monotonic_seconds(), wall;
	cJSON *doc = NULL;
	int ret = -1;

	if (run_capture(argv, &stdout_text, NULL)) {
		error("bench --noise: run --alloc=%s --accel=%s failed", variant, accel);
		goto out;
	}
	wall = monotonic_seconds() - start;
	doc = results_load(out);
	if (!doc)
		goto out;
	printf("%-10s %-6s run --workload=quick %5.1f s; fast path ns/op CoV over its repeats:",
	       variant, accel, wall);
	for (int i = 0; i < run_nr_tests(doc); i++) {
		const cJSON *t = run_test(doc, i);
		double cov = metric_cov(test_metric(t, "ns_per_op"));

		if (!isnan(cov))
			printf(" %s %.2f%%", test_param_str(t, "api"), 100 * cov);
	}
	printf(" (goal <= %s)\n", strcmp(accel, "icount") ? "2%" : "0.5%");
	ret = 0;
out:
	cJSON_Delete(doc);
	free(stdout_text);
	free(out);
	free(alloc);
	free(acc);
	return ret;
}

int cmd_bench(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "boots", required_argument, NULL, 'b' },
		{ "accel", required_argument, NULL, 'a' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "noise", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char *defaults[] = { "slab", "slub", "slob", "slub-6.12" };
	const char *accel = "tcg";
	long boots = 5, cpus = 0;
	char **variants;
	int c, n, failed = 0;
	bool noise = false;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (parse_long(optarg, 1, 100, &boots))
				return error("bench: --boots=%s: expected 1 to 100", optarg), 2;
			break;
		case 'a':
			if (!accel_valid(optarg))
				return error("bench: --accel=%s: expected auto, kvm, tcg or icount", optarg), 2;
			accel = optarg;
			break;
		case 'c':
			if (parse_long(optarg, 1, 64, &cpus))
				return error("bench: --cpus=%s: expected 1 to 64", optarg), 2;
			break;
		case 'n':
			noise = true;
			break;
		case 'h':
			fputs(bench_usage, stdout);
			return 0;
		default:
			return error("bench: %s: unknown option or missing value", argv[optind - 1]), 2;
		}
	}
	if (vm_cpus_for_accel(accel, &cpus))
		return 2;
	variants = optind < argc ? argv + optind : defaults;
	n = optind < argc ? argc - optind : (int)ARRAY_SIZE(defaults);
	if (variants_check("bench", variants, n))
		return 2;
	for (int i = 0; i < n; i++) {
		if (noise)
			failed |= noise_variant(variants[i], "tcg") || noise_variant(variants[i], "icount");
		else
			failed |= bench_variant(variants[i], boots, accel, cpus) != 0;
	}
	return failed;
}
