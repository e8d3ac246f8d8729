// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the slab census: the text of docs/census.md parsed and
 * refused, its checks, its frames in results and their accessors, census
 * phases in workload files and the plan they make.
 */
#define _GNU_SOURCE
#include "check.h"
#include "census.h"
#include "json.h"
#include "plan.h"
#include "procfs.h"
#include "sample.h"
#include "results.h"
#include "runner.h"
#include "schema.h"
#include "util.h"
#include "workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static void test_parse_samples(void)
{
	char *text = data_file("census-slub.txt"), *err = (char *)"unset";
	cJSON *c = census_parse(text, &err);
	const cJSON *caches, *sb, *total;

	CHECK(c && !err, "slub sample parses");
	CHECK_STR(json_str_at(c, "allocator"), "slub", "slub: allocator");
	CHECK(json_num_at(c, "version") == 1 && json_num_at(c, "cpus") == 2 &&
	      json_num_at(c, "nodes") == 1 && json_num_at(c, "page_size") == 4096,
	      "slub: the header's numbers");
	caches = json_at(c, "caches");
	CHECK(cJSON_GetArraySize(caches) == 5, "slub: caches is the five records, not the count");
	CHECK_STR(json_str_at(cJSON_GetArrayItem(caches, 0), "name"), "kmalloc-64",
		  "slub: records in order");
	sb = cJSON_GetArrayItem(caches, 3);
	CHECK(json_num_at(sb, "live") == 16 && json_num_at(sb, "free_cpu") == 24 &&
	      json_num_at(sb, "slabs_o0") == 2, "slub: a record's numbers");
	CHECK_STR(sb->child->string, "name", "slub: fields in the text's order");
	CHECK(!json_at(sb, "free_cpu_array"), "slub: no field of SLAB's, none zero-filled");
	CHECK(!json_at(cJSON_GetArrayItem(caches, 4), "slabs_o0"),
	      "slub: a cache without slabs has no slabs_oK");
	total = json_at(c, "total");
	CHECK(json_num_at(total, "pages") == 80 && json_num_at(total, "slabs_o3") == 8 &&
	      json_num_at(total, "live_bytes") == 204480, "slub: the total");
	cJSON_Delete(c);
	free(text);

	text = data_file("census-slab.txt");
	c = census_parse(text, &err);
	CHECK(c && !err, "slab sample parses");
	CHECK_STR(json_str_at(c, "allocator"), "slab", "slab: allocator");
	sb = cJSON_GetArrayItem(json_at(c, "caches"), 2);
	CHECK(json_num_at(sb, "free_cpu_array") == 104 && json_num_at(sb, "free_alien") == 0,
	      "slab: per-CPU arrays and alien caches");
	CHECK(!json_at(sb, "free_cpu_partial") && !json_at(sb, "cpu_slabs"),
	      "slab: no field of SLUB's");
	cJSON_Delete(c);
	free(text);

	text = data_file("census-slob.txt");
	c = census_parse(text, &err);
	CHECK(c && !err, "slob sample parses");
	CHECK(cJSON_GetArraySize(json_at(c, "caches")) == 0,
	      "slob: no cache records, an empty array");
	total = json_at(c, "total");
	CHECK(json_num_at(total, "free_slob_medium") == 8000 && !json_at(total, "objects"),
	      "slob: its free lists, no object counts");
	cJSON_Delete(c);
	free(text);
}

/* A small SLOB census, whole, and its two lines. */
#define SLOB_HEAD "census version=1 allocator=slob cpus=2 nodes=1 page_size=4096 caches=0\n"
#define SLOB_TOTAL "total slabs=1 pages=1 slabs_o0=1 kmalloc_large_pages=0 counter_pages=1 " \
	"counter_pages_after=1 percpu_pages=3 free_slob_small=1 free_slob_medium=2 free_slob_large=3\n"

