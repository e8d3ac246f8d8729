// SPDX-License-Identifier: GPL-2.0
/* Unit tests of workload files: parsing, the catalogue check, the macro table. */
#define _GNU_SOURCE
#include "check.h"
#include "macro.h"
#include "macro_table.h"
#include "workload.h"

#include "util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_valid(void)
{
	struct workload w;
	const char *text =
		"{\"name\":\"quick\",\"description\":\"d\",\"timeout_s\":120,\"tests\":["
		"{\"test\":\"fastpath\",\"params\":{\"size\":64,\"repeats\":5}},"
		"{\"test\":\"fastpath\",\"params\":{\"api\":\"kmalloc\"}},"
		"{\"test\":\"fastpath\"}]}";

	CHECK(workload_parse("w.json", text, 0, &w) == 0, "valid workload parses");
	CHECK(w.nr_tests == 3, "three tests");
	CHECK_STR(w.tests[0].spec, "test=fastpath size=64 repeats=5", "spec with numbers");
	CHECK_STR(w.tests[1].spec, "test=fastpath api=kmalloc", "spec with a word");
	CHECK_STR(w.tests[2].spec, "test=fastpath", "spec without params");
	CHECK_NEAR(w.timeout_s, 120, 0, "timeout_s read");
	CHECK(!w.boot_userspace, "no boot_userspace key: the agent alone before the after-boot snapshot");
	workload_free(&w);

	CHECK(workload_parse("w.json", "{\"name\":\"m\",\"boot_userspace\":true,"
			     "\"tests\":[{\"test\":\"caches\"}]}", 0, &w) == 0 && w.boot_userspace,
	      "boot_userspace true is read");
	workload_free(&w);
	CHECK(workload_parse("w.json", "{\"name\":\"m\",\"after_boot_s\":30,"
			     "\"tests\":[{\"test\":\"caches\"}]}", 0, &w) == 0 && w.after_boot_s == 30,
	      "after_boot_s is read");
	workload_free(&w);
	CHECK(workload_parse("w.json", "{\"name\":\"m\",\"upper_bound\":\"800 caches\","
			     "\"tests\":[{\"test\":\"caches\"}]}", 0, &w) == 0,
	      "upper_bound, words, is taken");
	workload_free(&w);
	CHECK(workload_parse("w.json", "{\"name\":\"m\",\"boot_userspace\":false,"
			     "\"tests\":[{\"test\":\"caches\"}]}", 0, &w) == 0 && !w.boot_userspace,
	      "boot_userspace false is read");
	workload_free(&w);

	CHECK(workload_parse("w.json", text, 9, &w) == 0, "parses with --repeat");
	CHECK_STR(w.tests[0].spec, "test=fastpath size=64 repeats=9", "--repeat replaces repeats");
	CHECK_STR(w.tests[2].spec, "test=fastpath repeats=9", "--repeat adds repeats");
	workload_free(&w);
}

static void test_invalid(void)
{
	static const char *const bad[] = {
		"", "[1]", "{\"name\":\"q\"", "{\"name\":\"q\",\"tests\":[]}",
		"{\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"q\",\"tests\":[{\"test\":\"fastpath\"}],\"bogus\":1}",
		"{\"name\":\"q\",\"tests\":[{\"test\":\"fast path\"}]}",
		"{\"name\":\"q\",\"tests\":[{\"test\":\"fastpath\",\"parms\":{}}]}",
		"{\"name\":\"q\",\"tests\":[{\"test\":\"fastpath\",\"params\":{\"size\":-1}}]}",
		"{\"name\":\"q\",\"tests\":[{\"test\":\"fastpath\",\"params\":{\"size\":1.5}}]}",
		"{\"name\":\"q\",\"tests\":[{\"test\":\"fastpath\",\"params\":{\"size\":[1]}}]}",
		"{\"name\":\"q\",\"tests\":[{\"test\":\"fastpath\",\"params\":{\"a b\":1}}]}",
		"{\"name\":\"q\",\"tests\":[{\"test\":\"fastpath\",\"params\":{\"api\":\"x y\"}}]}",
		"{\"name\":\"q\",\"tests\":[{\"test\":\"fastpath\",\"params\":{\"test\":\"x\"}}]}",
		"{\"name\":\"q\",\"timeout_s\":0,\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"q\",\"tests\":[7]}",
		"{\"name\":\"q\",\"boot_userspace\":1,\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"q\",\"boot_userspace\":\"yes\",\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"q\",\"after_boot_s\":-1,\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"q\",\"after_boot_s\":1.5,\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"q\",\"after_boot_s\":\"30s\",\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"q\",\"timeout_s\":60,\"after_boot_s\":60,\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"q\",\"upper_bound\":true,\"tests\":[{\"test\":\"fastpath\"}]}",
		"{\"name\":\"q\",\"upper_bound\":\"\",\"tests\":[{\"test\":\"fastpath\"}]}",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct workload w;

		CHECK(workload_parse("bad.json", bad[i], 0, &w) == -1,
		      "invalid workload %zu is rejected", i);
	}
}

