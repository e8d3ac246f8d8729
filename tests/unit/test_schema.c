// SPDX-License-Identifier: GPL-2.0
/* The results schema's accessors on real results, and the label rule. */
#define _GNU_SOURCE
#include "check.h"
#include "json.h"
#include "kind.h"
#include "results.h"
#include "schema.h"
#include "strbuf.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

static const char *const paths[] = {
	"tests/data/report-slab.json", "tests/data/report-slub.json",
};

static void test_identity(const cJSON *const *docs)
{
	struct run_id *ids = run_ids(paths, docs, 2);

	CHECK_STR(ids[0].label, "slab", "identity: the label is the variant");
	CHECK_STR(ids[1].allocator, "SLUB", "identity: the allocator, from the guest's module");
	CHECK_STR(ids[0].release, "6.1.192", "identity: the kernel release");
	CHECK_STR(ids[0].tree, "6.1", "identity: the kernel tree");
	CHECK_STR(ids[0].accel, "tcg", "identity: the accelerator");
	CHECK(ids[0].emulated, "identity: TCG time is emulated");
	CHECK(ids[0].cpus == 2 && ids[0].mem_mb == 512, "identity: the guest's shape");
	CHECK_STR(ids[0].cmdline, "", "identity: no extra kernel parameters");
	CHECK(ids[1].path == paths[1], "identity: the file it came from");
	run_ids_free(ids, 2);
	ids = run_ids(NULL, docs, 1);
	CHECK_STR(ids[0].path, "?", "identity: no path given, none made up");
	run_ids_free(ids, 1);
}

static cJSON *doc_of(const char *variant, const char *allocator)
{
	cJSON *doc = cJSON_CreateObject();

	if (variant)
		cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "kernel"), "variant", variant);
	if (allocator)
		cJSON_AddStringToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(doc, "guest"),
								"info"), "allocator", allocator);
	return doc;
}

static void test_labels(void)
{
	cJSON *docs[] = {
		doc_of("slub", "SLUB"), doc_of("slub-6.12", "SLUB"), doc_of("slub", "SLUB"),
		doc_of(NULL, "SLAB"), doc_of(NULL, NULL),
	};
	struct run_id *ids = run_ids(NULL, (const cJSON *const *)docs, 5);

	CHECK_STR(ids[0].label, "slub", "label: the variant");
	CHECK_STR(ids[1].label, "slub-6.12", "label: variants of one allocator stay apart");
	CHECK_STR(ids[2].label, "slub#3", "label: a repeated variant gets its position");
	CHECK_STR(ids[3].label, "SLAB", "label: no variant recorded, the allocator");
	CHECK_STR(ids[4].label, "?", "label: neither recorded, unknown");
	run_ids_free(ids, 5);
	for (size_t i = 0; i < ARRAY_SIZE(docs); i++)
		cJSON_Delete(docs[i]);
}

static void test_run(const cJSON *doc)
{
	const cJSON *fast = run_test(doc, 0), *sizes = run_test(doc, 5), *m;
	struct summary s;

	CHECK_STR(run_status(doc), "complete", "run: status");
	CHECK_STR(run_workload(doc), "default", "run: workload name");
	CHECK(run_nr_tests(doc) == 14 && run_test(doc, 14) == NULL, "run: 14 tests, no 15th");
	CHECK(run_nr_boots(doc) == 1, "run: one boot");
	CHECK(boot_meminfo(doc, 0, "before", "Slab") == 4388, "boot: meminfo before, in kB");
	CHECK(isnan(boot_meminfo(doc, 1, "before", "Slab")), "boot: none past the last");
	CHECK_STR(test_name(fast), "fastpath", "test: the module's name");
	CHECK_STR(test_spec(fast), "test=fastpath api=cache size=64 iters=200000 repeats=15",
		  "test: the spec");
	CHECK(test_param_num(fast, "size") == 64, "test: a number parameter");
	CHECK_STR(test_param_str(fast, "api"), "cache", "test: a string parameter");
	CHECK_STR(test_param_str(fast, "size"), "?", "test: a number is not a string");
	CHECK(test_extra_num(fast, "loop_overhead_ns", 0) == 1.834, "test: what it reported, per boot");
	CHECK(isnan(test_extra_num(fast, "loop_overhead_ns", 1)) &&
	      isnan(test_extra_num(fast, "cache_merged", 0)) && isnan(test_extra_num(fast, "none", 0)),
	      "test: NAN past the last boot, for a non-number, for an absent key");
	m = test_metric(fast, "ns_per_op");
	CHECK_STR(metric_unit(m), "ns", "metric: unit");
	CHECK(!metric_higher_better(m) && !strcmp(metric_better(m), "lower"),
	      "metric: lower is better");
	CHECK(cJSON_GetArraySize(metric_samples(m)) == 15, "metric: every sample");
	metric_summarize(m, &s);
	CHECK_NEAR(s.mean, metric_mean(m), 1e-9, "metric: the summary agrees with its samples");
	CHECK(test_metric(fast, "no_such_metric") == NULL && isnan(metric_mean(NULL)),
	      "metric: an absent one is NULL, its mean NAN");
	m = test_metric(sizes, "ns_per_op[size=64]");
	CHECK(metric_label_num(m, "size") == 64 && metric_labels(m), "metric: a sweep point's label");
	CHECK(isnan(metric_label_num(test_metric(fast, "ns_per_op"), "size")),
	      "metric: no labels outside a sweep");
}

