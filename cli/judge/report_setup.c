// SPDX-License-Identifier: GPL-2.0
/*
 * How the report's runs ran: the guests, clock and boots (Setup), both
 * kernels, their generations and how their configs differ (Kernels), and
 * the commands that reproduce them.
 */
#define _GNU_SOURCE
#include "report_sections.h"
#include "generation.h"
#include "guestopts.h"
#include "json.h"
#include "util.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* "  name       value", continuation lines under the value. */
static void field(struct strbuf *b, const char *name, const char *value)
{
	struct strbuf w = { 0 };

	sb_wrap(&w, 13, 13, REPORT_WIDTH, *value ? value : "-");
	sb_addf(b, "  %-10s %s", name, w.s + 13);
	free(w.s);
}

/*
 * The options that change an alloc+free's cost or what the caches hold
 * (runner.c's list), per side, or once when both sides agree: a small
 * kernel has none of a distribution's hardening, and a reader must see it.
 */
static void slab_options(struct strbuf *b, const cJSON *const *docs)
{
	struct strbuf line[2] = { { 0 }, { 0 } };
	const cJSON *o;

	for (int r = 0; r < 2; r++) {
		cJSON_ArrayForEach(o, run_slab_options(docs[r]))
			if (cJSON_IsString(o))
				sb_addf(&line[r], "%s%s=%s", line[r].len ? " " : "", o->string,
					o->valuestring);
	}
	if (line[0].len && line[1].len && !strcmp(line[0].s, line[1].s))
		field(b, "options", line[0].s);
	else
		for (int r = 0; r < 2; r++)
			if (line[r].len)
				field(b, r ? "new option" : "options", line[r].s);
	free(line[0].s);
	free(line[1].s);
}

/* "tcg" -> what a reader must know of the clock behind the times. */
static const char *clock_kind(const struct run_id *run)
{
	if (!strcmp(run->accel, "kvm"))
		return "hardware (KVM): times are the host CPU's";
	if (!strcmp(run->accel, "icount"))
		return "emulation (TCG, icount): guest time counts instructions";
	if (!strcmp(run->accel, "cost"))
		return "emulation (TCG, icount, the cost model's plugin): guest time counts "
		       "instructions";
	return "emulation (TCG): times are emulated";
}

/*
 * What ran in each guest before its after-boot snapshot, and QEMU's CPU
 * model (it sizes task_struct): both change the after-boot figures.
 * Results from before either was recorded show neither.
 */
static void guest_userspace(struct strbuf *b, const struct comparison *c,
			    const cJSON *const *docs)
{
	struct boot_userspace us[2];
	bool ran[2];
	const char *model[2];
	char *v[2];

	for (int r = 0; r < 2; r++) {
		ran[r] = boot_userspace(docs[r], 0, &us[r]);
		model[r] = c->runs[r].cpu_model;
	}
	if (!strcmp(model[0], "?") && !strcmp(model[1], "?") && !ran[0] && !ran[1])
		return;
	for (int r = 0; r < 2; r++) {
		double idle = run_after_boot_s(docs[r]);
		char wait[48] = "";

		if (idle > 0)
			snprintf(wait, sizeof(wait), ", then %.0f s idle", idle);
		v[r] = ran[r] ? xasprintf("QEMU -cpu %s; before the after-boot snapshot, %d busybox "
					  "commands (fork, exec) pinned to each of %.0f of %.0f vCPUs "
					  "in turn%s", model[r], us[r].commands, us[r].cpus_ran,
					  us[r].cpus_online, wait) :
				xasprintf("QEMU -cpu %s; no user space before the after-boot snapshot "
					  "(the agent alone, on one CPU)%s", model[r], wait);
	}
	field(b, "boot", v[0]);
	if (strcmp(v[0], v[1]))
		field(b, "new boot", v[1]);
	free(v[0]);
	free(v[1]);
}

