// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the cost model's file and its join to the samples. */
#define _GNU_SOURCE
#include "check.h"
#include "cost.h"
#include "results.h"
#include "util.h"
#include "workload.h"

#include <stdlib.h>

/* Window 7 closed twice (two batches of one sample), window 9 on vCPU 1. */
static const char fixture[] =
	"# slabbench-cost 2 l1d=32768/8/64 l2=1048576/16/64 llc=262144/16/64\n"
	"window 3 vcpu 0 insns 100 loads 10 stores 5 locked 0 irqflag 0 l1d_miss 1 l2_miss 1 llc_miss 1 "
	"intr 0\n"
	"window 7 vcpu 0 insns 1000 loads 300 stores 200 locked 2 irqflag 4 l1d_miss 6 l2_miss 4 llc_miss 2 "
	"intr 1\n"
	"window 9 vcpu 1 insns 5 loads 0 stores 0 locked 0 irqflag 0 l1d_miss 0 l2_miss 0 llc_miss 0 "
	"intr 0\n"
	"window 7 vcpu 0 insns 1000 loads 300 stores 200 locked 2 irqflag 4 l1d_miss 0 l2_miss 0 llc_miss 0 "
	"intr 2\n";

static void test_parse(void)
{
	struct cost_file cf;
	const struct cost_window *w;

	CHECK(cost_parse("f", fixture, &cf) == 0, "the fixture parses");
	CHECK(cf.version == 2 && cf.lines == 4 && cf.n == 3,
	      "4 lines, 3 windows (7 twice summed)");
	CHECK_STR(cf.geometry, "l1d=32768/8/64 l2=1048576/16/64 llc=262144/16/64",
		  "the header's geometry is kept");
	w = cost_find(&cf, 7);
	CHECK(w && w->c[COST_INSNS] == 2000 && w->c[COST_LOADS] == 600 &&
	      w->c[COST_STORES] == 400 && w->c[COST_LOCKED] == 4 && w->c[COST_IRQFLAG] == 8 &&
	      w->c[COST_L1D] == 6 && w->c[COST_L2] == 4 && w->c[COST_LLC] == 2 && w->intr == 3,
	      "a window closed twice sums both lines, every counter and the interrupts");
	CHECK(cost_find(&cf, 9) && cost_find(&cf, 9)->c[COST_INSNS] == 5,
	      "a window of another vCPU is found");
	CHECK(!cost_find(&cf, 8), "an id never closed is not found");
	cost_free(&cf);
	CHECK(cost_parse("f", "# slabbench-cost 2 l1d=1/1/1\n", &cf) == 0 && cf.n == 0 &&
	      !cost_find(&cf, 1), "a file with no window parses, and has none");
	cost_free(&cf);
}

static void test_parse_errors(void)
{
	static const char *const bad[] = {
		"",
		"window 1 vcpu 0 insns 1 loads 1 stores 1 locked 1 irqflag 1 l1d_miss 1 l2_miss 1 llc_miss 1\n",
		"# slabbench-cost 3 l1d=1/1/1\n",
		"# slabbench-cost 2 x\nwindow 1 vcpu 0 insns 1\n",
		"# slabbench-cost 2 x\nwindow 1 vcpu 0 insns 1 loads 1 stores 1 locked 1 irqflag 1 "
		"l1d_miss 1 l2_miss 1 llc_miss 1 intr 0 extra\n",
		"# slabbench-cost 2 x\nwindow 1 vcpu 0 insns 1 loads 1 stores 1 locked 1 irqflag 1 "
		"l1d_miss 1 l2_miss 1 llc_miss 1\n",
		"# slabbench-cost 2 x\nwindow 1 vcpu 0 loads 1 insns 1 stores 1 locked 1 irqflag 1 "
		"l1d_miss 1 l2_miss 1 llc_miss 1\n",
		"# slabbench-cost 2 x\nwindow -1 vcpu 0 insns 1 loads 1 stores 1 locked 1 irqflag 1 "
		"l1d_miss 1 l2_miss 1 llc_miss 1\n",
		"# slabbench-cost 2 x\n\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cost_file cf;

		CHECK(cost_parse("f", bad[i], &cf) == -1, "malformed file %zu refused", i);
	}
}