/* What the report and the mail read of a run besides its tests. */
static void test_setup(void)
{
	cJSON *doc = cJSON_Parse(
		"{\"kernel\":{\"config_base\":\"tinyconfig\",\"config_family\":\"small\","
		"\"preempt\":\"PREEMPT_NONE\",\"lacks\":[\"CONFIG_X\"],"
		"\"slab_options\":{\"CONFIG_SLAB_FREELIST_HARDENED\":\"y\"},"
		"\"common_config_lines\":[\"CONFIG_A=y\"]},"
		"\"vm\":{\"cpu_model\":\"max\",\"cost_model\":{\"geometry\":\"l1d=32K/8/64\","
		"\"requested\":\"l1d=32K\"}},"
		"\"workload\":{\"name\":\"w\",\"after_boot_s\":30},"
		"\"boots\":[{\"userspace\":{\"commands\":[\"a\",\"b\"],\"cpus_ran\":2,"
		"\"cpus_online\":4},\"snapshots\":{\"before\":{\"meminfo\":{\"Slab\":7}}},"
		"\"console_starved\":null},{\"console_starved\":\"rcu: INFO: stall\"}]}");
	const cJSON *const docs[] = { doc };
	struct run_id *ids = run_ids(NULL, docs, 1);
	struct boot_userspace u;

	CHECK_STR(ids[0].config_base, "tinyconfig", "setup: the config's base");
	CHECK_STR(ids[0].config_family, "small", "setup: the config's family");
	CHECK_STR(ids[0].preempt, "PREEMPT_NONE", "setup: the preemption model");
	CHECK_STR(ids[0].cpu_model, "max", "setup: QEMU's CPU model");
	CHECK_STR(ids[0].cost_geometry, "l1d=32K/8/64", "setup: the cost model's caches as run");
	CHECK_STR(ids[0].cost_requested, "l1d=32K", "setup: the caches as asked for");
	CHECK_STR(cJSON_GetArrayItem(run_kernel_lacks(doc), 0)->valuestring, "CONFIG_X",
		  "setup: what the kernel lacks");
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(run_slab_options(doc),
						   "CONFIG_SLAB_FREELIST_HARDENED")->valuestring,
		  "y", "setup: the slab options");
	CHECK(cJSON_GetArraySize(run_common_config_lines(doc)) == 1 &&
	      run_allocator_config(doc) == NULL, "setup: the config's lines, as recorded");
	CHECK(run_after_boot_s(doc) == 30 && cJSON_IsObject(run_workload_def(doc)),
	      "setup: the workload as recorded");
	CHECK(boot_userspace(doc, 0, &u) && u.commands == 2 && u.cpus_ran == 2 &&
	      u.cpus_online == 4, "setup: the boot's user space");
	CHECK(!boot_userspace(doc, 1, &u), "setup: no user space in a boot without one");
	CHECK(!boot_console_starved(doc, 0) && !boot_console_starved(doc, 2),
	      "setup: no starved vCPU in a boot that says null, nor past the last boot");
	CHECK_STR(boot_console_starved(doc, 1), "rcu: INFO: stall",
		  "setup: a boot's starved vCPU, as its console said");
	CHECK(json_num_at(boot_meminfo_all(doc, 0, "before"), "Slab") == 7 &&
	      boot_meminfo_all(doc, 0, "after") == NULL, "setup: a snapshot's meminfo");
	run_ids_free(ids, 1);
	cJSON_Delete(doc);
}

