// SPDX-License-Identifier: GPL-2.0
/*
 * The slab census's text (see census.h), read strictly: a figure misread
 * here would be a wrong answer, not a missing one. census_check.c checks
 * what it reads.
 */
#define _GNU_SOURCE
#include "census.h"
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

int census_slab_order(const char *key)
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
	if (!strncmp(field, SLABS_O, strlen(SLABS_O)) && census_slab_order(field) < 0)
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
