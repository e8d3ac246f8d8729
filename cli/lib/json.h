/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading cJSON documents by dotted path, and two helpers of writing
 * them: nothing here knows a schema.
 */
#ifndef SLABBENCH_JSON_H
#define SLABBENCH_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>

struct strbuf;

/* A member by dotted path, "guest.info.allocator"; NULL if absent. */
const cJSON *json_at(const cJSON *o, const char *path);
/* The same when it is a number; NAN otherwise. */
double json_num_at(const cJSON *o, const char *path);
/* The same, @otherwise when it is absent or no number. */
double json_num_or(const cJSON *o, const char *path, double otherwise);
/* The same when it is a string; "?" otherwise. */
const char *json_str_at(const cJSON *o, const char *path);
/*
 * @v in at most 16 characters, for a line of text: a string bare, any
 * other value as JSON, a longer one cut to 12 and "...". Free it.
 */
char *json_short(const cJSON *v);
/* @parent's member @name, an empty object added when it has none. */
cJSON *json_child(cJSON *parent, const char *name);
/* @v as @o's member @name: a string, or null when @v is NULL. */
void json_add_string_or_null(cJSON *o, const char *name, const char *v);
/* Whether the array @a holds the string @s. */
bool json_has_string(const cJSON *a, const char *s);
/*
 * The strings of the array @a that @b lacks as "-LINE", then those of @b
 * that @a lacks as "+LINE", each after @indent spaces and cut to @width
 * characters (0: whole).
 */
void json_lines_diff(struct strbuf *s, const cJSON *a, const cJSON *b, int indent, int width);

#endif