static void test_parse_errors(void)
{
	static const struct {
		const char *text, *old, *new, *want;
	} cases[] = {
		{ "", NULL, NULL, "census line 1: empty, no census header" },
		{ SLOB_TOTAL, NULL, NULL, "census line 1: a total record before the census header" },
		{ SLOB_HEAD "slab pages=1\n" SLOB_TOTAL, NULL, NULL,
		  "census line 2: unknown record type 'slab'" },
		{ SLOB_HEAD SLOB_HEAD SLOB_TOTAL, NULL, NULL, "census line 2: a second census header" },
		{ SLOB_HEAD "\n" SLOB_TOTAL, NULL, NULL, "census line 2: empty line" },
		{ SLOB_HEAD, NULL, NULL, "census line 1: ends without a total record" },
		{ SLOB_HEAD SLOB_TOTAL, "large=3\n", "large=3",
		  "census line 2: no newline at its end (cut short?)" },
		{ SLOB_HEAD SLOB_TOTAL SLOB_TOTAL, NULL, NULL,
		  "census line 3: a total record after the total record" },
		{ SLOB_HEAD SLOB_TOTAL, "caches=0", "caches=1",
		  "census line 1: caches=1, but 0 cache records follow" },
		{ SLOB_HEAD "cache name=x\n" SLOB_TOTAL, NULL, NULL,
		  "census line 2: a cache record in a slob census (SLOB has no caches)" },
		{ SLOB_HEAD SLOB_TOTAL, "pages=1", "pages",
		  "census line 2: field 'pages': expected key=value, the key in lower case" },
		{ SLOB_HEAD SLOB_TOTAL, "pages=1", "=1",
		  "census line 2: field '=1': expected key=value, the key in lower case" },
		{ SLOB_HEAD SLOB_TOTAL, "pages=1", "pages=",
		  "census line 2: field 'pages=': expected key=value, the key in lower case" },
		{ SLOB_HEAD SLOB_TOTAL, "pages=1", "Pages=1",
		  "census line 2: field 'Pages=1': expected key=value, the key in lower case" },
		{ SLOB_HEAD SLOB_TOTAL, " pages=1", "  pages=1",
		  "census line 2: an empty field (a space too many)" },
		{ SLOB_HEAD SLOB_TOTAL, "large=3", "large=3 ",
		  "census line 2: an empty field (a space too many)" },
		{ SLOB_HEAD SLOB_TOTAL, "pages=1", "pages=1x",
		  "census line 2: pages=1x: not an unsigned decimal integer" },
		{ SLOB_HEAD SLOB_TOTAL, "pages=1", "pages=-1",
		  "census line 2: pages=-1: not an unsigned decimal integer" },
		{ SLOB_HEAD SLOB_TOTAL, "cpus=2", "cpus=two",
		  "census line 1: cpus=two: not an unsigned decimal integer" },
		{ SLOB_HEAD SLOB_TOTAL, "pages=1", "pages=9007199254740993",
		  "census line 2: pages=9007199254740993: too large" },
		{ SLOB_HEAD SLOB_TOTAL, "pages=1", "pages=1 pages=1", "census line 2: pages= given twice" },
		{ SLOB_HEAD SLOB_TOTAL, "version=1", "version=2",
		  "census line 1: version=2: this slabbench reads version 1" },
		{ SLOB_HEAD SLOB_TOTAL, "allocator=slob", "allocator=slib",
		  "census line 1: allocator=slib: not slab, slub or slob" },
		{ SLOB_HEAD SLOB_TOTAL, " page_size=4096", "",
		  "census line 1: a census record without page_size=" },
		{ SLOB_HEAD SLOB_TOTAL, "version=1 ", "", "census line 1: a census record without version=" },
		{ SLOB_HEAD SLOB_TOTAL, " percpu_pages=3", "",
		  "census line 2: a total record without percpu_pages=" },
		{ SLOB_HEAD SLOB_TOTAL, " free_slob_small=1", "",
		  "census line 2: a total record without free_slob_small=" },
		{ SLOB_HEAD SLOB_TOTAL, "pages=1", "pages=1 free_cpu=0",
		  "census line 2: free_cpu= does not belong on a slob census's total record" },
		{ SLOB_HEAD SLOB_TOTAL, "pages=1", "pages=1 name=x",
		  "census line 2: name= does not belong on a total record" },
		{ SLOB_HEAD SLOB_TOTAL, "cpus=2", "cpus=2 live=0",
		  "census line 1: live= does not belong on a census record" },
		{ SLOB_HEAD SLOB_TOTAL, "slabs_o0=1", "slabs_o99=1",
		  "census line 2: slabs_o99=: no such slab order" },
		{ SLOB_HEAD SLOB_TOTAL, "slabs_o0=1", "slabs_o00=1",
		  "census line 2: slabs_o00=: no such slab order" },
		{ SLOB_HEAD SLOB_TOTAL, "slabs_o0=1", "slabs_ox=1",
		  "census line 2: slabs_ox=: no such slab order" },
		/* On the SLUB sample (NULL: the file). */
		{ NULL, "free_cpu=40", "free_cpu=40 free_cpu_array=0",
		  "census line 2: free_cpu_array= does not belong on a slub census's cache record" },
		{ NULL, " free_cpu_partial=30", "",
		  "census line 3: a cache record without free_cpu_partial=" },
		{ NULL, "total slabs=23", "total slabs=23 name=total",
		  "census line 7: name= does not belong on a total record" },
		{ NULL, "caches=5", "caches=4", "census line 1: caches=4, but 5 cache records follow" },
		{ NULL, "census version", "cache version", "census line 1: a cache record before the census header" },
	};
	char *slub = data_file("census-slub.txt");

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *base = cases[i].text ? cases[i].text : slub;
		char *text = cases[i].old ? edit(base, cases[i].old, cases[i].new) : xstrdup(base);
		char *err = NULL;
		cJSON *c = census_parse(text, &err);

		CHECK(!c && err && !strchr(err, '\n'), "census refused in one line: %s", cases[i].want);
		CHECK_STR(err, cases[i].want, "census error %zu names the line and the fault", i);
		cJSON_Delete(c);
		free(err);
		free(text);
	}
	free(slub);
}

