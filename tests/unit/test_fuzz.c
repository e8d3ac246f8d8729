// SPDX-License-Identifier: GPL-2.0
/*
 * Mutation fuzzing of what the host reads from files and from guests:
 * workload files, results files (and what compare then does with them),
 * a guest's /proc/slabinfo and /proc/meminfo, and the slab census. Debian's gcc has no
 * libFuzzer, so a fixed-seed generator mutates the shipped files: every
 * run tries the same inputs, and a failure reproduces by running again
 * (the mutations: fuzz_mutate.h).
 * Built with ASan and UBSan like every unit test, so a crash, an overflow,
 * undefined behaviour or a leak ends the program; the checks add that
 * every input is either read whole or refused with a message.
 */
#define _GNU_SOURCE
#include "check.h"
#include "census.h"
#include "compare.h"
#include "fuzz_mutate.h"
#include "procfs.h"
#include "results.h"
#include "util.h"
#include "workload.h"

#include <glob.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MUTATIONS 25000
#define FUZZ_PATH "fuzz.json"
#define BASE_PATH "base.json"

/*
 * While fuzzing, stderr is a memory stream: what error() said is read
 * back. The swap is of the FILE only: sanitizer reports write to fd 2
 * directly and still reach the log.
 */
static FILE *said_stream;
static char *said;
static size_t said_len;

static void said_reset(void)
{
	fseeko(said_stream, 0, SEEK_SET);
}

static void said_flush(void)
{
	fflush(said_stream);
}

static bool said_has(const char *s)
{
	return said_len && memmem(said, said_len, s, strlen(s));
}

/* "slabbench: PATH: ...": the reader said why, naming the file. */
static bool said_names(const char *path)
{
	char *prefix = xasprintf("slabbench: %s: ", path);
	bool ok = said_len >= strlen(prefix) && !memcmp(said, prefix, strlen(prefix));

	free(prefix);
	return ok;
}

static bool said_one_line(void)
{
	return said_len && memchr(said, '\n', said_len) == said + said_len - 1;
}

struct tally {
	long inputs, accepted, wrong, first_wrong;
};

static void verdict(struct tally *t, bool accepted, bool right)
{
	t->inputs++;
	t->accepted += accepted;
	if (!right && !t->wrong++)
		t->first_wrong = t->inputs;
}

static bool tally_right(const struct tally *t)
{
	if (t->wrong)
		printf("#   %ld wrong, the first at input %ld\n", t->wrong, t->first_wrong);
	return !t->wrong;
}

/* The entry of @array whose "name" is @name, added if missing. */
static cJSON *entry_named(cJSON *array, const char *name)
{
	cJSON *e;

	cJSON_ArrayForEach(e, array)
		if (!strcmp(cJSON_GetObjectItemCaseSensitive(e, "name")->valuestring, name))
			return e;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "name", name);
	cJSON_AddItemToArray(array, e);
	return e;
}

/* Makes catalogue parameter @param accept the value @v. */
static void widen(cJSON *param, const cJSON *v)
{
	cJSON *min = cJSON_GetObjectItemCaseSensitive(param, "min");
	cJSON *max = cJSON_GetObjectItemCaseSensitive(param, "max");
	cJSON *choices = cJSON_GetObjectItemCaseSensitive(param, "choices");

	if (cJSON_IsNumber(v) && !min) {
		cJSON_AddStringToObject(param, "type", "u64");
		cJSON_AddNumberToObject(param, "min", v->valuedouble);
		cJSON_AddNumberToObject(param, "max", v->valuedouble);
	} else if (cJSON_IsNumber(v)) {
		cJSON_SetNumberValue(min, fmin(min->valuedouble, v->valuedouble));
		cJSON_SetNumberValue(max, fmax(max->valuedouble, v->valuedouble));
	} else if (cJSON_IsString(v)) {
		if (!choices) {
			cJSON_AddStringToObject(param, "type", "enum");
			choices = cJSON_AddArrayToObject(param, "choices");
		}
		cJSON_AddItemToArray(choices, cJSON_CreateString(v->valuestring));
	}
}

