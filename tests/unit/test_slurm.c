// SPDX-License-Identifier: GPL-2.0
/*
 * --engine=slurm's task files: a task is done only with an outcome of a
 * guest that ran its whole plan and of the same key (what a resubmission
 * may reuse), and an outcome loads back as vm_boot() gave it. The engine
 * is refused before anything runs where Slurm's commands or its
 * controller are missing (here stand-ins on a PATH of the test's own).
 */
#define _GNU_SOURCE
#include "check.h"
#include "rundoc.h"
#include "slurm.h"
#include "stub.h"
#include "util.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	write_file_atomic(path, text, strlen(text));
	free(path);
}

static int check(const void *unused)
{
	(void)unused;
	return slurm_check("run");
}

/* What slurm_check() says with @dir as the whole PATH; its return in *ret. */
static char *check_with_path(const char *dir, int *ret)
{
	char *saved = xstrdup(getenv("PATH") ? getenv("PATH") : ""), *got;

	setenv("PATH", dir, 1);
	got = stderr_of(check, NULL, ret);
	setenv("PATH", saved, 1);
	free(saved);
	return got;
}

static void test_check(void)
{
	char tmpl[] = "/tmp/test_slurm.XXXXXX", *dir = mkdtemp(tmpl), *got, *p[4] = { 0 };
	int ret;

	if (!dir) {
		CHECK(0, "a temporary directory");
		return;
	}
	got = check_with_path(dir, &ret);
	CHECK(ret == -1, "no sbatch on PATH: refused");
	CHECK_STR(got, "slabbench: run: --engine=slurm: sbatch is not on PATH (Debian's "
		  "slurm-client; docs/scale.md)\n", "... in one line naming the program");
	free(got);
	p[0] = stub_program(dir, "sbatch", "exit 0\n");
	got = check_with_path(dir, &ret);
	CHECK(ret == -1 && strstr(got, ": srun is not on PATH") && !strchr(got, '\n')[1],
	      "sbatch without srun: refused, naming srun");
	free(got);
	p[1] = stub_program(dir, "srun", "exit 0\n");
	p[2] = stub_program(dir, "scontrol",
			    "[ \"$*\" = ping ] || exit 9\n"
			    "echo 'scontrol: error: slurm_ping: Unable to contact slurm controller' >&2\n"
			    "echo 'Slurmctld(primary) at ctl is DOWN'\nexit 1\n");
	got = check_with_path(dir, &ret);
	CHECK(ret == -1, "a controller that does not answer: refused");
	CHECK_STR(got, "slabbench: run: --engine=slurm: no Slurm controller answers 'scontrol "
		  "ping' (Slurmctld(primary) at ctl is DOWN)\n",
		  "... in one line with what scontrol said last");
	free(got);
	free(p[2]);
	p[2] = stub_program(dir, "scontrol", "[ \"$*\" = ping ] || exit 9\n"
			    "echo 'Slurmctld(primary) at ctl is UP'\n");
	got = check_with_path(dir, &ret);
	CHECK(ret == 0 && !*got, "sbatch, srun and a controller that answers: accepted, silently");
	free(got);
	for (int i = 0; i < 3; i++) {
		if (p[i])
			unlink(p[i]);
		free(p[i]);
	}
	rmdir(dir);
}

/*
 * A boot's outcome as the results record it and back: what a Slurm task
 * writes is what the runner adds to the results.
 */
static void test_outcome_json(void)
{
	struct vm_outcome r = {
		.status = VM_TIMEOUT, .accel = "tcg", .tcg_thread = "multi",
		.qemu_version = "7.2.19", .ready_s = 2.5, .wall_s = 300,
		.console_problem = "BUG: unable to handle page fault",
	}, back;
	struct vm_config c = { .cpu_model = "Haswell-v4" };
	cJSON *boot = cJSON_CreateObject(), *vm = cJSON_CreateObject();

	boot_outcome_to_json(boot, vm, &c, &r);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(boot, "outcome")), "timed out") &&
	      cJSON_IsNull(cJSON_GetObjectItem(boot, "console_starved")) &&
	      !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(vm, "cpu_model")), "Haswell-v4") &&
	      cJSON_IsTrue(cJSON_GetObjectItem(vm, "emulated_time")),
	      "outcome: the boot's record and its machine, as the results have them");
	CHECK(!boot_outcome_from_json(boot, vm, &back) && back.status == VM_TIMEOUT &&
	      !strcmp(back.accel, "tcg") && !strcmp(back.tcg_thread, "multi") &&
	      !strcmp(back.qemu_version, "7.2.19") && back.ready_s == 2.5 && back.wall_s == 300 &&
	      !strcmp(back.console_problem, r.console_problem) && !back.console_starved,
	      "outcome: read back as it was");
	vm_outcome_free(&back);
	cJSON_ReplaceItemInObject(boot, "outcome", cJSON_CreateString("exploded"));
	CHECK(boot_outcome_from_json(boot, vm, &back) == -1, "outcome: an unknown one is refused");
	cJSON_Delete(boot);
	cJSON_Delete(vm);
}

