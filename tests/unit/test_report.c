// SPDX-License-Identifier: GPL-2.0
/* Unit tests of report: against its golden file, the subject, kernels and setup (memory: test_report_memory.c). */
#define _GNU_SOURCE
#include "check.h"
#include "report_check.h"
#include "census_fixture.h"
#include "compare.h"
#include "noise.h"
#include "report.h"
#include "slabmem.h"
#include "timed_fixture.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

/* Real results of the default workload on the slab and slub guests (TCG), one boot each. */
static const char *const paths[] = {
	"tests/data/report-slab.json", "tests/data/report-slub.json",
};

/*
 * Real results of 5 interleaved boots of slab and slub under TCG (a short
 * workload: the fast path, a batch, hit rates, overhead; snapshots' raw
 * slabinfo and the 'before' census left out), with the floor that
 * slabbench noise measured from the slub file's boots, and the report
 * they must give; regenerate the golden file with
 * SLABBENCH_NOISE=tests/data/noise-compare.json build/slabbench report
 * tests/data/report5-slab.json tests/data/report5-slub.json
 * >tests/data/report.txt after a deliberate change of layout.
 */
static const char *const golden_paths[] = {
	"tests/data/report5-slab.json", "tests/data/report5-slub.json",
};

/* No "9.44e+04", no "-0", "-0.0%" or "-0.00pp": numbers a mail can carry. */
static bool mail_numbers(const char *text)
{
	for (const char *p = text; *p; p++) {
		if (p > text && isdigit((unsigned char)p[-1]) && (*p == 'e' || *p == 'E') &&
		    (p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])) {
			printf("# an exponent: '%.12s'\n", p - 1);
			return false;
		}
		if (*p == '-' && p[1] == '0') {
			const char *q = p + 1;

			while (*q == '0' || *q == '.')
				q++;
			if (!isdigit((unsigned char)*q)) {
				printf("# a negative zero: '%.12s'\n", p);
				return false;
			}
		}
	}
	return true;
}

static void test_golden(void)
{
	struct comparison c = { 0 };
	cJSON **docs = compare_load(golden_paths, 2, false), *noise;
	char *text = NULL, *golden = read_file("tests/data/report.txt", NULL), *line, *save;
	int over = 0, lines = 0;
	bool missing;

	noise = noise_load("tests/data/noise-compare.json", &missing);
	CHECK(docs != NULL && noise != NULL, "report: both results files and the floor load");
	if (!docs)
		goto out;
	CHECK(compare_build(&c, golden_paths, (const cJSON *const *)docs, 2, 0.05, noise,
			    "tests/data/noise-compare.json") == 0,
	      "report: the runs compare");
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK_STR(text, golden ? golden : "", "report: matches tests/data/report.txt");
	CHECK(!strncmp(text, "Subject: [slabbench] slub vs slab: ", 35),
	      "report: starts with a subject naming both runs");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lines++;
		over += strlen(line) > REPORT_WIDTH;
	}
	CHECK(lines > 50 && over == 0, "report: %d lines, none over 72 bytes (%d are)", lines,
	      over);
	free(text);
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(strstr(text, "5 base, 5 new, interleaved") && strstr(text, "PREEMPT_NONE") &&
	      strstr(text, "emulation (TCG)") && strstr(text, "noise floor: 3 of 18"),
	      "report: names boots per side, preemption, emulation and the floor");
	CHECK(strstr(text, "(ns, emulated)") && strstr(text, "floor \xc2\xb1"),
	      "report: emulated times marked, the floor beside each change");
	CHECK(!strncmp(text, "Subject: [slabbench] slub vs slab: slab and per-CPU memory x1.09 "
		       "(95% CI\n x1.08 to x1.09); times inconclusive: could detect +84.8%, not "
		       "5%\n", 134),
	      "report: the subject carries the memory result and calls the times inconclusive, "
	      "with the smallest change they could have found");
	CHECK(says(text, "0 of 3 could have found a change of 5%: on the times the comparison "
		   "is inconclusive"), "report: the summary says so");
	CHECK(says(text, "smallest change found with 80% power: +84.8%"),
	      "report: each tested time with its detectable change");
	CHECK(says(text, "SLUB's free miss is __slab_free(): a lockless cmpxchg"),
	      "report: a note beside SLUB's free slow path");
	CHECK(mail_numbers(text), "report: no exponent and no negative zero");
