// SPDX-License-Identifier: GPL-2.0
/*
 * The runner (see runner.h): a workload's plan, the boots of each
 * allocator with a record per boot, and the results saved atomically.
 */
#define _GNU_SOURCE
#include "runner.h"
#include "cost.h"
#include "macro.h"
#include "plan.h"
#include "json.h"
#include "results.h"
#include "schema.h"
#include "stats.h"
#include "util.h"
#include "workload.h"

#include <errno.h>
#include <linux/slabbench.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* Which tests --profile names: a test's name, or its number from 1. */
static bool *resolve_profile(const char *profile, const struct workload *w)
{
	bool *profiled = xcalloc(w->nr_tests, sizeof(*profiled));
	long n = 0;
	int hits = 0;

	if (!profile)
		return profiled;
	if (parse_long(profile, 1, w->nr_tests, &n))
		n = 0;
	for (int i = 0; i < w->nr_tests; i++) {
		profiled[i] = n ? i == n - 1 : !strcmp(w->tests[i].test, profile);
		hits += profiled[i];
	}
	if (!hits) {
		error("run: --profile=%s: %s has no such test (a test's name, or 1 to %d)",
		      profile, w->path, w->nr_tests);
		free(profiled);
		return NULL;
	}
	return profiled;
}

/* Whether the guest needs perf: a macro workload runs it, or a profile. */
static bool needs_perf(const bool *profiled, const struct workload *w)
{
	for (int i = 0; i < w->nr_tests; i++)
		if (profiled[i] || macro_needs_perf(w->tests[i].test))
			return true;
	return false;
}

/*
 * Whether a test registers kprobes (hitrate counts with them), which QEMU
 * 7.2's multi-threaded TCG does not always survive (vm.h): a hitrate
 * guest of tests/e2e/counts.sh died on a stale int3 in a CI run.
 */
static bool uses_kprobes(const struct workload *w)
{
	for (int i = 0; i < w->nr_tests; i++)
		if (!strcmp(w->tests[i].test, "hitrate"))
			return true;
	return false;
}

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

static char *cpu_model(void)
{
	char *info = read_file("/proc/cpuinfo", NULL), *p, *model;

	p = info ? strstr(info, "model name") : NULL;
	if (p && (p = strchr(p, ':'))) {
		p += 1 + strspn(p + 1, " \t");
		model = strndup(p, strcspn(p, "\n"));
	} else {
		model = xstrdup("unknown");
	}
	free(info);
	return model;
}

static cJSON *string_lines(const char *text)
{
	cJSON *a = cJSON_CreateArray();
	char *copy = xstrdup(text ? text : ""), *save = NULL, *line;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		cJSON_AddItemToArray(a, cJSON_CreateString(line));
	free(copy);
	return a;
}

