/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results schema: where each figure of a results document lives,
 * read through typed accessors. compare, report, the mail, plot, noise
 * and bench read results only through these. The builders of a document
 * spell the keys they write, each in one place: rundoc.c (host, machine,
 * kernel, workload, tests), runner.c (what a boot adds: the accelerator
 * as it ran, the cost model, boots), results.c (a boot's snapshots and
 * its tests' metrics), procfs.c (meminfo, slabinfo), census.c (a census
 * and its checks), cost.c and macro.c (their tests' metrics).
 */
#ifndef SLABBENCH_SCHEMA_H
#define SLABBENCH_SCHEMA_H

#include "stats.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* Who ran what, where: strings are "?" and numbers NAN when unknown. */
struct run_id {
	const char *path;	/* the file it came from, or "?" */
	char *label;		/* run_label(): the variant, made unique */
	const char *allocator;	/* as the guest's module saw it: "SLUB" */
	const char *variant, *release, *tree, *build_hash, *common_config;
	const char *accel, *qemu, *cmdline, *host_cpu;
	const char *tcg_thread;	/* "single", "multi"; "?" under KVM or before it was kept */
	const char *cpu_model;	/* QEMU's -cpu */
	const char *config_base, *config_family, *preempt;
	const char *cost_geometry;	/* the cost model's caches as it ran them */
	const char *cost_requested;	/* as --caches asked for them */
	double cpus, mem_mb;
	double numa_nodes;	/* NAN in results from before --numa: one node */
	double possible_cpus;	/* --possible-cpus; cpus in results from before it */
	double jobs;		/* guests booted at once (-j); 1 before it was kept */
	bool emulated;		/* times from an emulated clock (not KVM) */
};

/*
 * The identities of @n runs, labelled; @paths may be NULL. Free with
 * run_ids_free().
 */
struct run_id *run_ids(const char *const *paths, const cJSON *const *docs, int n);
void run_ids_free(struct run_id *ids, int n);

/* What must be equal for a difference between runs to be the allocator's. */
struct run_field {
	const char *path, *what;
};
extern const struct run_field run_same_fields[];
extern const size_t nr_run_same_fields;
/* The value of @f in @doc; NULL if the run does not record it. */
const cJSON *run_field(const cJSON *doc, const struct run_field *f);

/*
 * Whether @doc is results that compare can read: complete (or partial,
 * with @allow_partial), a workload, every test with a spec and every
 * metric with a unit, a direction and finite samples. A message names
 * @path and the member that is not.
 */
int run_check(const char *path, const cJSON *doc, bool allow_partial);

/* "complete", "partial", ...; "?" if none. */
const char *run_status(const cJSON *doc);
/* The workload's name; NULL if none. */
const char *run_workload(const cJSON *doc);
/* The workload as the run recorded it, an object; NULL if none. */
const cJSON *run_workload_def(const cJSON *doc);
/*
 * How the workload bounds its census's figures (its "upper_bound": they
 * are an upper bound, and say so); NULL for a workload of no such design.
 */
const char *run_upper_bound(const cJSON *doc);
/* The seconds it let a guest idle before the after-boot snapshot; NAN if none. */
double run_after_boot_s(const cJSON *doc);
/* The allocator's config lines ("CONFIG_SLUB=y"), an array or NULL. */
const cJSON *run_allocator_config(const cJSON *doc);
/* Every other line of the kernel's config, an array; NULL in results from before it. */
const cJSON *run_common_config_lines(const cJSON *doc);
/* What the kernel lacks that the harness would use, strings; NULL if none. */
const cJSON *run_kernel_lacks(const cJSON *doc);
/* The slab options of the kernel's config, an object of strings; NULL if none. */
const cJSON *run_slab_options(const cJSON *doc);
int run_nr_boots(const cJSON *doc);
/*
 * The first report in boot @boot's console of a vCPU that waited for its
 * turn on the host beyond a detector's limit; NULL when there was none.
 */
const char *boot_console_starved(const cJSON *doc, int boot);
/* Field @field of /proc/meminfo at @when ("before") of boot @boot, in kB. */
double boot_meminfo(const cJSON *doc, int boot, const char *when, const char *field);
/* The /proc/meminfo object at @when of boot @boot (census_checks() reads it); or NULL. */
const cJSON *boot_meminfo_all(const cJSON *doc, int boot, const char *when);
/* Boot @boot's snapshots, an object keyed by when ("after", "t0.0s"); or NULL. */
const cJSON *boot_snapshots(const cJSON *doc, int boot);

/* The boot-like user space a guest ran before its after-boot snapshot. */
struct boot_userspace {
	int commands;		/* busybox commands, each pinned to a vCPU in turn */
	double cpus_ran, cpus_online;
};

/* Fills @u from boot @boot; false when it ran none (or results from before it). */
bool boot_userspace(const cJSON *doc, int boot, struct boot_userspace *u);
/*
 * The slab census (docs/census.md, "In results") of boot @boot at @when:
 * "before" or "after" (every run), or "tN.PHASE". NULL when the kernel has none (Debian's
 * packaged kernel lacks our patch) or it was not read.
 */
const cJSON *boot_census(const cJSON *doc, int boot, const char *when);

/* Of one census: */
/* A number of its first line: "version", "cpus", "nodes", "page_size"; NAN if absent. */
double census_header(const cJSON *c, const char *field);
/*
 * A field of its total record ("pages", "live_bytes", "percpu_pages",
 * "free_cpu_partial"); NAN where the allocator has no such figure (SLOB:
 * every per-cache one), never 0 in its place.
 */
double census_total(const cJSON *c, const char *field);
/* Its cache records (none on SLOB), in slab_caches order: */
int census_nr_caches(const cJSON *c);
/* Record @i; NULL past the last. */
const cJSON *census_cache_at(const cJSON *c, int i);
/* The first record named @name (names need not be unique); NULL if none. */
const cJSON *census_cache(const cJSON *c, const char *name);
/* Of one cache record: field @field, NAN if absent. */
double census_cache_field(const cJSON *cache, const char *field);

/* Of the checks of one census (census_checks()'s, as results keep them): */
/*
 * Check @name's verdict ("objects", "pages", "sums", "lists", "node",
 * "counter", "identities", "meminfo", "slabinfo", "sysfs"): "exact",
 * "off" or "moving" (counter and identities only); NULL when there was
 * nothing to check.
 */
const char *checks_verdict(const cJSON *checks, const char *name);
/* Every discrepancy the checks found, one string each; empty when all exact. */
const cJSON *checks_failures(const cJSON *checks);

int run_nr_tests(const cJSON *doc);
/* Test @i of @doc; NULL past the last. */
const cJSON *run_test(const cJSON *doc, int i);
/* The module's test name ("sizes"), "?" if none. */
const char *test_name(const cJSON *t);
/* Its spec ("test=sizes api=kmalloc"), NULL if none. */
const char *test_spec(const cJSON *t);
/* Parameter @key of the test as it ran; NULL if absent. */
const cJSON *test_param(const cJSON *t, const char *key);
double test_param_num(const cJSON *t, const char *key);
/* A string parameter, "?" if it is not one. */
const char *test_param_str(const cJSON *t, const char *key);
/* What the test reported beside its metrics (@key) in boot @boot; NULL if none. */
const cJSON *test_extra(const cJSON *t, const char *key, int boot);
/* test_extra() as a number; NAN if none. */
double test_extra_num(const cJSON *t, const char *key, int boot);
/* The metrics object, each member a metric named by its key; or NULL. */
const cJSON *test_metrics(const cJSON *t);
/* Metric @name of the test; NULL if absent. */
const cJSON *test_metric(const cJSON *t, const char *name);
/*
 * The cost model's counts of @t whose every window was rejected (the
 * scheduler entered it, cost.h): absent, never 0; an object of
 * metrics, or NULL.
 */
const cJSON *test_absent_metrics(const cJSON *t);
const cJSON *test_absent_metric(const cJSON *t, const char *name);
/* perf's hottest symbols while the test ran, an array; NULL if none. */
const cJSON *test_profile(const cJSON *t);
const char *profile_symbol(const cJSON *entry);
double profile_percent(const cJSON *entry);

/* Of one metric: */
const char *metric_unit(const cJSON *m);
/* "lower" or "higher" when valid. */
const char *metric_better(const cJSON *m);
bool metric_higher_better(const cJSON *m);
/* Every sample, an array (checked by the reader); NULL if none. */
const cJSON *metric_samples(const cJSON *m);
/*
 * Each sample's clock resolution per operation, beside the samples where
 * the module gives one; NULL if none (older results).
 */
const cJSON *metric_resolution(const cJSON *m);
/* A sweep point's labels ({"size": 64}), or NULL. */
const cJSON *metric_labels(const cJSON *m);
/* Label @key of a sweep point; NAN if it has none. */
double metric_label_num(const cJSON *m, const char *key);
/* The recorded summary (results_summarize), NAN when absent. */
double metric_mean(const cJSON *m);
double metric_cov(const cJSON *m);
/* A summary computed afresh from the samples. */
void metric_summarize(const cJSON *m, struct summary *s);
/*
 * Each boot's samples ("boots": an array per boot); NULL when the metric
 * keeps none (results from before it did): its samples are then one boot.
 */
const cJSON *metric_boots(const cJSON *m);
/*
 * The median of each boot's samples, in boot order (boots without samples
 * skipped), into a new array *out; returns how many. *within is the
 * median over the boots of each boot's IQR / |median| (NAN when no boot
 * has two samples): the spread inside a boot.
 */
size_t metric_boot_medians(const cJSON *m, double **out, double *within);

/* One overhead test of one run, per object unless named otherwise. */
struct mem_breakdown {
	double size, count;
	double total;		/* bytes_per_object: all of the below */
	double rounding, tail, idle;
	double slab_pages, held_free_pages, held_shrink_pages;
};

/* Fills @m from overhead test @test of @doc; -1 if it is not one. */
int mem_breakdown(const cJSON *doc, int test, struct mem_breakdown *m);

#endif