/*
 * A catalogue in the module's format ("tests" in debugfs) made from the
 * seeds: their tests and parameters, numbers within the values they use,
 * words as enum choices. A new test in workloads/ needs nothing here, and
 * mutated values soon fall outside it.
 */
static cJSON *catalogue_of(const struct seeds *s)
{
	cJSON *cat = cJSON_CreateArray();

	for (int i = 0; i < s->n; i++) {
		cJSON *doc = cJSON_Parse(s->text[i]), *t, *p;

		cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(doc, "tests")) {
			const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "test");
			cJSON *test, *params;

			if (!cJSON_IsString(name))
				continue;
			test = entry_named(cat, name->valuestring);
			params = cJSON_GetObjectItemCaseSensitive(test, "params");
			if (!params)
				params = cJSON_AddArrayToObject(test, "params");
			cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(t, "params"))
				widen(entry_named(params, p->string), p);
		}
		cJSON_Delete(doc);
	}
	return cat;
}

static cJSON *catalogue;

/*
 * "test=NAME" and " key=value" tokens, @repeat as the last: what the
 * module and workload_check(), which splits on ' ' and '=', rely on.
 */
static bool spec_right(const struct workload_test *t, long repeat)
{
	size_t n = strlen(t->test), len;
	const char *p, *eq, *last;
	char *want;
	bool ok;

	if (strncmp(t->spec, "test=", 5) || strncmp(t->spec + 5, t->test, n))
		return false;
	for (p = t->spec + 5 + n; *p; p += len) {
		if (*p++ != ' ' || !strncmp(p, "test=", 5))
			return false;
		len = strcspn(p, " ");
		eq = memchr(p, '=', len);
		if (!eq || eq == p || eq == p + len - 1 || memchr(eq + 1, '=', p + len - eq - 1))
			return false;
	}
	if (repeat <= 0)
		return true;
	want = xasprintf(" repeats=%ld", repeat);
	last = strstr(t->spec, " repeats=");
	ok = last && !strcmp(last, want);
	free(want);
	return ok;
}

static bool workload_right(const struct workload *w, long repeat)
{
	if (w->nr_tests <= 0 || !w->name || !*w->name ||
	    w->nr_tests != cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(w->json, "tests")) ||
	    !(w->timeout_s > 0 && w->timeout_s <= 86400))
		return false;
	for (int i = 0; i < w->nr_tests; i++)
		if (!spec_right(&w->tests[i], repeat))
			return false;
	return true;
}

/*
 * workload_parse(), then, as "slabbench run" does, workload_check()
 * against a catalogue. A refusal says why and leaves nothing behind.
 */
static bool try_workload(const char *text, long repeat, struct tally *parse,
			 struct tally *check)
{
	struct workload w;
	int ret;

	said_reset();
	ret = workload_parse(FUZZ_PATH, text, repeat, &w);
	said_flush();
	if (ret) {
		verdict(parse, false, ret == -1 && said_names(FUZZ_PATH) &&
			!w.json && !w.tests && !w.nr_tests && !w.name && !w.path);
		return false;
	}
	verdict(parse, true, !said_len && workload_right(&w, repeat));
	said_reset();
	ret = workload_check(&w, catalogue);
	said_flush();
	verdict(check, !ret, ret ? ret == -1 && said_names(FUZZ_PATH) : !said_len);
	workload_free(&w);
	return true;
}

static cJSON *base_doc;

