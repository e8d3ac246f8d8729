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
#include "options.h"
#include "plan.h"
#include "runner.h"
#include "util.h"

#include <linux/slabbench.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The run during which unloading is tried lasts about a second under TCG
 * (a pair takes about 230 ns there), more on a debug kernel: the agent
 * waits for it to start and tries again when a busy host held its vCPU
 * past the run (vm/agent/reload.c). A fixed fuzz seed: a failing spec
 * comes back on every run.
 */
static struct plan *selftest_plan(long fuzz)
{
	struct plan *p = plan_new();

	plan_file(p, PLAN_KTAP, SB_PATH_SELFTEST);
	plan_reload(p, 20, "test=fastpath iters=4000000 repeats=1");
	plan_fuzz(p, fuzz, 1);
	plan_write(p, "/sys/kernel/debug/kmemleak", "scan");
	plan_file(p, PLAN_KMEMLEAK, "/sys/kernel/debug/kmemleak");
	return p;
}

/* The tally of one guest's KTAP documents. */
struct tally {
	int ok, failed, parts;
};

/* Prints a KTAP document and counts its "ok" and "not ok" lines. */
static int on_ktap(const struct frame *f, void *ctx)
{
	struct tally *t = ctx;
	const char *line = f->data, *end = f->data + f->len;

	fwrite(f->data, 1, f->len, stdout);
	while (line < end) {
		if (!strncmp(line, "ok ", 3))
			t->ok++;
		else if (!strncmp(line, "not ok ", 7))
			t->failed++;
		line = memchr(line, '\n', end - line);
		if (!line)
			break;
		line++;
	}
	t->parts++;
	return 0;
}

/* What a scan after everything else found; kernels without kmemleak skip. */
static int on_kmemleak(const struct frame *f, void *ctx)
{
	struct tally *t = ctx;
	bool missing = !strcmp(f->kind, SB_FRAME_MISSING), clean = missing || f->len == 0;

	printf("%sok 1 kmemleak reports nothing%s\n", clean ? "" : "not ",
	       missing ? " # SKIP no kmemleak" : "");
	if (!clean)
		fwrite(f->data, 1, f->len > 4096 ? 4096 : f->len, stdout);
	t->ok += clean;
	t->failed += !clean;
	return 0;
}

/* The KTAP documents of the plan, as the agent names its frames. */
static const struct frame_route selftest_routes[] = {
	{ SB_FRAME_FILE, PLAN_KMEMLEAK, on_kmemleak },
	{ SB_FRAME_MISSING, PLAN_KMEMLEAK, on_kmemleak },
	{ SB_FRAME_FILE, PLAN_KTAP, on_ktap },
	{ SB_FRAME_FILE, SB_NAME_RELOAD, on_ktap },
	{ SB_FRAME_FILE, SB_NAME_FUZZ, on_ktap },
	{ 0 },
};
#define KTAP_PARTS 3

static int selftest_variant(const char *variant, const struct vm_opts *vm,
			    const struct plan *plan)
{
	struct vm_outcome o = { 0 };
	struct runner_guest rg;
	struct tally t = { 0 };
	char *what = NULL, *why = NULL;
	size_t pos = 0;
	int ret = -1;

	if (runner_guest_open(&rg, variant, vm))
		return -1;
	/* Nothing here is timed: TCG on one thread, safe with kprobes. */
	/* --timeout always holds a value here: the command's default is one. */
	if (runner_guest_stage(&rg, plan, false, vm->cpus_list.v[0], vm->timeout))
		goto out;
	rg.stage.vm.single_thread = true;
	if (vm_boot(&rg.stage.vm, &o))
		goto out;
	printf("# %s: %s, accel %s\n", variant, rg.g.release, o.accel);
	frames_route(o.channel, o.channel_len, &pos, selftest_routes, &t);
	if (t.parts != KTAP_PARTS)
		why = xasprintf("%d of %d KTAP documents came back (%s)", t.parts, KTAP_PARTS,
				vm_status_name(o.status));
	what = xasprintf("selftest %s", variant);
	if (!runner_verdict(what, &o, why))
		ret = t.failed ? -1 : 0;
	printf("# %s: %d ok, %d not ok%s\n", variant, t.ok, t.failed,
	       ret && !t.failed ? ", guest failed" : "");
out:
	free(what);
	free(why);
	vm_outcome_free(&o);
	runner_guest_close(&rg);
	return ret;
}

int cmd_selftest(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "selftest", .args = "[VARIANT...]", .max_args = -1,
		.about = "Boots each variant (default: slab slub slob slub-6.12) and prints, as\n"
			 "KTAP, the module's self-test (every test once with small parameters:\n"
			 "it completes, its figures are in range, slab memory returns to its\n"
			 "baseline), the agent's unload test (refused during a run, then 20\n"
			 "unload and load cycles, slab memory back to its baseline) and its fuzz\n"
			 "test (--fuzz generated specs, mostly broken: each answered with a JSON\n"
			 "result or a refusal with its reason, the answer the spec decides where\n"
			 "it does; hostile specs refused; the module answering afterwards).\n"
			 "On kernels with kmemleak (the debug variants) a scan after all that\n"
			 "must report nothing. Exits 1 if any case fails or the console shows an\n"
			 "oops, WARN or lockup. Debug kernels under TCG need a longer --timeout;\n"
			 "the remote test needs --cpus of 2 or more.\n",
	};
	/* 1 GB: debug kernels need it. */
	struct vm_opts vm = { .accel = "auto", .numa = 1, .mem = 1024, .timeout = 600 };
	long fuzz = 10000;
	struct opt opts[] = {
		OPT_VM(&vm, 1),
		OPT_INTEGER("fuzz", &fuzz, "N", 1, 1000000, "specs", "generated specs to try"),
		OPT_END(),
	};
	int first = options_parse(&usage, opts, argc, argv), n, failed = 0;
	struct plan *plan;
	char **variants;

	if (first < 0)
		return 2;
	if (vm.cpus_list.n && vm.cpus_list.v[0] == 1)
		return error("selftest: --cpus=1: expected 2 to 64 (the remote test needs two)"), 2;
	if (vm_opts_resolve("selftest", &vm))
		return 2;
	n = runner_variants("selftest", argc - first, argv + first, &variants);
	if (n < 0)
		return 2;
	plan = selftest_plan(fuzz);
	for (int i = 0; i < n; i++)
		failed |= selftest_variant(variants[i], &vm, plan) != 0;
	plan_free(plan);
	return failed;
}