/* census_checks() of @text against @meminfo, @slabinfo and @sysfs (NULL: none). */
static cJSON *checks_all_of(const char *text, const char *meminfo, const char *slabinfo,
			    const char *sysfs)
{
	char *err = NULL;
	cJSON *c = census_parse(text, &err), *k, *m;

	if (!c) {
		printf("#   %s\n", err);
		free(err);
		return cJSON_CreateObject();
	}
	m = meminfo ? meminfo_parse(meminfo) : NULL;
	k = census_checks(c, m, slabinfo, sysfs);
	cJSON_Delete(c);
	cJSON_Delete(m);
	return k;
}

static cJSON *checks_sysfs_of(const char *text, const char *slabinfo, const char *sysfs)
{
	return checks_all_of(text, NULL, slabinfo, sysfs);
}

static cJSON *checks_of(const char *text, const char *slabinfo)
{
	return checks_sysfs_of(text, slabinfo, NULL);
}

static bool all_exact(const cJSON *k)
{
	static const char *const names[] = {
		"objects", "pages", "sums", "lists", "counter", "identities", "slabinfo",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(json_str_at(k, names[i]), "exact"))
			return false;
	return cJSON_GetArraySize(json_at(k, "failures")) == 0;
}

static const char *failure(const cJSON *k, int i)
{
	const cJSON *f = cJSON_GetArrayItem(json_at(k, "failures"), i);

	return cJSON_IsString(f) ? f->valuestring : "(none)";
}