/* compare: the file's checks, then against the base as base and as other. */
static void try_compare(const cJSON *doc, struct tally *t)
{
	static const char *const paths[2][2] = {
		{ BASE_PATH, FUZZ_PATH }, { FUZZ_PATH, BASE_PATH },
	};
	bool ok;

	said_reset();
	/* Mostly with --allow-partial: a refused status ends the checks early. */
	if (run_check(FUZZ_PATH, doc, below(4))) {
		said_flush();
		verdict(t, false, said_names(FUZZ_PATH));
		return;
	}
	said_flush();
	ok = !said_len;
	for (int k = 0; k < 2; k++) {
		const cJSON *docs[2] = { k ? doc : base_doc, k ? base_doc : doc };
		struct comparison c;

		said_reset();
		if (compare_build(&c, paths[k], docs, 2, 0.05, NULL, NULL)) {
			said_flush();
			ok &= said_has(BASE_PATH) && said_has(FUZZ_PATH) &&
			      said_has("different workloads");
		} else {
			char *table = compare_text(&c);
			cJSON *j = compare_json(&c);
			char *s = cJSON_PrintUnformatted(j);

			said_flush();
			ok &= !said_len && table && s && c.nr_runs == 2;
			free(table);
			free(s);
			cJSON_Delete(j);
		}
		compare_free(&c);
	}
	verdict(t, true, ok);
}

/* results_parse(): one line naming the file, or a document with its schema. */
static bool try_results(const char *text, struct tally *parse, struct tally *cmp)
{
	cJSON *doc;
	const cJSON *schema;

	said_reset();
	doc = results_parse(FUZZ_PATH, text);
	said_flush();
	if (!doc) {
		verdict(parse, false, said_names(FUZZ_PATH) && said_one_line());
		return false;
	}
	schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
	verdict(parse, true, !said_len && cJSON_IsObject(doc) && cJSON_IsNumber(schema) &&
		schema->valueint == RESULTS_SCHEMA &&
		cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "status")) &&
		cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "tests")));
	try_compare(doc, cmp);
	cJSON_Delete(doc);
	return true;
}

static const char *const slabinfo_fields[] = {
	"active_objs", "num_objs", "objsize", "objperslab", "pagesperslab",
	"active_slabs", "num_slabs",
};

static bool has_line(const char *text, const char *cache)
{
	size_t n = strlen(cache);

	for (const char *l = text; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, cache, n) && l[n] == ' ')
			return true;
	return false;
}

/* NULL, or the cache's own line read into its six or seven fields. */
static void try_slabinfo(const char *text, const char *cache, struct tally *t)
{
	cJSON *o = slabinfo_parse(text, cache);
	const cJSON *f;
	size_t i = 0;
	bool found = o, ok = !found || has_line(text, cache);

	cJSON_ArrayForEach(f, o) {
		ok &= i < ARRAY_SIZE(slabinfo_fields) && cJSON_IsNumber(f) &&
		      !strcmp(f->string, slabinfo_fields[i]);
		i++;
	}
	ok &= !found || i >= 6;
	verdict(t, found, ok);
	cJSON_Delete(o);
}

/* Numbers named by 1 to 63 characters, at most one per line; the count. */
static int try_meminfo(const char *text, struct tally *t)
{
	cJSON *o = meminfo_parse(text);
	const cJSON *f;
	int lines = 1, fields = 0;
	bool ok = cJSON_IsObject(o);

	for (const char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	cJSON_ArrayForEach(f, o) {
		size_t n = strlen(f->string);

		ok &= cJSON_IsNumber(f) && n > 0 && n < 64 && !strchr(f->string, ':');
		fields++;
	}
	verdict(t, fields, ok && fields <= lines);
	cJSON_Delete(o);
	return fields;
}

static void load_seeds(struct seeds *s, const char *pattern)
{
	char *glob_pattern = xasprintf("%s/%s", slabbench_home(), pattern);
	glob_t g;

	if (!glob(glob_pattern, 0, NULL, &g)) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *text = read_file(g.gl_pathv[i], NULL);

			if (text)
				add_seed(s, text);
			free(text);
		}
		globfree(&g);
	}
	free(glob_pattern);
}

