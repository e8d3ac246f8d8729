// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench run: build (or reuse) a guest per allocator, boot it, run the
 * workload in it and write one results document per allocator.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "guest.h"
#include "macro.h"
#include "results.h"
#include "util.h"
#include "vm.h"
#include "workload.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static const char run_usage[] =
	"usage: slabbench run [--alloc=LIST] [--workload=FILE] [-o FILE]\n"
	"                     [--accel=auto|kvm|tcg|icount] [--cpus=N] [--mem=MB]\n"
	"                     [--cmdline=ARGS] [--repeat=N] [--boots=N] [--timeout=S]\n"
	"                     [--profile=TEST]\n"
	"\n"
	"Builds the guest kernel of each allocator if needed, boots it in QEMU,\n"
	"runs the workload's tests in slabbench.ko and writes one results JSON.\n"
	"\n"
	"  --alloc=LIST       comma-separated variants from vm/variants (default slub)\n"
	"  --workload=FILE    a workload file, or a name in workloads/ (default quick)\n"
	"  -o, --output=FILE  results file; with several allocators, a directory\n"
	"                     (default results/VARIANT-WORKLOAD-TIME.json)\n"
	"  --accel=ACCEL      auto tries KVM and falls back to TCG (default auto)\n"
	"  --cpus=N           guest CPUs (default 2; 1 with icount)\n"
	"  --mem=MB           guest memory (default 512)\n"
	"  --cmdline=ARGS     extra kernel parameters, e.g. slub_debug=FZPU\n"
	"  --repeat=N         override every test's repeats\n"
	"  --boots=N          independent boots per allocator (default 1)\n"
	"  --timeout=S        hard limit per boot (default: the workload's, or 600)\n"
	"  --profile=TEST     perf record the workload's tests named TEST (or its\n"
	"                     N-th test) in the guest; the top symbols are kept\n";

struct run_opts {
	char *allocs;
	const char *workload;
	const char *output;
	const char *accel;
	const char *cmdline;
	const char *profile;
	bool *profiled;		/* per workload test */
	long cpus, mem, repeat, boots, timeout;
};

/*
 * The guest proves its config through /proc/config.gz; Debian's kernel
 * has no IKCONFIG_PROC, so there the build's config is all we know.
 */
/* Which tests --profile names: a test's name, or its number from 1. */
static int resolve_profile(struct run_opts *o, const struct workload *w)
{
	long n = 0;
	int hits = 0;

	o->profiled = xcalloc(w->nr_tests, sizeof(*o->profiled));
	if (!o->profile)
		return 0;
	if (parse_long(o->profile, 1, w->nr_tests, &n))
		n = 0;
	for (int i = 0; i < w->nr_tests; i++) {
		o->profiled[i] = n ? i == n - 1 : !strcmp(w->tests[i].test, o->profile);
		hits += o->profiled[i];
	}
	if (!hits)
		return error("run: --profile=%s: %s has no such test (a test's name, or 1 to %d)",
			     o->profile, w->path, w->nr_tests);
	return 0;
}

/* Whether the guest needs perf: a macro workload runs it, or a profile. */
static bool needs_perf(const struct run_opts *o, const struct workload *w)
{
	for (int i = 0; i < w->nr_tests; i++)
		if (o->profiled[i] || macro_needs_perf(w->tests[i].test))
			return true;
	return false;
}

static char *build_plan(const struct workload *w, const bool *profiled, bool guest_config)
{
	char *plan = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&plan, &len);

	if (!f)
		out_of_memory();
	fputs("file info /sys/kernel/debug/slabbench/info\n"
	      "file catalogue /sys/kernel/debug/slabbench/tests\n"
	      "file cmdline /proc/cmdline\n"
	      "write /proc/sys/vm/stat_refresh 1\n"
	      "file meminfo.before /proc/meminfo\n"
	      "file slabinfo.before /proc/slabinfo\n", f);
	if (guest_config)
		fputs("cmd config /bin/zcat /proc/config.gz\n", f);
	for (int i = 0; i < w->nr_tests; i++) {
		const char *verb = macro_known(w->tests[i].test) ? "macro" : "run";
		char *spec = macro_known(w->tests[i].test) ? macro_spec(w->tests[i].spec) :
							     xstrdup(w->tests[i].spec);

		fprintf(f, "%s%s %s\n", profiled[i] ? "profile " : "", verb, spec);
		free(spec);
		/* overhead hold=1: the allocator's own view of the held cache. */
		if (strstr(w->tests[i].spec, " hold=1"))
			fprintf(f, "file slabinfo.held-%d /proc/slabinfo\n"
				"write /sys/kernel/debug/slabbench/run release\n", i);
	}
	fputs("write /proc/sys/vm/stat_refresh 1\n"
	      "file meminfo.after /proc/meminfo\n"
	      "file slabinfo.after /proc/slabinfo\n", f);
	if (fclose(f))
		out_of_memory();
	return plan;
}

