// SPDX-License-Identifier: GPL-2.0
/*
 * The option tables: bounds, refusals with their messages, generated
 * help, the guest machine derived from them, and their JSON form.
 */
#define _GNU_SOURCE
#include "check.h"
#include "options.h"
#include "runner.h"
#include "stub.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct usage usage = {
	.cmd = "demo", .args = "[FILE...]", .max_args = -1,
	.about = "Demonstrates the table.\n",
};

struct values {
	struct vm_opts vm;
	const char *out;
	long n;
	double alpha;
	bool flag;
};

/* The demo command's table: the guest options and one of each other type. */
#define DEMO_OPTS(v)								\
	OPT_VM(&(v)->vm, OPT_LONGS_MAX),					\
	OPT_STRING('o', "output", &(v)->out, "FILE", "where"),			\
	OPT_INTEGER("n", &(v)->n, "N", 1, 10, "things", "how many"),		\
	OPT_DOUBLE("alpha", &(v)->alpha, "A", 0, 1, true, "a level"),		\
	OPT_BOOLEAN(0, "flag", &(v)->flag, "a switch"),				\
	OPT_END()

/* Parses @args (NULL-terminated) into @v; the message, if any, in *msg. */
static int parse(struct values *v, char **msg, const char *const *args)
{
	char *argv[24] = { "demo" };
	int argc = 1, ret, saved = dup(STDERR_FILENO);
	FILE *tmp = tmpfile();
	size_t len;
	struct opt opts[] = { DEMO_OPTS(v) };

	while (args[argc - 1])
		argv[argc] = (char *)args[argc - 1], argc++;
	*v = (struct values){ .vm = { .accel = "auto", .numa = 1 }, .n = 3, .alpha = 0.05 };
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	ret = options_parse(&usage, opts, argc, argv);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	len = ftell(tmp);
	rewind(tmp);
	*msg = calloc(1, len + 1);
	if (fread(*msg, 1, len, tmp) != len)
		(*msg)[0] = '\0';
	fclose(tmp);
	return ret;
}

#define REFUSED(want, ...)                                                   \
	do {                                                                 \
		static const char *const a_[] = { __VA_ARGS__, NULL };       \
		struct values v_;                                            \
		char *m_;                                                    \
		CHECK(parse(&v_, &m_, a_) == -1, "%s is refused", a_[0]);    \
		CHECK_STR(m_, "slabbench: " want "\n", "and the message says why"); \
		free(m_);                                                    \
	} while (0)

static void test_values(void)
{
	static const char *const args[] = {
		"--cpus=4", "-o", "x.json", "--n", "10", "--alpha=0.01", "--flag",
		"--accel=icount", "--mem=128", "--cmdline=a=b c", "--timeout=86400", "f1", "f2",
		NULL,
	};
	struct values v;
	char *msg;
	int first = parse(&v, &msg, args);

	CHECK(first == 12, "the first argument after the options (%d)", first);
	CHECK(v.vm.cpus_list.n == 1 && v.vm.cpus_list.v[0] == 4 && v.vm.mem == 128 &&
	      v.vm.timeout == 86400, "integers set, a list of one");
	CHECK_STR(v.vm.accel, "icount", "a choice set");
	CHECK_STR(v.vm.cmdline, "a=b c", "a string set");
	CHECK_STR(v.out, "x.json", "a short option's value");
	CHECK(v.n == 10 && v.alpha == 0.01 && v.flag, "bounds are inclusive; doubles and flags");
	CHECK_STR(msg, "", "no message");
	free(msg);
}

static long mem_mb(const struct vm_opts *v, long cpus)
{
	struct vm_config c = { 0 };

	vm_config_set(&c, v, cpus, 300);
	return c.mem_mb;
}

/* The time limit for @cpus vCPUs of a workload whose own is 300 s. */
static double timeout_s(const struct vm_opts *v, long cpus)
{
	struct vm_config c = { 0 };

	vm_config_set(&c, v, cpus, 300);
	return c.timeout_s;
}