/* Whether @cmdline holds the kernel parameter @param, as a word of its own. */
static bool has_param(const char *cmdline, const char *param)
{
	size_t n = strlen(param);

	for (const char *p = strstr(cmdline, param); p; p = strstr(p + 1, param))
		if ((p == cmdline || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* A run on SLAB whose guest had no soft-lockup watchdog to wake its idle CPUs. */
static bool reaper_held(const struct comparison *c)
{
	for (int r = 0; r < 2; r++)
		if (!strcmp(c->runs[r].allocator, "SLAB") && has_param(c->runs[r].cmdline, "nowatchdog"))
			return true;
	return false;
}

/*
 * The cost model's counts with windows rejected (the scheduler entered
 * them: the plugin counts whatever ran while the task was switched out,
 * and schedule() itself where it picked the task again),
 * and those absent because every window was; nothing when none was.
 */
static void rejected_counts(struct strbuf *b, const struct comparison *c)
{
	int some = 0, absent = 0, n;
	char *v;

	for (int i = 0; i < c->nr_rows; i++) {
		const struct cmp_row *row = &c->rows[i];

		some += row->rejected || row->cells[0].rejected;
		absent += row->cells[0].absent != NULL;
	}
	n = some + absent;
	if (!n)
		return;
	v = xasprintf("windows of the cost model that the scheduler entered (the plugin "
		      "would have counted whatever ran while the benchmark's task was "
		      "switched out, or the scheduler in it), in %d count%s: the windows "
		      "kept are exact counts; slabbench compare says how many were "
		      "rejected of each.%s", n,
		      n == 1 ? "" : "s", absent ? " Where every window was rejected, the count "
		      "is absent (see the warnings), not 0." : "");
	field(b, "rejected", v);
	free(v);
}

void report_setup(struct strbuf *b, const struct comparison *c, const cJSON *const *docs)
{
	char *v;

	sb_addf(b, "\nSetup\n");
	for (int r = 0; r < 2; r++) {
		const struct run_id *run = &c->runs[r];
		char nodes[32] = "";

		if (run->numa_nodes > 1)
			snprintf(nodes, sizeof(nodes), " on %.0f NUMA nodes", run->numa_nodes);
		else if (run->possible_cpus > run->cpus)
			snprintf(nodes, sizeof(nodes), " (%.0f possible)", run->possible_cpus);
		v = xasprintf("%.0f vCPUs%s, %.0f MB, accelerator %s%s%s%s", run->cpus, nodes,
			      run->mem_mb, run->accel,
			      !strcmp(run->tcg_thread, "single") ? " on one host thread" : "",
			      *run->cmdline ? ", kernel parameters " : "", run->cmdline);
		field(b, r ? "new guest" : "base guest", v);
		free(v);
	}
	guest_userspace(b, c, docs);
	field(b, "clock", clock_kind(&c->runs[0]));
	v = xasprintf("%d base, %d new, interleaved (A B A B); each boot is summarised by the "
		      "median of its repeats and times are tested across boots", c->boots[0],
		      c->boots[1]);
	field(b, "boots", v);
	free(v);
	field(b, "floor", c->floor_note ? c->floor_note : "not consulted");
	for (int r = 0; r < 2; r++) {
		const char *base = c->runs[r].config_base, *preempt = c->runs[r].preempt;
		const char *family = c->runs[r].config_family;

		v = !strcmp(base, "?") ? xstrdup("not recorded in these results") :
		    strcmp(family, "?") ? xasprintf("%s config: %s, %s", family, base, preempt) :
		    xasprintf("%s, %s", base, preempt);
		if (r == 0 || strcmp(v, "not recorded in these results"))
			field(b, r ? "new config" : "config", v);
		free(v);
		if (r == 0 && !strcmp(base, c->runs[1].config_base) &&
		    !strcmp(preempt, c->runs[1].preempt))
			break;
	}
	slab_options(b, docs);
	for (int r = 0; r < 2; r++) {
		const char *geometry = c->runs[r].cost_geometry;

		/* The new guest's only when it differs from the base's. */
		if (!strcmp(geometry, "?") || (r && !strcmp(geometry, c->runs[0].cost_geometry)))
			continue;
		v = xasprintf("%sa TCG plugin (docs/cost-model.md). Instructions, loads, "
			      "stores, locked and irq-flag instructions per op are exact "
			      "counts, the same on every run; cache misses per op are a "
			      "model's (LRU caches %s, no prefetchers), not measured.",
			      r ? "new guest: " : "", geometry);
		field(b, "cost model", v);
		free(v);
	}
	rejected_counts(b, c);
	field(b, "QEMU", c->runs[0].qemu);
	field(b, "host CPU", c->runs[0].host_cpu);
	if (c->runs[0].emulated || c->runs[1].emulated)
		field(b, "WARNING", "Times were emulated. Under TCG every guest instruction "
		      "is translated and run by QEMU on the host, and the guest's clock is "
		      "the host's: a time is how fast the host emulated that code, on a "
		      "host shared with whatever else ran. It is not the time on hardware, "
		      "and neither is a ratio of two such times: there is no cache or TLB "
		      "model, translated blocks cost what they cost on the host, and "
		      "remote or parallel tests measure host scheduling. The times are "
		      "marked 'emulated' below. Counts (hit rates, objects, pages) are "
		      "exact under any accelerator; run under KVM for times that mean "
		      "hardware.");
	if (reaper_held(c))
		field(b, "WARNING", "nowatchdog on a SLAB guest: SLAB's reaper, which drains "
		      "its per-CPU arrays every 2 s and frees its free slabs, is a "
		      "deferrable timer, and without the soft-lockup watchdog's 4 s tick an "
		      "idle CPU sleeps through it. SLAB then holds more after an idle "
		      "period than with the kernel's default, and SLUB's extra over SLAB "
		      "is understated (docs/measured.md, \"nowatchdog holds SLAB's reaper "
		      "back\"). Boot without it: in a guest whose vCPUs take turns on the "
		      "host, a soft lockup or RCU stall report is kept as a warning, not a "
		      "failed boot.");
	for (int i = 0; i < c->nr_warnings; i++) {
		if (strstr(c->warnings[i], "emulated"))
			continue;
		field(b, "warning", c->warnings[i]);
	}
}

char *report_across_generations(const struct comparison *c, const cJSON *const *docs)
{
	struct generation g[2];

	for (int r = 0; r < 2; r++)
		generation_of(&c->runs[r], docs[r], &g[r]);
	if (!generation_differ(&g[0], &g[1], c->runs[0].allocator, c->runs[1].allocator))
		return NULL;
	return xasprintf("The comparison is across generations (%s %s with %s against %s %s "
			 "with %s), not an allocator change alone: whatever else changed between "
			 "the kernels is in every difference too.", c->runs[1].allocator,
			 g[1].release, generation_design_words(g[1].design), c->runs[0].allocator,
			 g[0].release, generation_design_words(g[0].design));
}

/* What told a generation's per-CPU design, in words. */
static const char *design_source(const struct generation *g)
{
	if (!strcmp(g->by, "census"))
		return "as its census says";
	if (!strcmp(g->by, "release"))
		return "by its release, no census saying";
	return "";
}

void report_kernels(struct strbuf *b, const struct comparison *c, const cJSON *const *docs)
{
	const cJSON *la = run_allocator_config(docs[0]);
	const cJSON *lb = run_allocator_config(docs[1]), *l;
	const char *sa = c->runs[0].common_config, *sb = c->runs[1].common_config;
	char *across = report_across_generations(c, docs);

	sb_addf(b, "\nKernels\n");
	for (int r = 0; r < 2; r++) {
		const struct run_id *run = &c->runs[r];
		struct generation g;
		const char *src;
		char *v;

		generation_of(run, docs[r], &g);
		src = design_source(&g);
		v = xasprintf("%s %s (%s%s%s), variant %s, tree %s, build %s", run->allocator,
			      run->release, generation_design_words(g.design), *src ? ", " : "",
			      src, run->variant, run->tree, run->build_hash);
		field(b, r ? "new" : "base", v);
		free(v);
		cJSON_ArrayForEach(l, run_kernel_lacks(docs[r]))
			if (cJSON_IsString(l))
				field(b, r ? "new lacks" : "base lacks", l->valuestring);
	}
	if (across) {
		char *w = xasprintf("WARNING: %s", across);

		field(b, "generation", w);
		free(w);
		free(across);
	}
	if (strcmp(sa, "?") && !strcmp(sa, sb))
		field(b, "config", "the same but for the allocator lines:");
	else
		field(b, "config", "WARNING: the kernels differ in more than the allocator; "
		      "the allocator lines differ so:");
	json_lines_diff(b, la, lb, 13, REPORT_WIDTH - 14);
	la = run_common_config_lines(docs[0]);
	lb = run_common_config_lines(docs[1]);
	if (strcmp(sa, sb) && cJSON_IsArray(la) && cJSON_IsArray(lb)) {
		field(b, "config", "and every other line that differs (set in one only, or set otherwise):");
		json_lines_diff(b, la, lb, 13, REPORT_WIDTH - 14);
	}
}

/* --workload=NAME when the repository ships it, else the file's name. */
static char *workload_arg(const cJSON *doc)
{
	const char *name = run_workload(doc);
	char *path = xasprintf("%s/workloads/%s.json", slabbench_home(), name);
	struct stat st;
	char *arg = stat(path, &st) ? xasprintf("%s.json", name) : xstrdup(name);

	free(path);
	return arg;
}

/*
 * The --cpus and --mem of the @n runs @docs into @v: their CPU counts,
 * with the memory they all had, or without --mem (0) when each had the
 * default for its count; false when no one run command sets them.
 */
static bool cpus_mem(const cJSON *const *docs, int n, struct vm_opts *v)
{
	struct run_id *ids = run_ids(NULL, docs, n);
	bool defaults = true, same = true;

	v->cpus_list.n = 0;
	for (int r = 0; r < n; r++) {
		long cpus = (long)ids[r].cpus, mem = (long)ids[r].mem_mb;
		bool seen = false;

		defaults &= mem == vm_default_mem_mb(cpus);
		same &= ids[r].mem_mb == ids[0].mem_mb;
		for (int q = 0; q < v->cpus_list.n; q++)
			seen |= v->cpus_list.v[q] == cpus;
		if (!seen && v->cpus_list.n < OPT_LONGS_MAX)
			v->cpus_list.v[v->cpus_list.n++] = cpus;
	}
	v->mem = same ? (long)ids[0].mem_mb : 0;
	run_ids_free(ids, n);
	return same || defaults;
}

/* A command's continuation lines start here. */
#define CMD_INDENT 6

/* @word after the words at *@col of a command's continuation lines, wrapped. */
static void option_word(struct strbuf *b, size_t *col, const char *word)
{
	struct strbuf w = { 0 };

	sb_shell_word(&w, word);
	if (*col > CMD_INDENT && *col + 1 + w.len + 2 > REPORT_WIDTH) {
		sb_addf(b, " \\\n%*s", CMD_INDENT, "");
		*col = CMD_INDENT;
	} else if (*col > CMD_INDENT) {
		sb_addf(b, " ");
		(*col)++;
	}
	sb_addf(b, "%s", w.s);
	*col += w.len;
	free(w.s);
}

/*
 * The options of run that set up @run's guest, from the option table
 * (@cm: its --cpus and --mem), as a command's continuation lines.
 */
static void run_options(struct strbuf *b, const struct run_id *run, const cJSON *doc,
			const struct vm_opts *cm)
{
	struct vm_opts v;
	char **argv, *more[3] = { NULL };
	size_t col = CMD_INDENT;

	guest_opts_of_run(run, &v);
	v.cpus_list = cm->cpus_list;
	v.mem = cm->mem;
	argv = guest_opts_argv(&v);
	sb_addf(b, "%*s", CMD_INDENT, "");
	for (char **a = argv; *a; a++)
		option_word(b, &col, *a);
	more[0] = xasprintf("--boots=%d", run_nr_boots(doc));
	if (run->jobs > 1)
		more[1] = xasprintf("--jobs=%.0f", run->jobs);
	for (int t = 0; t < run_nr_tests(doc) && !more[2]; t++)
		if (test_profile(run_test(doc, t)))
			more[2] = xasprintf("--profile=%d", t + 1);
	for (int i = 0; i < 3; i++) {
		if (more[i])
			option_word(b, &col, more[i]);
		free(more[i]);
	}
	options_argv_free(argv);
}

/*
 * "FIRST REST" on one line when it fits, else REST on a continuation
 * line (a user's variants have long names); @more: a backslash follows.
 */
static void cmd_words(struct strbuf *b, const char *first, const char *rest, bool more)
{
	const char *tail = more ? " \\" : "";

	if (strlen(first) + 1 + strlen(rest) + strlen(tail) <= REPORT_WIDTH)
		sb_addf(b, "%s %s%s\n", first, rest, tail);
	else
		sb_addf(b, "%s \\\n      %s%s\n", first, rest, tail);
}

/*
 * "slabbench run --alloc=@alloc --workload=..." of @doc's workload, then
 * @opts (run_options()'s lines) and "-o @dest", on a line of its own if
 * need be.
 */
static void run_command(struct strbuf *b, const char *alloc, const cJSON *doc, const char *opts,
			const char *dest)
{
	const char *last = strrchr(opts, '\n');
	size_t len = strlen(last ? last + 1 : opts);
	char *w = workload_arg(doc);
	char *run = xasprintf("  slabbench run --alloc=%s", alloc);
	char *wl = xasprintf("--workload=%s", w);

	cmd_words(b, run, wl, true);
	if (len + 4 + strlen(dest) <= REPORT_WIDTH)
		sb_addf(b, "%s -o %s\n", opts, dest);
	else
		sb_addf(b, "%s \\\n      -o %s\n", opts, dest);
	free(run);
	free(wl);
	free(w);
}

/* Whether @a and @b are results of the same workload. */
static bool same_workload(const cJSON *a, const cJSON *b)
{
	return !strcmp(run_workload(a), run_workload(b));
}

/*
 * Whether @docs[@r] is of neither compared run's workload (the demo's
 * memory sweep beside its default run) and the first of its workload.
 */
static bool other_workload(const cJSON *const *docs, int r)
{
	if (same_workload(docs[r], docs[0]) || same_workload(docs[r], docs[1]))
		return false;
	for (int q = 2; q < r; q++)
		if (same_workload(docs[q], docs[r]))
			return false;
	return true;
}

/*
 * The run, into out/WORKLOAD, of @docs[@first]'s workload and every
 * variant given of it; its results' glob added to @reads for report.
 */
static void reproduce_other(struct strbuf *b, struct strbuf *reads, const cJSON *const *docs,
			    int n, int first)
{
	const cJSON **group = xcalloc(n, sizeof(*group));
	struct strbuf alloc = { 0 }, o = { 0 };
	struct run_id *ids = run_ids(NULL, docs, n);
	char *w = workload_arg(docs[first]), *dest;
	struct vm_opts cm;
	int k = 0;

	for (int r = first; r < n; r++) {
		bool seen = false;

		if (!same_workload(docs[r], docs[first]))
			continue;
		group[k++] = docs[r];
		for (int q = first; q < r; q++)
			seen |= same_workload(docs[q], docs[r]) &&
				!strcmp(ids[q].variant, ids[r].variant);
		if (!seen)
			sb_addf(&alloc, "%s%s", alloc.s ? "," : "", ids[r].variant);
	}
	if (!cpus_mem(group, k, &cm))
		cpus_mem(&docs[first], 1, &cm);
	run_options(&o, &ids[first], docs[first], &cm);
	dest = xasprintf("out/%s", w);
	run_command(b, alloc.s, docs[first], o.s, dest);
	sb_addf(reads, " %s/*.json", dest);
	free(dest);
	free(o.s);
	free(alloc.s);
	free(w);
	free(group);
	run_ids_free(ids, n);
}

/*
 * One run of both variants when their guests are alike, so that their
 * boots interleave as they did; else one run each. Results of another
 * workload given beside them (the census of a sweep) get a run of their
 * own, into out/WORKLOAD, which the report reads too.
 */
void report_reproduce(struct strbuf *b, const struct comparison *c, const cJSON *const *docs,
		      int n)
{
	static const char *const out[] = { "base.json", "new.json" };
	const cJSON **pair = xcalloc(n, sizeof(*pair));
	struct strbuf o[2] = { 0 }, others = { 0 };
	struct vm_opts all, one;
	bool alike, together;
	int k = 0;

	for (int r = 0; r < n; r++)
		if (r < 2 || same_workload(docs[r], docs[0]) || same_workload(docs[r], docs[1]))
			pair[k++] = docs[r];
	together = cpus_mem(pair, k, &all);
	sb_addf(b, "\nTo reproduce (slabbench, Debian 12, README.md):\n\n");
	for (int r = 0; r < 2; r++) {
		if (!together)
			cpus_mem(&docs[r], 1, &one);
		run_options(&o[r], &c->runs[r], docs[r], together ? &all : &one);
	}
	if (!together && k > 2)
		sb_addf(b, "  (at the first CPU count: the others' guests had memory of their own)\n");
	alike = !strcmp(o[0].s, o[1].s) && strcmp(c->runs[0].variant, c->runs[1].variant);
	if (alike) {
		char *both = xasprintf("%s,%s", c->runs[0].variant, c->runs[1].variant);

		run_command(b, both, docs[0], o[0].s, "out");
		free(both);
	} else {
		for (int r = 0; r < 2; r++)
			run_command(b, c->runs[r].variant, docs[r], o[r].s, out[r]);
	}
	for (int r = 2; r < n; r++)
		if (other_workload(docs, r))
			reproduce_other(b, &others, docs, n, r);
	if (alike) {
		char *rep = xasprintf("  slabbench report out/%s-*.json", c->runs[0].variant);
		char *second = xasprintf("out/%s-*.json%s", c->runs[1].variant,
					 others.s ? others.s : "");

		cmd_words(b, rep, second, false);
		free(rep);
		free(second);
	} else {
		sb_addf(b, "  slabbench report base.json new.json%s\n", others.s ? others.s : "");
	}
	free(others.s);
	free(pair);
	free(o[0].s);
	free(o[1].s);
}
