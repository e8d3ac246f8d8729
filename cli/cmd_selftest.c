// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench selftest: the module's own tests, in each guest. The module
 * runs every test of its table once, small, and checks its figures and
 * the slab memory afterwards (debugfs slabbench/selftest, KTAP); the agent
 * then tries to unload the module during a run and reloads it 20 times.
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
	"usage: slabbench selftest [--accel=ACCEL] [--cpus=N] [VARIANT...]\n"
	"\n"
	"Boots each variant (default: slab slub slob slub-6.12) and prints, as\n"
	"KTAP, the module's self-test (every test once with small parameters:\n"
	"it completes, its figures are in range, slab memory returns to its\n"
	"baseline) and the agent's unload test (refused during a run, then 20\n"
	"unload and load cycles, slab memory back to its baseline). Exits 1 if\n"
	"any case fails or the console shows an oops, WARN or lockup.\n";

/*
 * The run during which unloading is tried lasts seconds under TCG and
 * still a fraction of one under KVM.
 */
static const char plan[] =
	"file ktap /sys/kernel/debug/slabbench/selftest\n"
	"reload 20 test=fastpath iters=10000000 repeats=1\n";

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

static int selftest_variant(const char *variant, const char *accel, long cpus)
{
	int ok = 0, failed = 0, parts = 0, ret = -1;
	struct vm_outcome o = { 0 };
	struct guest g;
	struct frame f;
	size_t pos = 0;

	if (guest_prepare(variant, &g))
		return -1;
	if (guest_boot(&g, plan, accel, cpus, 600, &o))
		goto out;
	printf("# %s: %s, accel %s\n", variant, g.release, o.accel);
	while (frame_next(o.channel, o.channel_len, &pos, &f) == 1)
		if (!strcmp(f.kind, "file") &&
		    (!strcmp(f.name, "ktap") || !strcmp(f.name, "reload"))) {
			tally(f.data, f.len, &ok, &failed);
			parts++;
		}
	if (o.status != VM_OK || parts != 2) {
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char *defaults[] = { "slab", "slub", "slob", "slub-6.12" };
	const char *accel = "auto";
	long cpus = 0;
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
	for (int i = 0; i < n; i++)
		failed |= selftest_variant(variants[i], accel, cpus) != 0;
	return failed;
}
