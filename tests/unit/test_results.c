// SPDX-License-Identifier: GPL-2.0
/* Unit tests of results: frames to a results document, errors, loading, /proc parsers. */
#define _GNU_SOURCE
#include "check.h"
#include "procfs.h"
#include "results.h"
#include "workload.h"
#include "util.h"

#include <stdlib.h>
#include <unistd.h>

static const char workload_text[] =
	"{\"name\":\"t\",\"tests\":[{\"test\":\"fastpath\",\"params\":{\"size\":64}}]}";

static char *frame(const char *kind, const char *name, const char *data)
{
	return xasprintf("@SB %s %s %zu\n%s\n", kind, name, strlen(data), data);
}

static cJSON *new_doc(void)
{
	cJSON *doc = cJSON_CreateObject(), *tests, *t;

	cJSON_AddNumberToObject(doc, "schema", RESULTS_SCHEMA);
	cJSON_AddStringToObject(doc, "status", "partial");
	tests = cJSON_AddArrayToObject(doc, "tests");
	t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "test", "fastpath");
	cJSON_AddItemToArray(tests, t);
	cJSON_AddArrayToObject(doc, "boots");
	return doc;
}

static void test_frames_to_results(void)
{
	const char *res = "{\"test\":\"fastpath\",\"params\":{\"size\":64},"
			  "\"loop_overhead_ns\":0.5,\"metrics\":{\"ns_per_op\":"
			  "{\"unit\":\"ns\",\"better\":\"lower\",\"samples\":[10.5,11.5],"
			  "\"irqs\":[0,3],\"short\":[1],"
			  "\"summary\":{\"n\":2,\"mean\":11.0,\"median\":11.0}}}}";
	char *f1 = frame("ready", "uptime", "0.4"), *f2 = frame("result", "0", res);
	char *f3 = frame("file", "meminfo.before", "MemTotal: 1000 kB\nSlab: 20 kB\n");
	char *f4 = frame("missing", "slabinfo.before", "");
	char *f5 = frame("cmd", "config", "CONFIG_SLUB=y\n# CONFIG_SLAB_DEPRECATED is not set\nCONFIG_SMP=y\n");
	char *chan = xasprintf("%s%s%s%s%s", f1, f2, f3, f4, f5), *why;
	struct workload w;
	cJSON *doc = new_doc(), *boot = cJSON_CreateObject(), *m, *snap;

	workload_parse("t.json", workload_text, 0, &w);
	cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "boots"), boot);
	CHECK(results_add_frames(doc, boot, &w, chan, strlen(chan),
				 "CONFIG_SLUB=y\n# CONFIG_SLAB_DEPRECATED is not set\nCONFIG_SMP=y\n",
				 "CONFIG_SLUB=y\n# CONFIG_SLAB_DEPRECATED is not set\n", &why) == 0,
	      "frames are accepted");
	/* A second boot appends samples and keeps them apart per boot. */
	boot = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "boots"), boot);
	CHECK(results_add_frames(doc, boot, &w, f2, strlen(f2), NULL, "", &why) == 0,
	      "second boot accepted");
	results_summarize(doc);
	m = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "tests"), 0), "metrics"), "ns_per_op");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(m, "samples")) == 4, "samples of both boots");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(m, "boots")) == 2, "samples kept per boot");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(m, "irqs")) == 4 &&
	      cJSON_GetArrayItem(cJSON_GetObjectItem(m, "irqs"), 3)->valuedouble == 3,
	      "a per-sample array follows the samples of both boots");
	CHECK(!cJSON_GetObjectItem(m, "short"), "an array not one per sample is left out");
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "summary"), "n")->valuedouble == 4,
	      "the host's summary of both boots, not the module's");
	CHECK_NEAR(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "summary"), "mean")->valuedouble, 11.0,
		   1e-12, "summary mean");
	snap = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "boots"), 0), "snapshots"), "before");
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(snap, "meminfo"), "Slab")->valuedouble == 20,
	      "meminfo snapshot parsed");
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(snap, "slabinfo")), "missing slabinfo is null");
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "guest"), "config_matches_build")),
	      "guest config matches the build");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "guest"), "allocator_config")) == 2,
	      "guest allocator lines picked out");
	cJSON_Delete(doc);
	workload_free(&w);
	free(f1); free(f2); free(f3); free(f4); free(f5); free(chan);
}

