// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the cost model's file and its join to the samples. */
#define _GNU_SOURCE
#include "check.h"
#include "compare.h"
#include "cost.h"
#include "report.h"
#include "results.h"
#include "schema.h"
#include "timed_fixture.h"
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
	cJSON *res = module_result("\"windows\":[7,3],\"switches\":[0,0],\"ops_per_window\":100,"
				    "\"loop_window\":3,\"loop_switches\":0");
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
	res = module_result("\"windows\":[7,3],\"switches\":[0,0],\"ops_per_window\":100,"
			    "\"loop_window\":8,\"loop_switches\":0");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why && strstr(why, "loop window 8"),
	      "a loop window the plugin never closed is an error naming it");
	free(why);
	cJSON_Delete(res);
	cost_free(&cf);
}

static void test_join(void)
{
	cJSON *res = module_result("\"windows\":[7,3],\"switches\":[0,0],\"ops_per_window\":100");
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

	res = module_result("\"windows\":[7,8],\"switches\":[0,0],\"ops_per_window\":100");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why && strstr(why, "window 8"),
	      "a window the plugin never closed is an error naming it");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(res, "metrics")) == 2,
	      "and adds nothing");
	free(why);
	why = NULL;
	cJSON_Delete(res);
	res = module_result("\"windows\":[7],\"switches\":[0],\"ops_per_window\":100");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why, "fewer windows than samples refused");
	free(why);
	why = NULL;
	cJSON_Delete(res);
	res = module_result("\"windows\":[7,3],\"switches\":[0,0],\"ops_per_window\":0");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why, "zero ops per window refused");
	free(why);
	why = NULL;
	cJSON_Delete(res);
	cost_free(&cf);
	test_join_loop();
}

static const cJSON *metric(const cJSON *res, const char *name)
{
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(res, "metrics"),
						name);
}

static const cJSON *raw_at(const cJSON *res, int i)
{
	return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(res, "cost_windows"), i);
}

/* No switch in any window: the very output of a join before switches were read. */
static void test_join_no_switch(void)
{
	cJSON *res = module_result("\"windows\":[7,3],\"switches\":[0,0],\"ops_per_window\":100,"
				   "\"loop_window\":3,\"loop_switches\":0");
	const cJSON *m;
	struct cost_file cf;
	char *why = NULL, *one;
	bool none = true;

	cost_parse("f", fixture, &cf);
	CHECK(cost_join(res, &cf, "f", &why) == 0, "windows without a switch join");
	one = cJSON_PrintUnformatted(raw_at(res, 0));
	CHECK_STR(one, "{\"metric\":\"ns_per_op[size=64]\",\"window\":7,\"ops\":100,\"intr\":3,"
		  "\"insns\":2000,\"loads\":600,\"stores\":400,\"locked\":4,\"irqflag\":8,"
		  "\"l1d_miss\":6,\"l2_miss\":4,\"llc_miss\":2,\"loop\":{\"window\":3,\"intr\":0,"
		  "\"insns\":100,\"loads\":10,\"stores\":5,\"locked\":0,\"irqflag\":0,"
		  "\"l1d_miss\":1,\"l2_miss\":1,\"llc_miss\":1}}",
		  "the raw record is unchanged: no switches, no rejected mark");
	free(one);
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(res, "metrics"))
		none &= !cJSON_GetObjectItemCaseSensitive(m, "rejected");
	CHECK(none, "and no metric carries a rejected count");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
		      metric(res, "instructions_per_op[size=64]"), "samples")) == 2 &&
	      !cost_rejected(metric(res, "instructions_per_op[size=64]"), NULL) &&
	      !cost_rejected_words(metric(res, "instructions_per_op[size=64]")),
	      "every window a sample, none rejected, no words for it");
	cJSON_Delete(res);
	cost_free(&cf);
}

