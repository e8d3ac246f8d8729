// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench run: build (or reuse) a guest per allocator, boot it, run the
 * workload in it and write one results document per allocator. The work
 * is the runner's (runner.c); this is the command line.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "options.h"
#include "runner.h"

#include <string.h>

int cmd_run(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "run",
		.about = "Builds the guest kernel of each allocator if needed, boots it in QEMU,\n"
			 "runs the workload's tests in slabbench.ko and writes one results JSON\n"
			 "per allocator and CPU count. The boots of the allocators at one CPU\n"
			 "count alternate. Guests with more vCPUs than the host has cores run\n"
			 "under single-threaded TCG. With -j N, N guests run at once: use it for\n"
			 "exact counts (--accel=cost) and the census, not for times.\n",
	};
	static const char *const engines[] = { "local", "slurm", NULL };
	struct runner_opts o = {
		.allocs = "slub", .workload = "quick",
		.vm = { .accel = "auto", .numa = 1 }, .engine = "local",
	};
	struct opt opts[] = {
		OPT_STRING(0, "alloc", &o.allocs, "LIST",
			   "comma-separated variants from vm/variants\n"
			   "or the user's variants file"),
		OPT_STRING(0, "workload", &o.workload, "FILE",
			   "a workload file, or a name in workloads/"),
		{ .type = OPT_T_STRING, .short_name = 'o', .name = "output", .value = &o.output,
		  .argh = "FILE",
		  .help = "results file; a directory if it is one, or with\nseveral allocators or CPU counts",
		  .deftext = "results/VARIANT-WORKLOAD-cpusN-TIME.json" },
		OPT_VM(&o.vm, OPT_LONGS_MAX),
		OPT_INTEGER("repeat", &o.repeat, "N", 1, 1000, NULL, "override every test's repeats"),
		{ .type = OPT_T_LONG, .name = "boots", .value = &o.boots, .argh = "N", .min = 1,
		  .max = 100, .help = "independent boots per allocator, interleaved\n"
				      "(A B A B); compare tests across boots",
		  .deftext = OPT_STR(RUN_BOOTS) ", " OPT_STR(RUN_COST_BOOTS)
			     " under --accel=cost" },
		OPT_JOBS(&o.jobs),
		OPT_CHOICE("engine", &o.engine, "ENGINE", engines,
			   "where the guests boot: here, or each boot as a\n"
			   "task of one Slurm job array (sbatch --wait); the\n"
			   "cache must be a path every node shares, and -o a\n"
			   "directory; run again to rerun only failed boots"),
		OPT_STRING(0, "partition", &o.slurm.partition, "NAME", "--engine=slurm: sbatch --partition"),
		OPT_STRING(0, "account", &o.slurm.account, "NAME", "--engine=slurm: sbatch --account"),
		OPT_STRING(0, "time-limit", &o.slurm.time_limit, "TIME",
			   "--engine=slurm: sbatch --time, per task"),
		OPT_STRING(0, "sbatch-args", &o.slurm.sbatch_args, "ARGS",
			   "--engine=slurm: more sbatch options, e.g.\n"
			   "\"--cpus-per-task=2 --qos=short\""),
		OPT_STRING(0, "task", &o.task, "LIST", "(run by a Slurm array task) one boot"),
		OPT_BOOLEAN(0, "slub-sysfs", &o.slub_sysfs,
			    "check each census cache against SLUB's\n"
			    "/sys/kernel/slab too; off by default: reading it\n"
			    "allocates inodes and kernfs nodes, which later\n"
			    "snapshots would count as SLUB's slab memory"),
		OPT_STRING(0, "profile", &o.profile, "TEST",
			   "perf record the workload's tests named TEST (or its\n"
			   "N-th test) in the guest; the top symbols are kept"),
		OPT_END(),
	};

	if (options_parse(&usage, opts, argc, argv) < 0)
		return 2;
	if (!o.boots)
		o.boots = strcmp(o.vm.accel, "cost") ? RUN_BOOTS : RUN_COST_BOOTS;
	return runner_run(&o);
}