/* --cpus as a sweep, --numa, and how they resolve. */
static void test_cpu_lists(void)
{
	static const char *const sweep[] = { "--cpus=1,8,32", "--numa=1", NULL };
	static const char *const numa[] = { "--cpus=4,64", "--numa=4", NULL };
	static const char *const odd[] = { "--cpus=8,6", "--numa=4", NULL };
	static const char *const none[] = { NULL };
	static const char *const icount[] = { "--accel=icount", NULL };
	static const char *const possible[] = { "--cpus=2,8", "--possible-cpus=8", NULL };
	static const char *const sixteen[] = {
		"--cpus=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,64", NULL,
	};
	struct values v;
	char *msg;

	CHECK(parse(&v, &msg, sweep) == 3 && v.vm.cpus_list.n == 3 && v.vm.cpus_list.v[0] == 1 &&
	      v.vm.cpus_list.v[1] == 8 && v.vm.cpus_list.v[2] == 32, "--cpus=1,8,32: three points in order");
	CHECK(!vm_opts_resolve("demo", &v.vm) && v.vm.cpus_list.v[0] == 1,
	      "resolved: the points as given");
	free(msg);
	CHECK(parse(&v, &msg, sixteen) == 2 && v.vm.cpus_list.n == OPT_LONGS_MAX &&
	      v.vm.cpus_list.v[15] == 64, "--cpus: up to %d points", OPT_LONGS_MAX);
	free(msg);
	CHECK(parse(&v, &msg, numa) == 3 && v.vm.numa == 4 && !vm_opts_resolve("demo", &v.vm),
	      "--numa=4 with 4 and 64 CPUs: each splits evenly");
	free(msg);
	parse(&v, &msg, odd);
	free(msg);
	CHECK(vm_opts_resolve("demo", &v.vm) == -1, "--numa=4 with 6 CPUs: refused");
	parse(&v, &msg, none);
	free(msg);
	CHECK(!vm_opts_resolve("demo", &v.vm) && v.vm.cpus_list.n == 1 && v.vm.cpus_list.v[0] == 2,
	      "no --cpus: 2");
	parse(&v, &msg, icount);
	free(msg);
	CHECK(!vm_opts_resolve("demo", &v.vm) && v.vm.cpus_list.v[0] == 1,
	      "no --cpus under icount: 1");
	CHECK(parse(&v, &msg, possible) == 3 && v.vm.possible == 8 &&
	      !vm_opts_resolve("demo", &v.vm) && v.vm.cpus_list.v[0] == 2,
	      "--possible-cpus=8 above every point of --cpus=2,8");
	free(msg);
	parse(&v, &msg, none);
	free(msg);
	CHECK(v.vm.possible == 0, "no --possible-cpus: as many as online (0)");
	{
		static const char *const model[] = { "--cpu-model=Skylake-Server-v4", NULL };
		static const char *const shell[] = { "--cpu-model=max,+avx", NULL };
		static const char *const cost[] = { "--cpu-model=EPYC", "--accel=cost", NULL };

		CHECK(parse(&v, &msg, model) == 2 && !vm_opts_resolve("demo", &v.vm) &&
		      !strcmp(v.vm.cpu_model, "Skylake-Server-v4"), "--cpu-model: a model name");
		free(msg);
		parse(&v, &msg, shell);
		free(msg);
		CHECK(vm_opts_resolve("demo", &v.vm) == -1,
		      "--cpu-model: features or other words are refused");
		parse(&v, &msg, cost);
		free(msg);
		CHECK(vm_opts_resolve("demo", &v.vm) == -1, "--cpu-model with --accel=cost: refused");
	}
	CHECK(mem_mb(&v.vm, 2) == 512 && mem_mb(&v.vm, 8) == 512 && mem_mb(&v.vm, 16) == 1024 &&
	      mem_mb(&v.vm, 64) == 4096, "memory: 512 MB, or 64 per vCPU when more");
	v.vm.mem = 768;
	CHECK(mem_mb(&v.vm, 64) == 768, "memory: --mem as given");
	CHECK(timeout_s(&v.vm, 2) == 300 && timeout_s(&v.vm, 8) == 300 && timeout_s(&v.vm, 64) == 2400,
	      "time limit: the workload's, times N/8 above 8");
	v.vm.timeout = 90;
	CHECK(timeout_s(&v.vm, 64) == 90, "time limit: --timeout as given");
	{
		struct vm_config c = { .kernel = "k" };

		v.vm.possible = 0;
		vm_config_set(&c, &v.vm, 4, 300);
		CHECK(c.cpus == 4 && c.possible_cpus == 4 && c.numa_nodes == v.vm.numa &&
		      !strcmp(c.kernel, "k") && c.accel == v.vm.accel,
		      "the machine: the point's CPUs, as many possible, the guest's files left alone");
	}
}

