/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner: build (or reuse) a guest, boot it with a plan, collect what
 * its agent sends and save the results. Used by run, bench and selftest.
 */
#ifndef SLABBENCH_RUNNER_H
#define SLABBENCH_RUNNER_H

#include "guest.h"
#include "options.h"
#include "slurm.h"
#include "vm.h"

#include <stdbool.h>

struct plan;
struct workload;

/*
 * Boots per allocator unless --boots says otherwise: compare tests across
 * boots and needs 3 a side; 5 give Welch's test 8 degrees of freedom, and
 * under TCG a boot of the default workload takes about 25 s, so make demo
 * (SLAB and SLUB) spends about 4 minutes booting.
 */
#define RUN_BOOTS 5
/*
 * Under --accel=cost: boot N takes QEMU seed N + 1, and a seed gives the
 * same counts on every run. Three seeds are what compare needs to judge
 * the simulated misses (and the few counts that move with the page
 * allocator's lists) against their spread; more would add 17 to 57 s a
 * boot (measured on quick) for nothing compare uses.
 */
#define RUN_COST_BOOTS 3

/*
 * -j: guests at once. 1 by default: guests that share a host perturb
 * each other's times (caches, memory bandwidth, SMT siblings); exact
 * counts (--accel=cost) and the census's memory do not depend on it.
 */
#define RUN_JOBS_MAX 256
#define OPT_JOBS(v)								\
	{ .type = OPT_T_LONG, .short_name = 'j', .name = "jobs", .value = (v),	\
	  .argh = "N", .min = 1, .max = RUN_JOBS_MAX,				\
	  .help = "guests booted at once, each on host CPUs of its\n"		\
		  "own when the host has them; boots still start in\n"	\
		  "the interleaved order, recorded. Safe for exact\n"		\
		  "counts (--accel=cost) and the census; times of\n"		\
		  "guests run at once are not a serial run's",		\
	  .deftext = "1" }

struct runner_opts {
	struct vm_opts vm;
	const char *allocs;	/* comma-separated variants of vm/variants */
	const char *workload;	/* a workload file, or a name in workloads/ */
	const char *output;	/* a file; with several allocators a directory */
	const char *profile;	/* the tests to run under perf: a name or a number */
	long repeat;		/* > 0: every test's repeats */
	long boots;
	long jobs;		/* guests at once (-j); 0 or 1: one after another */
	const char *engine;	/* "local" (or NULL) or "slurm" */
	struct slurm_opts slurm;
	const char *task;	/* run --task: one Slurm array task's boot, nothing else */
	bool slub_sysfs;	/* census snapshots also read /sys/kernel/slab */
	bool quiet;		/* the caller reads the file: its path is not printed */
};

/*
 * run: for each allocator, checks the workload against its module, boots
 * it o->boots times and writes one results document (NAME.partial.json
 * when a boot failed). Returns the exit status: 0, 1 when a run failed, 2
 * for bad input.
 */
int runner_run(const struct runner_opts *o);

/*
 * The guest's plan for @w: the module's info and catalogue, the "before"
 * snapshot, each test (under perf where @profiled), while a test holds
 * memory its census phases, then "release", and the "after" snapshot.
 * The guest proves its config through /proc/config.gz when
 * @guest_config; Debian's kernel has no IKCONFIG_PROC, so there the
 * build's config is all we know. With @slub_sysfs each snapshot ends
 * with SLUB's /sys/kernel/slab, for census_checks().
 */
struct plan *runner_plan(const struct workload *w, const bool *profiled, bool guest_config,
			 bool slub_sysfs);

/*
 * The variants a command names (@argc of @argv), else the four that
 * compare the allocators; -1 after a message when vm/variants lacks one.
 */
int runner_variants(const char *cmd, int argc, char **argv, char ***variants);

/* A guest built and, once staged, its plan: stage.vm is ready for vm_boot(). */
struct runner_guest {
	struct guest g;
	struct guest_stage stage;
	const struct vm_opts *vm;
	char *cmdline;		/* the variant's and the user's */
};

/* Builds @variant if needed (progress on a terminal). */
int runner_guest_open(struct runner_guest *rg, const char *variant, const struct vm_opts *vm);
/*
 * Stages @plan (with perf: the host's perf too) for the options given to
 * open, at @cpus vCPUs; @timeout_s is the limit when --timeout is not
 * given, before scaling by the CPUs (vm_config_set()).
 */
int runner_guest_stage(struct runner_guest *rg, const struct plan *plan, bool perf, long cpus,
		       double timeout_s);
void runner_guest_close(struct runner_guest *rg);
/*
 * Whether a boot went well: 0, or -1 after one message naming @what and
 * the reason (@why, else the boot's status or the console's problem)
 * and the console's last lines.
 */
int runner_verdict(const char *what, const struct vm_outcome *o, const char *why);

#endif
