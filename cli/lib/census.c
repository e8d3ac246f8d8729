// SPDX-License-Identifier: GPL-2.0
/*
 * The slab census (see census.h): the kernel patch's text read strictly,
 * since a figure misread here would be a wrong answer, not a missing
 * one; then the identities docs/census.md promises, checked.
 */
#define _GNU_SOURCE
#include "census.h"
#include "json.h"
#include "procfs.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Past 2^53 a JSON number is no longer exact. */
#define MAX_EXACT (1ULL << 53)
/* slabs_oK: no kernel has slab orders beyond this (MAX_ORDER is 10 or 11). */
#define MAX_SLAB_ORDER 20
#define SLABS_O "slabs_o"

enum record { REC_CENSUS, REC_CACHE, REC_TOTAL, NR_RECORDS };
static const char *const record_names[NR_RECORDS] = { "census", "cache", "total" };

/*
 * Allocators, as masks. SLUB with sheaves (7.0 on: no CPU slabs) says
 * cpu_cache=sheaves in its header; a SLUB census without it has CPU slabs.
 */
#define ON_SLAB 1u
#define ON_SLUB 2u
#define ON_SLOB 4u
#define ON_SHEAVES 8u
#define ON_SLUBS (ON_SLUB | ON_SHEAVES)
#define ON_CACHES (ON_SLAB | ON_SLUBS)
#define ON_ALL (ON_CACHES | ON_SLOB)
static const char *const allocator_names[] = { "slab", "slub", "slob", "slub (sheaves)" };

/*
 * Where a field may appear, per record: the allocators whose records must
 * have it (NEED, which implies MAY) and those whose records may. A field
 * the table does not name is a number allowed anywhere (slabs_oK, and
 * what a later version of the patch adds).
 */
#define MAY(a) ((a) << 4)
#define NEED(a) ((a) | MAY(a))
#define NEEDS(on, a) ((on) & (a))
#define MAYS(on, a) (((on) >> 4) & (a))