static void test_guest_error(void)
{
	char *f = frame("error", "0", "{\"error\":\"size=9999: out of range [8, 8192]\",\"errno\":22}");
	struct workload w;
	cJSON *doc = new_doc(), *boot = cJSON_CreateObject();
	char *why = NULL;

	workload_parse("t.json", workload_text, 0, &w);
	CHECK(results_add_frames(doc, boot, &w, f, strlen(f), NULL, "", &why) == -1,
	      "an error frame fails the run");
	CHECK(why && strstr(why, "out of range") && strstr(why, "test=fastpath size=64"),
	      "the reason names the spec and the module's message");
	free(why);
	why = NULL;
	CHECK(results_add_frames(doc, boot, &w, "junk\n", 5, NULL, "", &why) == -1 && why,
	      "a malformed channel fails the run");
	free(why);
	cJSON_Delete(boot);
	cJSON_Delete(doc);
	workload_free(&w);
	free(f);
}

static void test_load(void)
{
	char dir[] = "/tmp/sbtest-XXXXXX";
	char *path, *text;
	cJSON *doc = new_doc(), *back;

	CHECK(mkdtemp(dir) != NULL, "temp dir");
	path = xasprintf("%s/r.json", dir);
	CHECK(results_save(path, doc) == 0, "results saved");
	back = results_load(path);
	CHECK(back != NULL, "saved results load again");
	cJSON_Delete(back);
	text = read_file(path, NULL);
	text[strlen(text) / 2] = '\0';
	CHECK(results_parse(path, text) == NULL, "a truncated file is refused");
	CHECK(results_parse(path, "{\"schema\":99,\"status\":\"complete\",\"tests\":[]}") == NULL,
	      "an unknown schema is refused");
	CHECK(results_parse(path, "{\"status\":\"complete\"}") == NULL, "no schema is refused");
	CHECK(results_load("/nonexistent/r.json") == NULL, "a missing file is refused");
	unlink(path);
	rmdir(dir);
	free(text);
	free(path);
	cJSON_Delete(doc);
}

static void test_meminfo(void)
{
	cJSON *m = meminfo_parse("MemTotal:        500000 kB\nHugePages_Total:       0\nPercpu:  123 kB\n");

	CHECK(cJSON_GetObjectItem(m, "MemTotal")->valuedouble == 500000, "meminfo kB field");
	CHECK(cJSON_GetObjectItem(m, "HugePages_Total")->valuedouble == 0, "meminfo unitless field");
	CHECK(cJSON_GetObjectItem(m, "Percpu")->valuedouble == 123, "meminfo Percpu");
	cJSON_Delete(m);
}

static void test_slabinfo(void)
{
	/* As SLAB (tunables set) and SLUB (tunables 0) print them. */
	static const char text[] =
		"slabinfo - version: 2.1\n"
		"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
		"slabbench-held-twin      0      0     64   64    1 : tunables  120   60    8 : slabdata      0      0      0\n"
		"slabbench-held     20028  20032     64   64    1 : tunables  120   60    8 : slabdata    313    313      0\n"
		"kmalloc-1k          4000   4000   1024   16    4 : tunables    0    0    0 : slabdata    250    250      0\n";
	cJSON *o = slabinfo_parse(text, "slabbench-held");
	const cJSON *v;

	CHECK(o != NULL, "slabinfo: the cache's line is found, not its twin's");
	v = cJSON_GetObjectItemCaseSensitive(o, "active_objs");
	CHECK(cJSON_IsNumber(v) && v->valuedouble == 20028, "slabinfo: active_objs");
	v = cJSON_GetObjectItemCaseSensitive(o, "num_slabs");
	CHECK(cJSON_IsNumber(v) && v->valuedouble == 313, "slabinfo: num_slabs");
	cJSON_Delete(o);
	o = slabinfo_parse(text, "kmalloc-1k");
	v = cJSON_GetObjectItemCaseSensitive(o, "pagesperslab");
	CHECK(cJSON_IsNumber(v) && v->valuedouble == 4, "slabinfo: SLUB's line, pagesperslab");
	cJSON_Delete(o);
	CHECK(slabinfo_parse(text, "kmalloc-64") == NULL, "slabinfo: no line, NULL");
	CHECK(slabinfo_parse("slabbench-held garbage\n", "slabbench-held") == NULL,
	      "slabinfo: a malformed line, NULL");
}

int main(void)
{
	test_slabinfo();
	test_frames_to_results();
	test_guest_error();
	test_load();
	test_meminfo();
	return check_done();
}
