/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results schema: where each figure of a results document lives,
 * read through typed accessors. compare, report, plot and bench read
 * results only through these; the builders of the documents (results.c
 * and cmd_run.c) are the only other places that spell their paths.
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
	double cpus, mem_mb;
	double numa_nodes;	/* NAN in results from before --numa: one node */
	double possible_cpus;	/* --possible-cpus; cpus in results from before it */
	bool emulated;		/* times from an emulated clock (not KVM) */
};

/*
 * The identities of @n runs, labelled; @paths may be NULL. Free with
 * run_ids_free().
 */
struct run_id *run_ids(const char *const *paths, const cJSON *const *docs, int n);
void run_ids_free(struct run_id *ids, int n);
/*
 * The label of ids[r] among ids[0..r]: its variant (what --alloc took),
 * else its allocator, with "#N" (N = r + 1) when an earlier run has it.
 */
char *run_label(const struct run_id *ids, int r);

/* What must be equal for a difference between runs to be the allocator's. */
struct run_field {
	const char *path, *what;
};
extern const struct run_field run_same_fields[];
extern const size_t nr_run_same_fields;
/* The value of @f in @doc; NULL if the run does not record it. */
const cJSON *run_field(const cJSON *doc, const struct run_field *f);

/* "complete", "partial", ...; "?" if none. */
const char *run_status(const cJSON *doc);
/* The workload's name; NULL if none. */
const char *run_workload(const cJSON *doc);
/* The allocator's config lines ("CONFIG_SLUB=y"), an array or NULL. */
const cJSON *run_allocator_config(const cJSON *doc);
int run_nr_boots(const cJSON *doc);
/* Field @field of /proc/meminfo at @when ("before") of boot @boot, in kB. */
double boot_meminfo(const cJSON *doc, int boot, const char *when, const char *field);
/* Boot @boot's snapshots, an object keyed by when ("after", "t0.0s"); or NULL. */
const cJSON *boot_snapshots(const cJSON *doc, int boot);
/*
 * The slab census (docs/census.md, "In results") of boot @boot at @when:
 * "before" or "after" (every run), or "tN.PHASE". NULL when the kernel has none (Debian's
 * packaged kernel lacks our patch) or it was not read.
 */
const cJSON *boot_census(const cJSON *doc, int boot, const char *when);
/*
 * The census of test @test (its index in tests[], from 0) at phase
 * @phase ("0s", "30s", "shrink") while it held memory, "tTEST.PHASE";
 * NULL as above.
 */
const cJSON *boot_test_census(const cJSON *doc, int boot, int test, const char *phase);
/* Test @test's census phases, as its workload entry gave them: strings; NULL if none. */
const cJSON *run_census_phases(const cJSON *doc, int test);

/* Of one census: */
/* "slab", "slub" or "slob"; "?" if none. */
const char *census_allocator(const cJSON *c);
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
/* Of one cache record: its name ("?" if none), and field @field, NAN if absent. */
const char *census_cache_name(const cJSON *cache);
double census_cache_field(const cJSON *cache, const char *field);
/*
 * @field summed over the cache records whose names start with @prefix
 * ("sb-cache-": the caches benchmark's; "": every cache); NAN if none
 * has it.
 */
double census_caches_sum(const cJSON *c, const char *prefix, const char *field);
/*
 * Check @name's verdict ("objects", "pages", "sums", "lists", "node",
 * "counter", "identities", "meminfo", "slabinfo", "sysfs"): "exact",
 * "off" or "moving" (counter and identities only); NULL when there was
 * nothing to check.
 */
const char *census_check(const cJSON *c, const char *name);
/* Every discrepancy the checks found, one string each; empty when all exact. */
const cJSON *census_failures(const cJSON *c);

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
/* The metrics object, each member a metric named by its key; or NULL. */
const cJSON *test_metrics(const cJSON *t);
/* Metric @name of the test; NULL if absent. */
const cJSON *test_metric(const cJSON *t, const char *name);
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
/* A sweep point's labels ({"size": 64}), or NULL. */
const cJSON *metric_labels(const cJSON *m);
/* Label @key of a sweep point; NAN if it has none. */
double metric_label_num(const cJSON *m, const char *key);
/* The recorded summary (results_summarize), NAN when absent. */
double metric_mean(const cJSON *m);
double metric_stddev(const cJSON *m);
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