static const struct field_rule {
	const char *name;
	bool word;			/* a word, not a number */
	unsigned char on[NR_RECORDS];	/* census, cache, total */
} rules[] = {
	{ "version", false, { NEED(ON_ALL), 0, 0 } },
	{ "allocator", true, { NEED(ON_ALL), 0, 0 } },
	{ "cpu_cache", true, { MAY(ON_ALL), 0, 0 } },
	{ "cpus", false, { NEED(ON_ALL), 0, 0 } },
	{ "nodes", false, { NEED(ON_ALL), 0, 0 } },
	{ "page_size", false, { NEED(ON_ALL), 0, 0 } },
	{ "caches", false, { NEED(ON_ALL), 0, 0 } },
	{ "name", true, { 0, NEED(ON_CACHES), 0 } },
	{ "object_size", false, { 0, NEED(ON_CACHES), 0 } },
	{ "size", false, { 0, NEED(ON_CACHES), 0 } },
	{ "objs_per_slab", false, { 0, NEED(ON_CACHES), 0 } },
	{ "order", false, { 0, NEED(ON_CACHES), 0 } },
	{ "sheaf_capacity", false, { 0, NEED(ON_SHEAVES), 0 } },
	{ "aliases", false, { 0, NEED(ON_CACHES), 0 } },
	{ "slabs", false, { 0, NEED(ON_CACHES), NEED(ON_ALL) } },
	{ "pages", false, { 0, NEED(ON_CACHES), NEED(ON_ALL) } },
	{ "objects", false, { 0, NEED(ON_CACHES), NEED(ON_CACHES) } },
	{ "live", false, { 0, NEED(ON_CACHES), NEED(ON_CACHES) } },
	{ "live_bytes", false, { 0, 0, NEED(ON_CACHES) } },
	{ "cpu_slabs", false, { 0, NEED(ON_SLUB), MAY(ON_SLUB) } },
	{ "free_cpu", false, { 0, NEED(ON_SLUB), NEED(ON_SLUB) } },
	{ "cpu_partial_slabs", false, { 0, NEED(ON_SLUB), MAY(ON_SLUB) } },
	{ "free_cpu_partial", false, { 0, NEED(ON_SLUB), NEED(ON_SLUB) } },
	{ "free_cpu_array", false, { 0, NEED(ON_SLAB), NEED(ON_SLAB) } },
	{ "free_shared", false, { 0, NEED(ON_SLAB), NEED(ON_SLAB) } },
	/* Alien caches exist only with more than one node. */
	{ "free_alien", false, { 0, MAY(ON_SLAB), MAY(ON_SLAB) } },
	/* SLUB's sheaves: each CPU's main, spare and rcu_free, the barns'. */
	{ "free_sheaf_main", false, { 0, NEED(ON_SHEAVES), NEED(ON_SHEAVES) } },
	{ "free_sheaf_spare", false, { 0, NEED(ON_SHEAVES), NEED(ON_SHEAVES) } },
	{ "free_sheaf_rcu", false, { 0, NEED(ON_SHEAVES), NEED(ON_SHEAVES) } },
	{ "free_barn", false, { 0, NEED(ON_SHEAVES), NEED(ON_SHEAVES) } },
	{ "cpu_sheaves", false, { 0, NEED(ON_SHEAVES), MAY(ON_SHEAVES) } },
	{ "barn_full_sheaves", false, { 0, NEED(ON_SHEAVES), MAY(ON_SHEAVES) } },
	{ "barn_empty_sheaves", false, { 0, NEED(ON_SHEAVES), MAY(ON_SHEAVES) } },
	{ "node_partial_slabs", false, { 0, NEED(ON_CACHES), MAY(ON_CACHES) } },
	{ "free_node_partial", false, { 0, NEED(ON_CACHES), NEED(ON_CACHES) } },
	{ "empty_slabs", false, { 0, NEED(ON_CACHES), MAY(ON_CACHES) } },
	{ "free_empty", false, { 0, NEED(ON_CACHES), NEED(ON_CACHES) } },
	{ "full_slabs", false, { 0, NEED(ON_CACHES), MAY(ON_CACHES) } },
	/* SLUB's own node counts, kept only with SLUB_DEBUG. */
	{ "node_slabs", false, { 0, MAY(ON_SLUBS), MAY(ON_SLUBS) } },
	{ "node_objects", false, { 0, MAY(ON_SLUBS), MAY(ON_SLUBS) } },
	{ "struct_cache", false, { 0, NEED(ON_CACHES), NEED(ON_CACHES) } },
	{ "struct_node", false, { 0, NEED(ON_CACHES), NEED(ON_CACHES) } },
	{ "struct_percpu", false, { 0, NEED(ON_CACHES), NEED(ON_CACHES) } },
	{ "struct_sheaf", false, { 0, NEED(ON_SHEAVES), NEED(ON_SHEAVES) } },
	{ "kmalloc_large_pages", false, { 0, 0, NEED(ON_ALL) } },
	{ "counter_pages", false, { 0, 0, NEED(ON_ALL) } },
	{ "counter_pages_after", false, { 0, 0, NEED(ON_ALL) } },
	{ "percpu_pages", false, { 0, 0, NEED(ON_ALL) } },
	{ "free_slob_small", false, { 0, 0, NEED(ON_SLOB) } },
	{ "free_slob_medium", false, { 0, 0, NEED(ON_SLOB) } },
	{ "free_slob_large", false, { 0, 0, NEED(ON_SLOB) } },
};

/*
 * Counts that a race while the census is read can make negative: the
 * kernel prints them as they are, and the checks say so.
 */
static const char *const signed_fields[] = { "live", "live_bytes", "full_slabs" };

const char *const census_free_fields[CENSUS_NR_FREE] = {
	"free_cpu", "free_cpu_partial", "free_cpu_array", "free_shared", "free_alien",
	"free_sheaf_main", "free_sheaf_spare", "free_sheaf_rcu", "free_barn",
	"free_node_partial", "free_empty",
};

struct parser {
	int line;
	unsigned int alloc;	/* ON_*; ON_ALL until the header says */
	char *err;
};

static int fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	char *what;

	va_start(ap, fmt);
	what = xvasprintf(fmt, ap);
	va_end(ap);
	ps->err = xasprintf("census line %d: %s", ps->line, what);
	free(what);
	return -1;
}

static const struct field_rule *rule_of(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (!strcmp(rules[i].name, key))
			return &rules[i];
	return NULL;
}

static const char *allocator_name(unsigned int alloc)
{
	for (size_t i = 0; i < ARRAY_SIZE(allocator_names); i++)
		if (alloc == 1u << i)
			return allocator_names[i];
	return "?";
}

