/* SPDX-License-Identifier: GPL-2.0 */
/* Booting a guest in QEMU and collecting what its agent sends. */
#ifndef SLABBENCH_VM_H
#define SLABBENCH_VM_H

#include "options.h"

#include <stdbool.h>
#include <stddef.h>

/* What a user chooses about the guest machine (the shared VM options). */
struct vm_opts {
	const char *accel;
	struct opt_longs cpus_list;	/* --cpus: one value, or run's sweep; empty: default */
	long numa;		/* nodes; each gets an even share of CPUs and memory */
	long possible;		/* --possible-cpus: possible CPUs; 0: as many as online */
	long mem;		/* MB; 0: vm_mem_mb()'s rule */
	long timeout;		/* s per boot; 0: the caller's default */
	const char *cmdline;	/* extra kernel parameters, may be NULL */
	const char *cost_geometry;	/* --accel=cost: the plugin's cache options, may be NULL */
	const char *cpu_model;	/* QEMU's -cpu; NULL: vm_cpu_model()'s default */
};

/*
 * The cost model (--accel=cost): single-threaded TCG under icount, whose
 * interrupts then land at the same instruction on every run, with the
 * TCG plugin of tcg/ counting instructions, memory accesses and
 * simulated cache misses in the windows the module marks (kmod/sb_mark.h).
 * The plugin writes COST_FILE in the run directory, read after poweroff.
 */
#define VM_COST_PLUGIN "build/tcg/slabbench-cost.so"
#define VM_COST_FILE "cost.txt"

/*
 * Memory for @cpus vCPUs when --mem is not given: 512 MB, or
 * VM_MB_PER_CPU per vCPU when that is more. A many-caches workload keeps
 * a CPU slab of up to 32 KiB (order 3) in each of up to 800 caches on
 * every CPU: 25 MiB per vCPU, before per-CPU partial slabs (measured: 800
 * caches on 16 CPUs grew SLUB's slabs past 190 MB); the module holds at
 * most a quarter of the guest (kmod/sb_mem.c).
 */
#define VM_MB_DEFAULT 512
#define VM_MB_PER_CPU 64
/*
 * Above this many vCPUs the default time limit of a boot grows in
 * proportion: single-threaded TCG runs every vCPU's work on one host
 * thread (booting itself is quick: 64 vCPUs came up in 8.4 s).
 */
#define VM_CPUS_PER_TIMEOUT 8
/* NUMA nodes a guest may have (--numa). */
#define VM_NUMA_MAX 4
/* vCPUs a guest may have: the guest kernels' CONFIG_NR_CPUS. */
#define VM_CPUS_MAX 64

/*
 * The guest-machine options every booting command takes, with one set of
 * bounds; each command sets its own defaults in @v before parsing (numa
 * 1; mem and timeout 0 for the rules of vm_config_set()). @sweep is how many CPU
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
	  .deftext = OPT_STR(VM_MB_DEFAULT) ", or "				\
		     OPT_STR(VM_MB_PER_CPU) " per vCPU if more" },		\
	OPT_STRING_NO("cmdline", &(v)->cmdline, "ARGS", "\n\"",		\
		      "no newlines or quotes",					\
		      "extra kernel parameters, e.g. slub_debug=FZPU"),		\
	{ .type = OPT_T_LONG, .name = "timeout", .value = &(v)->timeout,	\
	  .argh = "S", .min = 1, .max = 86400, .unit = "s",			\
	  .help = "hard limit per boot; the default times N/"			\
		  OPT_STR(VM_CPUS_PER_TIMEOUT) " for\nN vCPUs over "		\
		  OPT_STR(VM_CPUS_PER_TIMEOUT),				\
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

struct vm_config {
	const char *label;	/* for progress and messages, e.g. "slab" */
	const char *kernel;	/* bzImage */
	const char *initrd;
	const char *dir;	/* run directory: console log, channel file */
	const char *accel;	/* auto, kvm, tcg, icount or cost */
	const char *cost_geometry;	/* cost: "l1d=S/W/L,..." for the plugin, or NULL */
	long seed;		/* cost: QEMU's -seed (RDRAND), 1 when 0 */
	const char *cpu_model;	/* QEMU's -cpu; NULL: vm_cpu_model()'s default */
	long cpus;
	long numa_nodes;	/* 2 to VM_NUMA_MAX: CPUs and memory split evenly; else one */
	long possible_cpus;	/* above cpus: hot-pluggable CPUs QEMU lists but does not start */
	long mem_mb;
	const char *cmdline;	/* extra kernel parameters, may be NULL */
	double timeout_s;
	int expected_results;	/* for the progress line */
	/*
	 * TCG on one host thread. QEMU 7.2's multi-threaded TCG can go on
	 * running translated code of a kprobe after it was removed (about one
	 * hitrate run in 40 hangs or dies on an int3): for guests that time
	 * nothing, and for those that run hitrate.
	 */
	bool single_thread;
	/* run -j: QEMU's threads kept to these host CPUs; none when 0. */
	const int *host_cpus;
	int nr_host_cpus;
};

