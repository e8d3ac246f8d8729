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
#define RUNNER_STR_(x) #x
#define RUNNER_STR(x) RUNNER_STR_(x)

/*
 * The guest-machine options every booting command takes, with one set of
 * bounds; each command sets its own defaults in @v before parsing (numa
 * 1; mem and timeout 0 for the rules in vm.h). @sweep is how many CPU
 * counts --cpus takes: run sweeps them, the others boot one.
 */
#define OPT_VM(v, sweep)							\
	OPT_CHOICE("accel", &(v)->accel, "ACCEL", vm_accels,			\
		   "auto tries KVM and falls back to TCG"),			\
	{ .type = OPT_T_LONGS, .name = "cpus", .value = &(v)->cpus_list,	\
	  .argh = (sweep) > 1 ? "LIST" : "N", .min = 1, .max = VM_CPUS_MAX,	\
	  .max_count = (sweep),							\
	  .help = (sweep) > 1 ? "guest CPUs; a list (1,8,32) runs each\n"	\
				"allocator at each count" : "guest CPUs",	\
	  .deftext = "2; 1 with icount" },					\
	OPT_INTEGER("numa", &(v)->numa, "N", 1, VM_NUMA_MAX, NULL,		\
		    "guest NUMA nodes, each with an even share\n"		\
		    "of the CPUs and the memory"),				\
	{ .type = OPT_T_LONG, .name = "possible-cpus", .value = &(v)->possible,	\
	  .argh = "N", .min = 1, .max = VM_CPUS_MAX,				\
	  .help = "possible CPUs: --cpus come up, the rest\n"		\
		  "are hot-pluggable, as on most hosts\n"			\
		  "(per-CPU memory is sized by them)",				\
	  .deftext = "as many as --cpus" },					\
	{ .type = OPT_T_LONG, .name = "mem", .value = &(v)->mem, .argh = "MB",	\
	  .min = 128, .max = 65536, .unit = "MB", .help = "guest memory",	\
	  .deftext = RUNNER_STR(VM_MB_DEFAULT) ", or "				\
		     RUNNER_STR(VM_MB_PER_CPU) " per vCPU if more" },		\
	OPT_STRING_NO("cmdline", &(v)->cmdline, "ARGS", "\n\"",		\
		      "no newlines or quotes",					\
		      "extra kernel parameters, e.g. slub_debug=FZPU"),		\
	{ .type = OPT_T_LONG, .name = "timeout", .value = &(v)->timeout,	\
	  .argh = "S", .min = 1, .max = 86400, .unit = "s",			\
	  .help = "hard limit per boot; the default times N/"			\
		  RUNNER_STR(VM_CPUS_PER_TIMEOUT) " for\nN vCPUs over "		\
		  RUNNER_STR(VM_CPUS_PER_TIMEOUT),				\
	  .deftext = "the workload's, or 600" },				\
	OPT_STRING(0, "cpu-model", &(v)->cpu_model, "M",			\
		   "QEMU's -cpu M (e.g. Skylake-Server-v4,\n"			\
		   "EPYC-Milan; default max, host under KVM):\n"		\
		   "it sizes task_struct (the XSAVE area)"),			\
	OPT_STRING(0, "caches", &(v)->cost_geometry, "LIST",		\
		   "--accel=cost: the simulated caches, e.g.\n"			\
		   "l1d=32K/8/64,l2=1M/8/64,llc=256K/16/64\n"			\
		   "(SIZE/WAYS/LINE; Zen 4's for those not given;\n"		\
		   "docs/cost-model.md)")

/*
 * Boots per allocator unless --boots says otherwise: compare tests across
 * boots and needs 3 a side; 5 give Welch's test 8 degrees of freedom, and
 * under TCG a boot of the default workload takes about 25 s, so make demo
 * (SLAB and SLUB) spends about 4 minutes booting.
 */
#define RUN_BOOTS 5
/*
 * Under --accel=cost: every boot of one kernel gives the same counts, and
 * its times count instructions (icount), so a second boot adds nothing
 * but 17 to 57 s (measured on quick).
 */
#define RUN_COST_BOOTS 1

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
/* Stages @plan (with perf: the host's perf too) for the options given to open. */
int runner_guest_stage(struct runner_guest *rg, const struct plan *plan, bool perf);
void runner_guest_close(struct runner_guest *rg);
/*
 * Whether a boot went well: 0, or -1 after one message naming @what and
 * the reason (@why, else the boot's status or the console's problem)
 * and the console's last lines.
 */
int runner_verdict(const char *what, const struct vm_outcome *o, const char *why);

#endif