static void test_json(void)
{
	cJSON *o = cJSON_Parse("{\"a\":{\"b\":{\"c\":3,\"s\":\"x\"}},\"l\":[\"p\",1,\"q\"]}");

	CHECK(json_num_at(o, "a.b.c") == 3, "json: a number by path");
	CHECK_STR(json_str_at(o, "a.b.s"), "x", "json: a string by path");
	CHECK(isnan(json_num_at(o, "a.b.s")) && !strcmp(json_str_at(o, "a.b.c"), "?"),
	      "json: the wrong type is NAN or \"?\"");
	CHECK(json_at(o, "a.x.c") == NULL && json_at(NULL, "a") == NULL, "json: absent is NULL");
	CHECK(json_has_string(json_at(o, "l"), "q") && !json_has_string(json_at(o, "l"), "1"),
	      "json: a string in an array, numbers aside");
	{
		char *a = json_short(json_at(o, "a.b.s")), *b = json_short(json_at(o, "a.b.c"));
		char *l = json_short(json_at(o, "l"));
		cJSON *w = cJSON_CreateString("abcdefghijklmnopq");
		char *c = json_short(w);

		CHECK(!strcmp(a, "x") && !strcmp(b, "3") && !strcmp(l, "[\"p\",1,\"q\"]") &&
		      !strcmp(c, "abcdefghijkl..."),
		      "json: a value in 16 characters, a string bare, a longer one cut");
		free(a);
		free(b);
		free(l);
		free(c);
		cJSON_Delete(w);
	}
	{
		cJSON *x = cJSON_Parse("[\"A=y\",\"B=y\",\"C=loooooong\"]");
		cJSON *y = cJSON_Parse("[\"B=y\",\"D=y\",1]");
		struct strbuf d = { 0 }, e = { 0 };

		json_lines_diff(&d, x, y, 0, 0);
		json_lines_diff(&e, x, y, 2, 5);
		CHECK_STR(d.s, "-A=y\n-C=loooooong\n+D=y\n", "json: lines one array lacks, then the other");
		CHECK_STR(e.s, "  -A=y\n  -C=loo\n  +D=y\n", "json: the same indented and cut");
		free(d.s);
		free(e.s);
		cJSON_Delete(x);
		cJSON_Delete(y);
	}
	{
		cJSON *b = json_child(json_child(o, "a"), "b"), *n = json_child(o, "new");

		json_add_string_or_null(n, "s", "t");
		json_add_string_or_null(n, "z", NULL);
		CHECK(b == json_at(o, "a.b") && json_num_at(b, "c") == 3,
		      "json: a child that is there is the one returned");
		CHECK(n == json_at(o, "new") && !strcmp(json_str_at(o, "new.s"), "t") &&
		      cJSON_IsNull(json_at(o, "new.z")),
		      "json: one that is not is added, a string or null in it");
	}
	cJSON_Delete(o);
}

/* Every unit the agent and the module write is one compare knows. */
static void test_units(void)
{
	static const char *const written[] = {
		"ns", "cycles", "ops/s", "s", "calls", "pages", "bytes", "objects", "per1k",
		"objects/call", "%", "insns/op", "accesses/op", "misses/op", "dentries", "kB",
	};
	enum metric_kind kind;

	for (size_t i = 0; i < ARRAY_SIZE(written); i++)
		CHECK(!metric_kind(written[i], &kind), "unit '%s' has a kind", written[i]);
	CHECK(!metric_kind("kB", &kind) && kind == KIND_EXACT,
	      "the memcg workload's charges (kB) are counts, not times");
	CHECK(metric_kind("KiB", &kind) == -1, "an unknown unit is refused");
}

int main(void)
{
	cJSON *docs[2];

	for (int i = 0; i < 2; i++)
		docs[i] = results_load(paths[i]);
	CHECK(docs[0] && docs[1], "both results files load");
	if (docs[0] && docs[1]) {
		test_identity((const cJSON *const *)docs);
		test_run(docs[0]);
	}
	test_labels();
	test_units();
	test_setup();
	test_json();
	for (int i = 0; i < 2; i++)
		cJSON_Delete(docs[i]);
	return check_done();
}