/* SLUB's /sys/kernel/slab against the census: every attribute, and what is not judged. */
static void test_slub_sysfs(void)
{
	char *slub = data_file("census-slub.txt"), *info = data_file("census-slub.slabinfo");
	char *sysfs = data_file("census-slub.sysfs"), *s;
	cJSON *k;

	k = checks_sysfs_of(slub, info, sysfs);
	CHECK(all_exact(k) && !strcmp(json_str_at(k, "sysfs"), "exact"),
	      "slub sample and its sysfs (aliases and :unique-id entries beside): exact");
	cJSON_Delete(k);
	k = checks_of(slub, info);
	CHECK(cJSON_IsNull(json_at(k, "sysfs")), "no sysfs read: null");
	cJSON_Delete(k);

	static const struct {
		const char *from, *to, *failure;
	} cases[] = {
		{ "kmalloc-1k slabs=5 ", "kmalloc-1k slabs=6 ", "sysfs: kmalloc-1k: slabs 6, but slabs = 5" },
		{ "total_objects=160", "total_objects=161",
		  "sysfs: kmalloc-1k: total_objects 161, but objects = 160" },
		{ "objects=128", "objects=160",
		  "sysfs: kmalloc-1k: objects 160, but objects - free_node_partial - free_empty = 128" },
		{ "kmalloc-1k slabs=5 partial=1", "kmalloc-1k slabs=5 partial=0",
		  "sysfs: kmalloc-1k: partial 0, but node_partial_slabs + empty_slabs = 1" },
		{ "total_objects=160 cpu_slabs=4", "total_objects=160 cpu_slabs=2",
		  "sysfs: kmalloc-1k: cpu_slabs 2, but cpu_slabs + cpu_partial_slabs = 4" },
		{ "total_objects=160 cpu_slabs=4", "total_objects=160",
		  "sysfs: kmalloc-1k: no cpu_slabs" },
		{ "task_struct slabs=4 partial=1 objects=15 total_objects=16 cpu_slabs=1\n", "",
		  "sysfs: task_struct: no /sys/kernel/slab entry" },
		{ "bio-120 slabs=0", "bio-120 slabs=x", "sysfs: line 2 does not parse" },
		{ "bio-120 slabs=0", "bio-120 slabs", "sysfs: line 2 does not parse" },
		{ "bio-120 slabs=0", "bio-120 =0", "sysfs: line 2 does not parse" },
		{ "bio-120 slabs=0", "bio-120 slabs=-1", "sysfs: line 2 does not parse" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		s = edit(sysfs, cases[i].from, cases[i].to);
		k = checks_sysfs_of(slub, info, s);
		CHECK(!strcmp(json_str_at(k, "sysfs"), "off"), "sysfs off: %s",
		      cases[i].failure);
		CHECK_STR(failure(k, 0), cases[i].failure, "and named");
		cJSON_Delete(k);
		free(s);
	}
	free(slub);
	free(info);
	free(sysfs);
}

static void test_checks(void)
{
	/* A figure of /proc/slabinfo off, or a cache's line missing: named. */
	static const struct {
		const char *old, *new, *want, *name;
	} info_edits[] = {
		{ "    40     40    200", "    39     40    200",
		  "slabinfo: sb-cache-000: active_objs 39, but objects - free_node_partial - "
		  "free_empty = 40", "one active object less in slabinfo: named" },
		{ "      2      2      0\n", "      2      3      0\n",
		  "slabinfo: sb-cache-000: num_slabs 3, but slabs=2",
		  "one slab more in slabinfo: named" },
		{ "bio-120                0      0    128   32    1 : tunables    0    0    0 : "
		  "slabdata      0      0      0\n", "", "slabinfo: bio-120: no line for it",
		  "a cache without its slabinfo line" },
	};
	char *slub = data_file("census-slub.txt"), *slub_info = data_file("census-slub.slabinfo");
	char *slab = data_file("census-slab.txt"), *slab_info = data_file("census-slab.slabinfo");
	char *slob = data_file("census-slob.txt"), *t, *s;
	cJSON *k;

	k = checks_of(slub, slub_info);
	CHECK(all_exact(k), "slub sample and its slabinfo: every check exact");
	cJSON_Delete(k);
	k = checks_of(slab, slab_info);
	CHECK(all_exact(k), "slab sample and its slabinfo: every check exact");
	cJSON_Delete(k);
	k = checks_of(slob, NULL);
	CHECK(cJSON_IsNull(json_at(k, "objects")) && cJSON_IsNull(json_at(k, "sums")) &&
	      cJSON_IsNull(json_at(k, "slabinfo")),
	      "slob: no objects, no caches to sum, no slabinfo: nothing checked, null");
	CHECK_STR(json_str_at(k, "pages"), "exact", "slob: its pages by order");
	CHECK_STR(json_str_at(k, "counter"), "exact",
		  "slob: pages and large kmallocs are the counter");
	cJSON_Delete(k);

	/* One object too many in /proc/slabinfo. */
	s = edit(slub_info, "    40     40    200", "    40     41    200");
	k = checks_of(slub, s);
	CHECK_STR(json_str_at(k, "slabinfo"), "off", "one object more in slabinfo: off");
	CHECK_STR(failure(k, 0), "slabinfo: sb-cache-000: num_objs 41, but objects=40",
		  "the failure names the cache and both figures");
	CHECK_STR(json_str_at(k, "objects"), "exact", "the census itself still adds up");
	cJSON_Delete(k);
	free(s);
	for (size_t i = 0; i < ARRAY_SIZE(info_edits); i++) {
		s = edit(slub_info, info_edits[i].old, info_edits[i].new);
		k = checks_of(slub, s);
		CHECK_STR(failure(k, 0), info_edits[i].want, "%s", info_edits[i].name);
		cJSON_Delete(k);
		free(s);
	}

	/* One live object missing from the census. */
	t = edit(slub, "objects=40 live=16", "objects=40 live=15");
	k = checks_of(t, slub_info);
	CHECK_STR(json_str_at(k, "objects"), "off", "one live object less: objects off");
	CHECK_STR(failure(k, 0),
		  "objects: sb-cache-000: objects=40, but live and free_* add up to 39 (residual +1)",
		  "the failure names the cache and its residual");
	CHECK_STR(json_str_at(k, "sums"), "off", "and the total is no longer the caches' sum");
	CHECK_STR(failure(k, 1), "sums: total live=808, but the caches add up to 807",
		  "the sum's failure names the field");
	cJSON_Delete(k);
	free(t);

	t = edit(slub, "slabs=5 pages=40", "slabs=5 pages=41");
	k = checks_of(t, NULL);
	CHECK_STR(json_str_at(k, "pages"), "off",
		  "a page more than the slab orders hold: pages off");
	CHECK_STR(failure(k, 0), "pages: kmalloc-1k: pages=41, but the slabs_oK hold 40",
		  "the failure names the cache");
	CHECK(cJSON_IsNull(json_at(k, "slabinfo")), "no slabinfo given: its check is null");
	cJSON_Delete(k);
	free(t);

	t = edit(slub, "counter_pages_after=92", "counter_pages_after=93");
	k = checks_of(t, slub_info);
	CHECK_STR(json_str_at(k, "counter"), "moving",
		  "the counter changed during the census: moving");
	CHECK(cJSON_GetArraySize(json_at(k, "failures")) == 0, "moving is no failure");
	cJSON_Delete(k);
	free(t);
	s = edit(slub, "counter_pages=92 counter_pages_after=92", "counter_pages=93 counter_pages_after=93");
	k = checks_of(s, slub_info);
	CHECK_STR(json_str_at(k, "counter"), "off", "a quiet counter one page above: off");
	CHECK_STR(failure(k, 0),
		  "counter: pages + kmalloc_large_pages = 92, but counter_pages=93 (residual -1)",
		  "the counter's failure gives both, and the residual");
	cJSON_Delete(k);
	free(s);

	/* Lines extra, malformed; names that repeat. */
	t = xasprintf("%sextra 0 0 8 512 1 : tunables 0 0 0 : slabdata 0 0 0\n", slub_info);
	k = checks_of(slub, t);
	CHECK_STR(failure(k, 0), "slabinfo: extra: a line the census has no cache record for",
		  "a slabinfo line without its cache");
	cJSON_Delete(k);
	free(t);
	s = edit(slub_info, "bio-120                0      0", "bio-120                0      x");
	k = checks_of(slub, s);
	CHECK_STR(failure(k, 0), "slabinfo: line 7 does not parse", "a malformed slabinfo line, by number");
	CHECK_STR(json_str_at(k, "slabinfo"), "off", "and the check is off");
	cJSON_Delete(k);
	free(s);
	t = edit(slub, "name=task_struct", "name=kmalloc-1k");
	s = edit(slub_info, "task_struct ", "kmalloc-1k  ");
	k = checks_of(t, s);
	CHECK_STR(json_str_at(k, "slabinfo"), "exact",
		  "two caches of one name: matched in the kernel's order");
	cJSON_Delete(k);
	free(t);
	free(s);

	free(slub);
	free(slub_info);
	free(slab);
	free(slab_info);
	free(slob);
}

/*
 * Known answers for what the census says of itself: its total against
 * /proc/meminfo's Slab read just before it (the census's own memory used
 * to add 4 pages there), SLUB_DEBUG's node counts, and counts that a
 * race made negative, reported with their residuals instead of clamped.
 */
static void test_residuals(void)
{
	char *slub = data_file("census-slub.txt"), *slab = data_file("census-slab.txt");
	char *info = data_file("census-slub.slabinfo"), *t, *err = NULL;
	cJSON *k, *c;

	/* The sample's total: pages=80 + kmalloc_large_pages=12, 4 KiB pages. */
	k = checks_all_of(slub, "MemTotal: 1000 kB\nSlab: 368 kB\n", info, NULL);
	CHECK_STR(json_str_at(k, "meminfo"), "exact", "meminfo's Slab 368 kB = 92 pages: exact");
	CHECK(all_exact(k), "and every other check exact");
	cJSON_Delete(k);
	k = checks_all_of(slub, "Slab: 352 kB\n", info, NULL);
	CHECK_STR(json_str_at(k, "meminfo"), "off", "a census 4 pages above meminfo's Slab: off");
	CHECK_STR(failure(k, 0),
		  "meminfo: pages + kmalloc_large_pages = 92, but /proc/meminfo's Slab, read just "
		  "before, is 88 pages (residual +4)", "the failure gives both and the residual");
	CHECK_STR(json_str_at(k, "identities"), "exact",
		  "the census's own identities still hold: meminfo is another reading");
	cJSON_Delete(k);
	k = checks_all_of(slub, "MemTotal: 1000 kB\n", info, NULL);
	CHECK(cJSON_IsNull(json_at(k, "meminfo")), "no Slab in meminfo: no meminfo verdict");
	cJSON_Delete(k);
	k = checks_of(slub, info);
	CHECK(cJSON_IsNull(json_at(k, "meminfo")), "no meminfo: null");
	CHECK_STR(json_str_at(k, "node"), "exact",
		  "slub: the walk's slabs and objects are SLUB's node counts");
	cJSON_Delete(k);
	k = checks_of(slab, NULL);
	CHECK(cJSON_IsNull(json_at(k, "node")), "slab: no node counts, null");
	CHECK_STR(json_str_at(k, "lists"), "exact", "slab: every slab on one of its lists");
	cJSON_Delete(k);

	t = edit(slub, "node_slabs=5 ", "node_slabs=6 ");
	k = checks_of(t, info);
	CHECK_STR(json_str_at(k, "node"), "off", "a slab more in SLUB's node count: node off");
	CHECK_STR(failure(k, 0), "node: kmalloc-1k: slabs=5, but node_slabs=6 (residual -1)",
		  "named, with the residual");
	CHECK_STR(json_str_at(k, "identities"), "off", "and the census is not exact");
	cJSON_Delete(k);
	free(t);

	/* A free racing the walk: live below zero, kept as it is. */
	t = edit(slub, "objects=40 live=16", "objects=40 live=-2");
	c = census_parse(t, &err);
	CHECK(c && json_num_at(cJSON_GetArrayItem(json_at(c, "caches"), 3), "live") == -2,
	      "live=-2 parses, and stays -2");
	cJSON_Delete(c);
	k = checks_of(t, NULL);
	CHECK_STR(json_str_at(k, "objects"), "off", "live=-2: objects off");
	CHECK_STR(failure(k, 0),
		  "objects: sb-cache-000: objects=40, but live and free_* add up to 22 (residual +18)",
		  "the residual, from the count as it was");
	CHECK_STR(failure(k, 1), "lists: sb-cache-000: live=-2, below zero", "a negative live named");
	CHECK_STR(json_str_at(k, "identities"), "off", "not exact");
	cJSON_Delete(k);
	free(t);

	t = edit(slub, "full_slabs=8", "full_slabs=-1");
	k = checks_of(t, NULL);
	CHECK_STR(json_str_at(k, "lists"), "off", "full_slabs=-1: lists off");
	CHECK_STR(failure(k, 0), "lists: kmalloc-64: slabs=12, but its lists hold 3 (residual +9)",
		  "the slabs the lists miss");
	CHECK_STR(failure(k, 1), "lists: kmalloc-64: full_slabs=-1, below zero", "the negative count");
	cJSON_Delete(k);
	free(t);
	t = edit(slab, "full_slabs=", "full_slabs=1");
	k = checks_of(t, NULL);
	CHECK_STR(json_str_at(k, "lists"), "off", "slab: a full slab more than slabs: lists off");
	cJSON_Delete(k);
	free(t);

	t = edit(slub, "counter_pages_after=92", "counter_pages_after=93");
	k = checks_of(t, NULL);
	CHECK_STR(json_str_at(k, "identities"), "moving", "the counter moved: identities moving");
	cJSON_Delete(k);
	free(t);

	static const struct {
		const char *from, *to, *want;
	} refused[] = {
		{ "objects=40 live=16", "objects=-40 live=16",
		  "census line 5: objects=-40: not an unsigned decimal integer" },
		{ "objects=40 live=16", "objects=40 live=-", "census line 5: live=-: not a decimal integer" },
		{ "objects=40 live=16", "objects=40 live=--1",
		  "census line 5: live=--1: not a decimal integer" },
		{ "objects=40 live=16", "objects=40 live=1-",
		  "census line 5: live=1-: not a decimal integer" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		t = edit(slub, refused[i].from, refused[i].to);
		c = census_parse(t, &err);
		CHECK(!c, "refused: %s", refused[i].want);
		CHECK_STR(err, refused[i].want, "named");
		free(err);
		err = NULL;
		cJSON_Delete(c);
		free(t);
	}
	free(slub);
	free(slab);
	free(info);
}

static char *frame(const char *kind, const char *name, const char *data)
{
	return xasprintf("@SB %s %s %zu\n%s\n", kind, name, strlen(data), data);
}

static const char census_workload[] =
	"{\"name\":\"census\",\"timeout_s\":120,\"tests\":["
	"{\"test\":\"caches\",\"params\":{\"caches\":100,\"objs\":8,\"hold\":1},"
	"\"census\":[\"0s\",\"5s\",\"shrink\"]},"
	"{\"test\":\"overhead\",\"params\":{\"size\":64,\"hold\":1}},"
	"{\"test\":\"fastpath\"}]}";

/* A results document as the runner starts it, with one boot. */
static cJSON *new_doc(const struct workload *w, cJSON **boot)
{
	cJSON *doc = cJSON_CreateObject(), *tests = cJSON_AddArrayToObject(doc, "tests");

	cJSON_AddNumberToObject(doc, "schema", RESULTS_SCHEMA);
	cJSON_AddItemToObject(doc, "workload", cJSON_Duplicate(w->json, 1));
	for (int i = 0; i < w->nr_tests; i++) {
		cJSON *t = cJSON_CreateObject();

		cJSON_AddStringToObject(t, "test", w->tests[i].test);
		cJSON_AddStringToObject(t, "spec", w->tests[i].spec);
		cJSON_AddItemToArray(tests, t);
	}
	*boot = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "boots"), *boot);
	return doc;
}