static void test_shipped(void)
{
	static const char *const names[] = {
		"quick", "default", "overhead", "scaling", "remote", "macro", "memory", "churn",
		"kernel", "memcg",
	};
	/* The memory workloads' after-boot snapshot follows user space on every CPU. */
	static const char *const memory[] = { "memory", "churn", "kernel", "memcg" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *path = workload_resolve(names[i]);
		bool expect = false;
		struct workload w;

		for (size_t k = 0; k < sizeof(memory) / sizeof(memory[0]); k++)
			expect |= !strcmp(memory[k], names[i]);
		CHECK(workload_load(path, 0, &w) == 0, "workloads/%s.json loads", names[i]);
		CHECK(w.boot_userspace == expect, "workloads/%s.json: boot_userspace %s", names[i],
		      expect ? "true" : "false or absent");
		workload_free(&w);
		free(path);
	}
}

/* A directory named after a workload, as results often are, is not it. */
static void test_resolve_beside_directory(void)
{
	char dir[] = "/tmp/sb-resolve-XXXXXX", *path, *want;
	char cwd[4096];
	FILE *f;

	if (!mkdtemp(dir) || !getcwd(cwd, sizeof(cwd)) || chdir(dir) ||
	    mkdir("kernel", 0700)) {
		CHECK(0, "a scratch directory with kernel/ in it");
		return;
	}
	path = workload_resolve("kernel");
	want = xasprintf("%s/workloads/kernel.json", slabbench_home());
	CHECK_STR(path, want, "a bare name beside a directory of that name is the shipped workload");
	free(path);
	free(want);
	f = fopen("mine", "w");
	if (f)
		fclose(f);
	path = workload_resolve("mine");
	CHECK_STR(path, "mine", "a bare name that is a file here is that file");
	free(path);
	remove("mine");
	rmdir("kernel");
	if (chdir(cwd) == 0)
		rmdir(dir);
}

/* The shape of the module's debugfs "tests" document. */
static const char catalogue[] =
	"[{\"name\":\"fastpath\",\"params\":["
	"{\"name\":\"size\",\"type\":\"u64\",\"default\":64,\"min\":8,\"max\":8192},"
	"{\"name\":\"repeats\",\"type\":\"u64\",\"default\":5,\"min\":1,\"max\":1000},"
	"{\"name\":\"api\",\"type\":\"enum\",\"default\":\"cache\","
	"\"choices\":[\"cache\",\"kmalloc\"]}]},"
	"{\"name\":\"merge\",\"params\":[]},"
	"{\"name\":\"nolock\",\"available\":false,\"absent\":\"not in this kernel\","
	"\"params\":[{\"name\":\"size\",\"type\":\"u64\",\"default\":64,\"min\":8,\"max\":8192}]},"
	"{\"name\":\"calib\",\"available\":true,\"params\":[]}]";

/* The workload of @tests with --repeat=@repeat checked against @cat, which it frees. */
static int check_in(cJSON *cat, const char *tests, long repeat)
{
	char *text = xasprintf("{\"name\":\"w\",\"tests\":[%s]}", tests);
	struct workload w;
	int ret = workload_parse("w.json", text, repeat, &w);

	if (!ret) {
		ret = workload_check(&w, cat);
		workload_free(&w);
	}
	free(text);
	cJSON_Delete(cat);
	return ret;
}