enum vm_status {
	VM_OK,			/* QEMU exited after the agent's done frame */
	VM_NO_DONE,		/* QEMU exited, the agent never finished */
	VM_TIMEOUT,
	VM_INTERRUPTED,
	VM_START_FAILED,
};

struct vm_outcome {
	enum vm_status status;
	char accel[8];		/* the accelerator actually used */
	const char *tcg_thread;	/* "single" or "multi" under TCG and icount; NULL under KVM */
	char *channel;		/* the agent's frames */
	size_t channel_len;
	char *console_path;
	char *qemu_version;
	double ready_s;		/* host seconds from QEMU start to agent ready */
	double wall_s;
	/* The first console line that marks the kernel unhealthy, if any. */
	char *console_problem;
	/*
	 * In a guest whose vCPUs take turns on the host: the first report of
	 * a CPU that did not run for a detector's time (soft lockup, RCU stall,
	 * hung task). Not a failure: guest time ran on while the vCPU waited.
	 */
	char *console_starved;
	/* cost: the plugin's file, NULL when it wrote none. */
	char *cost_text;
	char *cost_path;
};

/*
 * Boots @c and fills @o with how it went. -1 after a message when no
 * guest ran: QEMU or its accelerator missing, or QEMU refusing to start
 * (its options, a plugin), in QEMU's own words from qemu.log.
 */
int vm_boot(const struct vm_config *c, struct vm_outcome *o);
void vm_outcome_free(struct vm_outcome *o);
const char *vm_status_name(enum vm_status s);
/*
 * *@problem: a copy of the first line of @log that shows an oops, panic,
 * BUG, WARN..., or NULL. With @turns (the guest's vCPUs took turns on the
 * host), a soft lockup, RCU stall or hung-task report and the backtraces
 * after it are no problem: *@starved is a copy of the first such line
 * (NULL when there is none, and always without @turns).
 */
void console_scan(const char *log, bool turns, char **problem, char **starved);
/*
 * Whether @c's vCPUs take turns on fewer host threads than it has, under
 * TCG on @tcg_thread ("single" or "multi"; NULL under KVM): on one thread,
 * or more vCPUs than the host CPUs its QEMU may use.
 */
bool vm_vcpus_take_turns(const struct vm_config *c, const char *tcg_thread);
/* The last @lines lines of a console log, for error messages. */
void print_console_tail(const char *path, int lines);
/* The accelerators --accel takes, NULL-terminated. */
extern const char *const vm_accels[];
/*
 * Whether @geometry is a comma-separated list of the plugin's cache
 * options: "l1d=", "l2=" or "llc=" then SIZE[KMG]/WAYS/LINE, or
 * "sim=window|always"; -1 after a message naming @opt.
 */
int vm_cost_geometry_check(const char *opt, const char *geometry);
/*
 * Checks the options @cmd parsed into @v and fills what was not given:
 * the CPU list (2, 1 under icount and cost, where more is refused).
 * Every CPU count must split evenly over v->numa nodes; a CPU model must
 * be one the host's QEMU lists. Returns -1 with a one-line message on a
 * refusal.
 */
int vm_opts_resolve(const char *cmd, struct vm_opts *v);
/*
 * The one place a guest machine comes from the options: @c as @v asks
 * for it at @cpus vCPUs (a point of --cpus), its memory --mem or the
 * rule above, its time limit --timeout or @timeout_s (the workload's)
 * scaled as above. The guest's own parts (label, kernel, initrd, dir,
 * cmdline) and the run's (expected_results, single_thread, host CPUs)
 * are left as they are.
 */
void vm_config_set(struct vm_config *c, const struct vm_opts *v, long cpus, double timeout_s);
/* A guest's memory in MB when --mem does not say: the rule above. */
long vm_default_mem_mb(long cpus);
/*
 * QEMU's -cpu under @accel (kvm, tcg, icount or cost): @requested
 * (--cpu-model) if not NULL, else the default; results record it.
 */
const char *vm_cpu_model(const char *requested, const char *accel);
/*
 * QEMU's command line for @c under @accel (kvm, tcg or icount), with the
 * console and results channel in the files named; NULL-terminated, free
 * with vm_argv_free().
 */
char **vm_qemu_argv(const struct vm_config *c, const char *accel, const char *console,
		    const char *channel);
void vm_argv_free(char **argv);

#endif