/* The options a command hands to a later process go through the table and back. */
static void test_json(void)
{
	static const char *const args[] = {
		"--cpus=2,8", "--mem=768", "--accel=cost", "--caches=llc=1M/16/64",
		"-o", "x.json", "--alpha=0.25", "--flag", NULL,
	};
	struct values v, back;
	char *msg, *text;
	cJSON *j, *bad;
	struct opt opts[] = { DEMO_OPTS(&back) };

	parse(&v, &msg, args);
	free(msg);
	back = v;
	j = options_to_json(opts);
	text = cJSON_PrintUnformatted(j);
	CHECK_STR(text, "{\"accel\":\"cost\",\"cpus\":\"2,8\",\"numa\":\"1\",\"mem\":\"768\","
		  "\"caches\":\"llc=1M/16/64\",\"output\":\"x.json\",\"n\":\"3\",\"alpha\":\"0.25\","
		  "\"flag\":true}",
		  "every given value under its option's name as its text; not given (0, NULL) left out");
	free(text);
	back = (struct values){ .vm = { .numa = 1 } };
	CHECK(!options_from_json("demo", opts, j) && back.vm.cpus_list.n == 2 &&
	      back.vm.cpus_list.v[1] == 8 && back.vm.mem == 768 && !strcmp(back.vm.accel, "cost") &&
	      !strcmp(back.vm.cost_geometry, "llc=1M/16/64") && !strcmp(back.out, "x.json") &&
	      back.n == 3 && back.alpha == 0.25 && back.flag && !back.vm.timeout,
	      "and back: the same values");
	cJSON_Delete(j);
	bad = cJSON_Parse("{\"mem\": \"64\"}");
	CHECK(options_from_json("demo", opts, bad) == -1, "a value out of bounds is refused as on the command line");
	cJSON_Delete(bad);
	bad = cJSON_Parse("{\"memory\": \"512\"}");
	CHECK(options_from_json("demo", opts, bad) == -1, "a member that names no option is refused");
	cJSON_Delete(bad);
	bad = cJSON_Parse("{\"mem\": 512}");
	CHECK(options_from_json("demo", opts, bad) == -1, "a value not in the option's text is refused");
	cJSON_Delete(bad);
}

/*
 * Every option comes back from the words options_to_argv() writes: parse,
 * words, parse again gives the same values. Every option of the table
 * must be among them, so that one added to the table is in every command
 * line rebuilt from it (watch's bisect, the report's reproducer): give
 * it below.
 */
static void test_argv(void)
{
	static const char *const all[] = {
		"--accel=tcg", "--cpus=2,8", "--numa=2", "--possible-cpus=16", "--mem=768",
		"--cmdline=slub_debug=FZPU nokaslr", "--timeout=900", "--cpu-model=Haswell-v4",
		"--caches=llc=1M/16/64", "-o", "x.json", "--n=7", "--alpha=0.3", "--flag", NULL,
	};
	static const char *const none[] = { NULL };
	struct values v, back;
	char *msg, **words;
	struct opt opts[] = { DEMO_OPTS(&v) }, again[] = { DEMO_OPTS(&back) };
	cJSON *a, *b;
	bool every = true, mem = false;

	CHECK(parse(&v, &msg, all) == (int)(sizeof(all) / sizeof(all[0])),
	      "every option given: %s", msg);
	free(msg);
	words = options_to_argv(opts);
	for (const struct opt *o = opts; o->type != OPT_T_END; o++) {
		char *eq = xasprintf("--%s=", o->name), *bare = xasprintf("--%s", o->name);
		bool found = false;

		for (char **w = words; *w && !found; w++)
			found = !strncmp(*w, eq, strlen(eq)) || !strcmp(*w, bare);
		if (!found)
			printf("# --%s: not among the words\n", o->name);
		every &= found;
		free(eq);
		free(bare);
	}
	CHECK(every, "every option of the table is among the words");
	CHECK(parse(&back, &msg, (const char *const *)words) > 0, "the words parse: %s", msg);
	free(msg);
	a = options_to_json(opts);
	b = options_to_json(again);
	CHECK(cJSON_Compare(a, b, true), "parse, words, parse: the same values");
	CHECK(back.vm.cpus_list.n == 2 && back.vm.cpus_list.v[1] == 8 && back.vm.numa == 2 &&
	      back.vm.possible == 16 && back.vm.mem == 768 && back.vm.timeout == 900 &&
	      !strcmp(back.vm.cmdline, "slub_debug=FZPU nokaslr") &&
	      !strcmp(back.vm.cpu_model, "Haswell-v4") &&
	      !strcmp(back.vm.cost_geometry, "llc=1M/16/64") && !strcmp(back.vm.accel, "tcg") &&
	      back.n == 7 && back.alpha == 0.3 && back.flag && !strcmp(back.out, "x.json"),
	      "... each guest option and each type, a blank in a value kept");
	cJSON_Delete(a);
	cJSON_Delete(b);
	options_argv_free(words);
	parse(&v, &msg, none);
	free(msg);
	words = options_to_argv(opts);
	for (char **w = words; *w; w++)
		mem |= !strncmp(*w, "--mem", 5) || !strncmp(*w, "--flag", 6);
	CHECK(!mem, "a value not given (0, false) is no word");
	options_argv_free(words);
}