/* A window a context switch entered is no sample: left out, marked and counted. */
static void test_join_rejected(void)
{
	cJSON *res = module_result("\"windows\":[7,3],\"switches\":[2,0],\"ops_per_window\":100");
	const cJSON *m, *r;
	struct cost_rejected rej;
	struct cost_file cf;
	char *why = NULL, *words;

	cost_parse("f", fixture, &cf);
	CHECK(cost_join(res, &cf, "f", &why) == 0 && !why, "a window with switches joins");
	m = metric(res, "instructions_per_op[size=64]");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "samples")) == 1 &&
	      sample(res, "instructions_per_op[size=64]", 0) == 1.0,
	      "its sample is left out: window 3's alone remains, 100 over 100");
	CHECK(cost_rejected(m, &rej) && rej.windows == 1 && rej.switched == 1 &&
	      rej.loop_switched == 0, "the metric counts it: 1 window, by its own switches");
	CHECK(cost_rejected(metric(res, "l1d_misses_per_op[size=64]"), NULL),
	      "every one of the eight metrics does");
	words = cost_rejected_words(m);
	CHECK_STR(words, "1 of 2 windows rejected: a context switch entered it (1 the sample's "
		  "window, 0 its twin loop's)", "and says how many, of how many, and why");
	free(words);
	words = cost_rejected_count(1);
	CHECK_STR(words, "1 window rejected", "one window is said in the singular");
	free(words);
	words = cost_rejected_count(3);
	CHECK_STR(words, "3 windows rejected", "more in the plural");
	free(words);
	r = raw_at(res, 0);
	CHECK(cJSON_GetObjectItemCaseSensitive(r, "insns")->valuedouble == 2000 &&
	      cJSON_GetObjectItemCaseSensitive(r, "switches")->valuedouble == 2 &&
	      !strcmp(cJSON_GetObjectItemCaseSensitive(r, "rejected")->valuestring,
		      "a context switch entered the window"),
	      "the raw record keeps its counts, marked rejected with its switches");
	CHECK(!cJSON_GetObjectItemCaseSensitive(raw_at(res, 1), "rejected"),
	      "the other window's record is not marked");
	cJSON_Delete(res);

	/* The plugin writes no line for a window that ended in another's handler. */
	res = module_result("\"windows\":[8,3],\"switches\":[1,0],\"ops_per_window\":100");
	CHECK(cost_join(res, &cf, "f", &why) == 0 && !why,
	      "a rejected window the plugin never closed is no error");
	CHECK(!cJSON_GetObjectItemCaseSensitive(raw_at(res, 0), "insns") &&
	      cJSON_GetObjectItemCaseSensitive(raw_at(res, 0), "rejected"),
	      "its record has no counts, and is marked");
	cJSON_Delete(res);
	res = module_result("\"windows\":[7,3],\"ops_per_window\":100");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why && strstr(why, "switches"),
	      "windows without switches refused: nothing says they are samples");
	free(why);
	why = NULL;
	cJSON_Delete(res);
	res = module_result("\"windows\":[7,3],\"switches\":[0,0],\"ops_per_window\":100,"
			    "\"loop_window\":3");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why && strstr(why, "switches"),
	      "a loop window without its switches refused");
	free(why);
	cJSON_Delete(res);
	cost_free(&cf);
}

/*
 * A window no switch entered but that ended with another task runnable:
 * schedule() may have run in the benchmark's task and picked it again,
 * which no switch count shows. It is no sample either, and said apart.
 */
static void test_join_crowded(void)
{
	cJSON *res = module_result("\"windows\":[7,3],\"switches\":[0,0],\"crowded\":[1,0],"
				   "\"ops_per_window\":100");
	const cJSON *m;
	struct cost_rejected rej;
	struct cost_file cf;
	char *why = NULL, *words;

	cost_parse("f", fixture, &cf);
	CHECK(cost_join(res, &cf, "f", &why) == 0 && !why, "a crowded window joins");
	m = metric(res, "instructions_per_op[size=64]");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "samples")) == 1,
	      "a crowded window is no sample");
	CHECK(cost_rejected(m, &rej) && rej.windows == 1 && rej.switched == 0 &&
	      rej.loop_switched == 0 && rej.crowded == 1, "it is counted as crowded, not switched");
	CHECK(strstr(cJSON_GetObjectItemCaseSensitive(raw_at(res, 0), "rejected")->valuestring,
		     "another task was runnable") &&
	      !cJSON_GetObjectItemCaseSensitive(raw_at(res, 1), "rejected"),
	      "its raw record says why; the other's is not marked");
	words = cost_rejected_words(m);
	CHECK_STR(words, "1 of 2 windows rejected: another task was runnable in it, so the "
		  "scheduler may have run in the benchmark's task", "the words say why");
	free(words);
	cJSON_Delete(res);

	res = module_result("\"windows\":[7,3],\"switches\":[1,0],\"crowded\":[1,1],"
			    "\"ops_per_window\":100");
	CHECK(cost_join(res, &cf, "f", &why) == 0 && !why, "a switched and a crowded window join");
	m = metric(res, "instructions_per_op[size=64]");
	CHECK(cost_rejected(m, &rej) && rej.windows == 2 && rej.switched == 1 && rej.crowded == 1,
	      "a switch is the reason where there was one");
	words = cost_rejected_words(m);
	CHECK_STR(words, "all 2 windows rejected: a context switch entered 1 (1 the sample's "
		  "window, 0 its twin loop's), another task was runnable in 1",
		  "both reasons, each with its count");
	free(words);
	cJSON_Delete(res);

	res = module_result("\"windows\":[7,3],\"switches\":[0,0],\"crowded\":[1],"
			    "\"ops_per_window\":100");
	CHECK(cost_join(res, &cf, "f", &why) == -1 && why && strstr(why, "crowded"),
	      "a crowded list of another length is refused");
	free(why);
	cJSON_Delete(res);
	cost_free(&cf);
}

