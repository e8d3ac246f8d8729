// SPDX-License-Identifier: GPL-2.0
/* The option tables: bounds, refusals with their messages, generated help. */
#define _GNU_SOURCE
#include "check.h"
#include "options.h"
#include "runner.h"

#include <stdlib.h>
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

/* Parses @args (NULL-terminated) into @v; the message, if any, in *msg. */
static int parse(struct values *v, char **msg, const char *const *args)
{
	char *argv[16] = { "demo" };
	int argc = 1, ret, saved = dup(STDERR_FILENO);
	FILE *tmp = tmpfile();
	size_t len;
	struct opt opts[] = {
		OPT_VM(&v->vm),
		OPT_STRING('o', "output", &v->out, "FILE", "where"),
		OPT_INTEGER("n", &v->n, "N", 1, 10, "things", "how many"),
		OPT_DOUBLE("alpha", &v->alpha, "A", 0, 1, true, "a level"),
		OPT_BOOLEAN(0, "flag", &v->flag, "a switch"),
		OPT_END(),
	};

	while (args[argc - 1])
		argv[argc] = (char *)args[argc - 1], argc++;
	*v = (struct values){ .vm = { .accel = "auto", .mem = 512 }, .n = 3, .alpha = 0.05 };
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
	CHECK(v.vm.cpus == 4 && v.vm.mem == 128 && v.vm.timeout == 86400, "integers set");
	CHECK_STR(v.vm.accel, "icount", "a choice set");
	CHECK_STR(v.vm.cmdline, "a=b c", "a string set");
	CHECK_STR(v.out, "x.json", "a short option's value");
	CHECK(v.n == 10 && v.alpha == 0.01 && v.flag, "bounds are inclusive; doubles and flags");
	CHECK_STR(msg, "", "no message");
	free(msg);
}

static void test_refusals(void)
{
	REFUSED("demo: --cpus=65: expected 1 to 64", "--cpus=65");
	REFUSED("demo: --cpus=0: expected 1 to 64", "--cpus=0");
	REFUSED("demo: --cpus=2x: expected 1 to 64", "--cpus=2x");
	REFUSED("demo: --mem=64: expected 128 to 65536 (MB)", "--mem=64");
	REFUSED("demo: --n=11: expected 1 to 10 (things)", "--n=11");
	REFUSED("demo: --accel=xen: expected auto, kvm, tcg or icount", "--accel=xen");
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
	struct vm_opts vm = { .accel = "tcg", .mem = 512, .timeout = 120 };
	long boots = 5;
	struct opt opts[] = {
		OPT_INTEGER("boots", &boots, "N", 1, 100, NULL, "boots per variant"),
		OPT_VM(&vm),
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
		  "      --boots=N       boots per variant (1 to 100, default 5)\n"
		  "      --accel=ACCEL   auto tries KVM and falls back to TCG\n"
		  "                      (auto, kvm, tcg or icount, default tcg)\n"
		  "      --cpus=N        guest CPUs (1 to 64, default: 2; 1 with icount)\n"
		  "      --mem=MB        guest memory (128 to 65536, default 512)\n"
		  "      --cmdline=ARGS  extra kernel parameters, e.g. slub_debug=FZPU\n"
		  "      --timeout=S     hard limit per boot (1 to 86400, default 120)\n",
		  "the help comes from the table, with bounds and defaults");
	free(text);
}

int main(void)
{
	test_values();
	test_refusals();
	test_arguments();
	test_usage();
	return check_done();
}