/* What vm_opts_resolve() says, as the user sees it. */
static void resolve_says(const char *want, const char *const *args)
{
	int saved = dup(STDERR_FILENO);
	FILE *tmp = tmpfile();
	struct values v;
	char *msg, got[256] = "";
	size_t len;

	parse(&v, &msg, args);
	free(msg);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	CHECK(vm_opts_resolve("run", &v.vm) == -1, "%s %s: refused", args[0], args[1]);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	len = fread(got, 1, sizeof(got) - 1, tmp);
	got[len] = '\0';
	fclose(tmp);
	CHECK_STR(got, want, "and the message says why, in one line");
}

static void test_refusals(void)
{
	static const char *const odd[] = { "--cpus=2,3", "--numa=2", NULL };
	static const char *const icount[] = { "--cpus=1,2", "--accel=icount", NULL };
	static const char *const below[] = { "--cpus=2,8", "--possible-cpus=4", NULL };
	static const char *const numa[] = { "--possible-cpus=8", "--numa=2", NULL };
	static const char *const unknown[] = { "--cpu-model=NoSuchCPU", "--accel=tcg", NULL };
	char *want;

	REFUSED("demo: --cpus=65: expected 1 to 64, or a comma-separated list of up to 16 such",
		"--cpus=65");
	REFUSED("demo: --cpus=0: expected 1 to 64, or a comma-separated list of up to 16 such",
		"--cpus=0");
	REFUSED("demo: --cpus=2x: expected 1 to 64, or a comma-separated list of up to 16 such",
		"--cpus=2x");
	REFUSED("demo: --cpus=1,65: expected 1 to 64, or a comma-separated list of up to 16 such",
		"--cpus=1,65");
	REFUSED("demo: --cpus=1,,2: expected 1 to 64, or a comma-separated list of up to 16 such",
		"--cpus=1,,2");
	REFUSED("demo: --cpus=2,: expected 1 to 64, or a comma-separated list of up to 16 such",
		"--cpus=2,");
	REFUSED("demo: --cpus=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17: expected 1 to 64, or a "
		"comma-separated list of up to 16 such", "--cpus=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17");
	REFUSED("demo: --cpus=8,2,8: 8 is given twice", "--cpus=8,2,8");
	REFUSED("demo: --numa=0: expected 1 to 4", "--numa=0");
	REFUSED("demo: --numa=5: expected 1 to 4", "--numa=5");
	resolve_says("slabbench: run: --numa=2: 3 CPUs do not split evenly over 2 nodes "
		     "(give --cpus multiples of 2)\n", odd);
	resolve_says("slabbench: --accel=icount runs one vCPU only (under icount a 6.1 kernel "
		     "never brings up a second one); drop --cpus or use --cpus=1\n", icount);
	resolve_says("slabbench: run: --possible-cpus=4 is below --cpus=8 (possible CPUs include "
		     "the online ones)\n", below);
	resolve_says("slabbench: run: --possible-cpus with --numa=2: the hot-pluggable CPUs would "
		     "need nodes of their own; use one node\n", numa);
	want = xasprintf("slabbench: run: --cpu-model=NoSuchCPU: QEMU knows no such CPU model "
			 "('%s -cpu help' lists them)\n", getenv("SLABBENCH_QEMU"));
	resolve_says(want, unknown);
	free(want);
	REFUSED("demo: --possible-cpus=65: expected 1 to 64", "--possible-cpus=65");
	REFUSED("demo: --mem=64: expected 128 to 65536 (MB)", "--mem=64");
	REFUSED("demo: --n=11: expected 1 to 10 (things)", "--n=11");
	REFUSED("demo: --accel=xen: expected auto, kvm, tcg, icount or cost", "--accel=xen");
	REFUSED("demo: --alpha=1: expected a number strictly between 0 and 1", "--alpha=1");
	REFUSED("demo: --alpha=nan: expected a number strictly between 0 and 1", "--alpha=nan");
	REFUSED("demo: --cmdline: no newlines or quotes", "--cmdline=a\"b");
	REFUSED("demo: --bogus: unknown option (see 'slabbench demo --help')", "--bogus");
	REFUSED("demo: --cpus: missing value (see 'slabbench demo --help')", "--cpus");
}

