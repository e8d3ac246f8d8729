// SPDX-License-Identifier: GPL-2.0
/*
 * The identities docs/census.md promises of a census (see census.h),
 * checked over what census.c read, against /proc/meminfo, /proc/slabinfo
 * and SLUB's sysfs: each check a verdict, each discrepancy a line.
 */
#define _GNU_SOURCE
#include "census.h"
#include "json.h"
#include "procfs.h"
#include "util.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The checks: failures, one line each, and what each check concluded. */
struct checks {
	cJSON *failures;
};

static void failed(struct checks *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void failed(struct checks *k, const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	line = xvasprintf(fmt, ap);
	va_end(ap);
	cJSON_AddItemToArray(k->failures, cJSON_CreateString(line));
	free(line);
}

/* The verdict of a check whose source text is not what it reads. */
static cJSON *unparsed(struct checks *k, const char *what, int line)
{
	failed(k, "%s: line %d does not parse", what, line);
	return cJSON_CreateString("off");
}

/* A check's verdict over its records: none to check, all exact, or one off at least. */
enum verdict { NOTHING, EXACT, OFF };

static cJSON *verdict_json(enum verdict v)
{
	return v == NOTHING ? cJSON_CreateNull() : cJSON_CreateString(v == EXACT ? "exact" : "off");
}

/* Combines the verdicts of records: off if any is. */
static void verdict_add(enum verdict *v, bool exact)
{
	if (*v != OFF)
		*v = exact ? EXACT : OFF;
}

/* A record's figure, 0 where it has none. */
static double num(const cJSON *rec, const char *field)
{
	return json_num_or(rec, field, 0);
}

static const char *who(const cJSON *rec)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(rec, "name");

	return cJSON_IsString(name) ? name->valuestring : "total";
}

/* objects = live + every free_* location, where the record counts objects. */
static void check_objects(struct checks *k, const cJSON *rec, enum verdict *v)
{
	double sum = num(rec, "live");

	if (!cJSON_GetObjectItemCaseSensitive(rec, "objects"))
		return;
	for (size_t i = 0; i < CENSUS_NR_FREE; i++)
		sum += num(rec, census_free_fields[i]);
	verdict_add(v, sum == num(rec, "objects"));
	if (sum != num(rec, "objects"))
		failed(k, "objects: %s: objects=%.0f, but live and free_* add up to %.0f "
		       "(residual %+.0f)", who(rec), num(rec, "objects"), sum,
		       num(rec, "objects") - sum);
}

/*
 * A cache's slabs are on exactly one list each: slabs = cpu_slabs +
 * cpu_partial_slabs + node_partial_slabs + empty_slabs + full_slabs (a
 * count on SLAB; on SLUB full_slabs is the rest, so there it is the
 * sign that says). No count is below zero.
 */
static void check_lists(struct checks *k, const cJSON *rec, enum verdict *v)
{
	static const char *const lists[] = {
		"cpu_slabs", "cpu_partial_slabs", "node_partial_slabs", "empty_slabs", "full_slabs",
	};
	double sum = 0;
	bool exact;

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		sum += num(rec, lists[i]);
	exact = sum == num(rec, "slabs") && num(rec, "live") >= 0 && num(rec, "full_slabs") >= 0;
	verdict_add(v, exact);
	if (sum != num(rec, "slabs"))
		failed(k, "lists: %s: slabs=%.0f, but its lists hold %.0f (residual %+.0f)",
		       who(rec), num(rec, "slabs"), sum, num(rec, "slabs") - sum);
	if (num(rec, "live") < 0)
		failed(k, "lists: %s: live=%.0f, below zero", who(rec), num(rec, "live"));
	if (num(rec, "full_slabs") < 0)
		failed(k, "lists: %s: full_slabs=%.0f, below zero", who(rec),
		       num(rec, "full_slabs"));
}