/* The K of "slabs_oK" (K in [0, MAX_SLAB_ORDER], no leading zero); -1 otherwise. */
static int slab_order(const char *key)
{
	const char *k = key + strlen(SLABS_O);
	long order;

	if (strncmp(key, SLABS_O, strlen(SLABS_O)) || !isdigit((unsigned char)k[0]) ||
	    (k[0] == '0' && k[1]) || parse_long(k, 0, MAX_SLAB_ORDER, &order))
		return -1;
	return order;
}

static bool is_key(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) && s[i] != '_')
			return false;
	return n > 0;
}

static bool is_signed(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(signed_fields); i++)
		if (!strcmp(signed_fields[i], key))
			return true;
	return false;
}

/* KEY=VALUE into @rec, as the rules allow it on @type. */
static int parse_field(struct parser *ps, enum record type, char *field, cJSON *rec)
{
	char *eq = strchr(field, '='), *value;
	const struct field_rule *r;
	unsigned long long v;
	bool negative;

	if (!*field)
		return fail(ps, "an empty field (a space too many)");
	if (!eq || eq == field || !eq[1] || !is_key(field, eq - field))
		return fail(ps, "field '%s': expected key=value, the key in lower case", field);
	*eq = '\0';
	value = eq + 1;
	if (cJSON_GetObjectItemCaseSensitive(rec, field))
		return fail(ps, "%s= given twice", field);
	r = rule_of(field);
	if (r && !MAYS(r->on[type], ps->alloc))
		return MAYS(r->on[type], ON_ALL) ?
			fail(ps, "%s= does not belong on a %s census's %s record", field,
			     allocator_name(ps->alloc), record_names[type]) :
			fail(ps, "%s= does not belong on a %s record", field, record_names[type]);
	if (r && r->word) {
		cJSON_AddStringToObject(rec, field, value);
		return 0;
	}
	negative = *value == '-' && is_signed(field);
	for (const char *d = value + negative; *d; d++)
		if (!isdigit((unsigned char)*d))
			return fail(ps, "%s=%s: not %s decimal integer", field, value,
				    is_signed(field) ? "a" : "an unsigned");
	if (!value[negative])
		return fail(ps, "%s=%s: not a decimal integer", field, value);
	errno = 0;
	v = strtoull(value + negative, NULL, 10);
	if (errno || v > MAX_EXACT)
		return fail(ps, "%s=%s: too large", field, value);
	if (!strncmp(field, SLABS_O, strlen(SLABS_O)) && slab_order(field) < 0)
		return fail(ps, "%s=: no such slab order", field);
	cJSON_AddNumberToObject(rec, field, negative ? -(double)v : (double)v);
	return 0;
}

/* Every field the rules make @type's records on this allocator have. */
static int check_needed(struct parser *ps, enum record type, const cJSON *rec)
{
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (NEEDS(rules[i].on[type], ps->alloc) &&
		    !cJSON_GetObjectItemCaseSensitive(rec, rules[i].name))
			return fail(ps, "a %s record without %s=", record_names[type],
				    rules[i].name);
	return 0;
}

/* Whether a @type record may come next: the header first, caches, the total last. */
static int check_place(struct parser *ps, enum record type, const cJSON *census)
{
	bool started = cJSON_GetObjectItemCaseSensitive(census, "caches");
	bool ended = cJSON_GetObjectItemCaseSensitive(census, "total");

	if (type == REC_CENSUS && started)
		return fail(ps, "a second census header");
	if (type != REC_CENSUS && !started)
		return fail(ps, "a %s record before the census header", record_names[type]);
	if (type != REC_CENSUS && ended)
		return fail(ps, "a %s record after the total record", record_names[type]);
	if (type == REC_CACHE && ps->alloc == ON_SLOB)
		return fail(ps, "a cache record in a slob census (SLOB has no caches)");
	return 0;
}

/*
 * One line, in its place in @census: its record type in *@type and its
 * fields as a new object.
 */
static cJSON *parse_record(struct parser *ps, char *line, const cJSON *census,
			   enum record *type)
{
	char *save = line, *word = strsep(&save, " ");
	cJSON *rec;
	int t;

	if (!*line) {
		fail(ps, "empty line");
		return NULL;
	}
	for (t = 0; t < NR_RECORDS && strcmp(word, record_names[t]); t++)
		;
	if (t == NR_RECORDS) {
		fail(ps, "unknown record type '%s'", word);
		return NULL;
	}
	*type = t;
	if (check_place(ps, t, census))
		return NULL;
	rec = cJSON_CreateObject();
	while ((word = strsep(&save, " "))) {
		if (parse_field(ps, t, word, rec)) {
			cJSON_Delete(rec);
			return NULL;
		}
	}
	return rec;
}