static void test_arguments(void)
{
	static const struct usage none = { .cmd = "none" }, two = {
		.cmd = "two", .args = "A B", .min_args = 2, .max_args = 2,
	};
	char *argv[] = { "x", "a", "b", "c", NULL };
	struct opt opts[] = { OPT_END() };

	CHECK(options_parse(&none, opts, 1, argv) == 1, "no arguments where none are taken");
	CHECK(options_parse(&none, opts, 2, argv) == -1, "an argument where none is taken");
	CHECK(options_parse(&two, opts, 3, argv) == 1, "two where two are taken");
	CHECK(options_parse(&two, opts, 4, argv) == -1, "three where two are taken");
	CHECK(options_parse(&two, opts, 2, argv) == -1, "one where two are taken");
}

static void test_usage(void)
{
	struct vm_opts vm = { .accel = "tcg", .numa = 1, .timeout = 120 };
	long boots = 5;
	struct opt opts[] = {
		OPT_INTEGER("boots", &boots, "N", 1, 100, NULL, "boots per variant"),
		OPT_VM(&vm, 1),
		OPT_END(),
	};
	char *argv[] = { "demo", NULL }, *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	options_parse(&usage, opts, 1, argv);
	options_usage(f, &usage, opts);
	fclose(f);
	CHECK_STR(text,
		  "usage: slabbench demo [OPTION...] [FILE...]\n"
		  "\n"
		  "Demonstrates the table.\n"
		  "\n"
		  "      --boots=N          boots per variant (1 to 100, default 5)\n"
		  "      --accel=ACCEL      auto tries KVM and falls back to TCG\n"
		  "                         (auto, kvm, tcg, icount or cost, default tcg)\n"
		  "      --cpus=N           guest CPUs (1 to 64, default: 2; 1 with icount)\n"
		  "      --numa=N           guest NUMA nodes, each with an even share\n"
		  "                         of the CPUs and the memory (1 to 4, default 1)\n"
		  "      --possible-cpus=N  possible CPUs: --cpus come up, the rest\n"
		  "                         are hot-pluggable, as on most hosts\n"
		  "                         (per-CPU memory is sized by them)\n"
		  "                         (1 to 64, default: as many as --cpus)\n"
		  "      --mem=MB           guest memory\n"
		  "                         (128 to 65536, default: 512, or 64 per vCPU if more)\n"
		  "      --cmdline=ARGS     extra kernel parameters, e.g. slub_debug=FZPU\n"
		  "      --timeout=S        hard limit per boot; the default times N/8 for\n"
		  "                         N vCPUs over 8 (1 to 86400, default 120)\n"
		  "      --cpu-model=M      QEMU's -cpu M (e.g. Skylake-Server-v4,\n"
		  "                         EPYC-Milan; default max, host under KVM):\n"
		  "                         it sizes task_struct (the XSAVE area)\n"
		  "      --caches=LIST      --accel=cost: the simulated caches, e.g.\n"
		  "                         l1d=32K/8/64,l2=1M/8/64,llc=256K/16/64\n"
		  "                         (SIZE/WAYS/LINE; Zen 4's for those not given;\n"
		  "                         docs/cost-model.md)\n",
		  "the help comes from the table, with bounds and defaults");
	free(text);
}

int main(void)
{
	/* QEMU as vm_opts_resolve() asks it for its CPU models. */
	char dir[] = "/tmp/test_options.XXXXXX", *qemu = NULL;

	if (mkdtemp(dir))
		qemu = stub_program(dir, "qemu",
			    "echo 'x86 Skylake-Server-v4  Intel Xeon Processor (Skylake)'\n"
			    "echo 'x86 EPYC               AMD EPYC Processor'\n");
	CHECK(qemu, "a QEMU that lists two CPU models");
	setenv("SLABBENCH_QEMU", qemu ? qemu : "", 1);
	test_values();
	test_cpu_lists();
	test_json();
	test_argv();
	test_refusals();
	test_arguments();
	test_usage();
	if (qemu)
		unlink(qemu);
	rmdir(dir);
	free(qemu);
	return check_done();
}