static cJSON *new_document(const struct vm_opts *o, const struct guest *g,
			   const struct workload *w, const char *cmdline)
{
	cJSON *doc = cJSON_CreateObject(), *host, *vm, *kernel, *tests;
	char hostname[256] = "", stamp[32], *model, *alloc;
	struct utsname u;
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	cJSON_AddNumberToObject(doc, "schema", RESULTS_SCHEMA);
	cJSON_AddStringToObject(doc, "tool", "slabbench " SLABBENCH_VERSION);
	cJSON_AddStringToObject(doc, "status", "partial");
	cJSON_AddStringToObject(doc, "created", stamp);

	host = cJSON_AddObjectToObject(doc, "host");
	gethostname(hostname, sizeof(hostname) - 1);
	cJSON_AddStringToObject(host, "hostname", hostname);
	model = cpu_model();
	cJSON_AddStringToObject(host, "cpu_model", model);
	free(model);
	if (!uname(&u))
		cJSON_AddStringToObject(host, "kernel", u.release);

	vm = cJSON_AddObjectToObject(doc, "vm");
	cJSON_AddStringToObject(vm, "accel_requested", o->accel);
	cJSON_AddNumberToObject(vm, "cpus", o->cpus);
	cJSON_AddNumberToObject(vm, "numa_nodes", o->numa);
	cJSON_AddNumberToObject(vm, "mem_mb", o->mem);
	cJSON_AddStringToObject(vm, "cmdline", cmdline);

	kernel = cJSON_AddObjectToObject(doc, "kernel");
	cJSON_AddStringToObject(kernel, "variant", g->variant);
	cJSON_AddStringToObject(kernel, "tree", g->tree);
	cJSON_AddStringToObject(kernel, "release", g->release);
	cJSON_AddStringToObject(kernel, "build_hash", g->hash);
	alloc = read_file(g->alloc_config, NULL);
	cJSON_AddItemToObject(kernel, "allocator_config", string_lines(alloc));
	free(alloc);
	/* Equal for kernels that differ only in the allocator lines. */
	cJSON_AddStringToObject(kernel, "common_config_sha256", g->common_sha256);
	/* All of them, for a report to show how two kernels' configs differ. */
	alloc = read_file(g->common_config, NULL);
	cJSON_AddItemToObject(kernel, "common_config_lines", string_lines(alloc));
	free(alloc);
	cJSON_AddItemToObject(kernel, "lacks", string_lines(g->lacks));

	cJSON_AddItemToObject(doc, "workload", cJSON_Duplicate(w->json, 1));
	tests = cJSON_AddArrayToObject(doc, "tests");
	for (int i = 0; i < w->nr_tests; i++) {
		cJSON *t = cJSON_CreateObject();

		cJSON_AddStringToObject(t, "test", w->tests[i].test);
		cJSON_AddStringToObject(t, "spec", w->tests[i].spec);
		cJSON_AddItemToArray(tests, t);
	}
	cJSON_AddObjectToObject(doc, "guest");
	cJSON_AddArrayToObject(doc, "boots");
	return doc;
}