out:
	cJSON_Delete(noise);
	free(text);
	free(golden);
	compare_free(&c);
	compare_unload(docs, 2);
}

/* One test, metrics ns_a and ns_b in ns, each sample a boot of its own. */
static cJSON *two_metrics(const char *variant, const double *a, const double *b, int n)
{
	cJSON *metrics, *doc = fixture_timed_doc(variant, "kvm", &metrics);

	fixture_metric(metrics, "ns_a", "ns", "lower", a, n);
	fixture_metric(metrics, "ns_b", "ns", "lower", b, n);
	cJSON_AddArrayToObject(doc, "boots");
	return doc;
}

/*
 * ns_a: +50% with boots spread over 30%; ns_b: +10% with boots within
 * 0.2%. The subject names ns_b: the stronger evidence, not the larger
 * number.
 */
static void test_subject(void)
{
	static const char *const p[] = { "a.json", "b.json" };
	const double a1[] = { 100, 130, 80, 110, 95 }, b1[] = { 150, 195, 120, 165, 142 };
	const double a2[] = { 100, 100.1, 99.9, 100.2, 99.8 }, b2[] = { 110, 110.1, 109.9, 110.2, 109.8 };
	cJSON *docs[] = { two_metrics("slab", a1, a2, 5), two_metrics("slub", b1, b2, 5) };
	cJSON *few[] = { two_metrics("slab", a1, a2, 2), two_metrics("slub", b1, b2, 2) };
	struct comparison c;
	char *text;

	CHECK(compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0 &&
	      c.rows[0].cells[0].significant && c.rows[1].cells[0].significant &&
	      c.rows[1].cells[0].q < c.rows[0].cells[0].q, "subject: both changes significant");
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(says(text, "Subject: [slabbench] slub vs slab: fastpath time b +10.0% regression "
		   "(KVM time, 95% CI +"),
	      "subject: the strongest evidence (+10%%), not the largest change (+50%%), in words "
	      "and with its kind");
	free(text);
	compare_free(&c);
	CHECK(compare_build(&c, p, (const cJSON *const *)few, 2, 0.05, NULL, NULL) == 0,
	      "subject: two boots a side compared");
	text = report_text(&c, (const cJSON *const *)few, 2, NULL);
	CHECK(strstr(text, "slub vs slab: no test, too few boots\n") &&
	      says(text, "No time is tested: slub has 2 boots, slab 2: a test across boots needs 3"),
	      "subject: fewer than 3 boots a side, no test, and the summary says why");
	free(text);
	compare_free(&c);
	for (int i = 0; i < 2; i++) {
		cJSON_Delete(docs[i]);
		cJSON_Delete(few[i]);
	}
}

static void test_breakdown(void)
{
	cJSON **docs = compare_load(paths, 2, false);
	struct mem_breakdown m;

	if (!docs)
		return;
	CHECK(mem_breakdown(docs[0], 0, &m) == -1, "breakdown: a fastpath test has none");
	CHECK(mem_breakdown(docs[1], 12, &m) == 0, "breakdown: overhead test 12 has one");
	CHECK(m.size == 64 && m.count == 20000, "breakdown: size and count from the params");
	CHECK_NEAR(m.size + m.rounding + m.tail + m.idle, m.total, 0.01,
		   "breakdown: size + rounding + tail + idle = bytes per object");
	compare_unload(docs, 2);
}

/* @doc's kernel with @lines as its config beside the allocator's, and what it lacks. */
static void set_kernel(cJSON *doc, const char *sha, const char *const *lines, int n,
		       const char *lacks)
{
	cJSON *k = cJSON_GetObjectItemCaseSensitive(doc, "kernel");

	cJSON_AddStringToObject(k, "common_config_sha256", sha);
	cJSON_AddItemToObject(k, "common_config_lines", cJSON_CreateStringArray(lines, n));
	if (lacks)
		cJSON_AddItemToObject(k, "lacks", cJSON_CreateStringArray(&lacks, 1));
}

/*
 * Two users' kernels whose configs differ beyond the allocator: the report
 * lists every line that differs, each side's, and what a tree lacks.
 */
