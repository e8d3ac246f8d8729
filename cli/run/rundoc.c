// SPDX-License-Identifier: GPL-2.0
/*
 * A run's results document as it starts (see rundoc.h): the host, the
 * guest machine, the kernel and what its config chose, the workload and
 * its tests, before any boot adds its record.
 */
#define _GNU_SOURCE
#include "rundoc.h"
#include "json.h"
#include "results.h"
#include "util.h"
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static char *cpu_model(void)
{
	char *info = read_file("/proc/cpuinfo", NULL), *p, *model;

	p = info ? strstr(info, "model name") : NULL;
	if (p && (p = strchr(p, ':'))) {
		p += 1 + strspn(p + 1, " \t");
		model = xstrndup(p, strcspn(p, "\n"));
	} else {
		model = xstrdup("unknown");
	}
	free(info);
	return model;
}

static cJSON *string_lines(const char *text)
{
	cJSON *a = cJSON_CreateArray();
	char *copy = xstrdup(text ? text : ""), *save = NULL, *line;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		cJSON_AddItemToArray(a, cJSON_CreateString(line));
	free(copy);
	return a;
}

/* The preemption model a .config chose: what a reviewer asks about first. */
const char *rundoc_preempt_model(const char *config)
{
	/* PREEMPT_LAZY: the only choice beside PREEMPT on x86 from 7.0. */
	static const struct {
		const char *line, *model;
	} models[] = {
		{ "CONFIG_PREEMPT_RT=y", "PREEMPT_RT" },
		{ "CONFIG_PREEMPT=y", "PREEMPT" },
		{ "CONFIG_PREEMPT_LAZY=y", "PREEMPT_LAZY" },
		{ "CONFIG_PREEMPT_VOLUNTARY=y", "PREEMPT_VOLUNTARY" },
		{ "CONFIG_PREEMPT_NONE=y", "PREEMPT_NONE" },
	};

	for (size_t i = 0; config && i < ARRAY_SIZE(models); i++) {
		const char *p = strstr(config, models[i].line);
		size_t n = strlen(models[i].line);

		/* Whole lines only: CONFIG_PREEMPT=y is in CONFIG_PREEMPT_RT=y's neighbourhood. */
		if (p && (p == config || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return models[i].model;
	}
	return "?";
}

/*
 * The value @config gives CONFIG_@name: its text after '=', or "n" when
 * the line says it is not set or there is none.
 */
static char *config_value(const char *config, const char *name)
{
	char *key = xasprintf("\nCONFIG_%s=", name);
	const char *p = config ? strstr(config, key) : NULL;
	char *v;

	if (p) {
		p += strlen(key);
		v = xasprintf("%.*s", (int)strcspn(p, "\n"), p);
	} else {
		v = xstrdup("n");
	}
	free(key);
	return v;
}

/*
 * Where the kernel's config came from, its family and preemption model,
 * and the options that change what an alloc+free costs or what the
 * caches hold: a reader compares these first between a small and a
 * distro kernel.
 */
static void add_config_base(cJSON *kernel, const struct guest *g, const char *build_config)
{
	static const char *const slab_options[] = {
		"MEMCG", "MEMCG_KMEM", "SLAB_FREELIST_RANDOM", "SLAB_FREELIST_HARDENED",
		"INIT_ON_ALLOC_DEFAULT_ON", "INIT_ON_FREE_DEFAULT_ON", "SHUFFLE_PAGE_ALLOCATOR",
		"HARDENED_USERCOPY", "SLUB_CPU_PARTIAL", "KFENCE", "NUMA", "NR_CPUS", "HZ",
		"PREEMPT_DYNAMIC",
	};
	cJSON *opts;

	cJSON_AddStringToObject(kernel, "config_base", g->config_base);
	cJSON_AddStringToObject(kernel, "config_family", g->config_family);
	cJSON_AddStringToObject(kernel, "preempt", rundoc_preempt_model(build_config));
	opts = cJSON_AddObjectToObject(kernel, "slab_options");
	for (size_t i = 0; i < ARRAY_SIZE(slab_options); i++) {
		char *v = config_value(build_config, slab_options[i]);

		cJSON_AddStringToObject(opts, slab_options[i], v);
		free(v);
	}
}

cJSON *rundoc_new(const struct vm_config *c, const struct guest *g, const struct workload *w,
		  const char *build_config)
{
	cJSON *doc = cJSON_CreateObject(), *host, *vm, *kernel, *tests;
	char hostname[256] = "", stamp[32], *model, *alloc;
	struct utsname u;
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	cJSON_AddNumberToObject(doc, "schema", RESULTS_SCHEMA);
	cJSON_AddStringToObject(doc, "tool", "slabbench " SLABBENCH_VERSION);
	cJSON_AddStringToObject(doc, "status", "partial");
	cJSON_AddStringToObject(doc, "created", stamp);

	host = cJSON_AddObjectToObject(doc, "host");
	gethostname(hostname, sizeof(hostname) - 1);
	cJSON_AddStringToObject(host, "hostname", hostname);
	model = cpu_model();
	cJSON_AddStringToObject(host, "cpu_model", model);
	free(model);
	if (!uname(&u))
		cJSON_AddStringToObject(host, "kernel", u.release);

	vm = cJSON_AddObjectToObject(doc, "vm");
	cJSON_AddStringToObject(vm, "accel_requested", c->accel);
	cJSON_AddNumberToObject(vm, "cpus", c->cpus);
	cJSON_AddNumberToObject(vm, "numa_nodes", c->numa_nodes);
	cJSON_AddNumberToObject(vm, "possible_cpus", c->possible_cpus);
	cJSON_AddNumberToObject(vm, "mem_mb", c->mem_mb);
	cJSON_AddStringToObject(vm, "cmdline", c->cmdline);

	kernel = cJSON_AddObjectToObject(doc, "kernel");
	cJSON_AddStringToObject(kernel, "variant", g->variant);
	cJSON_AddStringToObject(kernel, "tree", g->tree);
	cJSON_AddStringToObject(kernel, "release", g->release);
	cJSON_AddStringToObject(kernel, "build_hash", g->hash);
	alloc = read_file(g->alloc_config, NULL);
	cJSON_AddItemToObject(kernel, "allocator_config", string_lines(alloc));
	free(alloc);
	/* Equal for kernels that differ only in the allocator lines. */
	cJSON_AddStringToObject(kernel, "common_config_sha256", g->common_sha256);
	/* All of them, for a report to show how two kernels' configs differ. */
	alloc = read_file(g->common_config, NULL);
	cJSON_AddItemToObject(kernel, "common_config_lines", string_lines(alloc));
	free(alloc);
	cJSON_AddItemToObject(kernel, "lacks", string_lines(g->lacks));
	add_config_base(kernel, g, build_config);

	cJSON_AddItemToObject(doc, "workload", cJSON_Duplicate(w->json, 1));
	tests = cJSON_AddArrayToObject(doc, "tests");
	for (int i = 0; i < w->nr_tests; i++) {
		cJSON *t = cJSON_CreateObject();

		cJSON_AddStringToObject(t, "test", w->tests[i].test);
		cJSON_AddStringToObject(t, "spec", w->tests[i].spec);
		cJSON_AddItemToArray(tests, t);
	}
	cJSON_AddObjectToObject(doc, "guest");
	cJSON_AddArrayToObject(doc, "boots");
	return doc;
}

void boot_outcome_to_json(cJSON *boot, cJSON *vm, const struct vm_config *c,
			  const struct vm_outcome *r)
{
	if (!cJSON_GetObjectItemCaseSensitive(vm, "accel")) {
		cJSON_AddStringToObject(vm, "accel", r->accel);
		cJSON_AddBoolToObject(vm, "emulated_time", strcmp(r->accel, "kvm") != 0);
		/* Single-threaded TCG runs the vCPUs in turn: no time is a parallel one. */
		json_add_string_or_null(vm, "tcg_thread", r->tcg_thread);
		cJSON_AddStringToObject(vm, "qemu", r->qemu_version);
		cJSON_AddStringToObject(vm, "cpu_model", vm_cpu_model(c->cpu_model, r->accel));
	}
	cJSON_AddStringToObject(boot, "accel", r->accel);
	cJSON_AddStringToObject(boot, "outcome", vm_status_name(r->status));
	cJSON_AddNumberToObject(boot, "ready_s", r->ready_s);
	cJSON_AddNumberToObject(boot, "wall_s", r->wall_s);
	json_add_string_or_null(boot, "console_problem", r->console_problem);
	json_add_string_or_null(boot, "console_starved", r->console_starved);
}

/* A string member of @o, a copy; NULL when it is null or absent. */
static char *str_copy(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

int boot_outcome_from_json(const cJSON *boot, const cJSON *vm, struct vm_outcome *r)
{
	const char *outcome = json_str_at(boot, "outcome"), *tcg = json_str_at(vm, "tcg_thread");
	enum vm_status s = VM_OK;

	memset(r, 0, sizeof(*r));
	while (strcmp(vm_status_name(s), outcome) && s < VM_START_FAILED)
		s++;
	if (strcmp(vm_status_name(s), outcome))
		return -1;
	r->status = s;
	snprintf(r->accel, sizeof(r->accel), "%s", json_str_at(boot, "accel"));
	/* The only two values vm_boot() gives, as its static strings. */
	r->tcg_thread = !strcmp(tcg, "single") ? "single" : !strcmp(tcg, "multi") ? "multi" : NULL;
	r->qemu_version = xstrdup(json_str_at(vm, "qemu"));
	r->ready_s = json_num_or(boot, "ready_s", 0);
	r->wall_s = json_num_or(boot, "wall_s", 0);
	r->console_problem = str_copy(boot, "console_problem");
	r->console_starved = str_copy(boot, "console_starved");
	return 0;
}