static char *prefix(const char *text, size_t n)
{
	char *p = strndup(text, n);

	if (!p)
		out_of_memory();
	return p;
}

/* Where a seed's JSON document ends: after it, only white space. */
static size_t document_end(const char *text)
{
	const char *end = strrchr(text, '}');

	return end ? (size_t)(end - text) + 1 : 0;
}

static void fuzz_workloads(void)
{
	struct tally parse = { 0 }, check = { 0 }, cut = { 0 }, cut_check = { 0 };
	struct seeds s = { 0 };
	long misjudged = 0, cuts = 0;
	struct buf b;

	load_seeds(&s, "workloads/*.json");
	CHECK(s.n >= 5, "%d shipped workloads as seeds", s.n);
	if (!s.n)
		return;
	catalogue = catalogue_of(&s);
	for (int i = 0; i < s.n; i++)
		try_workload(s.text[i], 0, &cut, &cut_check);
	CHECK(cut.accepted == s.n && cut_check.accepted == s.n,
	      "every shipped workload parses and passes a catalogue made of them all");
	cut = cut_check = (struct tally){ 0 };

	for (int i = 0; i < s.n; i++) {
		size_t end = document_end(s.text[i]);

		for (size_t off = 0; off <= s.len[i]; off++, cuts++) {
			char *t = prefix(s.text[i], off);

			misjudged += try_workload(t, 0, &cut, &cut_check) != (off >= end);
			free(t);
		}
	}
	CHECK(!misjudged && tally_right(&cut) && tally_right(&cut_check),
	      "workloads cut at each of %ld offsets: refused with a message until the closing brace",
	      cuts);

	for (int i = 0; i < MUTATIONS; i++) {
		mutate(&b, &s);
		/* Sometimes with --repeat, which replaces every "repeats". */
		try_workload(b.p, below(8) ? 0 : 7, &parse, &check);
		free(b.p);
	}
	CHECK(tally_right(&parse),
	      "%ld mutations of workload files: no crash, each refused with a message naming the file or read whole",
	      parse.inputs);
	CHECK(parse.accepted > parse.inputs / 50 && parse.accepted < parse.inputs,
	      "workload_parse accepted %ld and refused %ld", parse.accepted,
	      parse.inputs - parse.accepted);
	CHECK(tally_right(&check) && check.accepted && check.accepted < check.inputs,
	      "workload_check on the %ld accepted: %ld pass the catalogue, the others refused with a message",
	      check.inputs, check.accepted);
	cJSON_Delete(catalogue);
	free_seeds(&s);
}

/*
 * Finite samples whose squares overflow, as fuzzing first found: the
 * t distribution got a NaN and GSL's error handler aborted compare.
 */
static void extreme_samples(const char *base_text)
{
	const char *at = strstr(base_text, "[64, 64, 64]");
	char *text;
	cJSON *doc;
	const cJSON *docs[2];
	const char *paths[2] = { BASE_PATH, FUZZ_PATH };
	struct comparison c;
	bool ok = false;

	if (!at) {
		CHECK(0, "compare-base.json has the samples [64, 64, 64]");
		return;
	}
	text = xasprintf("%.*s[1.7976931348623157e308, 32, 32]%s", (int)(at - base_text),
			 base_text, at + strlen("[64, 64, 64]"));
	doc = cJSON_Parse(text);
	docs[0] = base_doc;
	docs[1] = doc;
	if (!run_check(FUZZ_PATH, doc, false) && !compare_build(&c, paths, docs, 2, 0.05, NULL, NULL)) {
		for (int i = 0; i < c.nr_rows; i++)
			if (!strcmp(c.rows[i].metric, "objects_per_slab"))
				ok = c.rows[i].cells[0].present && !c.rows[i].cells[0].tested &&
				     !c.rows[i].cells[0].has_ci;
		compare_free(&c);
	}
	CHECK(ok, "samples near DBL_MAX: compare gives no test and no interval, GSL is not called");
	cJSON_Delete(doc);
	free(text);
}