static char *cpu_model(void)
{
	char *info = read_file("/proc/cpuinfo", NULL), *p, *model;

	p = info ? strstr(info, "model name") : NULL;
	if (p && (p = strchr(p, ':'))) {
		p += 1 + strspn(p + 1, " \t");
		model = strndup(p, strcspn(p, "\n"));
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

static cJSON *new_document(const struct run_opts *o, const struct guest *g,
			   const struct workload *w, const char *cmdline)
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
	cJSON_AddStringToObject(vm, "accel_requested", o->accel);
	cJSON_AddNumberToObject(vm, "cpus", o->cpus);
	cJSON_AddNumberToObject(vm, "mem_mb", o->mem);
	cJSON_AddStringToObject(vm, "cmdline", cmdline);

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

/* x.json -> x<suffix> ("x.partial.json", "x.console.log"). */
static char *sibling(const char *path, const char *suffix)
{
	size_t n = strlen(path);

	if (n > 5 && !strcmp(path + n - 5, ".json"))
		n -= 5;
	return xasprintf("%.*s%s", (int)n, path, suffix);
}

static char *default_output(const char *dir, const char *variant,
			    const struct workload *w)
{
	char stamp[32];
	time_t now = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	return xasprintf("%s/%s-%s-%s.json", dir, variant, w->name, stamp);
}

static int copy_file(const char *from, const char *to)
{
	size_t len;
	char *data = read_file(from, &len);
	int ret;

	if (!data)
		return error("%s: %s", from, strerror(errno));
	ret = write_file_atomic(to, data, len);
	free(data);
	return ret;
}

/* What every boot of one allocator shares. */
struct variant_run {
	const struct run_opts *o;
	const struct guest *g;
	const struct workload *w;
	const char *initrd;
	const char *rundir;
	const char *out;
	const char *build_config;	/* the .config the kernel was built with */
	const char *alloc_config;	/* its allocator lines */
	const char *cmdline;		/* the variant's and --cmdline's */
	cJSON *doc;
};

/* One boot; returns 0 when the guest ran the whole plan cleanly. */
static int run_boot(const struct variant_run *v, int index)
{
	const struct run_opts *o = v->o;
	const struct guest *g = v->g;
	const struct workload *w = v->w;
	const char *out = v->out;
	cJSON *doc = v->doc;
	struct vm_config c = {
		.label = g->variant, .kernel = g->bzimage, .initrd = v->initrd,
		.dir = v->rundir, .accel = o->accel, .cpus = o->cpus,
		.mem_mb = o->mem, .cmdline = v->cmdline,
		.timeout_s = o->timeout > 0 ? o->timeout : w->timeout_s,
		.expected_results = w->nr_tests,
	};
	cJSON *boot = cJSON_CreateObject(), *vm = cJSON_GetObjectItemCaseSensitive(doc, "vm");
	char *console = index ? sibling(out, "") : sibling(out, ".console.log"), *why = NULL;
	struct vm_outcome r;
	int ret = -1;

	if (index) {
		char *base = console;

		console = xasprintf("%s.console.%d.log", base, index);
		free(base);
	}
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(doc, "boots"), boot);
	cJSON_AddNumberToObject(boot, "index", index);
	if (vm_boot(&c, &r)) {
		free(console);
		return -1;
	}
	if (!cJSON_GetObjectItemCaseSensitive(vm, "accel")) {
		cJSON_AddStringToObject(vm, "accel", r.accel);
		cJSON_AddBoolToObject(vm, "emulated_time", strcmp(r.accel, "kvm") != 0);
		cJSON_AddStringToObject(vm, "qemu", r.qemu_version);
	}
	cJSON_AddStringToObject(boot, "accel", r.accel);
	cJSON_AddStringToObject(boot, "outcome", vm_status_name(r.status));
	cJSON_AddNumberToObject(boot, "ready_s", r.ready_s);
	cJSON_AddNumberToObject(boot, "wall_s", r.wall_s);
	if (copy_file(r.console_path, console) == 0)
		cJSON_AddStringToObject(boot, "console", console);
	if (r.console_problem)
		cJSON_AddStringToObject(boot, "console_problem", r.console_problem);
	else
		cJSON_AddNullToObject(boot, "console_problem");

	if (results_add_frames(doc, boot, w, r.channel, r.channel_len,
			       v->build_config, v->alloc_config, &why)) {
		error("%s guest, boot %d: %s", g->variant, index, why);
		print_console_tail(r.console_path, 15);
	} else if (r.status != VM_OK) {
		error("%s guest, boot %d: %s after %.0fs", g->variant, index,
		      vm_status_name(r.status), r.wall_s);
		if (r.status != VM_INTERRUPTED)
			print_console_tail(r.console_path, 25);
	} else if (r.console_problem) {
		error("%s guest, boot %d: the kernel reported a problem: %s", g->variant,
		      index, r.console_problem);
		print_console_tail(r.console_path, 40);
	} else {
		ret = 0;
	}
	if (ret)
		cJSON_AddStringToObject(boot, "error", why ? why : vm_status_name(r.status));
	free(why);
	free(console);
	vm_outcome_free(&r);
	return ret;
}

static int run_variant(const struct run_opts *o, const char *variant,
		       const struct workload *w, const char *out)
{
	char *rundir = NULL, *plan = NULL, *initrd = NULL, *build_config = NULL;
	char *config_path = NULL, *alloc_text = NULL, *cmdline = NULL, *partial;
	struct guest g;
	cJSON *doc = NULL;
	int ret = -1, boot;

	if (guest_prepare(variant, &g))
		return -1;
	rundir = guest_rundir(variant);
	if (!rundir)
		goto out;
	plan = build_plan(w, o->profiled, strcmp(g.tree, "debian") != 0);
	if (guest_initrd(&g, plan, rundir, needs_perf(o, w), &initrd))
		goto out;
	config_path = xasprintf("%s/.config", g.dir);
	build_config = read_file(config_path, NULL);
	alloc_text = read_file(g.alloc_config, NULL);
	cmdline = guest_cmdline(&g, o->cmdline);
	doc = new_document(o, &g, w, cmdline);
	{
		struct variant_run v = {
			.o = o, .g = &g, .w = w, .initrd = initrd, .rundir = rundir,
			.out = out, .build_config = build_config,
			.alloc_config = alloc_text ? alloc_text : "", .doc = doc,
			.cmdline = cmdline,
		};

		ret = 0;
		for (boot = 0; boot < o->boots && !ret; boot++)
			ret = run_boot(&v, boot);
	}
	results_summarize(doc);
	if (!ret) {
		cJSON_ReplaceItemInObject(doc, "status", cJSON_CreateString("complete"));
		ret = results_save(out, doc);
		if (!ret)
			printf("%s\n", out);
	} else {
		partial = sibling(out, ".partial.json");
		if (!results_save(partial, doc))
			error("partial results of the %s guest kept in %s", variant, partial);
		free(partial);
	}
out:
	cJSON_Delete(doc);
	free(alloc_text);
	free(cmdline);
	free(build_config);
	free(config_path);
	guest_initrd_free(initrd);
	free(plan);
	free(rundir);
	guest_free(&g);
	return ret;
}

/* Before any benchmark boot: the module of @variant accepts every test. */
static int workload_valid_for(const struct workload *w, const char *variant)
{
	struct guest g;
	cJSON *cat;
	int ret;

	if (guest_prepare(variant, &g))
		return -1;
	cat = guest_catalogue(&g);
	ret = cat ? workload_check(w, cat) : -1;
	cJSON_Delete(cat);
	guest_free(&g);
	return ret;
}

static int parse_run_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{ "alloc", required_argument, NULL, 'a' },
		{ "workload", required_argument, NULL, 'w' },
		{ "output", required_argument, NULL, 'o' },
		{ "accel", required_argument, NULL, 'A' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "mem", required_argument, NULL, 'm' },
		{ "cmdline", required_argument, NULL, 'k' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "boots", required_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 't' },
		{ "profile", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct run_opts){ .workload = "quick", .accel = "auto", .mem = 512,
				.boots = 1 };
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': free(o->allocs); o->allocs = xstrdup(optarg); break;
		case 'w': o->workload = optarg; break;
		case 'o': o->output = optarg; break;
		case 'A':
			if (!accel_valid(optarg))
				return error("run: --accel=%s: expected auto, kvm, tcg or icount", optarg);
			o->accel = optarg;
			break;
		case 'c':
			if (parse_long(optarg, 1, 64, &o->cpus))
				return error("run: --cpus=%s: expected 1 to 64", optarg);
			break;
		case 'm':
			if (parse_long(optarg, 128, 65536, &o->mem))
				return error("run: --mem=%s: expected 128 to 65536 (MB)", optarg);
			break;
		case 'k':
			if (strpbrk(optarg, "\n\""))
				return error("run: --cmdline: no newlines or quotes");
			o->cmdline = optarg;
			break;
		case 'r':
			if (parse_long(optarg, 1, 1000, &o->repeat))
				return error("run: --repeat=%s: expected 1 to 1000", optarg);
			break;
		case 'b':
			if (parse_long(optarg, 1, 100, &o->boots))
				return error("run: --boots=%s: expected 1 to 100", optarg);
			break;
		case 't':
			if (parse_long(optarg, 1, 86400, &o->timeout))
				return error("run: --timeout=%s: expected 1 to 86400 (s)", optarg);
			break;
		case 'P':
			o->profile = optarg;
			break;
		case 'h':
			fputs(run_usage, stdout);
			exit(0);
		default:
			return error("run: %s: unknown option or missing value (see 'slabbench run --help')",
				     argv[optind - 1]);
		}
	}
	if (optind < argc)
		return error("run: unexpected argument '%s'", argv[optind]);
	if (vm_cpus_for_accel(o->accel, &o->cpus))
		return -1;
	if (!o->allocs)
		o->allocs = xstrdup("slub");
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct workload w;
	char *path, *save = NULL, *v, *list;
	int failed = 0, nr_allocs = 0;

	if (parse_run_opts(argc, argv, &o)) {
		free(o.allocs);
		return 2;
	}
	path = workload_resolve(o.workload);
	if (workload_load(path, o.repeat, &w)) {
		free(path);
		free(o.allocs);
		return 2;
	}
	free(path);
	if (resolve_profile(&o, &w))
		failed = 2;
	list = xstrdup(o.allocs);
	for (v = strtok_r(list, ",", &save); v && !failed; v = strtok_r(NULL, ",", &save)) {
		if (variants_check("run: --alloc", &v, 1))
			failed = 2;
		else if (workload_valid_for(&w, v))
			failed = 2;
		nr_allocs++;
	}
	free(list);
	if (!failed && !nr_allocs) {
		error("run: --alloc: no allocator given");
		failed = 2;
	}
	if (failed) {
		workload_free(&w);
		free(o.profiled);
		free(o.allocs);
		return failed;
	}
	if (nr_allocs > 1 && o.output && mkdir_p(o.output))
		failed = 1;
	if (!o.output && mkdir_p("results"))
		failed = 1;
	save = NULL;
	for (v = strtok_r(o.allocs, ",", &save); v && !failed; v = strtok_r(NULL, ",", &save)) {
		char *out;

		if (o.output && nr_allocs == 1)
			out = xstrdup(o.output);
		else
			out = default_output(o.output ? o.output : "results", v, &w);
		if (run_variant(&o, v, &w, out))
			failed = 1;
		free(out);
	}
	workload_free(&w);
	free(o.profiled);
	free(o.allocs);
	return failed;
}