/* The twin loop's window entered by a switch: no sample is net of true counts. */
static void test_join_all_rejected(void)
{
	cJSON *res = module_result("\"windows\":[7,3],\"switches\":[0,0],\"ops_per_window\":100,"
				   "\"loop_window\":9,\"loop_switches\":1");
	const cJSON *m;
	struct cost_rejected rej;
	struct cost_file cf;
	char *why = NULL, *words;

	cost_parse("f", fixture, &cf);
	CHECK(cost_join(res, &cf, "f", &why) == 0 && !why, "a switched loop window joins");
	m = metric(res, "instructions_per_op[size=64]");
	CHECK(m && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "samples")) == 0 &&
	      cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "gross")) == 0,
	      "no sample: none is 0, none is estimated");
	CHECK(cost_rejected(m, &rej) && rej.windows == 2 && rej.loop_switched == 2 &&
	      rej.switched == 0, "both windows rejected, by the loop's switch");
	words = cost_rejected_words(m);
	CHECK_STR(words, "all 2 windows rejected: a context switch entered them (0 the sample's "
		  "window, 2 its twin loop's)", "the words say all");
	free(words);
	CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(raw_at(res, 1), "rejected")->valuestring,
		      "a context switch entered the twin loop's window") &&
	      cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
			raw_at(res, 1), "loop"), "switches")->valuedouble == 1,
	      "each record is marked, the loop's switches beside it");
	cJSON_Delete(res);
	cost_free(&cf);
}

/* The runner's path: frames with windows become results with the model's metrics. */
static void test_frames(void)
{
	static const char workload_text[] =
		"{\"name\":\"t\",\"tests\":[{\"test\":\"fastpath\",\"params\":{\"size\":64}}]}";
	const char *res = "{\"test\":\"fastpath\",\"params\":{\"size\":64},\"metrics\":{"
			  "\"alloc_ns_per_op\":{\"unit\":\"ns\",\"better\":\"lower\","
			  "\"samples\":[10.5,11.5],\"windows\":[3,7],\"switches\":[0,0],\"ops_per_window\":50}}}";
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

/* One boot's result of alloc_ns_per_op in windows 3 and 7, with @switches. */
static int add_boot(cJSON *doc, const struct workload *w, const struct cost_file *cf,
		    const char *switches)
{
	char *res = xasprintf("{\"test\":\"fastpath\",\"params\":{\"size\":64},\"metrics\":{"
			      "\"alloc_ns_per_op\":{\"unit\":\"ns\",\"better\":\"lower\","
			      "\"samples\":[10.5,11.5],\"windows\":[3,7],\"switches\":%s,"
			      "\"ops_per_window\":50}}}", switches);
	char *chan = xasprintf("@SB result 0 %zu\n%s\n", strlen(res), res);
	cJSON *boot = cJSON_CreateObject();
	struct results_cost rc = { cf, "f" };
	char *why = NULL;
	int ret;

	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(doc, "boots"), boot);
	ret = results_add_frames_cost(doc, boot, w, chan, strlen(chan), NULL, "", &rc, &why);
	free(why);
	free(chan);
	free(res);
	return ret;
}