static void fuzz_results(void)
{
	struct tally parse = { 0 }, cmp = { 0 }, cut = { 0 }, cut_cmp = { 0 };
	struct seeds s = { 0 };
	long misjudged = 0, cuts = 0;
	struct buf b;

	load_seeds(&s, "tests/data/compare-*.json");
	CHECK(s.n >= 2, "%d results files as seeds", s.n);
	if (!s.n)
		return;
	base_doc = cJSON_Parse(s.text[0]);
	extreme_samples(s.text[0]);

	for (int i = 0; i < s.n; i++) {
		size_t end = document_end(s.text[i]);

		for (size_t off = 0; off <= s.len[i]; off++, cuts++) {
			char *t = prefix(s.text[i], off);

			misjudged += try_results(t, &cut, &cut_cmp) != (off >= end);
			free(t);
		}
	}
	CHECK(!misjudged && tally_right(&cut) && tally_right(&cut_cmp) && cut_cmp.accepted,
	      "results cut at each of %ld offsets: refused in one line naming the file until the closing brace",
	      cuts);

	for (int i = 0; i < MUTATIONS; i++) {
		mutate(&b, &s);
		try_results(b.p, &parse, &cmp);
		free(b.p);
	}
	CHECK(tally_right(&parse),
	      "%ld mutations of results files: no crash, each refused in one line naming the file or read with its schema",
	      parse.inputs);
	CHECK(parse.accepted > parse.inputs / 50 && parse.accepted < parse.inputs,
	      "results_parse accepted %ld and refused %ld", parse.accepted,
	      parse.inputs - parse.accepted);
	CHECK(tally_right(&cmp) && cmp.accepted && cmp.accepted < cmp.inputs,
	      "compare on the %ld accepted: %ld checked and compared both ways, the others refused with a message",
	      cmp.inputs, cmp.accepted);
	cJSON_Delete(base_doc);
	free_seeds(&s);
}

/* As SLAB (tunables set) and SLUB (tunables 0) print them. */
static const char *const slabinfo_seeds[] = {
	"slabinfo - version: 2.1\n"
	"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
	"slabbench-held-twin      0      0     64   64    1 : tunables  120   60    8 : slabdata      0      0      0\n"
	"slabbench-held     20028  20032     64   64    1 : tunables  120   60    8 : slabdata    313    313      0\n"
	"kmalloc-1k          4000   4000   1024    4    1 : tunables   54   27    8 : slabdata   1000   1000      0\n",
	"slabinfo - version: 2.1\n"
	"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
	"kmalloc-1k          4000   4000   1024   16    4 : tunables    0    0    0 : slabdata    250    250      0\n"
	"slabbench-held     10000  10048    512   16    2 : tunables    0    0    0 : slabdata    628    628      0\n"
	"bio-312               12     12    320   12    1 : tunables    0    0    0 : slabdata      1      1      0\n",
};

static const char *const meminfo_seeds[] = {
	"MemTotal:         481284 kB\nMemFree:          431512 kB\nMemAvailable:     437976 kB\n"
	"Buffers:               0 kB\nCached:            14604 kB\nActive(anon):        108 kB\n"
	"Slab:              11392 kB\nSReclaimable:       2876 kB\nSUnreclaim:         8516 kB\n"
	"KernelStack:         576 kB\nPercpu:              352 kB\nHugePages_Total:       0\n"
	"Hugepagesize:       2048 kB\nDirectMap4k:       16256 kB\n",
	"MemTotal:       24683664 kB\nMemFree:        21164608 kB\nSlab:            2049408 kB\n"
	"HugePages_Free:        0\n",
};