/* The census line: the allocator, the version, the number of caches. */
static int read_header(struct parser *ps, const cJSON *rec, cJSON *census, double *nr_caches)
{
	const cJSON *alloc = cJSON_GetObjectItemCaseSensitive(rec, "allocator");
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(rec, "version");
	const cJSON *cpu_cache = cJSON_GetObjectItemCaseSensitive(rec, "cpu_cache");
	const cJSON *f;

	if (!alloc || !version)
		return check_needed(ps, REC_CENSUS, rec);
	for (size_t i = 0; i < ARRAY_SIZE(allocator_names); i++)
		if (!strcmp(alloc->valuestring, allocator_names[i]))
			ps->alloc = 1u << i;
	if (ps->alloc == ON_ALL)
		return fail(ps, "allocator=%s: not slab, slub or slob", alloc->valuestring);
	if (cpu_cache && (ps->alloc != ON_SLUB || strcmp(cpu_cache->valuestring, "sheaves")))
		return fail(ps, "cpu_cache=%s: only a slub census has one, and it is sheaves",
			    cpu_cache->valuestring);
	if (cpu_cache)
		ps->alloc = ON_SHEAVES;
	if (version->valuedouble != 1)
		return fail(ps, "version=%.0f: this slabbench reads version 1", version->valuedouble);
	if (check_needed(ps, REC_CENSUS, rec))
		return -1;
	/* In results, "caches" is the records themselves. */
	cJSON_ArrayForEach(f, rec) {
		if (!strcmp(f->string, "caches"))
			*nr_caches = f->valuedouble;
		else
			cJSON_AddItemToObject(census, f->string, cJSON_Duplicate(f, 1));
	}
	cJSON_AddArrayToObject(census, "caches");
	return 0;
}

/* One record into @census: the header's fields, or a cache, or the total. */
static int add_record(struct parser *ps, enum record type, cJSON *rec, cJSON *census,
		      double *nr_caches)
{
	if (type == REC_CENSUS)
		return read_header(ps, rec, census, nr_caches);
	if (check_needed(ps, type, rec))
		return -1;
	if (type == REC_CACHE)
		cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(census, "caches"),
				     cJSON_Duplicate(rec, 1));
	else
		cJSON_AddItemToObject(census, "total", cJSON_Duplicate(rec, 1));
	return 0;
}

cJSON *census_parse(const char *text, char **err)
{
	struct parser ps = { .alloc = ON_ALL };
	cJSON *census = cJSON_CreateObject(), *caches;
	double nr_caches = 0;
	const char *p = text;

	while (*p && !ps.err) {
		const char *nl = strchr(p, '\n');
		enum record type = REC_CENSUS;
		char *line;
		cJSON *rec;

		ps.line++;
		if (!nl) {
			fail(&ps, "no newline at its end (cut short?)");
			break;
		}
		line = xstrndup(p, nl - p);
		if (!line)
			out_of_memory();
		p = nl + 1;
		rec = parse_record(&ps, line, census, &type);
		if (rec)
			add_record(&ps, type, rec, census, &nr_caches);
		cJSON_Delete(rec);
		free(line);
	}
	caches = cJSON_GetObjectItemCaseSensitive(census, "caches");
	if (!ps.err && !ps.line) {
		ps.line = 1;
		fail(&ps, "empty, no census header");
	} else if (!ps.err && !cJSON_GetObjectItemCaseSensitive(census, "total")) {
		fail(&ps, "ends without a total record");
	} else if (!ps.err && cJSON_GetArraySize(caches) != nr_caches) {
		ps.line = 1;
		fail(&ps, "caches=%.0f, but %d cache records follow", nr_caches,
		     cJSON_GetArraySize(caches));
	}
	*err = ps.err;
	if (ps.err) {
		cJSON_Delete(census);
		return NULL;
	}
	return census;
}

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
		int order = slab_order(f->string);

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
	if (!lines) {
		failed(k, "slabinfo: line %d does not parse", bad);
		return cJSON_CreateString("off");
	}
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
	if (!all) {
		failed(k, "sysfs: line %d does not parse", bad);
		return cJSON_CreateString("off");
	}
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