/* The preemption model a .config chose: what a reviewer asks about first. */
static const char *preempt_model(const char *config)
{
	static const struct {
		const char *line, *model;
	} models[] = {
		{ "CONFIG_PREEMPT_RT=y", "PREEMPT_RT" },
		{ "CONFIG_PREEMPT=y", "PREEMPT" },
		{ "CONFIG_PREEMPT_VOLUNTARY=y", "PREEMPT_VOLUNTARY" },
		{ "CONFIG_PREEMPT_NONE=y", "PREEMPT_NONE" },
	};

	for (size_t i = 0; config && i < ARRAY_SIZE(models); i++) {
		const char *p = strstr(config, models[i].line);
		size_t n = strlen(models[i].line);

		/* Whole lines only: CONFIG_PREEMPT=y is in CONFIG_PREEMPT_RT=y's neighbourhood. */
		if (p && (p == config || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return models[i].model;
	}
	return "?";
}

/*
 * The value @config gives CONFIG_@name: its text after '=', or "n" when
 * the line says it is not set or there is none.
 */
static char *config_value(const char *config, const char *name)
{
	char *key = xasprintf("\nCONFIG_%s=", name);
	const char *p = config ? strstr(config, key) : NULL;
	char *v;

	if (p) {
		p += strlen(key);
		v = xasprintf("%.*s", (int)strcspn(p, "\n"), p);
	} else {
		v = xstrdup("n");
	}
	free(key);
	return v;
}

/*
 * Where the kernel's config came from, its family and preemption model,
 * and the options that change what an alloc+free costs or what the
 * caches hold: a reader compares these first between a small and a
 * distro kernel.
 */
static void add_config_base(cJSON *doc, const struct guest *g, const char *build_config)
{
	static const char *const slab_options[] = {
		"MEMCG", "MEMCG_KMEM", "SLAB_FREELIST_RANDOM", "SLAB_FREELIST_HARDENED",
		"INIT_ON_ALLOC_DEFAULT_ON", "INIT_ON_FREE_DEFAULT_ON", "SHUFFLE_PAGE_ALLOCATOR",
		"HARDENED_USERCOPY", "SLUB_CPU_PARTIAL", "KFENCE", "NUMA", "NR_CPUS", "HZ",
	};
	cJSON *kernel = cJSON_GetObjectItemCaseSensitive(doc, "kernel"), *opts;

	cJSON_AddStringToObject(kernel, "config_base", g->config_base);
	cJSON_AddStringToObject(kernel, "config_family", g->config_family);
	cJSON_AddStringToObject(kernel, "preempt", preempt_model(build_config));
	opts = cJSON_AddObjectToObject(kernel, "slab_options");
	for (size_t i = 0; i < ARRAY_SIZE(slab_options); i++) {
		char *v = config_value(build_config, slab_options[i]);

		cJSON_AddStringToObject(opts, slab_options[i], v);
		free(v);
	}
}

/* x.json -> x<suffix> ("x.partial.json", "x.console.log"). */
static char *sibling(const char *path, const char *suffix)
{
	size_t n = strlen(path);

	if (n > 5 && !strcmp(path + n - 5, ".json"))
		n -= 5;
	return xasprintf("%.*s%s", (int)n, path, suffix);
}

/* DIR/VARIANT-WORKLOAD-cpusN[-numaM]-TIME.json: each point of a sweep apart. */
static char *default_output(const char *dir, const char *variant, const struct workload *w,
			    const struct vm_opts *vm)
{
	char stamp[32], numa[32] = "";
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	if (vm->numa > 1)
		snprintf(numa, sizeof(numa), "-numa%ld", vm->numa);
	return xasprintf("%s/%s-%s-cpus%ld%s-%s.json", dir, variant, w->name, vm->cpus, numa,
			 stamp);
}

static int copy_file(const char *from, const char *to)
{
	size_t len;
	char *data = read_file(from, &len);
	int ret;

	if (!data)
		return error("%s: %s", from, strerror(errno));
	ret = write_file_atomic(to, data, len);
	free(data);
	return ret;
}

int runner_variants(const char *cmd, int argc, char **argv, char ***variants)
{
	static char *defaults[] = { "slab", "slub", "slob", "slub-6.12" };

	*variants = argc ? argv : defaults;
	if (!argc)
		argc = ARRAY_SIZE(defaults);
	return variants_check(cmd, *variants, argc) ? -1 : argc;
}

int runner_guest_open(struct runner_guest *rg, const char *variant, const struct vm_opts *vm)
{
	memset(rg, 0, sizeof(*rg));
	if (guest_prepare(variant, &rg->g))
		return -1;
	rg->vm = vm;
	rg->cmdline = guest_cmdline(&rg->g, vm->cmdline);
	return 0;
}

int runner_guest_stage(struct runner_guest *rg, const struct plan *plan, bool perf)
{
	if (guest_stage(&rg->g, plan, perf, &rg->stage))
		return -1;
	rg->stage.vm.accel = rg->vm->accel;
	rg->stage.vm.cost_geometry = rg->vm->cost_geometry;
	rg->stage.vm.cpu_model = rg->vm->cpu_model;
	rg->stage.vm.cpus = rg->vm->cpus;
	rg->stage.vm.numa_nodes = rg->vm->numa;
	rg->stage.vm.mem_mb = vm_mem_mb(rg->vm, rg->vm->cpus);
	rg->stage.vm.cmdline = rg->cmdline;
	rg->stage.vm.timeout_s = rg->vm->timeout;
	return 0;
}

void runner_guest_close(struct runner_guest *rg)
{
	guest_unstage(&rg->stage);
	guest_free(&rg->g);
	free(rg->cmdline);
	rg->cmdline = NULL;
}

int runner_verdict(const char *what, const struct vm_outcome *o, const char *why)
{
	if (why) {
		error("%s: %s", what, why);
		print_console_tail(o->console_path, 15);
	} else if (o->status != VM_OK) {
		error("%s: %s after %.0fs", what, vm_status_name(o->status), o->wall_s);
		if (o->status != VM_INTERRUPTED)
			print_console_tail(o->console_path, 25);
	} else if (o->console_problem) {
		error("%s: the kernel reported a problem: %s", what, o->console_problem);
		print_console_tail(o->console_path, 40);
	} else {
		return 0;
	}
	return -1;
}

/* What every boot of one allocator at one CPU count shares. */
struct variant_run {
	struct runner_guest rg;
	const struct workload *w;
	char *out;
	char *build_config;	/* the .config the kernel was built with */
	char *alloc_config;	/* its allocator lines */
	cJSON *doc;		/* NULL: the guest could not be built or staged */
	bool failed;
};

/*
 * A boot under the cost model: the plugin's file, kept beside the results
 * (NAME.cost.txt, .cost.N.txt for later boots), joined to the samples;
 * its geometry recorded once in vm.cost_model. Sets *why when the file is
 * missing or malformed, or lacks a sample's window.
 */
static void cost_boot(const struct variant_run *v, cJSON *vm, cJSON *boot,
		      const struct vm_outcome *r, int index, char **why)
{
	char *base = sibling(v->out, ""), *keep;
	struct cost_file cf;
	struct results_cost rc = { &cf, r->cost_path };

	keep = index ? xasprintf("%s.cost.%d.txt", base, index) : xasprintf("%s.cost.txt", base);
	free(base);
	if (!r->cost_text || cost_parse(r->cost_path, r->cost_text, &cf)) {
		char *ignored = NULL;

		/* The times stand without the counts: keep them for the partial results. */
		results_add_frames(v->doc, boot, v->w, r->channel, r->channel_len,
				   v->build_config, v->alloc_config, &ignored);
		*why = r->cost_text ? xasprintf("the cost model's %s is malformed", r->cost_path) :
				      xasprintf("the cost model wrote no %s", r->cost_path);
		free(ignored);
	} else {
		if (!cJSON_GetObjectItemCaseSensitive(vm, "cost_model")) {
			cJSON *m = cJSON_AddObjectToObject(vm, "cost_model");

			cJSON_AddStringToObject(m, "plugin", VM_COST_PLUGIN);
			cJSON_AddNumberToObject(m, "format", cf.version);
			cJSON_AddStringToObject(m, "geometry", cf.geometry);
			cJSON_AddStringToObject(m, "requested", v->rg.vm->cost_geometry ?
							    v->rg.vm->cost_geometry : "");
		}
		if (copy_file(r->cost_path, keep) == 0)
			cJSON_AddStringToObject(boot, "cost_file", keep);
		cJSON_AddNumberToObject(boot, "cost_lines", cf.lines);
		results_add_frames_cost(v->doc, boot, v->w, r->channel, r->channel_len,
					v->build_config, v->alloc_config, &rc, why);
		cost_free(&cf);
	}
	free(keep);
}

/*
 * One boot; returns 0 when the guest ran the whole plan cleanly. @order
 * is its place among every boot of the interleaved run (from 0), so that
 * drift over the run can be told from the allocator afterwards.
 */
static int run_boot(const struct variant_run *v, int index, int order)
{
	cJSON *doc = v->doc, *boot = cJSON_CreateObject();
	cJSON *vm = cJSON_GetObjectItemCaseSensitive(doc, "vm");
	char *console = index ? sibling(v->out, "") : sibling(v->out, ".console.log");
	char *why = NULL, *what;
	struct vm_outcome r;
	int ret;

	if (index) {
		char *base = console;

		console = xasprintf("%s.console.%d.log", base, index);
		free(base);
	}
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(doc, "boots"), boot);
	cJSON_AddNumberToObject(boot, "index", index);
	cJSON_AddNumberToObject(boot, "order", order);
	if (vm_boot(&v->rg.stage.vm, &r)) {
		free(console);
		return -1;
	}
	if (!cJSON_GetObjectItemCaseSensitive(vm, "accel")) {
		cJSON_AddStringToObject(vm, "accel", r.accel);
		cJSON_AddBoolToObject(vm, "emulated_time", strcmp(r.accel, "kvm") != 0);
		/* Single-threaded TCG runs the vCPUs in turn: no time is a parallel one. */
		if (r.tcg_thread)
			cJSON_AddStringToObject(vm, "tcg_thread", r.tcg_thread);
		else
			cJSON_AddNullToObject(vm, "tcg_thread");
		cJSON_AddStringToObject(vm, "qemu", r.qemu_version);
		cJSON_AddStringToObject(vm, "cpu_model", vm_cpu_model(v->rg.vm->cpu_model, r.accel));
	}
	cJSON_AddStringToObject(boot, "accel", r.accel);
	cJSON_AddStringToObject(boot, "outcome", vm_status_name(r.status));
	cJSON_AddNumberToObject(boot, "ready_s", r.ready_s);
	cJSON_AddNumberToObject(boot, "wall_s", r.wall_s);
	if (copy_file(r.console_path, console) == 0)
		cJSON_AddStringToObject(boot, "console", console);
	if (r.console_problem)
		cJSON_AddStringToObject(boot, "console_problem", r.console_problem);
	else
		cJSON_AddNullToObject(boot, "console_problem");

	if (!strcmp(r.accel, "cost"))
		cost_boot(v, vm, boot, &r, index, &why);
	else
		results_add_frames(doc, boot, v->w, r.channel, r.channel_len, v->build_config,
				   v->alloc_config, &why);
	what = xasprintf("%s guest (%ld vCPUs), boot %d", v->rg.g.variant, v->rg.vm->cpus, index);
	ret = runner_verdict(what, &r, why);
	if (ret)
		cJSON_AddStringToObject(boot, "error", why ? why : vm_status_name(r.status));
	free(what);
	free(why);
	free(console);
	vm_outcome_free(&r);
	return ret;
}

/* Builds (if needed) and stages @variant for @vm; v->doc stays NULL on failure. */
static void variant_open(struct variant_run *v, const char *variant, const struct vm_opts *vm,
			 const struct workload *w, const bool *profiled, bool slub_sysfs)
{
	struct plan *plan;
	char *config_path;
	int ret;

	v->w = w;
	if (runner_guest_open(&v->rg, variant, vm))
		return;
	/* What the results will lack, said before the boots rather than found after. */
	for (const char *l = v->rg.g.lacks; *l; l += strcspn(l, "\n") + 1)
		fprintf(stderr, "slabbench: %s: %.*s\n", variant, (int)strcspn(l, "\n"), l);
	plan = runner_plan(w, profiled, strcmp(v->rg.g.tree, "debian") != 0, slub_sysfs);
	ret = runner_guest_stage(&v->rg, plan, needs_perf(profiled, w));
	plan_free(plan);
	if (ret)
		return;
	v->rg.stage.vm.timeout_s = vm_timeout_s(vm, w->timeout_s, vm->cpus);
	v->rg.stage.vm.expected_results = w->nr_tests;
	/* The results say so (vm.tcg_thread); remote and parallel then take turns. */
	v->rg.stage.vm.single_thread = uses_kprobes(w);
	config_path = xasprintf("%s/.config", v->rg.g.dir);
	v->build_config = read_file(config_path, NULL);
	free(config_path);
	v->alloc_config = read_file(v->rg.g.alloc_config, NULL);
	if (!v->alloc_config)
		v->alloc_config = xstrdup("");
	v->doc = new_document(vm, &v->rg.g, w, v->rg.cmdline);
	add_config_base(v->doc, &v->rg.g, v->build_config);
}

/*
 * What perf bench prints at the end: each test's headline (its first
 * metric) as the median over boots of each boot's median, the IQR of
 * those boot medians and how many boots, then the file.
 */
static void print_headlines(const cJSON *doc, const char *path)
{
	printf("%s, %d boot%s:\n", json_str_at(doc, "kernel.variant"), run_nr_boots(doc),
	       run_nr_boots(doc) == 1 ? "" : "s");
	printf("  %-44s %-22s %10s %9s %5s\n", "test", "metric (unit)", "median", "IQR", "boots");
	for (int t = 0; t < run_nr_tests(doc); t++) {
		const cJSON *test = run_test(doc, t);
		const cJSON *m = cJSON_GetArrayItem(test_metrics(test), 0);
		char *name, iqr[32] = "-";
		struct summary s;
		double *x, within;
		size_t n;

		if (!m)
			continue;
		n = metric_boot_medians(m, &x, &within);
		summarize(x, n, &s);
		free(x);
		if (n > 1)
			snprintf(iqr, sizeof(iqr), "%.4g", s.q3 - s.q1);
		name = xasprintf("%s (%s)", m->string, metric_unit(m));
		printf("  %-44.44s %-22.22s %10.4g %9s %5zu\n", test_spec(test) + 5, name, s.median,
		       iqr, n);
		free(name);
	}
	printf("%s\n", path);
}

/* Saves what @v has (NAME.partial.json when a boot failed); 0 when it is complete. */
static int variant_close(struct variant_run *v, bool quiet)
{
	int ret = v->doc && !v->failed ? 0 : -1;

	if (v->doc) {
		results_summarize(v->doc);
		if (!ret) {
			cJSON_ReplaceItemInObject(v->doc, "status", cJSON_CreateString("complete"));
			ret = results_save(v->out, v->doc);
			if (!ret && !quiet)
				print_headlines(v->doc, v->out);
		} else {
			char *partial = sibling(v->out, ".partial.json");

			if (!results_save(partial, v->doc))
				error("partial results of the %s guest kept in %s", v->rg.g.variant,
				      partial);
			free(partial);
		}
		cJSON_Delete(v->doc);
	}
	free(v->alloc_config);
	free(v->build_config);
	free(v->out);
	runner_guest_close(&v->rg);
	return ret;
}

/* Before any benchmark boot: the module of @variant accepts every test. */
static int workload_valid_for(const struct workload *w, const char *variant)
{
	struct guest g;
	cJSON *cat;
	int ret;

	if (guest_prepare(variant, &g))
		return -1;
	cat = guest_catalogue(&g);
	ret = cat ? workload_check(w, cat) : -1;
	cJSON_Delete(cat);
	guest_free(&g);
	return ret;
}

/*
 * Every allocator at @cpus vCPUs, their boots interleaved (A B A B): what
 * drifts on the host over the run falls on all of them alike. Returns 0
 * when every one ran its whole workload.
 */
static int run_point(const struct runner_opts *o, long cpus, char **variants, int nr,
		     const struct workload *w, const bool *profiled, bool one_file)
{
	struct variant_run *runs = xcalloc(nr, sizeof(*runs));
	struct vm_opts vm = o->vm;
	int failed = 0;

	vm.cpus = cpus;
	vm.mem = vm_mem_mb(&o->vm, cpus);
	for (int i = 0; i < nr; i++) {
		int same = 0;
		char *name;

		/* An A/A run names one variant twice: slub, then slub-2. */
		for (int j = 0; j < i; j++)
			same += !strcmp(variants[j], variants[i]);
		name = same ? xasprintf("%s-%d", variants[i], same + 1) : xstrdup(variants[i]);
		runs[i].out = one_file ? xstrdup(o->output) :
			      default_output(o->output ? o->output : "results", name, w, &vm);
		free(name);
		variant_open(&runs[i], variants[i], &vm, w, profiled, o->slub_sysfs);
	}
	for (int b = 0, order = 0; b < o->boots; b++)
		for (int i = 0; i < nr; i++)
			if (runs[i].doc && !runs[i].failed)
				runs[i].failed = run_boot(&runs[i], b, order++) != 0;
	for (int i = 0; i < nr; i++)
		failed |= variant_close(&runs[i], o->quiet) != 0;
	free(runs);
	return failed;
}

int runner_run(const struct runner_opts *opts)
{
	struct runner_opts o = *opts;
	char *path, *save = NULL, *v, *list, **variants = NULL;
	bool *profiled = NULL;
	int failed = 0, nr = 0;
	struct workload w;

	if (vm_opts_resolve("run", &o.vm))
		return 2;
	path = workload_resolve(o.workload);
	failed = workload_load(path, o.repeat, &w) ? 2 : 0;
	free(path);
	if (failed)
		return failed;
	profiled = resolve_profile(o.profile, &w);
	if (!profiled)
		failed = 2;
	list = xstrdup(o.allocs);
	for (v = strtok_r(list, ",", &save); v && !failed; v = strtok_r(NULL, ",", &save)) {
		if (variants_check("run: --alloc", &v, 1) || workload_valid_for(&w, v))
			failed = 2;
		variants = xrealloc(variants, (nr + 1) * sizeof(*variants));
		variants[nr++] = v;
	}
	if (!failed && !nr) {
		error("run: --alloc: no allocator given");
		failed = 2;
	}
	/* -o names a file for one allocator at one CPU count, else a directory. */
	if (!failed && (nr > 1 || o.vm.cpus_list.n > 1) && o.output && mkdir_p(o.output))
		failed = 1;
	if (!failed && !o.output && mkdir_p("results"))
		failed = 1;
	for (int i = 0; i < o.vm.cpus_list.n && !failed; i++)
		failed = run_point(&o, o.vm.cpus_list.v[i], variants, nr, &w, profiled,
				   o.output && nr == 1 && o.vm.cpus_list.n == 1);
	free(variants);
	free(list);
	workload_free(&w);
	free(profiled);
	return failed;
}
