/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slab census (docs/census.md): its text read strictly into the JSON
 * that results store (census.c), and the identities a reader relies on,
 * checked (census_check.c).
 */
#ifndef SLABBENCH_CENSUS_H
#define SLABBENCH_CENSUS_H

#include <cjson/cJSON.h>

/*
 * The census text as {"version", "allocator", "cpus", "nodes",
 * "page_size", "caches": [{"name", ...}], "total": {...}}, numbers as
 * numbers, each record's fields in the text's order. Anything the format
 * does not allow (docs/census.md, "Text format") gives NULL and *@err, a
 * one-line message naming the line: "census line 3: objects=12x: not an
 * unsigned decimal integer" (free it).
 */
cJSON *census_parse(const char *text, char **err);

/*
 * Every place a census counts free objects (free_cpu ... free_empty), in
 * the order the format lists them: objects = live + these, absent ones 0.
 */
#define CENSUS_NR_FREE 11
extern const char *const census_free_fields[CENSUS_NR_FREE];

/* The K of a "slabs_oK" key (no leading zero, at most 20); -1 for another key. */
int census_slab_order(const char *key);

/*
 * The identities of docs/census.md over census_parse()'s @census, and
 * against @meminfo (meminfo_parse() of /proc/meminfo read just before
 * it), @slabinfo (/proc/slabinfo read just after it) and @sysfs (the
 * agent's attrs of /sys/kernel/slab, read after that), each NULL where
 * the snapshot has none: {"objects", "pages", "sums", "lists", "node",
 * "counter", "identities", "meminfo", "slabinfo", "sysfs", "failures"}.
 * Each verdict is "exact", "off", null where there is nothing to check,
 * and for "counter" and "identities" (all of the census's own) also
 * "moving"; "failures" has one line per discrepancy, with its signed
 * residual where it is a difference. docs/census.md, "In results", says
 * what each compares.
 */
cJSON *census_checks(const cJSON *census, const cJSON *meminfo, const char *slabinfo,
		     const char *sysfs);

#endif