int main(void)
{
	test_outcome_json();
	char tmpl[] = "/tmp/test_slurm.XXXXXX", *dir = mkdtemp(tmpl), *list;
	struct vm_opts v = { .accel = "cost", .numa = 1, .possible = 4, .cpu_model = "Haswell-v4",
			     .cmdline = "slub_debug=F", .cost_geometry = "llc=256K/16/64",
			     .cpus_list = { .n = 2, .v = { 1, 16 } } };
	struct vm_config c = { .label = "slub", .kernel = "/k/bzImage", .initrd = "/k/initrd",
			       .cmdline = "quiet slub_debug=F", .single_thread = true };
	struct vm_config back;
	struct vm_opts vback;
	char *saved, *path;
	struct vm_outcome o;
	cJSON *t;

	if (!dir)
		return 1;
	c.dir = dir;
	vm_config_set(&c, &v, 16, 300);
	CHECK(slurm_task_save(dir, &c, &v, 300, "key 1") == 0, "a task is written");
	path = xasprintf("%s/task.json", dir);
	saved = read_file(path, NULL);
	CHECK(saved && strstr(saved, "\"cpu-model\":\t\"Haswell-v4\"") &&
	      strstr(saved, "\"possible-cpus\":\t\"4\"") && strstr(saved, "\"cpus\":\t\"16\"") &&
	      !strstr(saved, "mem"),
	      "the task keeps the options by the option table's names, its one CPU count, "
	      "no memory where --mem was not given");
	free(saved);
	free(path);
	t = slurm_task_load(dir, &back, &vback);
	CHECK(t && back.cpus == 16 && back.mem_mb == 16 * VM_MB_PER_CPU && back.timeout_s == 600 &&
	      back.possible_cpus == 4 && back.numa_nodes == 1 && !strcmp(back.accel, "cost") &&
	      !strcmp(back.cpu_model, "Haswell-v4") && !strcmp(back.cost_geometry, "llc=256K/16/64") &&
	      !strcmp(back.cmdline, "quiet slub_debug=F") && back.single_thread &&
	      !strcmp(back.kernel, "/k/bzImage") && !strcmp(back.dir, dir),
	      "the task derives the guest the submit host derived: memory and time limit by 16 CPUs");
	CHECK(t && back.mem_mb == c.mem_mb && back.timeout_s == c.timeout_s,
	      "... the same memory and time limit as vm_config_set() gave the submit host");
	cJSON_Delete(t);
	put(dir, "task.json", "{\"label\": \"slub\", \"kernel\": \"k\", \"initrd\": \"i\", "
	    "\"timeout_s\": 300, \"options\": {\"accel\": \"cost\", \"cpus\": \"0\"}}");
	CHECK(!slurm_task_load(dir, &back, &vback), "a task whose options the table refuses is refused");
	CHECK(slurm_task_save(dir, &c, &v, 300, "key 1") == 0, "written again");
	CHECK(!slurm_task_done(dir, "key 1"), "a task without an outcome is not done");
	CHECK(slurm_outcome_load(dir, &o) == -1, "and has no outcome to load");
	put(dir, "outcome.json", "{\"boot\": {\"outcome\": \"ok\", \"accel\": \"cost\", "
	    "\"ready_s\": 1.5, \"wall_s\": 9.25, \"console_problem\": null, "
	    "\"console_starved\": \"rcu: INFO: stall\"}, \"vm\": {\"tcg_thread\": \"single\", "
	    "\"qemu\": \"7.2.19\"}}");
	put(dir, "channel", "frames");
	put(dir, "cost.txt", "counts");
	CHECK(slurm_task_done(dir, "key 1"), "a task whose guest ran its plan is done");
	CHECK(!slurm_task_done(dir, "key 2"), "but not for another guest or plan (key)");
	CHECK(slurm_outcome_load(dir, &o) == 0 && o.status == VM_OK && !strcmp(o.accel, "cost") &&
	      !strcmp(o.tcg_thread, "single") && !strcmp(o.qemu_version, "7.2.19") &&
	      o.ready_s == 1.5 && o.wall_s == 9.25 && !o.console_problem &&
	      !strcmp(o.console_starved, "rcu: INFO: stall"),
	      "the outcome loads back: status, accelerator, threads, QEMU, times, console");
	CHECK(o.channel_len == 6 && !memcmp(o.channel, "frames", 6) && o.cost_text &&
	      !strcmp(o.cost_text, "counts") && strstr(o.console_path, "/console.log"),
	      "with the channel, the cost model's file and the console beside it");
	vm_outcome_free(&o);
	put(dir, "outcome.json", "{\"boot\": {\"outcome\": \"timed out\", \"accel\": \"cost\"}}");
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
	test_check();
	return check_done();
}
