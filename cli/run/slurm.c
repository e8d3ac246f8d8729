// SPDX-License-Identifier: GPL-2.0
/* Slurm job arrays of boots (see slurm.h). */
#define _GNU_SOURCE
#include "slurm.h"
#include "json.h"
#include "options.h"
#include "rundoc.h"
#include "strbuf.h"
#include "util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TASK_FILE "task.json"
#define OUTCOME_FILE "outcome.json"

static int save_json(const char *dir, const char *name, cJSON *o)
{
	char *path = xasprintf("%s/%s", dir, name), *text = cJSON_Print(o);
	int ret;

	if (!text)
		out_of_memory();
	ret = write_file_atomic(path, text, strlen(text));
	free(text);
	free(path);
	return ret;
}

static cJSON *load_json(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text = read_file(path, NULL);
	cJSON *o = text ? cJSON_Parse(text) : NULL;

	free(text);
	free(path);
	return o;
}

/* A string member, or NULL when it is null or missing. */
static const char *str(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/*
 * The guest's options in the table's form, its one point of --cpus
 * written as the task's, so that the task derives the machine the submit
 * host derived (vm_config_set()).
 */
static cJSON *task_options(const struct vm_opts *v, long cpus)
{
	struct vm_opts one = *v;
	struct opt opts[] = { OPT_VM(&one, 1), OPT_END() };

	one.cpus_list = (struct opt_longs){ .n = 1, .v = { cpus } };
	return options_to_json(opts);
}

int slurm_task_save(const char *dir, const struct vm_config *c, const struct vm_opts *v,
		    double timeout_s, const char *key)
{
	cJSON *o = cJSON_CreateObject();
	int ret;

	json_add_string_or_null(o, "key", key);
	json_add_string_or_null(o, "label", c->label);
	json_add_string_or_null(o, "kernel", c->kernel);
	json_add_string_or_null(o, "initrd", c->initrd);
	json_add_string_or_null(o, "cmdline", c->cmdline);
	cJSON_AddNumberToObject(o, "timeout_s", timeout_s);
	cJSON_AddBoolToObject(o, "single_thread", c->single_thread);
	cJSON_AddNumberToObject(o, "seed", (double)c->seed);
	cJSON_AddItemToObject(o, "options", task_options(v, c->cpus));
	ret = save_json(dir, TASK_FILE, o);
	cJSON_Delete(o);
	return ret;
}

cJSON *slurm_task_load(const char *dir, struct vm_config *c, struct vm_opts *v)
{
	char *where = xasprintf("%s/%s", dir, TASK_FILE);
	cJSON *t = load_json(dir, TASK_FILE);
	struct opt opts[] = { OPT_VM(v, 1), OPT_END() };

	*v = (struct vm_opts){ .numa = 1 };
	*c = (struct vm_config){ 0 };
	if (!t) {
		error("%s: missing or malformed", where);
	} else if (!options_from_json(where, opts, cJSON_GetObjectItemCaseSensitive(t, "options"))) {
		if (v->accel && v->cpus_list.n == 1)
			vm_config_set(c, v, v->cpus_list.v[0], json_num_or(t, "timeout_s", 0));
		c->label = str(t, "label");
		c->kernel = str(t, "kernel");
		c->initrd = str(t, "initrd");
		c->cmdline = str(t, "cmdline");
		c->dir = dir;
		c->single_thread = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "single_thread"));
		c->seed = (long)json_num_or(t, "seed", 0);
		if (c->label && c->kernel && c->initrd && c->accel && c->timeout_s > 0) {
			free(where);
			return t;
		}
		error("%s: incomplete", where);
	}
	free(where);
	cJSON_Delete(t);
	return NULL;
}

/*
 * The outcome of the task in @dir, in the results' form: its boot record
 * and its machine, as the runner adds them to the results. -1 when there
 * is none or it names no outcome.
 */
static int outcome_load(const char *dir, struct vm_outcome *r)
{
	cJSON *j = load_json(dir, OUTCOME_FILE);
	int ret = boot_outcome_from_json(cJSON_GetObjectItemCaseSensitive(j, "boot"),
					 cJSON_GetObjectItemCaseSensitive(j, "vm"), r);

	cJSON_Delete(j);
	return ret;
}

bool slurm_task_done(const char *dir, const char *key)
{
	cJSON *task = load_json(dir, TASK_FILE);
	const char *saved = str(task, "key");
	struct vm_outcome r;
	bool done = false;

	if (saved && !strcmp(saved, key) && !outcome_load(dir, &r)) {
		done = r.status == VM_OK;
		vm_outcome_free(&r);
	}
	cJSON_Delete(task);
	return done;
}

static int save_outcome(const char *dir, const struct vm_config *c, const struct vm_outcome *r)
{
	cJSON *o = cJSON_CreateObject();
	int ret;

	boot_outcome_to_json(cJSON_AddObjectToObject(o, "boot"), cJSON_AddObjectToObject(o, "vm"),
			     c, r);
	ret = save_json(dir, OUTCOME_FILE, o);
	cJSON_Delete(o);
	return ret;
}