/* Rejected windows over a run's boots: summed; a count with none left is absent. */
static void test_frames_rejected(void)
{
	static const char workload_text[] =
		"{\"name\":\"t\",\"tests\":[{\"test\":\"fastpath\",\"params\":{\"size\":64}}]}";
	cJSON *doc = cJSON_CreateObject(), *t;
	const cJSON *m, *boots;
	struct cost_rejected rej;
	struct cost_file cf;
	struct workload w;
	char *words;

	workload_parse("t.json", workload_text, 0, &w);
	cost_parse("f", fixture, &cf);
	cJSON_AddNumberToObject(doc, "schema", RESULTS_SCHEMA);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "tests"), cJSON_CreateObject());
	cJSON_AddArrayToObject(doc, "boots");
	CHECK(add_boot(doc, &w, &cf, "[0,1]") == 0 && add_boot(doc, &w, &cf, "[0,0]") == 0 &&
	      add_boot(doc, &w, &cf, "[3,1]") == 0, "three boots go in, one and two windows "
	      "rejected");
	t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "tests"), 0);
	m = test_metric(t, "alloc_instructions_per_op");
	boots = cJSON_GetObjectItemCaseSensitive(m, "boots");
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "samples")) == 3 &&
	      cJSON_GetArraySize(cJSON_GetArrayItem(boots, 0)) == 1 &&
	      cJSON_GetArraySize(cJSON_GetArrayItem(boots, 1)) == 2 &&
	      cJSON_GetArraySize(cJSON_GetArrayItem(boots, 2)) == 0,
	      "the samples kept, per boot: 1, 2 and none");
	CHECK(cost_rejected(m, &rej) && rej.windows == 3 && rej.switched == 3,
	      "the rejected windows summed over the boots: 3");
	words = cost_rejected_words(m);
	CHECK(words && strstr(words, "3 of 6 windows rejected"), "of 6 windows in all");
	free(words);
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
		      test_metric(t, "alloc_ns_per_op"), "switches")) == 6,
	      "the module's switches are kept beside its samples, as its irqs");
	results_summarize(doc);
	CHECK(test_metric(t, "alloc_instructions_per_op") && !test_absent_metric(t,
	      "alloc_instructions_per_op"), "a count with samples left stays");
	cJSON_Delete(doc);

	doc = cJSON_CreateObject();
	cJSON_AddNumberToObject(doc, "schema", RESULTS_SCHEMA);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "tests"), cJSON_CreateObject());
	cJSON_AddArrayToObject(doc, "boots");
	add_boot(doc, &w, &cf, "[1,1]");
	add_boot(doc, &w, &cf, "[2,5]");
	results_summarize(doc);
	t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "tests"), 0);
	m = test_absent_metric(t, "alloc_instructions_per_op");
	CHECK(!test_metric(t, "alloc_instructions_per_op") && m,
	      "every window rejected: the count is absent, not 0");
	words = cost_rejected_words(m);
	CHECK_STR(words, "all 4 windows rejected: a context switch entered them (4 the sample's "
		  "window, 0 its twin loop's)", "and says why");
	free(words);
	CHECK(test_metric(t, "alloc_ns_per_op") && cJSON_GetArraySize(test_absent_metrics(t)) ==
	      COST_NR, "the eight counts set aside, the time kept");
	cJSON_Delete(doc);
	cost_free(&cf);
	workload_free(&w);
}

/* @n counts in insns/op, each a boot; @rejected windows of them, if any. */
static void count_metric(cJSON *metrics, const char *name, const double *x, int n, int rejected)
{
	cJSON *o;

	fixture_metric(metrics, name, "insns/op", "lower", x, n);
	if (!rejected)
		return;
	o = cJSON_AddObjectToObject(cJSON_GetObjectItem(metrics, name), "rejected");
	cJSON_AddNumberToObject(o, "windows", rejected);
	cJSON_AddNumberToObject(o, "switched", rejected);
	cJSON_AddNumberToObject(o, "loop_switched", 0);
}

/*
 * slab against slub, counts of the cost model: instructions with 2 and 1
 * windows rejected (@rejecting), irqflag with none; slub's loads absent,
 * every window rejected, when @rejecting.
 */
