// SPDX-License-Identifier: GPL-2.0
/*
 * --engine=slurm's task files: a task is done only with an outcome of a
 * guest that ran its whole plan and of the same key (what a resubmission
 * may reuse), and an outcome loads back as vm_boot() gave it.
 */
#define _GNU_SOURCE
#include "check.h"
#include "slurm.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	write_file_atomic(path, text, strlen(text));
	free(path);
}

int main(void)
{
	char tmpl[] = "/tmp/test_slurm.XXXXXX", *dir = mkdtemp(tmpl), *list;
	struct vm_config c = {
		.label = "slub", .kernel = "/k/bzImage", .initrd = "/k/initrd", .accel = "cost",
		.cpus = 1, .numa_nodes = 1, .mem_mb = 512, .timeout_s = 600,
		.cpu_model = "Haswell-v4", .possible_cpus = 4,
	};
	char *saved, *path;
	struct vm_outcome o;

	if (!dir)
		return 1;
	c.dir = dir;
	CHECK(slurm_task_save(dir, &c, "key 1") == 0, "a task is written");
	path = xasprintf("%s/task.json", dir);
	saved = read_file(path, NULL);
	CHECK(saved && strstr(saved, "\"cpu_model\":\t\"Haswell-v4\"") &&
	      strstr(saved, "\"possible_cpus\":\t4"),
	      "the task keeps the guest's CPU model and possible CPUs");
	free(saved);
	free(path);
	CHECK(!slurm_task_done(dir, "key 1"), "a task without an outcome is not done");
	CHECK(slurm_outcome_load(dir, &o) == -1, "and has no outcome to load");
	put(dir, "outcome.json", "{\"status\": 0, \"accel\": \"cost\", \"tcg_thread\": \"single\","
	    "\"qemu_version\": \"7.2.19\", \"ready_s\": 1.5, \"wall_s\": 9.25,"
	    "\"console_problem\": null}");
	put(dir, "channel", "frames");
	put(dir, "cost.txt", "counts");
	CHECK(slurm_task_done(dir, "key 1"), "a task whose guest ran its plan is done");
	CHECK(!slurm_task_done(dir, "key 2"), "but not for another guest or plan (key)");
	CHECK(slurm_outcome_load(dir, &o) == 0 && o.status == VM_OK && !strcmp(o.accel, "cost") &&
	      !strcmp(o.tcg_thread, "single") && !strcmp(o.qemu_version, "7.2.19") &&
	      o.ready_s == 1.5 && o.wall_s == 9.25 && !o.console_problem,
	      "the outcome loads back: status, accelerator, threads, QEMU, times");
	CHECK(o.channel_len == 6 && !memcmp(o.channel, "frames", 6) && o.cost_text &&
	      !strcmp(o.cost_text, "counts") && strstr(o.console_path, "/console.log"),
	      "with the channel, the cost model's file and the console beside it");
	vm_outcome_free(&o);
	put(dir, "outcome.json", "{\"status\": 2, \"accel\": \"cost\"}");
	CHECK(!slurm_task_done(dir, "key 1"), "a task whose guest timed out is not done");

	unsetenv("SLURM_ARRAY_TASK_ID");
	list = xasprintf("%s/tasks", dir);
	put(dir, "tasks", dir);
	CHECK(slurm_task_run(list) == -1, "run --task outside a Slurm array is refused");
	setenv("SLURM_ARRAY_TASK_ID", "1", 1);
	CHECK(slurm_task_run(list) == -1, "and so is an index past the list");
	free(list);
	for (const char *f = "task.json\0outcome.json\0channel\0cost.txt\0tasks\0"; *f;
	     f += strlen(f) + 1) {
		char *path = xasprintf("%s/%s", dir, f);

		unlink(path);
		free(path);
	}
	rmdir(dir);
	return check_done();
}