/* Frames of one boot, "@SB" records joined. */
static char *channel(const char *const *frames, size_t n)
{
	char *all = xstrdup("");

	for (size_t i = 0; i < n; i++) {
		char *old = all;

		all = xasprintf("%s%s", old, frames[i]);
		free(old);
	}
	return all;
}

static const cJSON *snapshot(const cJSON *boot, const char *when, const char *what)
{
	return cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(boot, "snapshots"), when),
		what);
}

/* Census frames in results, and the schema's accessors on them. */
static void test_results(void)
{
	char *slub = data_file("census-slub.txt"), *info = data_file("census-slub.slabinfo");
	char *off = edit(info, "    40     40    200", "    40     41    200");
	char *f[] = {
		frame("file", "census.before", slub), frame("file", "slabinfo.before", info),
		frame("file", "census.t0.0s", slub), frame("file", "slabinfo.t0.0s", off),
		frame("file", "census.t0.shrink", slub), frame("missing", "slabinfo.t0.shrink", ""),
		frame("missing", "census.after", ""), frame("file", "slabinfo.after", info),
	};
	char *chan = channel((const char *const *)f, ARRAY_SIZE(f)), *why = NULL, *bad;
	struct workload w;
	cJSON *doc, *boot;
	const cJSON *c;

	workload_parse("w.json", census_workload, 0, &w);
	doc = new_doc(&w, &boot);
	CHECK(results_add_frames(doc, boot, &w, chan, strlen(chan), NULL, "", &why) == 0 && !why,
	      "census frames are accepted");
	c = snapshot(boot, "before", "census");
	CHECK(cJSON_IsObject(c) && all_exact(json_at(c, "checks")),
	      "census.before: parsed, checked against slabinfo.before, all exact");
	CHECK_STR(json_str_at(snapshot(boot, "t0.0s", "census"), "checks.slabinfo"), "off",
		  "census.t0.0s: checked against its own snapshot's slabinfo");
	CHECK(cJSON_IsNull(json_at(snapshot(boot, "t0.shrink", "census"), "checks.slabinfo")),
	      "census.t0.shrink without slabinfo: that check is null");
	CHECK(cJSON_IsNull(snapshot(boot, "after", "census")) && cJSON_IsString(snapshot(boot, "after", "slabinfo")),
	      "a kernel without the census: null, and the run goes on");

	/* The schema's accessors, as report and plot read them. */
	c = boot_census(doc, 0, "before");
	CHECK(c != NULL && boot_census(doc, 0, "after") == NULL && boot_census(doc, 1, "before") == NULL,
	      "boot_census: the census, or NULL where none was read");
	CHECK(boot_census(doc, 0, "t0.0s") == snapshot(boot, "t0.0s", "census") &&
	      boot_census(doc, 0, "t1.0s") == NULL, "boot_census: a test's phases");
	CHECK(census_header(c, "cpus") == 2 && census_header(c, "page_size") == 4096, "census_header");
	CHECK(census_total(c, "pages") == 80 && isnan(census_total(c, "free_cpu_array")),
	      "census_total: a figure, NAN where the allocator has none");
	CHECK(census_nr_caches(c) == 5, "census_nr_caches");
	CHECK(census_cache_at(c, 4) == census_cache(c, "bio-120") && census_cache_at(c, 5) == NULL,
	      "census_cache_at: in order, NULL past the last");
	CHECK(census_cache_field(census_cache(c, "sb-cache-000"), "live") == 16 &&
	      census_cache(c, "sb-cache-999") == NULL, "census_cache, census_cache_field");
	CHECK_STR(checks_verdict(json_at(c, "checks"), "counter"), "exact", "checks_verdict");
	CHECK(checks_verdict(json_at(c, "checks"), "no such") == NULL,
	      "checks_verdict: NULL for a check not made");
	CHECK(cJSON_GetArraySize(checks_failures(json_at(c, "checks"))) == 0 &&
	      cJSON_GetArraySize(checks_failures(
		      json_at(boot_census(doc, 0, "t0.0s"), "checks"))) == 1, "checks_failures");
	cJSON_Delete(doc);
	free(chan);

	/* A census that does not parse fails the run, naming the frame and the line. */
	bad = frame("file", "census.t0.5s", "census version=1\n");
	doc = new_doc(&w, &boot);
	CHECK(results_add_frames(doc, boot, &w, bad, strlen(bad), NULL, "", &why) == -1,
	      "a malformed census fails the run");
	CHECK_STR(why, "census.t0.5s: census line 1: a census record without allocator=",
		  "the reason names the snapshot and the census's line");
	CHECK(cJSON_IsNull(snapshot(boot, "t0.5s", "census")), "and the census is stored as null");
	free(why);
	free(bad);
	cJSON_Delete(doc);
	workload_free(&w);
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		free(f[i]);
	free(off);
	free(info);
	free(slub);
}