static void fuzz_proc(void)
{
	struct tally slab = { 0 }, mem = { 0 }, cut = { 0 };
	struct seeds s = { 0 };
	long misjudged = 0, cuts = 0;
	struct buf b;

	for (size_t i = 0; i < ARRAY_SIZE(slabinfo_seeds); i++)
		add_seed(&s, slabinfo_seeds[i]);
	/*
	 * A guest that dies mid-read leaves part of a line: the held
	 * cache's line is found exactly when whole, never before its name.
	 */
	for (int i = 0; i < s.n; i++) {
		const char *line = strstr(s.text[i], "\nslabbench-held ") + 1;
		size_t start = line - s.text[i], end = strchr(line, '\n') - s.text[i];
		cJSON *whole = slabinfo_parse(s.text[i], "slabbench-held");

		for (size_t off = 0; off <= s.len[i]; off++, cuts++) {
			char *t = prefix(s.text[i], off);
			cJSON *o = slabinfo_parse(t, "slabbench-held");

			if (off >= end)
				misjudged += !cJSON_Compare(o, whole, true);
			else if (off <= start + strlen("slabbench-held"))
				misjudged += o != NULL;
			cJSON_Delete(o);
			free(t);
		}
		cJSON_Delete(whole);
	}
	CHECK(!misjudged, "/proc/slabinfo cut at each of %ld offsets: the held cache's line read only when whole",
	      cuts);
	for (int i = 0; i < MUTATIONS; i++) {
		mutate(&b, &s);
		try_slabinfo(b.p, "slabbench-held", &slab);
		try_slabinfo(b.p, "kmalloc-1k", &slab);
		free(b.p);
	}
	CHECK(tally_right(&slab) && slab.accepted && slab.accepted < slab.inputs,
	      "%d mutations of /proc/slabinfo, two caches each: no crash; %ld lines read, each the cache's own, %ld not found or malformed",
	      MUTATIONS, slab.accepted, slab.inputs - slab.accepted);
	free_seeds(&s);

	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < ARRAY_SIZE(meminfo_seeds); i++)
		add_seed(&s, meminfo_seeds[i]);
	misjudged = cuts = 0;
	for (int i = 0; i < s.n; i++) {
		int lines = 0;

		for (size_t off = 0; off <= s.len[i]; off++, cuts++) {
			char *t = prefix(s.text[i], off);
			int fields = try_meminfo(t, &cut);

			if (off && t[off - 1] == '\n')
				misjudged += fields != ++lines;
			else
				misjudged += fields > lines + 1;
			free(t);
		}
	}
	CHECK(!misjudged && tally_right(&cut),
	      "/proc/meminfo cut at each of %ld offsets: every whole line read, at most one more field", cuts);
	for (int i = 0; i < MUTATIONS; i++) {
		mutate(&b, &s);
		try_meminfo(b.p, &mem);
		free(b.p);
	}
	CHECK(tally_right(&mem) && mem.accepted,
	      "%ld mutations of /proc/meminfo: no crash; fields are numbers named in 1 to 63 characters, at most one a line",
	      mem.inputs);
	free_seeds(&s);
}

/*
 * The census read whole, with its checks, or refused in one line naming
 * the line; whether it was read.
 */
static bool try_census(const char *text, struct tally *t)
{
	static const char *const verdicts[] = { "objects", "pages", "sums", "counter", "slabinfo" };
	char *err = NULL;
	cJSON *c = census_parse(text, &err), *k;
	bool ok;

	if (!c) {
		verdict(t, false, err && !strncmp(err, "census line ", 12) && !strchr(err, '\n'));
		free(err);
		return false;
	}
	k = census_checks(c, NULL, NULL, NULL);
	ok = !err && cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(c, "caches")) &&
	     cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(c, "total")) &&
	     cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(k, "failures"));
	for (size_t i = 0; i < ARRAY_SIZE(verdicts); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(k, verdicts[i]);

		ok &= cJSON_IsString(v) || cJSON_IsNull(v);
	}
	verdict(t, true, ok);
	cJSON_Delete(k);
	cJSON_Delete(c);
	return true;
}