static void count_docs(cJSON **docs, bool rejecting)
{
	const double a[] = { 140, 140, 140 }, b[] = { 150, 150, 150 }, q[] = { 2, 2, 2 };
	cJSON *metrics, *absent;

	docs[0] = fixture_timed_doc("slab", "cost", &metrics);
	count_metric(metrics, "instructions_per_op", a, 3, rejecting ? 2 : 0);
	count_metric(metrics, "loads_per_op", a, 3, 0);
	count_metric(metrics, "irqflag_per_op", q, 3, 0);
	docs[1] = fixture_timed_doc("slub", "cost", &metrics);
	count_metric(metrics, "instructions_per_op", b, 3, rejecting ? 1 : 0);
	count_metric(metrics, "loads_per_op", b, rejecting ? 0 : 3, rejecting ? 4 : 0);
	count_metric(metrics, "irqflag_per_op", q, 3, 0);
	if (rejecting) {
		absent = cJSON_AddObjectToObject(cJSON_GetArrayItem(cJSON_GetObjectItem(docs[1],
							"tests"), 0), "absent_metrics");
		cJSON_AddItemToObject(absent, "loads_per_op",
				      cJSON_DetachItemFromObject(metrics, "loads_per_op"));
	}
	for (int i = 0; i < 2; i++)
		cJSON_AddArrayToObject(docs[i], "boots");
}

static const struct cmp_row *row_of(const struct comparison *c, const char *metric)
{
	for (int i = 0; i < c->nr_rows; i++)
		if (!strcmp(c->rows[i].metric, metric))
			return &c->rows[i];
	return NULL;
}

/* compare and report: "exact" only with how many windows were rejected; absent, never 0. */
static void test_compare_rejected(void)
{
	static const char *const p[] = { "a.json", "b.json" };
	const struct cmp_row *ins, *loads;
	struct comparison c;
	cJSON *docs[2], *j, *cell;
	char *text, *gate, *report;
	bool warned = false;

	count_docs(docs, true);
	CHECK(compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0,
	      "counts with rejected windows compare");
	ins = row_of(&c, "instructions_per_op");
	loads = row_of(&c, "loads_per_op");
	CHECK(ins && ins->rejected == 2 && ins->cells[0].rejected == 1 && ins->cells[0].exact &&
	      ins->cells[0].significant, "the kept counts: exact, a change, 2 and 1 rejected");
	CHECK(loads && !loads->cells[0].present && loads->cells[0].absent &&
	      strstr(loads->cells[0].absent, "all 4 windows rejected"),
	      "a count with every window rejected: absent, with why");
	for (int i = 0; i < c.nr_warnings; i++)
		warned |= strstr(c.warnings[i], "absent, not compared: loads_per_op") != NULL;
	CHECK(warned, "a warning names the absent count and why");
	text = compare_text(&c);
	CHECK(strstr(text, "exact, 3 rej.") &&
	      strstr(text, "N rej.: counts of the cost model's windows kept") &&
	      strstr(text, "absent"), "the table: exact, 3 rejected; absent; the legend");
	free(text);
	j = compare_json(&c);
	cell = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(
		cJSON_GetArrayItem(cJSON_GetObjectItem(j, "tests"), 0), "metrics"), 1), "runs"), 0);
	CHECK(cJSON_GetObjectItem(cell, "absent") && !cJSON_GetObjectItem(cell, "value"),
	      "JSON: the absent count has its reason and no value");
	cJSON_Delete(j);
	CHECK(compare_regressions(&c, 0, &gate) == 1 && strstr(gate, "3 windows rejected"),
	      "the gate's line says how many windows were rejected");
	free(gate);
	report = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(check_says(report, "instructions per op +7.1% regression (exact count, 3 windows "
		   "rejected)"), "the report's subject: an exact count, 3 windows rejected");
	CHECK(check_says(report, "windows rejected, the scheduler entered them: 2 in slab, 1 in "
		   "slub") && check_says(report, "0 in slab, every one in slub") &&
	      check_says(report, "the count is absent"), "the report: how many, per count; absent");
	free(report);
	compare_free(&c);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);

	count_docs(docs, false);
	CHECK(compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0,
	      "counts without rejections compare");
	text = compare_text(&c);
	report = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(!strstr(text, "rej.") && !strstr(text, "absent") && !strstr(report, "rejected") &&
	      check_says(report, "(exact count)") && c.nr_warnings == 0,
	      "none rejected: exact, and nothing said of rejections");
	free(text);
	free(report);
	compare_free(&c);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

int main(void)
{
	test_parse();
	test_parse_errors();
	test_join();
	test_join_no_switch();
	test_join_rejected();
	test_join_crowded();
	test_join_all_rejected();
	test_frames();
	test_frames_rejected();
	test_compare_rejected();
	return check_done();
}
