// SPDX-License-Identifier: GPL-2.0
/*
 * The runner (see runner.h): the boots of each allocator, interleaved,
 * locally (-j) or as a Slurm array, with a record per boot, and the
 * results saved atomically. The guest's plan is in runplan.c, the
 * document a run starts with in rundoc.c.
 */
#define _GNU_SOURCE
#include "runner.h"
#include "cost.h"
#include "jobs.h"
#include "macro.h"
#include "plan.h"
#include "json.h"
#include "results.h"
#include "rundoc.h"
#include "runsummary.h"
#include "slurm.h"
#include "util.h"
#include "workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
			    long cpus, long nodes)
{
	char stamp[32], numa[32] = "";
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	if (nodes > 1)
		snprintf(numa, sizeof(numa), "-numa%ld", nodes);
	return xasprintf("%s/%s-%s-cpus%ld%s-%s.json", dir, variant, w->name, cpus, numa,
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

int runner_guest_stage(struct runner_guest *rg, const struct plan *plan, bool perf, long cpus,
		       double timeout_s)
{
	if (guest_stage(&rg->g, plan, perf, &rg->stage))
		return -1;
	vm_config_set(&rg->stage.vm, rg->vm, cpus, timeout_s);
	rg->stage.vm.cmdline = rg->cmdline;
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
		if (o->console_starved)
			warning("%s: kept, though a vCPU waited so long for its turn on the host "
				"that the kernel reported it: %s", what, o->console_starved);
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
	/*
	 * -j: a run directory per slot, so that guests booting at once never
	 * share one; slot 0's is rg.stage, the others are staged when first
	 * used, from the same plan.
	 */
	struct plan *plan;
	bool perf;
	struct guest_stage *slots;	/* o->jobs of them */
	char *name;		/* the variant's, "-2" after it the second time in the list */
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

/* One boot of the interleaved run: its record, and what QEMU left behind. */
struct boot_task {
	struct variant_run *v;
	int index;		/* the boot's number for its allocator, from 0 */
	cJSON *boot;
	char *console;		/* where its console log is kept */
	struct vm_config vm;	/* the slot's run directory and host CPUs */
	int *host_cpus;
	int booted;		/* vm_boot()'s return */
	struct vm_outcome r;
};

/*
 * The boots of one CPU count: every allocator's, interleaved (A B A B),
 * at most o->jobs at once. @order counts the boots started, so that drift
 * over the run can be told from the allocator afterwards.
 */
struct point_run {
	const struct runner_opts *o;
	long cpus;
	struct variant_run *runs;
	int nr;
	struct boot_task *tasks;
	int order;
	int *allowed;		/* the host CPUs we may use */
	int nr_allowed;
	int need;		/* host CPUs a guest keeps busy; 0: guests are not pinned */
};

/* The vm_config of @v's run directory for @slot, staged on first use. */
static const struct vm_config *slot_config(struct variant_run *v, int slot)
{
	struct guest_stage *s = &v->slots[slot];

	if (!slot)
		return &v->rg.stage.vm;
	if (!s->rundir) {
		if (guest_stage(&v->rg.g, v->plan, v->perf, s))
			return NULL;
		/* Everything but where it runs is slot 0's. */
		s->vm = v->rg.stage.vm;
		s->vm.dir = s->rundir;
		s->vm.initrd = s->initrd;
	}
	return &s->vm;
}

static bool boot_start(void *ctx, int task, int slot)
{
	struct point_run *p = ctx;
	struct boot_task *t = &p->tasks[task];
	struct variant_run *v = &p->runs[task % p->nr];
	const struct vm_config *c;
	cJSON *boot;

	if (!v->doc || v->failed)
		return false;
	c = slot_config(v, slot);
	if (!c) {
		v->failed = true;
		return false;
	}
	t->v = v;
	t->index = task / p->nr;
	t->vm = *c;
	/*
	 * Under the cost model every boot of a seed is the same guest; boot N
	 * takes seed N + 1, so that placement, and with it the simulated
	 * misses and the counts of windows that take pages, varies between
	 * the boots of a run and not between runs: compare tests what varies.
	 */
	if (!strcmp(c->accel, "cost"))
		t->vm.seed = t->index + 1;
	if (p->o->jobs > 1) {
		/* The progress line is one guest's: with several, the run's line says it. */
		t->vm.expected_results = 0;
		progress("%d guests at once: boot %d of %s (%ld vCPUs) starting", (int)p->o->jobs,
			 t->index, v->rg.g.variant, p->cpus);
	}
	boot = t->boot = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(v->doc, "boots"), boot);
	cJSON_AddNumberToObject(boot, "index", t->index);
	cJSON_AddNumberToObject(boot, "order", p->order++);
	if (t->vm.seed)
		cJSON_AddNumberToObject(boot, "seed", (double)t->vm.seed);
	if (p->need) {
		char *list;

		t->host_cpus = xcalloc(p->need, sizeof(*t->host_cpus));
		jobs_slot_cpus(p->allowed, p->nr_allowed, (int)p->o->jobs, p->need, slot,
			       t->host_cpus);
		t->vm.host_cpus = t->host_cpus;
		t->vm.nr_host_cpus = p->need;
		list = jobs_cpu_list(t->host_cpus, p->need);
		cJSON_AddStringToObject(boot, "host_cpus", list);
		free(list);
	}
	t->console = t->index ? sibling(v->out, "") : sibling(v->out, ".console.log");
	if (t->index) {
		char *base = t->console;

		t->console = xasprintf("%s.console.%d.log", base, t->index);
		free(base);
	}
	return true;
}

static void boot_work(void *ctx, int task, int slot)
{
	struct boot_task *t = &((struct point_run *)ctx)->tasks[task];

	(void)slot;
	t->booted = vm_boot(&t->vm, &t->r);
}

/* Records boot @task; its allocator has failed unless the guest ran the whole plan cleanly. */
static void boot_finish(void *ctx, int task, int slot)
{
	struct boot_task *t = &((struct point_run *)ctx)->tasks[task];
	struct variant_run *v = t->v;
	cJSON *doc = v->doc, *boot = t->boot;
	cJSON *vm = cJSON_GetObjectItemCaseSensitive(doc, "vm");
	struct vm_outcome *r = &t->r;
	char *why = NULL, *what;
	int ret;

	(void)slot;
	if (t->booted) {
		/* vm_boot() said why: QEMU's words, or what it lacked to start. */
		cJSON_AddStringToObject(boot, "error", vm_status_name(VM_START_FAILED));
		v->failed = true;
		goto out;
	}
	boot_outcome_to_json(boot, vm, &t->vm, r);
	if (copy_file(r->console_path, t->console) == 0)
		cJSON_AddStringToObject(boot, "console", t->console);

	if (!strcmp(r->accel, "cost"))
		cost_boot(v, vm, boot, r, t->index, &why);
	else
		results_add_frames(doc, boot, v->w, r->channel, r->channel_len, v->build_config,
				   v->alloc_config, &why);
	/* What the results lack follows from how the boot ended: that first. */
	if (why && r->status != VM_OK) {
		char *cause = xasprintf("%s after %.0fs: %s", vm_status_name(r->status), r->wall_s,
					why);

		free(why);
		why = cause;
	}
	what = xasprintf("%s guest (%ld vCPUs), boot %d", v->rg.g.variant, v->rg.stage.vm.cpus,
			 t->index);
	ret = runner_verdict(what, r, why);
	if (ret) {
		cJSON_AddStringToObject(boot, "error", why ? why : vm_status_name(r->status));
		v->failed = true;
	}
	free(what);
	free(why);
out:
	vm_outcome_free(r);
	free(t->console);
	free(t->host_cpus);
}

/* Builds (if needed) and stages @variant at @cpus vCPUs; v->doc stays NULL on failure. */
static void variant_open(struct variant_run *v, const char *variant, const struct vm_opts *vm,
			 long cpus, const struct workload *w, const bool *profiled,
			 bool slub_sysfs, long jobs)
{
	char *config_path;

	v->w = w;
	v->slots = xcalloc(jobs, sizeof(*v->slots));
	if (runner_guest_open(&v->rg, variant, vm))
		return;
	/* What the results will lack, said before the boots rather than found after. */
	for (const char *l = v->rg.g.lacks; *l; l += strcspn(l, "\n") + 1)
		fprintf(stderr, "slabbench: %s: %.*s\n", variant, (int)strcspn(l, "\n"), l);
	v->plan = runner_plan(w, profiled, strcmp(v->rg.g.tree, "debian") != 0, slub_sysfs);
	v->perf = needs_perf(profiled, w);
	if (runner_guest_stage(&v->rg, v->plan, v->perf, cpus, w->timeout_s))
		return;
	v->rg.stage.vm.expected_results = w->nr_tests;
	/* The results say so (vm.tcg_thread); remote and parallel then take turns. */
	v->rg.stage.vm.single_thread = uses_kprobes(w);
	config_path = xasprintf("%s/.config", v->rg.g.dir);
	v->build_config = read_file(config_path, NULL);
	free(config_path);
	v->alloc_config = read_file(v->rg.g.alloc_config, NULL);
	if (!v->alloc_config)
		v->alloc_config = xstrdup("");
	v->doc = rundoc_new(&v->rg.stage.vm, &v->rg.g, w, v->build_config);
}

/* Saves what @v has (NAME.partial.json when a boot failed); 0 when it is complete. */
static int variant_close(struct variant_run *v, bool quiet, long jobs)
{
	int ret = v->doc && !v->failed ? 0 : -1;

	if (v->doc) {
		results_summarize(v->doc);
		if (!ret) {
			cJSON_ReplaceItemInObject(v->doc, "status", cJSON_CreateString("complete"));
			ret = results_save(v->out, v->doc);
			if (!ret && !quiet) {
				char *summary = run_summary(v->doc);

				printf("%s%s\n", summary, v->out);
				free(summary);
			}
		} else {
			char *partial = sibling(v->out, ".partial.json");

			if (!results_save(partial, v->doc))
				error("partial results of the %s guest kept in %s", v->rg.g.variant,
				      partial);
			free(partial);
		}
		cJSON_Delete(v->doc);
	}
	for (long s = 1; s < jobs; s++)
		guest_unstage(&v->slots[s]);
	free(v->slots);
	free(v->name);
	plan_free(v->plan);
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
 * The host CPUs one guest keeps busy: one under single-threaded TCG (the
 * cost model, icount, kprobes, more vCPUs than host cores), else one per
 * vCPU. QEMU's other threads mostly sleep.
 */
static int guest_threads(const struct vm_config *c)
{
	if (!strcmp(c->accel, "cost") || !strcmp(c->accel, "icount") || c->single_thread ||
	    c->cpus > sysconf(_SC_NPROCESSORS_ONLN))
		return 1;
	return c->cpus;
}

/*
 * With -j, each slot's guests get host CPUs of their own when the host
 * has enough (p->need set), so that two guests never take turns on one
 * CPU; otherwise they float, and the run says so.
 */
static void point_pin(struct point_run *p)
{
	const struct vm_config *c = NULL;
	int need;

	for (int i = 0; i < p->nr && !c; i++)
		if (p->runs[i].doc)
			c = &p->runs[i].rg.stage.vm;
	if (p->o->jobs < 2 || !c)
		return;
	need = guest_threads(c);
	p->nr_allowed = jobs_allowed_cpus(&p->allowed);
	if ((long)need * p->o->jobs <= p->nr_allowed)
		p->need = need;
	else
		warning("-j %ld: %ld guests of %d busy host thread%s need more than the %d "
			"CPUs we may use: they are not pinned", p->o->jobs, p->o->jobs, need,
			need == 1 ? "" : "s", p->nr_allowed);
}

/* Builds (if needed) and stages every allocator at @cpus vCPUs, names its results. */
static void point_open(struct point_run *p, const struct runner_opts *o, long cpus,
		       char **variants, int nr, const struct workload *w, const bool *profiled,
		       bool one_file)
{
	*p = (struct point_run){ .o = o, .cpus = cpus, .runs = xcalloc(nr, sizeof(*p->runs)),
				 .nr = nr };
	for (int i = 0; i < nr; i++) {
		struct variant_run *v = &p->runs[i];
		int same = 0;
		char *name;

		/* An A/A run names one variant twice: slub, then slub-2. */
		for (int j = 0; j < i; j++)
			same += !strcmp(variants[j], variants[i]);
		name = same ? xasprintf("%s-%d", variants[i], same + 1) : xstrdup(variants[i]);
		v->out = one_file ? xstrdup(o->output) :
			 default_output(o->output ? o->output : "results", name, w, cpus,
					o->vm.numa);
		v->name = name;
		variant_open(v, variants[i], &o->vm, cpus, w, profiled, o->slub_sysfs, o->jobs);
		if (v->doc) {
			cJSON *d = cJSON_GetObjectItemCaseSensitive(v->doc, "vm");

			cJSON_AddNumberToObject(d, "jobs", o->jobs);
			cJSON_AddStringToObject(d, "engine", o->engine ? o->engine : "local");
		}
	}
	p->tasks = xcalloc((size_t)o->boots * nr, sizeof(*p->tasks));
}

/* Saves each allocator's results; 0 when every one ran its whole workload. */
static int point_close(struct point_run *p)
{
	int failed = 0;

	for (int i = 0; i < p->nr; i++)
		failed |= variant_close(&p->runs[i], p->o->quiet, p->o->jobs) != 0;
	free(p->tasks);
	free(p->allowed);
	free(p->runs);
	return failed;
}

/*
 * Every allocator at @cpus vCPUs, their boots interleaved (A B A B): what
 * drifts on the host over the run falls on all of them alike. With -j the
 * boots start in that order, at most o->jobs at once. Returns 0 when
 * every one ran its whole workload.
 */
static int run_point(const struct runner_opts *o, long cpus, char **variants, int nr,
		     const struct workload *w, const bool *profiled, bool one_file)
{
	static const struct jobs_ops ops = { boot_start, boot_work, boot_finish };
	struct point_run p;

	point_open(&p, o, cpus, variants, nr, w, profiled, one_file);
	point_pin(&p);
	jobs_run((int)o->boots * nr, (int)o->jobs, &ops, &p);
	progress_done();
	return point_close(&p);
}

/*
 * What a boot's outcome depends on: the kernel, module and base
 * initramfs (their paths name their inputs' hashes), the guest machine
 * and the plan. A resubmission reuses an outcome only when it is equal.
 */
static char *task_key(const struct variant_run *v, const struct vm_config *c)
{
	return xasprintf("%s %s %s %s %s %ld %ld %ld %ld %s %s %s\n%s", c->kernel, v->rg.g.module,
			 v->rg.g.initramfs, v->perf ? "perf" : "-", c->accel, c->cpus,
			 c->possible_cpus, c->numa_nodes, c->mem_mb, c->cmdline ? c->cmdline : "",
			 c->cost_geometry ? c->cost_geometry : "", c->cpu_model ? c->cpu_model : "-",
			 plan_text(v->plan));
}

/* DIR/slurm/NAME-cpusN[-numaM]-bootB: a boot's task directory, the same on resubmission. */
static char *task_dir(const struct runner_opts *o, const struct boot_task *t)
{
	char numa[32] = "";

	if (t->vm.numa_nodes > 1)
		snprintf(numa, sizeof(numa), "-numa%ld", t->vm.numa_nodes);
	return xasprintf("%s/slurm/%s-cpus%ld%s-boot%d", o->output ? o->output : "results",
			 t->v->name, t->vm.cpus, numa, t->index);
}

/*
 * --engine=slurm: every boot of every point one task of a single job
 * array, those with an outcome of the same guest from an earlier
 * submission left out; then each boot recorded in the interleaved order
 * as a local run records it. A task that left no outcome is named, with
 * its logs.
 */
static int run_slurm(const struct runner_opts *o, char **variants, int nr,
		     const struct workload *w, const bool *profiled)
{
	int np = o->vm.cpus_list.n, nt = (int)o->boots * nr, submit = 0, failed = 0;
	struct point_run *points = xcalloc(np, sizeof(*points));
	char **dirs = xcalloc((size_t)np * nt, sizeof(*dirs));
	char **sub = xcalloc((size_t)np * nt, sizeof(*sub));
	int *index = xcalloc((size_t)np * nt, sizeof(*index));
	char *jobdir = xasprintf("%s/slurm", o->output ? o->output : "results");
	bool *started = xcalloc((size_t)np * nt, sizeof(*started));

	for (int k = 0; k < np; k++) {
		point_open(&points[k], o, o->vm.cpus_list.v[k], variants, nr, w, profiled, false);
		for (int t = 0; t < nt; t++) {
			struct boot_task *bt = &points[k].tasks[t];
			char *key;
			int at = k * nt + t;

			index[at] = -1;
			started[at] = boot_start(&points[k], t, 0);
			if (!started[at])
				continue;
			dirs[at] = task_dir(o, bt);
			bt->vm.dir = dirs[at];
			key = task_key(bt->v, &bt->vm);
			if (mkdir_p(dirs[at]) || (!slurm_task_done(dirs[at], key) &&
						 slurm_task_save(dirs[at], &bt->vm, &o->vm, w->timeout_s, key))) {
				bt->v->failed = true;
			} else if (!slurm_task_done(dirs[at], key)) {
				/* A stale outcome must not stand for this submission's boot. */
				char *stale = xasprintf("%s/outcome.json", dirs[at]);

				unlink(stale);
				free(stale);
				index[at] = submit;
				sub[submit++] = dirs[at];
			}
			free(key);
		}
	}
	if (submit && slurm_submit(&o->slurm, jobdir, sub, submit) < 0)
		failed = 1;
	for (int k = 0; k < np; k++) {
		for (int t = 0; t < nt; t++) {
			struct boot_task *bt = &points[k].tasks[t];
			int at = k * nt + t;

			if (!started[at])
				continue;
			bt->booted = slurm_outcome_load(dirs[at], &bt->r);
			if (bt->booted) {
				char *log = xasprintf("%s/%d.log", jobdir, index[at]);

				error("%s guest (%ld vCPUs), boot %d: Slurm task %d left no outcome "
				      "(its log: %s; the guest's console: %s/console.log)",
				      bt->v->rg.g.variant, bt->vm.cpus, bt->index, index[at], log,
				      dirs[at]);
				print_console_tail(log, 10);
				free(log);
			}
			boot_finish(&points[k], t, 0);
		}
		failed |= point_close(&points[k]);
	}
	for (int i = 0; i < np * nt; i++)
		free(dirs[i]);
	free(started);
	free(jobdir);
	free(index);
	free(sub);
	free(dirs);
	free(points);
	return failed;
}

int runner_run(const struct runner_opts *opts)
{
	struct runner_opts o = *opts;
	char *path, *save = NULL, *v, *list, **variants = NULL;
	bool *profiled = NULL, slurm = o.engine && !strcmp(o.engine, "slurm"), one_file;
	int failed = 0, nr = 0;
	struct workload w;
	struct stat st;

	if (o.task)
		return slurm_task_run(o.task) ? 1 : 0;
	if (vm_opts_resolve("run", &o.vm))
		return 2;
	if (o.jobs < 1)
		o.jobs = 1;
	if (slurm && o.jobs > 1) {
		error("run: -j is the local engine's; Slurm runs the tasks of its array at once");
		return 2;
	}
	if (slurm && slurm_check("run"))
		return 2;
	if (o.jobs > 1 && strcmp(o.vm.accel, "cost"))
		warning("-j %ld: guests that run at once share the host's caches and memory: "
			"their times are not comparable with a serial run's (the counts of "
			"--accel=cost and the census are)", o.jobs);
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
	/*
	 * -o names a file for one allocator at one CPU count, else a directory;
	 * a directory that exists is one for any run, not found unwritable once
	 * the boots are done.
	 */
	one_file = o.output && nr == 1 && o.vm.cpus_list.n == 1 && !slurm &&
		   !(stat(o.output, &st) == 0 && S_ISDIR(st.st_mode));
	if (!failed && !one_file && o.output && mkdir_p(o.output))
		failed = 1;
	if (!failed && !o.output && mkdir_p("results"))
		failed = 1;
	if (!failed && slurm)
		failed = run_slurm(&o, variants, nr, &w, profiled);
	for (int i = 0; i < o.vm.cpus_list.n && !failed && !slurm; i++)
		failed = run_point(&o, o.vm.cpus_list.v[i], variants, nr, &w, profiled, one_file);
	free(variants);
	free(list);
	workload_free(&w);
	free(profiled);
	return failed;
}