static void test_config_diff(void)
{
	static const char *const p[] = { "a.json", "b.json" };
	static const char *const ca[] = { "CONFIG_A=y", "CONFIG_NR_CPUS=64", "CONFIG_SMP=y" };
	static const char *const cb[] = { "CONFIG_A=y", "CONFIG_NR_CPUS=32", "CONFIG_SMP=y",
					  "CONFIG_NUMA=y" };
	const double a[] = { 100, 101, 99, 100, 100 };
	cJSON *docs[] = { two_metrics("mine", a, a, 5), two_metrics("theirs", a, a, 5) };
	struct comparison c;
	char *text;

	set_kernel(docs[0], "aaa", ca, 3, NULL);
	set_kernel(docs[1], "bbb", cb, 4, "no slab census (slabbench's mm patch)");
	CHECK(compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0,
	      "config diff: the runs compare");
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(strstr(text, "every other line that differs") &&
	      strstr(text, "-CONFIG_NR_CPUS=64\n") && strstr(text, "+CONFIG_NR_CPUS=32\n") &&
	      strstr(text, "+CONFIG_NUMA=y\n") && !strstr(text, "CONFIG_SMP=y") &&
	      !strstr(text, "CONFIG_A=y"), "config diff: every differing line, no other");
	CHECK(strstr(text, "new lacks") && strstr(text, "no slab census"),
	      "config diff: what the new tree lacks is named");
	free(text);
	compare_free(&c);
	set_kernel(docs[1], "aaa", ca, 3, NULL);
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(docs[1], "kernel"), "common_config_sha256",
				  cJSON_CreateString("aaa"));
	CHECK(compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0,
	      "config diff: equal configs compare");
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(!strstr(text, "every other line") && strstr(text, "the same but for the allocator"),
	      "config diff: none listed when only the allocator differs");
	free(text);
	compare_free(&c);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