static int check_against(const char *tests, long repeat)
{
	return check_in(cJSON_Parse(catalogue), tests, repeat);
}

static void test_catalogue(void)
{
	static const char *const bad[] = {
		"{\"test\":\"fastpth\"}",
		"{\"test\":\"fastpath\",\"params\":{\"sise\":64}}",
		"{\"test\":\"fastpath\",\"params\":{\"size\":7}}",
		"{\"test\":\"fastpath\",\"params\":{\"size\":8193}}",
		"{\"test\":\"fastpath\",\"params\":{\"size\":\"big\"}}",
		"{\"test\":\"fastpath\",\"params\":{\"api\":\"vmalloc\"}}",
		"{\"test\":\"fastpath\",\"params\":{\"api\":1}}",
		"{\"test\":\"merge\",\"params\":{\"size\":64}}",
		"{\"test\":\"nolock\"}",
		"{\"test\":\"nolock\",\"params\":{\"size\":64}}",
	};

	CHECK(check_against("{\"test\":\"fastpath\",\"params\":{\"size\":8,\"repeats\":1000,"
			    "\"api\":\"kmalloc\"}},{\"test\":\"merge\"}", 0) == 0,
	      "a workload within the catalogue's bounds passes");
	CHECK(check_against("{\"test\":\"calib\"}", 0) == 0,
	      "a test the catalogue marks available passes");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(check_against(bad[i], 0) == -1, "catalogue check refuses %s", bad[i]);
	CHECK(check_against("{\"test\":\"fastpath\"}", 1001) == -1,
	      "--repeat beyond the bound of repeats is refused");
}

/* @tests checked against the macro workloads' catalogue, as the runner does. */
static int check_macro(const char *tests)
{
	cJSON *cat = cJSON_CreateArray();

	macro_catalogue(cat);
	return check_in(cat, tests, 0);
}

/* What the agent takes on trust from the table it shares with the host. */
static void test_macro_table(void)
{
	char *spec = macro_spec("test=hackbench loops=7");

	CHECK_STR(spec, "test=hackbench loops=7 groups=10 mode=process ipc=socket repeats=5",
		  "macro_spec appends the table's defaults");
	free(spec);
	spec = macro_spec("test=memcg groups=2 hold=1");
	CHECK_STR(spec, "test=memcg groups=2 hold=1 files=1000 sockets=100 pipes=100",
		  "memcg: the table's defaults for the rest");
	free(spec);
	CHECK(check_macro("{\"test\":\"memcg\",\"params\":{\"groups\":8,\"hold\":1},"
			  "\"census\":[\"0s\",\"shrink\"]}") == 0,
	      "memcg with hold=1 takes census phases and passes the macro catalogue");
	CHECK(check_macro("{\"test\":\"memcg\",\"params\":{\"groups\":65}}") == -1,
	      "memcg: more groups than the agent keeps tasks for is refused");
	CHECK(check_macro("{\"test\":\"memcg\",\"params\":{\"pipes\":1001}}") == -1,
	      "memcg: more pipes than the descriptor bound is refused");
	for (int i = 0; i < MACRO_NR; i++) {
		const struct macro_workload *m = &macro_workloads[i];
		int n = 0, bounded = 1;

		for (const struct macro_param *p = m->params; p->name; p++, n++) {
			bounded &= p->min <= p->def && p->def <= p->max;
			if (p->choices)
				bounded &= p->min >= 0 && p->choices[p->max] != NULL;
			if (!strcmp(p->name, "repeats"))
				bounded &= p->min >= 1 && p->max <= MACRO_MAX_REPEATS;
		}
		CHECK(n <= MACRO_MAX_PARAMS && bounded && macro_find(m->name) == m,
		      "macro %s: %d parameters, defaults within bounds", m->name, n);
	}
}

int main(void)
{
	test_valid();
	test_invalid();
	test_shipped();
	test_resolve_beside_directory();
	test_catalogue();
	test_macro_table();
	return check_done();
}