static void fuzz_census(void)
{
	struct tally t = { 0 }, cut = { 0 };
	struct seeds s = { 0 };
	long misjudged = 0, cuts = 0;
	struct buf b;

	load_seeds(&s, "tests/data/census-*.txt");
	/* One a shape: SLAB, SLOB, SLUB with CPU slabs, SLUB with sheaves. */
	CHECK(s.n == 4, "%d census samples as seeds", s.n);
	if (!s.n)
		return;
	/* Every line ends with a newline and the total comes last: a cut census is refused. */
	for (int i = 0; i < s.n; i++) {
		for (size_t off = 0; off <= s.len[i]; off++, cuts++) {
			char *p = prefix(s.text[i], off);

			misjudged += try_census(p, &cut) != (off == s.len[i]);
			free(p);
		}
	}
	CHECK(!misjudged && tally_right(&cut),
	      "census cut at each of %ld offsets: refused in one line naming the line until whole", cuts);
	for (int i = 0; i < MUTATIONS; i++) {
		mutate(&b, &s);
		try_census(b.p, &t);
		free(b.p);
	}
	CHECK(tally_right(&t) && t.accepted && t.accepted < t.inputs,
	      "%ld mutations of the census: no crash; %ld read and checked, the others refused in one line",
	      t.inputs, t.accepted);
	free_seeds(&s);
}

/* Writes @len bytes of @text to a new file in @dir; the path. */
static char *write_temp(const char *dir, const char *name, const char *text, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);

	if (write_file_atomic(path, text, len))
		printf("#   cannot write %s\n", path);
	return path;
}

/* As "slabbench compare" meets them: a file cut short, one with garbage in it, not results. */
static void damaged_files(void)
{
	char dir[] = "/tmp/sbfuzz-XXXXXX";
	char *base_path = xasprintf("%s/tests/data/compare-base.json", slabbench_home());
	char *workload = xasprintf("%s/workloads/quick.json", slabbench_home());
	char *base = read_file(base_path, NULL), *quick, *paths[3];
	const char *what[3] = { "a truncated", "a corrupted", "a workload as" };
	size_t len;

	free(base_path);
	if (!base) {
		CHECK(0, "tests/data/compare-base.json read");
		free(workload);
		return;
	}
	len = strlen(base);
	CHECK(mkdtemp(dir) != NULL, "temp dir");
	paths[0] = write_temp(dir, "truncated.json", base, len * 2 / 3);
	/* 48 bytes of a disk error: binary junk with a NUL in it. */
	for (size_t i = 0; i < 48; i++)
		base[len / 2 + i] = (char)(0x80 + i * 37);
	base[len / 2 + 7] = '\0';
	paths[1] = write_temp(dir, "corrupted.json", base, len);
	quick = read_file(workload, NULL);
	paths[2] = write_temp(dir, "quick.json", quick ? quick : "", quick ? strlen(quick) : 0);
	for (int i = 0; i < 3; i++) {
		cJSON *doc;

		said_reset();
		doc = results_load(paths[i]);
		said_flush();
		CHECK(!doc && said_names(paths[i]) && said_one_line(),
		      "results_load refuses %s results file in one line naming it: %.*s", what[i],
		      said_len ? (int)said_len - 1 : 0, said_len ? said : "");
		cJSON_Delete(doc);
		unlink(paths[i]);
		free(paths[i]);
	}
	rmdir(dir);
	free(quick);
	free(workload);
	free(base);
}

int main(void)
{
	FILE *real_stderr = stderr;

	/* A crash keeps the checks before it in the log. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	said_stream = open_memstream(&said, &said_len);
	if (!said_stream) {
		perror("open_memstream");
		return 1;
	}
	stderr = said_stream;
	fuzz_workloads();
	fuzz_results();
	fuzz_proc();
	fuzz_census();
	damaged_files();
	stderr = real_stderr;
	fclose(said_stream);
	free(said);
	return check_done();
}