/* A small kernel against a distro one: the family and the slab options of each side. */
static void test_config_family(void)
{
	static const char *const p[] = { "small.json", "distro.json" };
	static const char *const ca[] = { "CONFIG_A=y" };
	const double a[] = { 100, 101, 99, 100, 100 };
	cJSON *docs[] = { two_metrics("slub", a, a, 5), two_metrics("slub-distro", a, a, 5) };
	struct comparison c;
	char *text;

	for (int r = 0; r < 2; r++) {
		cJSON *k, *o;

		set_kernel(docs[r], r ? "bbb" : "aaa", ca, 1, NULL);
		k = cJSON_GetObjectItem(docs[r], "kernel");
		cJSON_AddStringToObject(k, "config_base", r ? "Debian's cloud-amd64 config" :
				       "make tinyconfig + vm/config fragments");
		cJSON_AddStringToObject(k, "config_family", r ? "distro" : "small");
		cJSON_AddStringToObject(k, "preempt", r ? "PREEMPT_VOLUNTARY" : "PREEMPT_NONE");
		o = cJSON_AddObjectToObject(k, "slab_options");
		cJSON_AddStringToObject(o, "MEMCG", r ? "y" : "n");
		cJSON_AddStringToObject(o, "INIT_ON_ALLOC_DEFAULT_ON", r ? "y" : "n");
	}
	CHECK(compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0,
	      "config family: the runs compare");
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(says(text, "config small config: make tinyconfig") &&
	      says(text, "new config distro config: Debian's cloud-amd64 config, PREEMPT_VOLUNTARY"),
	      "config family: each side's family is named");
	CHECK(says(text, "options MEMCG=n INIT_ON_ALLOC_DEFAULT_ON=n") &&
	      says(text, "new option MEMCG=y INIT_ON_ALLOC_DEFAULT_ON=y"),
	      "config family: each side's slab options are listed");
	free(text);
	compare_free(&c);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

/* What ran before the after-boot snapshot, and the CPU model, per side. */
static void test_userspace(void)
{
	static const char *const p[] = { "alone.json", "userspace.json" };
	const double a[] = { 100, 101, 99, 100, 100 };
	cJSON *docs[] = { two_metrics("slab", a, a, 5), two_metrics("slub", a, a, 5) };
	struct comparison c;
	char *text;

	CHECK(compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0,
	      "userspace: the runs compare");
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(!strstr(text, "QEMU -cpu"), "userspace: results that record neither show neither");
	free(text);
	compare_free(&c);
	for (int r = 0; r < 2; r++) {
		cJSON *boot = cJSON_CreateObject(), *us;

		cJSON_AddStringToObject(cJSON_GetObjectItem(docs[r], "vm"), "cpu_model", "max");
		cJSON_AddItemToArray(cJSON_GetObjectItem(docs[r], "boots"), boot);
		if (!r)
			continue;
		cJSON_AddNumberToObject(cJSON_GetObjectItem(docs[r], "workload"), "after_boot_s", 30);
		us = cJSON_AddObjectToObject(boot, "userspace");
		cJSON_AddNumberToObject(us, "cpus_online", 8);
		cJSON_AddNumberToObject(us, "cpus_ran", 8);
		cJSON_AddItemToObject(us, "commands", cJSON_CreateStringArray(p, 2));
	}
	CHECK(compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0,
	      "userspace: the runs compare");
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(says(text, "boot QEMU -cpu max; no user space before the after-boot snapshot") &&
	      says(text, "new boot QEMU -cpu max; before the after-boot snapshot, 2 busybox "
		   "commands (fork, exec) pinned to each of 8 of 8 vCPUs in turn, then 30 s idle"),
	      "userspace: each side says what ran before its after-boot snapshot");
	free(text);
	compare_free(&c);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

/*
 * The demo's report: a default run at 2 CPUs compared, the memory sweep at
 * 2 and 4 beside it; the command that reproduces it runs both workloads.
 */
static void test_reproduce_workloads(void)
{
	static const char *const paths[] = { "a.json", "b.json" };
	const struct fixture fs[] = {
		{ "slab", "SLAB", 2, 1, 1, NULL, 0, false }, { "slub", "SLUB", 2, 1, 1, NULL, 0, false },
		{ "slab", "SLAB", 2, 1, 1, NULL, 0, false }, { "slub", "SLUB", 2, 1, 1, NULL, 0, false },
		{ "slab", "SLAB", 4, 1, 1, NULL, 0, false }, { "slub", "SLUB", 4, 1, 1, NULL, 0, false },
	};
	struct comparison c = { 0 };
	cJSON *docs[6];
	char *text = NULL;

	for (int r = 0; r < 6; r++)
		docs[r] = fixture_doc(&fs[r]);
	for (int r = 0; r < 2; r++)
		cJSON_ReplaceItemInObject(cJSON_GetObjectItem(docs[r], "workload"), "name",
					  cJSON_CreateString("default"));
	if (!compare_build(&c, paths, (const cJSON *const *)docs, 2, 0.05, NULL, NULL))
		text = report_text(&c, (const cJSON *const *)docs, 6, NULL);
	CHECK(text && strstr(text, "slabbench run --alloc=slab,slub --workload=default \\\n"
		   "      --accel=tcg --cpus=2 --mem=512 --boots=1 -o out\n"),
	      "reproduce: the compared runs' workload at their own CPU count");
	CHECK(text && strstr(text, "slabbench run --alloc=slab,slub --workload=memory \\\n"
		   "      --accel=tcg --cpus=2,4 --mem=512 --boots=1 -o out/memory\n"),
	      "reproduce: the other workload's run, every CPU count of it, in a directory of its own");
	CHECK(text && strstr(text, "slabbench report out/slab-*.json out/slub-*.json out/memory/*.json\n"),
	      "reproduce: the report reads both");
	free(text);
	compare_free(&c);
	for (int r = 0; r < 6; r++)
		cJSON_Delete(docs[r]);
}

/* Times emulated: labelled so; and the cost model's exact count before them. */
static void test_subject_kinds(void)
{
	static const char *const p[] = { "a.json", "b.json" };
	const double a1[] = { 100, 130, 80, 110, 95 }, b1[] = { 150, 195, 120, 165, 142 };
	const double a2[] = { 100, 100.1, 99.9, 100.2, 99.8 }, b2[] = { 110, 110.1, 109.9, 110.2, 109.8 };
	cJSON *docs[] = { two_metrics("slab", a1, a2, 5), two_metrics("slub", b1, b2, 5) };
	struct comparison c;
	const struct cmp_row *row;
	char *text;

	for (int i = 0; i < 2; i++) {
		cJSON *vm = cJSON_GetObjectItem(docs[i], "vm");

		cJSON_ReplaceItemInObject(vm, "accel", cJSON_CreateString("tcg"));
		cJSON_AddTrueToObject(vm, "emulated_time");
	}
	CHECK(compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0,
	      "subject kinds: emulated runs compared");
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(says(text, "Subject: [slabbench] slub vs slab: fastpath time b +10.0% regression "
		   "(emulated TCG time, 95% CI"), "subject kinds: an emulated time says so");
	free(text);
	compare_free(&c);
	for (int i = 0; i < 2; i++) {
		cJSON *metrics = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(docs[i],
								"tests"), 0), "metrics");
		cJSON *m = cJSON_DetachItemFromObject(metrics, "ns_a");

		const double count[] = { 100, 150 };
		cJSON *samples = cJSON_CreateArray(), *boots = cJSON_CreateArray();

		/* A count of the cost model: the same in every boot. */
		for (int k = 0; k < 5; k++) {
			cJSON_AddItemToArray(samples, cJSON_CreateNumber(count[i]));
			cJSON_AddItemToArray(boots, cJSON_CreateDoubleArray(&count[i], 1));
		}
		cJSON_ReplaceItemInObject(m, "samples", samples);
		cJSON_ReplaceItemInObject(m, "boots", boots);
		cJSON_ReplaceItemInObject(m, "unit", cJSON_CreateString("insns/op"));
		cJSON_AddItemToObject(metrics, "insns_per_op", m);
	}
	CHECK(compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0,
	      "subject kinds: with exact counts compared");
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(says(text, "Subject: [slabbench] slub vs slab: fastpath instructions per op +50.0% "
		   "regression (exact count)"),
	      "subject kinds: the exact count before the emulated time of the same test");
	free(text);
	compare_free(&c);
	for (int i = 0; i < 2; i++) {
		cJSON *m = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
			cJSON_GetObjectItem(docs[i], "tests"), 0), "metrics"), "insns_per_op");
		const double seeds[] = { 100 + 50 * i, 100.1 + 50 * i, 100 + 50 * i,
					 100.2 + 50 * i, 100 + 50 * i };
		cJSON *boots = cJSON_CreateArray();

		/* The boots' seeds move the count a little (a window that takes pages). */
		for (int k = 0; k < 5; k++)
			cJSON_AddItemToArray(boots, cJSON_CreateDoubleArray(&seeds[k], 1));
		cJSON_ReplaceItemInObject(m, "boots", boots);
		cJSON_ReplaceItemInObject(m, "samples", cJSON_CreateDoubleArray(seeds, 5));
	}
	row = NULL;
	if (compare_build(&c, p, (const cJSON *const *)docs, 2, 0.05, NULL, NULL) == 0)
		for (int r = 0; r < c.nr_rows; r++)
			if (!strcmp(c.rows[r].metric, "insns_per_op"))
				row = &c.rows[r];
	CHECK(row && !row->cells[0].exact && row->cells[0].tested,
	      "subject kinds: a count the seeds move is tested, not exact");
	text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(says(text, "fastpath instructions per op +50.0% regression (count tested across "
		   "seeds"), "subject kinds: and the subject says what kind of count it is");
	free(text);
	compare_free(&c);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