/* What error() printed, read back through a memory stream. */
static char *said;
static size_t said_len;

static int parse_said(const char *text, struct workload *w)
{
	FILE *real = stderr;
	int ret;

	free(said);
	said = NULL;
	stderr = open_memstream(&said, &said_len);
	ret = workload_parse("w.json", text, 0, w);
	fclose(stderr);
	stderr = real;
	if (said_len && said[said_len - 1] == '\n')
		said[said_len - 1] = '\0';
	return ret;
}

static void test_workload_phases(void)
{
	static const struct {
		const char *census, *params, *want;
	} bad[] = {
		{ "[\"0s\"]", "{\"objs\":8}",
		  "tests[1].census: only a test that holds memory (params.hold=1) has census phases" },
		{ "[\"0s\"]", "{\"hold\":0}",
		  "tests[1].census: only a test that holds memory (params.hold=1) has census phases" },
		{ "\"0s\"", "{\"hold\":1}",
		  "tests[1].census: expected a non-empty array of phases (\"0s\", \"5s\", ..., \"shrink\")" },
		{ "[]", "{\"hold\":1}",
		  "tests[1].census: expected a non-empty array of phases (\"0s\", \"5s\", ..., \"shrink\")" },
		{ "[\"0s\",\"5\"]", "{\"hold\":1}",
		  "tests[1].census[1]: expected \"Ns\" (N whole seconds up to 86400) or \"shrink\"" },
		{ "[\"5m\"]", "{\"hold\":1}",
		  "tests[1].census[0]: expected \"Ns\" (N whole seconds up to 86400) or \"shrink\"" },
		{ "[\"05s\"]", "{\"hold\":1}",
		  "tests[1].census[0]: expected \"Ns\" (N whole seconds up to 86400) or \"shrink\"" },
		{ "[\"-1s\"]", "{\"hold\":1}",
		  "tests[1].census[0]: expected \"Ns\" (N whole seconds up to 86400) or \"shrink\"" },
		{ "[\"s\"]", "{\"hold\":1}",
		  "tests[1].census[0]: expected \"Ns\" (N whole seconds up to 86400) or \"shrink\"" },
		{ "[5]", "{\"hold\":1}",
		  "tests[1].census[0]: expected \"Ns\" (N whole seconds up to 86400) or \"shrink\"" },
		{ "[\"86401s\"]", "{\"hold\":1}",
		  "tests[1].census[0]: expected \"Ns\" (N whole seconds up to 86400) or \"shrink\"" },
		{ "[\"5s\",\"5s\"]", "{\"hold\":1}",
		  "tests[1].census[1]: 5s is not after 5s (times since the result, increasing)" },
		{ "[\"30s\",\"5s\"]", "{\"hold\":1}",
		  "tests[1].census[1]: 5s is not after 30s (times since the result, increasing)" },
		{ "[\"shrink\",\"5s\"]", "{\"hold\":1}",
		  "tests[1].census[1]: 5s after shrink: the shrink is the last phase" },
		{ "[\"shrink\",\"shrink\"]", "{\"hold\":1}",
		  "tests[1].census[1]: shrink after shrink: the shrink is the last phase" },
		{ "[\"0s\",\"120s\"]", "{\"hold\":1}",
		  "tests[1].census[1]: 120s is past timeout_s (120 s)" },
	};
	struct workload w;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *text = xasprintf("{\"name\":\"w\",\"timeout_s\":120,\"tests\":[{\"test\":\"fastpath\"},"
				       "{\"test\":\"caches\",\"params\":%s,\"census\":%s}]}",
				       bad[i].params, bad[i].census);
		char *want = xasprintf("slabbench: w.json: %s", bad[i].want);

		CHECK(parse_said(text, &w) == -1, "workload census %s with params %s refused",
		      bad[i].census, bad[i].params);
		CHECK_STR(said, want, "the message names the file, the test and the phase");
		free(want);
		free(text);
	}

	CHECK(parse_said(census_workload, &w) == 0, "a workload with census phases parses");
	CHECK(w.tests[0].holds && w.tests[0].nr_census == 3 && w.tests[1].holds &&
	      !w.tests[1].nr_census && !w.tests[2].holds, "which tests hold memory, which have phases");
	CHECK(w.tests[0].census[0].seconds == 0 && w.tests[0].census[1].seconds == 5 &&
	      w.tests[0].census[2].seconds == -1, "phase times; the shrink has none");
	CHECK_STR(w.tests[0].census[2].name, "shrink", "phase names kept as given");
	workload_free(&w);
	CHECK(parse_said("{\"name\":\"w\",\"tests\":[{\"test\":\"caches\",\"params\":{\"hold\":\"1\"},"
			 "\"census\":[\"shrink\"]}]}", &w) == 0 && w.tests[0].holds,
	      "hold as the word 1 holds too; the shrink alone is a phase");
	workload_free(&w);
	free(said);
	said = NULL;
}