/* SLUB_DEBUG's node counts: slabs = node_slabs, objects = node_objects. */
static void check_node(struct checks *k, const cJSON *rec, enum verdict *v)
{
	static const char *const pairs[][2] = {
		{ "slabs", "node_slabs" }, { "objects", "node_objects" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		double walk = num(rec, pairs[i][0]), node = num(rec, pairs[i][1]);

		if (!cJSON_GetObjectItemCaseSensitive(rec, pairs[i][1]))
			continue;
		verdict_add(v, walk == node);
		if (walk != node)
			failed(k, "node: %s: %s=%.0f, but %s=%.0f (residual %+.0f)", who(rec),
			       pairs[i][0], walk, pairs[i][1], node, walk - node);
	}
}

/* slabs = sum of slabs_oK, pages = sum of slabs_oK << K. */
static void check_pages(struct checks *k, const cJSON *rec, enum verdict *v)
{
	double slabs = 0, pages = 0;
	const cJSON *f;

	cJSON_ArrayForEach(f, rec) {
		int order = census_slab_order(f->string);

		if (order >= 0) {
			slabs += f->valuedouble;
			pages += f->valuedouble * (1u << order);
		}
	}
	verdict_add(v, slabs == num(rec, "slabs") && pages == num(rec, "pages"));
	if (slabs != num(rec, "slabs"))
		failed(k, "pages: %s: slabs=%.0f, but the slabs_oK add up to %.0f", who(rec),
		       num(rec, "slabs"), slabs);
	if (pages != num(rec, "pages"))
		failed(k, "pages: %s: pages=%.0f, but the slabs_oK hold %.0f", who(rec),
		       num(rec, "pages"), pages);
}

/* Each total field that caches have is their sum; live_bytes, live * object_size. */
static void check_sums(struct checks *k, const cJSON *caches, const cJSON *total,
		       enum verdict *v)
{
	const cJSON *f, *c;

	if (!cJSON_GetArraySize(caches))
		return;
	cJSON_ArrayForEach(f, total) {
		bool cached = false;
		double sum = 0;

		cJSON_ArrayForEach(c, caches) {
			if (!strcmp(f->string, "live_bytes")) {
				cached = true;
				sum += num(c, "live") * num(c, "object_size");
			} else if (cJSON_GetObjectItemCaseSensitive(c, f->string)) {
				cached = true;
				sum += num(c, f->string);
			}
		}
		if (!cached)
			continue;
		verdict_add(v, sum == f->valuedouble);
		if (sum != f->valuedouble)
			failed(k, "sums: total %s=%.0f, but the caches add up to %.0f", f->string,
			       f->valuedouble, sum);
	}
}

/* At a quiet point, every slab page and large kmalloc is in the counter. */
static cJSON *check_counter(struct checks *k, const cJSON *total)
{
	double have = num(total, "pages") + num(total, "kmalloc_large_pages");
	double counter = num(total, "counter_pages");

	if (counter != num(total, "counter_pages_after"))
		return cJSON_CreateString("moving");
	if (have == counter)
		return cJSON_CreateString("exact");
	failed(k, "counter: pages + kmalloc_large_pages = %.0f, but counter_pages=%.0f "
	       "(residual %+.0f)", have, counter, have - counter);
	return cJSON_CreateString("off");
}

/*
 * The census against /proc/meminfo's Slab (kB) of the same snapshot, read
 * just before it: equal unless slab memory moved in between, or the census
 * counted memory of its own.
 */
static cJSON *check_meminfo(struct checks *k, const cJSON *census, const cJSON *total,
			    const cJSON *meminfo)
{
	const cJSON *slab = cJSON_GetObjectItemCaseSensitive(meminfo, "Slab");
	double have = num(total, "pages") + num(total, "kmalloc_large_pages");
	double page_kb = num(census, "page_size") / 1024, pages;

	if (!cJSON_IsNumber(slab) || page_kb <= 0)
		return cJSON_CreateNull();
	pages = slab->valuedouble / page_kb;
	if (have == pages)
		return cJSON_CreateString("exact");
	failed(k, "meminfo: pages + kmalloc_large_pages = %.0f, but /proc/meminfo's Slab, read "
	       "just before, is %.0f pages (residual %+.0f)", have, pages, have - pages);
	return cJSON_CreateString("off");
}

/*
 * Each cache record against its /proc/slabinfo line. Names need not be
 * unique, and both list slab_caches in its order: the Nth record of a
 * name is the Nth line of that name. SLUB lists a merged cache once,
 * under its own name, as the census does.
 */
static cJSON *check_slabinfo(struct checks *k, const cJSON *caches, const char *slabinfo)
{
	enum verdict v = EXACT;
	int bad = 0, n;
	cJSON *lines;
	bool *used;
	const cJSON *c, *l;

	if (!slabinfo)
		return cJSON_CreateNull();
	lines = slabinfo_lines(slabinfo, &bad);
	if (!lines)
		return unparsed(k, "slabinfo", bad);
	n = cJSON_GetArraySize(lines);
	used = xcalloc(n ? n : 1, sizeof(*used));
	cJSON_ArrayForEach(c, caches) {
		double objects = num(c, "objects");
		double active = objects - num(c, "free_node_partial") - num(c, "free_empty");
		int i = 0;

		cJSON_ArrayForEach(l, lines) {
			if (!used[i] && !strcmp(who(l), who(c)))
				break;
			i++;
		}
		if (!l) {
			verdict_add(&v, false);
			failed(k, "slabinfo: %s: no line for it", who(c));
			continue;
		}
		used[i] = true;
		verdict_add(&v, num(l, "num_objs") == objects && num(l, "active_objs") == active &&
		      num(l, "num_slabs") == num(c, "slabs"));
		if (num(l, "num_objs") != objects)
			failed(k, "slabinfo: %s: num_objs %.0f, but objects=%.0f", who(c),
			       num(l, "num_objs"), objects);
		if (num(l, "active_objs") != active)
			failed(k, "slabinfo: %s: active_objs %.0f, but objects - free_node_partial - free_empty = %.0f",
			       who(c), num(l, "active_objs"), active);
		if (num(l, "num_slabs") != num(c, "slabs"))
			failed(k, "slabinfo: %s: num_slabs %.0f, but slabs=%.0f", who(c),
			       num(l, "num_slabs"), num(c, "slabs"));
	}
	n = 0;
	cJSON_ArrayForEach(l, lines) {
		if (!used[n++]) {
			verdict_add(&v, false);
			failed(k, "slabinfo: %s: a line the census has no cache record for", who(l));
		}
	}
	free(used);
	cJSON_Delete(lines);
	return verdict_json(v);
}

/*
 * SLUB's own counts per cache (mm/slub.c show_slab_objects()): "slabs" and
 * "total_objects" are the node counters, "partial" the node partial lists
 * (empty slabs included), "objects" the total less the node lists' free
 * objects, "cpu_slabs" the CPU slabs plus the per-CPU partial slabs.
 * Entries without a record (merged caches' aliases, their :unique-id
 * directories) are not judged: sysfs has one per name a cache was asked
 * for, the census one per cache.
 */
static cJSON *check_slub_sysfs(struct checks *k, const cJSON *caches, const char *sysfs)
{
	enum verdict v = EXACT;
	const cJSON *c;
	int bad = 0;
	cJSON *all;

	if (!sysfs)
		return cJSON_CreateNull();
	all = slub_sysfs_parse(sysfs, &bad);
	if (!all)
		return unparsed(k, "sysfs", bad);
	cJSON_ArrayForEach(c, caches) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(all, who(c));
		const struct {
			const char *attr;
			double census;
			const char *what;
		} want[] = {
			{ "slabs", num(c, "slabs"), "slabs" },
			{ "total_objects", num(c, "objects"), "objects" },
			{ "objects", num(c, "objects") - num(c, "free_node_partial") - num(c, "free_empty"),
			  "objects - free_node_partial - free_empty" },
			{ "partial", num(c, "node_partial_slabs") + num(c, "empty_slabs"),
			  "node_partial_slabs + empty_slabs" },
			{ "cpu_slabs", num(c, "cpu_slabs") + num(c, "cpu_partial_slabs"),
			  "cpu_slabs + cpu_partial_slabs" },
		};

		if (!e) {
			verdict_add(&v, false);
			failed(k, "sysfs: %s: no /sys/kernel/slab entry", who(c));
			continue;
		}
		for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
			const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, want[i].attr);
			bool same = cJSON_IsNumber(a) && a->valuedouble == want[i].census;

			verdict_add(&v, same);
			if (!a)
				failed(k, "sysfs: %s: no %s", who(c), want[i].attr);
			else if (!same)
				failed(k, "sysfs: %s: %s %.0f, but %s = %.0f", who(c), want[i].attr,
				       a->valuedouble, want[i].what, want[i].census);
		}
	}
	cJSON_Delete(all);
	return verdict_json(v);
}