/*
 * nowatchdog on a SLAB guest holds SLAB's reaper back: the report warns,
 * and not for a parameter that only starts with that word.
 */
static void test_nowatchdog(void)
{
	static const char *const lines[] = { "nowatchdog", "quiet nowatchdog",
					     "nowatchdogs", "" };
	const struct fixture fs[] = {
		{ "slab", "SLAB", 2, 1, 2, NULL, 0, false }, { "slub", "SLUB", 2, 1, 2, NULL, 0, false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		cJSON *docs[] = { fixture_doc(&fs[0]), fixture_doc(&fs[1]) };
		char *text;
		bool want = i < 2;

		for (int r = 0; r < 2; r++)
			cJSON_ReplaceItemInObject(cJSON_GetObjectItemCaseSensitive(docs[r], "vm"),
						  "cmdline", cJSON_CreateString(lines[i]));
		text = report_of(docs);
		CHECK(text && !!says(text, "WARNING nowatchdog on a SLAB guest: SLAB's reaper") == want,
		      "report: kernel parameters '%s': %s", lines[i],
		      want ? "warns that SLAB's reaper is held" : "no reaper warning");
		free(text);
		cJSON_Delete(docs[0]);
		cJSON_Delete(docs[1]);
	}
}

int main(void)
{
	test_subject_kinds();
	test_userspace();
	test_subject();
	test_config_diff();
	test_config_family();
	test_golden();
	test_breakdown();
	test_reproduce_workloads();
	test_nowatchdog();
	return check_done();
}