int slurm_task_run(const char *list)
{
	const char *id = getenv("SLURM_ARRAY_TASK_ID");
	char *text, *dir = NULL, *line, *save = NULL;
	cJSON *t = NULL;
	struct vm_config c;
	struct vm_opts v;
	struct vm_outcome r;
	long index = -1;
	int ret = -1;

	if (!id || parse_long(id, 0, INT_MAX, &index))
		return error("run --task=%s: SLURM_ARRAY_TASK_ID is not set (run by a Slurm array)",
			     list);
	text = read_file(list, NULL);
	if (!text)
		return error("%s: %s", list, strerror(errno));
	line = strtok_r(text, "\n", &save);
	for (long i = 0; line && i < index; i++)
		line = strtok_r(NULL, "\n", &save);
	if (!line) {
		error("%s: no task %ld", list, index);
		goto out;
	}
	dir = xstrdup(line);
	t = slurm_task_load(dir, &c, &v);
	if (!t)
		goto out;
	if (vm_boot(&c, &r))
		goto out;
	ret = save_outcome(dir, &c, &r) || r.status != VM_OK ? -1 : 0;
	if (r.status != VM_OK)
		error("%s: %s after %.0fs (%s/console.log)", dir, vm_status_name(r.status), r.wall_s,
		      dir);
	vm_outcome_free(&r);
out:
	cJSON_Delete(t);
	free(dir);
	free(text);
	return ret;
}

int slurm_outcome_load(const char *dir, struct vm_outcome *o)
{
	if (outcome_load(dir, o))
		return -1;
	o->console_path = xasprintf("%s/console.log", dir);
	{
		char *chan = xasprintf("%s/channel", dir);

		o->channel = read_file(chan, &o->channel_len);
		if (!o->channel) {
			o->channel = xstrdup("");
			o->channel_len = 0;
		}
		free(chan);
	}
	if (!strcmp(o->accel, "cost")) {
		o->cost_path = xasprintf("%s/%s", dir, VM_COST_FILE);
		o->cost_text = read_file(o->cost_path, NULL);
	}
	return 0;
}

/* Whether @name is a program execvp() would find on PATH. */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH");
	bool found = false;

	for (const char *p = path ? path : ""; *p && !found; p += *p == ':') {
		size_t len = strcspn(p, ":");
		char *file = xasprintf("%.*s/%s", (int)len, p, name);

		found = len && access(file, X_OK) == 0;
		free(file);
		p += len;
	}
	return found;
}

int slurm_check(const char *cmd)
{
	static const char *const progs[] = { "sbatch", "srun", "scontrol" };
	char line[256], last[256] = "";
	FILE *p;
	int status;

	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		if (!on_path(progs[i]))
			return error("%s: --engine=slurm: %s is not on PATH (Debian's slurm-client; "
				     "docs/scale.md)", cmd, progs[i]);
	/* Its last line says why: "Slurmctld(primary) at HOST is DOWN", or an error. */
	p = popen("scontrol ping 2>&1", "r");
	if (!p)
		return error("%s: --engine=slurm: scontrol ping: %s", cmd, strerror(errno));
	while (fgets(line, sizeof(line), p))
		if (line[strspn(line, " \t\n")])
			snprintf(last, sizeof(last), "%.*s", (int)strcspn(line, "\n"), line);
	status = pclose(p);
	if (status != 0)
		return error("%s: --engine=slurm: no Slurm controller answers 'scontrol ping'%s%s%s",
			     cmd, *last ? " (" : "", last, *last ? ")" : "");
	return 0;
}

int slurm_submit(const struct slurm_opts *s, const char *jobdir, char *const *dirs, int n)
{
	char *list = xasprintf("%s/tasks", jobdir), *script = xasprintf("%s/job.sh", jobdir);
	char exe[PATH_MAX], *argv[64], *words = NULL, *save = NULL, *w, *out = NULL;
	struct strbuf b = { 0 };
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int argc = 0, ret = -1;

	if (len < 0) {
		error("/proc/self/exe: %s", strerror(errno));
		goto out;
	}
	exe[len] = '\0';
	sb_addf(&b, "%s", "");
	for (int i = 0; i < n; i++)
		sb_addf(&b, "%s\n", dirs[i]);
	if (write_file_atomic(list, b.s, strlen(b.s)))
		goto out;
	free(b.s);
	b = (struct strbuf){ 0 };
	/* The nodes run this program from the shared path it has here. */
	sb_addf(&b, "#!/bin/sh\nexec ");
	sb_shell_word(&b, exe);
	sb_addf(&b, " run --task=");
	sb_shell_word(&b, list);
	sb_addf(&b, "\n");
	if (write_file_atomic(script, b.s, strlen(b.s)))
		goto out;
	argv[argc++] = xstrdup("sbatch");
	argv[argc++] = xstrdup("--parsable");
	argv[argc++] = xstrdup("--wait");
	argv[argc++] = xstrdup("--job-name=slabbench");
	argv[argc++] = xasprintf("--array=0-%d", n - 1);
	argv[argc++] = xasprintf("--output=%s/%%a.log", jobdir);
	if (s->partition)
		argv[argc++] = xasprintf("--partition=%s", s->partition);
	if (s->account)
		argv[argc++] = xasprintf("--account=%s", s->account);
	if (s->time_limit)
		argv[argc++] = xasprintf("--time=%s", s->time_limit);
	words = xstrdup(s->sbatch_args ? s->sbatch_args : "");
	for (w = strtok_r(words, " \t", &save); w && argc < 60; w = strtok_r(NULL, " \t", &save))
		argv[argc++] = xstrdup(w);
	argv[argc++] = xstrdup(script);
	argv[argc] = NULL;
	fprintf(stderr, "slabbench: %d boot%s as a Slurm job array (logs: %s/INDEX.log)\n", n,
		n == 1 ? "" : "s", jobdir);
	ret = run_capture(argv, &out, NULL);
	if (ret == 127 || ret < 0)
		error("sbatch could not be run (Debian's slurm-client; docs/scale.md)");
	for (int i = 0; i < argc; i++)
		free(argv[i]);
out:
	free(out);
	free(words);
	free(b.s);
	free(script);
	free(list);
	return ret;
}
