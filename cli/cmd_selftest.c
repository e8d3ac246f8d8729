// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench selftest: the module's own tests, in each guest. The module
 * runs every test of its table once, small, and checks its figures and
 * the slab memory afterwards (debugfs slabbench/selftest, KTAP); the agent
 * then tries to unload the module during a run, reloads it 20 times and
 * fuzzes its run file.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "frames.h"
#include "guest.h"
#include "util.h"
#include "vm.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char selftest_usage[] =
	"usage: slabbench selftest [--accel=ACCEL] [--cpus=N] [--timeout=S]\n"
	"                          [--fuzz=N] [VARIANT...]\n"
	"\n"
	"Boots each variant (default: slab slub slob slub-6.12) and prints, as\n"
	"KTAP, the module's self-test (every test once with small parameters:\n"
	"it completes, its figures are in range, slab memory returns to its\n"
	"baseline), the agent's unload test (refused during a run, then 20\n"
	"unload and load cycles, slab memory back to its baseline) and its fuzz\n"
	"test (--fuzz generated specs, 10000 by default, mostly broken: each\n"
	"answered with a JSON result or a refusal with its reason, the answer\n"
	"the spec decides where it does; hostile specs refused; the module\n"
	"answering afterwards).\n"
	"On kernels with kmemleak (the debug variants) a scan after all that\n"
	"must report nothing. Exits 1 if any case fails or the console shows an\n"
	"oops, WARN or lockup. --timeout bounds each boot (default 600 s;\n"
	"debug kernels under TCG need more).\n";

/*
 * The run during which unloading is tried lasts a fifth of a second under
 * TCG, seconds on a debug kernel: the agent waits for it to start. A
 * fixed fuzz seed: a failing spec comes back on every run.
 */
static const char plan_format[] =
	"file ktap /sys/kernel/debug/slabbench/selftest\n"
	"reload 20 test=fastpath iters=100000 repeats=1\n"
	"fuzz %ld 1\n"
	"write /sys/kernel/debug/kmemleak scan\n"
	"file kmemleak /sys/kernel/debug/kmemleak\n";

/* The KTAP documents of the plan, as the agent names its frames. */
static const char * const parts_expected[] = { "ktap", "reload", "fuzz" };

/* Prints @text and counts its "ok" and "not ok" lines. */
static void tally(const char *text, size_t len, int *ok, int *failed)
{
	const char *line = text, *end = text + len;

	fwrite(text, 1, len, stdout);
	while (line < end) {
		if (!strncmp(line, "ok ", 3))
			(*ok)++;
		else if (!strncmp(line, "not ok ", 7))
			(*failed)++;
		line = memchr(line, '\n', end - line);
		if (!line)
			break;
		line++;
	}
}

static int selftest_variant(const char *variant, const char *accel, long cpus,
			    long timeout, const char *plan)
{
	int ok = 0, failed = 0, parts = 0, ret = -1;
	struct vm_outcome o = { 0 };
	struct guest g;
	struct frame f;
	size_t pos = 0;

	if (guest_prepare(variant, &g))
		return -1;
	/* Nothing here is timed: TCG on one thread, safe with kprobes. */
	if (guest_boot(&g, plan, accel, cpus, true, timeout, &o))
		goto out;
	printf("# %s: %s, accel %s\n", variant, g.release, o.accel);
	while (frame_next(o.channel, o.channel_len, &pos, &f) == 1) {
		/* What a scan after everything else found; kernels without it skip. */
		if (!strcmp(f.name, "kmemleak") && (!strcmp(f.kind, "file") ||
						     !strcmp(f.kind, "missing"))) {
			bool clean = !strcmp(f.kind, "missing") || f.len == 0;

			printf("%sok 1 kmemleak reports nothing%s\n", clean ? "" : "not ",
			       strcmp(f.kind, "missing") ? "" : " # SKIP no kmemleak");
			if (!clean)
				fwrite(f.data, 1, f.len > 4096 ? 4096 : f.len, stdout);
			ok += clean;
			failed += !clean;
			continue;
		}
		if (strcmp(f.kind, "file"))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(parts_expected); i++) {
			if (!strcmp(f.name, parts_expected[i])) {
				tally(f.data, f.len, &ok, &failed);
				parts++;
			}
		}
	}
	if (o.status != VM_OK || parts != (int)ARRAY_SIZE(parts_expected)) {
		error("selftest %s: the guest did not finish (%s)", variant,
		      vm_status_name(o.status));
		print_console_tail(o.console_path, 20);
	} else if (o.console_problem) {
		error("selftest %s: console: %s", variant, o.console_problem);
	} else {
		ret = failed ? -1 : 0;
	}
	printf("# %s: %d ok, %d not ok%s\n", variant, ok, failed,
	       ret && !failed ? ", guest failed" : "");
out:
	vm_outcome_free(&o);
	guest_free(&g);
	return ret;
}

int cmd_selftest(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "accel", required_argument, NULL, 'a' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "fuzz", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char *defaults[] = { "slab", "slub", "slob", "slub-6.12" };
	const char *accel = "auto";
	long cpus = 0, timeout = 600, fuzz = 10000;
	char *plan;
	char **variants;
	int c, n, failed = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (!accel_valid(optarg))
				return error("selftest: --accel=%s: expected auto, kvm, tcg or icount", optarg), 2;
			accel = optarg;
			break;
		case 'c':
			if (parse_long(optarg, 2, 64, &cpus))
				return error("selftest: --cpus=%s: expected 2 to 64 (remote needs two)", optarg), 2;
			break;
		case 't':
			if (parse_long(optarg, 1, 86400, &timeout))
				return error("selftest: --timeout=%s: expected 1 to 86400 (s)", optarg), 2;
			break;
		case 'f':
			if (parse_long(optarg, 1, 1000000, &fuzz))
				return error("selftest: --fuzz=%s: expected 1 to 1000000 (specs)", optarg), 2;
			break;
		case 'h':
			fputs(selftest_usage, stdout);
			return 0;
		default:
			return error("selftest: %s: unknown option or missing value", argv[optind - 1]), 2;
		}
	}
	if (vm_cpus_for_accel(accel, &cpus))
		return 2;
	variants = optind < argc ? argv + optind : defaults;
	n = optind < argc ? argc - optind : (int)ARRAY_SIZE(defaults);
	if (variants_check("selftest", variants, n))
		return 2;
	plan = xasprintf(plan_format, fuzz);
	for (int i = 0; i < n; i++)
		failed |= selftest_variant(variants[i], accel, cpus, timeout, plan) != 0;
	free(plan);
	return failed;
}