static void test_plan(void)
{
	static const bool profiled[3];
	struct workload w;
	struct plan *p;

	workload_parse("w.json", census_workload, 0, &w);
	p = runner_plan(&w, profiled, true, false);
	CHECK_STR(plan_text(p),
		  "file info /sys/kernel/debug/slabbench/info\n"
		  "file catalogue /sys/kernel/debug/slabbench/tests\n"
		  "file cmdline /proc/cmdline\n"
		  "write /proc/sys/vm/stat_refresh 1\n"
		  "file meminfo.before /proc/meminfo\n"
		  "file census.before /sys/kernel/debug/slab_census\n"
		  "file slabinfo.before /proc/slabinfo\n"
		  "cmd config /bin/zcat /proc/config.gz\n"
		  "run test=caches caches=100 objs=8 hold=1\n"
		  "wait 0\n"
		  "write /proc/sys/vm/stat_refresh 1\n"
		  "file meminfo.t0.0s /proc/meminfo\n"
		  "file census.t0.0s /sys/kernel/debug/slab_census\n"
		  "file slabinfo.t0.0s /proc/slabinfo\n"
		  "wait 5\n"
		  "write /proc/sys/vm/stat_refresh 1\n"
		  "file meminfo.t0.5s /proc/meminfo\n"
		  "file census.t0.5s /sys/kernel/debug/slab_census\n"
		  "file slabinfo.t0.5s /proc/slabinfo\n"
		  "write /sys/kernel/debug/slab_census shrink\n"
		  "write /proc/sys/vm/stat_refresh 1\n"
		  "file meminfo.t0.shrink /proc/meminfo\n"
		  "file census.t0.shrink /sys/kernel/debug/slab_census\n"
		  "file slabinfo.t0.shrink /proc/slabinfo\n"
		  "write /sys/kernel/debug/slabbench/run release\n"
		  "run test=overhead size=64 hold=1\n"
		  "file slabinfo.held-1 /proc/slabinfo\n"
		  "write /sys/kernel/debug/slabbench/run release\n"
		  "run test=fastpath\n"
		  "write /proc/sys/vm/stat_refresh 1\n"
		  "file meminfo.after /proc/meminfo\n"
		  "file census.after /sys/kernel/debug/slab_census\n"
		  "file slabinfo.after /proc/slabinfo\n",
		  "the plan: census phases after the run and before release, census then slabinfo");
	plan_free(p);
	p = runner_plan(&w, profiled, true, true);
	CHECK(strstr(plan_text(p), "file slabinfo.t0.5s /proc/slabinfo\n"
			      "attrs sysfs.t0.5s /sys/kernel/slab slabs partial objects total_objects cpu_slabs\n"
			      "write /sys/kernel/debug/slab_census shrink\n") &&
	      strstr(plan_text(p), "attrs sysfs.before ") && strstr(plan_text(p), "attrs sysfs.after "),
	      "with SLUB's sysfs asked for: read after the slabinfo of every snapshot");
	plan_free(p);
	workload_free(&w);
}

int main(void)
{
	test_parse_samples();
	test_parse_errors();
	test_checks();
	test_residuals();
	test_slub_sysfs();
	test_results();
	test_workload_phases();
	test_plan();
	return check_done();
}