static cJSON *module_result(const char *windows)
{
	char *text = xasprintf("{\"test\":\"fastpath\",\"metrics\":{"
			       "\"ns_per_op[size=64]\":{\"unit\":\"ns\",\"better\":\"lower\","
			       "\"labels\":{\"size\":64},\"samples\":[1.5,2.5],%s},"
			       "\"cycles_per_op\":{\"unit\":\"cycles\",\"better\":\"lower\","
			       "\"samples\":[3,4]}}}", windows);
	cJSON *res = cJSON_Parse(text);

	free(text);
	return res;
}

static double sample(const cJSON *res, const char *metric, int i)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(res, "metrics"), metric);

	return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, "samples"), i)->valuedouble;
}

static double member(const cJSON *res, const char *metric, const char *name, int i)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(res, "metrics"), metric);

	return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, name), i)->valuedouble;
}

/* Samples net of the twin loop's window, gross and loop beside them. */
static void test_join_loop(void)
{
	cJSON *res = module_result("\"windows\":[7,3],\"ops_per_window\":100,\"loop_window\":3");
	const cJSON *raw, *loop;
	struct cost_file cf;
	char *why = NULL;

	cost_parse("f", fixture, &cf);
	CHECK(cost_join(res, &cf, "f", &why) == 0 && !why, "a loop window joins");
	CHECK_NEAR(sample(res, "instructions_per_op[size=64]", 0), 19.0, 0,
		   "net: (2000 - 100) instructions over 100 ops");
	CHECK_NEAR(sample(res, "instructions_per_op[size=64]", 1), 0.0, 0,
		   "the loop's own window net of itself: 0");
	CHECK_NEAR(member(res, "instructions_per_op[size=64]", "gross", 0), 20.0, 0,
		   "gross beside it: 2000 over 100");
	CHECK_NEAR(member(res, "loads_per_op[size=64]", "loop", 0), 0.1, 1e-12,
		   "the loop's per op beside it: 10 loads over 100");
	CHECK_NEAR(sample(res, "l1d_misses_per_op[size=64]", 0), 0.05, 1e-12,
		   "misses net as well: (6 - 1) over 100");
	raw = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(res, "cost_windows"), 0);
	loop = cJSON_GetObjectItemCaseSensitive(raw, "loop");
	CHECK(cJSON_GetObjectItemCaseSensitive(raw, "insns")->valuedouble == 2000 &&
	      cJSON_GetObjectItemCaseSensitive(loop, "window")->valuedouble == 3 &&
	      cJSON_GetObjectItemCaseSensitive(loop, "insns")->valuedouble == 100,
	      "raw counts stay gross, the loop's raw counts beside them");
	cJSON_Delete(res);
	res = module_result("\"windows\":[7,3],\"ops_per_window\":100,\"loop_window\":8");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why && strstr(why, "loop window 8"),
	      "a loop window the plugin never closed is an error naming it");
	free(why);
	cJSON_Delete(res);
	cost_free(&cf);
}