/*
 * The census's own identities, and its counter, all held: "exact"; its
 * counter moved while it was read: "moving"; else "off".
 */
static cJSON *identities(const cJSON *out)
{
	static const char *const own[] = {
		"objects", "pages", "sums", "lists", "node", "counter",
	};
	const char *verdict = "exact";

	for (size_t i = 0; i < ARRAY_SIZE(own); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(out, own[i]);

		if (!cJSON_IsString(v) || !strcmp(v->valuestring, "exact"))
			continue;
		if (!strcmp(v->valuestring, "moving"))
			return cJSON_CreateString("moving");
		verdict = "off";
	}
	return cJSON_CreateString(verdict);
}

cJSON *census_checks(const cJSON *census, const cJSON *meminfo, const char *slabinfo,
		     const char *sysfs)
{
	const cJSON *caches = cJSON_GetObjectItemCaseSensitive(census, "caches");
	const cJSON *total = cJSON_GetObjectItemCaseSensitive(census, "total"), *c;
	struct checks k = { .failures = cJSON_CreateArray() };
	enum verdict objects = NOTHING, pages = NOTHING, sums = NOTHING, lists = NOTHING;
	enum verdict node = NOTHING;
	cJSON *out = cJSON_CreateObject();

	cJSON_ArrayForEach(c, caches) {
		check_objects(&k, c, &objects);
		check_pages(&k, c, &pages);
		check_lists(&k, c, &lists);
		check_node(&k, c, &node);
	}
	check_objects(&k, total, &objects);
	check_pages(&k, total, &pages);
	check_sums(&k, caches, total, &sums);
	cJSON_AddItemToObject(out, "objects", verdict_json(objects));
	cJSON_AddItemToObject(out, "pages", verdict_json(pages));
	cJSON_AddItemToObject(out, "sums", verdict_json(sums));
	cJSON_AddItemToObject(out, "lists", verdict_json(lists));
	cJSON_AddItemToObject(out, "node", verdict_json(node));
	cJSON_AddItemToObject(out, "counter", check_counter(&k, total));
	cJSON_AddItemToObject(out, "identities", identities(out));
	cJSON_AddItemToObject(out, "meminfo", check_meminfo(&k, census, total, meminfo));
	cJSON_AddItemToObject(out, "slabinfo", check_slabinfo(&k, caches, slabinfo));
	cJSON_AddItemToObject(out, "sysfs", check_slub_sysfs(&k, caches, sysfs));
	cJSON_AddItemToObject(out, "failures", k.failures);
	return out;
}