static void test_join(void)
{
	cJSON *res = module_result("\"windows\":[7,3],\"ops_per_window\":100");
	cJSON *metrics, *m, *raw;
	struct cost_file cf;
	char *why = NULL;

	cost_parse("f", fixture, &cf);
	CHECK(cost_join(res, &cf, "f", &why) == 0 && !why, "the windows join");
	metrics = cJSON_GetObjectItemCaseSensitive(res, "metrics");
	CHECK(cJSON_GetArraySize(metrics) == 2 + COST_NR, "eight metrics added to the two");
	CHECK_NEAR(sample(res, "instructions_per_op[size=64]", 0), 20.0, 0,
		   "sample 0: 2000 instructions over 100 ops");
	CHECK_NEAR(sample(res, "instructions_per_op[size=64]", 1), 1.0, 0,
		   "sample 1: its own window, 100 over 100");
	CHECK_NEAR(sample(res, "irqflag_per_op[size=64]", 0), 0.08, 1e-12, "irqflag per op");
	CHECK_NEAR(sample(res, "llc_misses_per_op[size=64]", 0), 0.02, 1e-12, "llc misses per op");
	m = cJSON_GetObjectItemCaseSensitive(metrics, "l1d_misses_per_op[size=64]");
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(m, "unit")->valuestring, "misses/op",
		  "misses are in misses/op");
	CHECK(cJSON_GetObjectItemCaseSensitive(
		      cJSON_GetObjectItemCaseSensitive(m, "labels"), "size")->valuedouble == 64,
	      "the sweep point's labels are kept");
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(
			  cJSON_GetObjectItemCaseSensitive(metrics, "loads_per_op[size=64]"),
			  "unit")->valuestring, "accesses/op", "loads are in accesses/op");
	CHECK(!cJSON_GetObjectItemCaseSensitive(metrics, "instructions_per_op_of_cycles_per_op"),
	      "a metric without windows gets nothing");
	raw = cJSON_GetObjectItemCaseSensitive(res, "cost_windows");
	CHECK(cJSON_GetArraySize(raw) == 2 &&
	      cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(raw, 0), "insns")->valuedouble == 2000 &&
	      cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(raw, 0), "window")->valuedouble == 7 &&
	      cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(raw, 1), "ops")->valuedouble == 100,
	      "raw per-window counts are kept, per sample");
	CHECK(cost_unit("insns/op") && cost_unit("misses/op") && cost_unit("accesses/op") &&
	      !cost_unit("ns") && !cost_unit("cycles"), "the model's units");
	cJSON_Delete(res);

	res = module_result("\"windows\":[7,8],\"ops_per_window\":100");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why && strstr(why, "window 8"),
	      "a window the plugin never closed is an error naming it");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(res, "metrics")) == 2,
	      "and adds nothing");
	free(why);
	why = NULL;
	cJSON_Delete(res);
	res = module_result("\"windows\":[7],\"ops_per_window\":100");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why, "fewer windows than samples refused");
	free(why);
	why = NULL;
	cJSON_Delete(res);
	res = module_result("\"windows\":[7,3],\"ops_per_window\":0");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why, "zero ops per window refused");
	free(why);
	why = NULL;
	cJSON_Delete(res);
	cost_free(&cf);
	test_join_loop();
}

/* The runner's path: frames with windows become results with the model's metrics. */
static void test_frames(void)
{
	static const char workload_text[] =
		"{\"name\":\"t\",\"tests\":[{\"test\":\"fastpath\",\"params\":{\"size\":64}}]}";
	const char *res = "{\"test\":\"fastpath\",\"params\":{\"size\":64},\"metrics\":{"
			  "\"alloc_ns_per_op\":{\"unit\":\"ns\",\"better\":\"lower\","
			  "\"samples\":[10.5,11.5],\"windows\":[3,7],\"ops_per_window\":50}}}";
	char *chan = xasprintf("@SB result 0 %zu\n%s\n", strlen(res), res);
	cJSON *doc = cJSON_CreateObject(), *tests, *boot = cJSON_CreateObject(), *m;
	struct cost_file cf;
	struct results_cost rc = { &cf, "f" };
	struct workload w;
	char *why = NULL;

	workload_parse("t.json", workload_text, 0, &w);
	cJSON_AddNumberToObject(doc, "schema", RESULTS_SCHEMA);
	tests = cJSON_AddArrayToObject(doc, "tests");
	cJSON_AddItemToArray(tests, cJSON_CreateObject());
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "boots"), boot);
	cost_parse("f", fixture, &cf);
	CHECK(results_add_frames_cost(doc, boot, &w, chan, strlen(chan), NULL, "", &rc, &why) == 0,
	      "a result with windows goes in under the cost model");
	m = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(tests, 0), "metrics"),
		"alloc_instructions_per_op");
	CHECK(m && cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, "samples"), 0)->valuedouble == 2.0 &&
	      cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, "samples"), 1)->valuedouble == 40.0,
	      "alloc_ns_per_op's windows give alloc_instructions_per_op, per boot too");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
		      cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(tests, 0), "extra"),
		      "cost_windows")) == 1, "the raw counts are kept per boot in extra");
	free(why);
	free(chan);
	cost_free(&cf);
	workload_free(&w);
	cJSON_Delete(doc);
}

int main(void)
{
	test_parse();
	test_parse_errors();
	test_join();
	test_frames();
	return check_done();
}
