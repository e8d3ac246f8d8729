// SPDX-License-Identifier: GPL-2.0
/* Reading cJSON documents by dotted path: nothing here knows a schema. */
#define _GNU_SOURCE
#include "json.h"
#include "strbuf.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const cJSON *json_at(const cJSON *o, const char *path)
{
	char *copy = xstrdup(path), *save = NULL, *key;

	for (key = strtok_r(copy, ".", &save); key && o; key = strtok_r(NULL, ".", &save))
		o = cJSON_GetObjectItemCaseSensitive(o, key);
	free(copy);
	return o;
}

double json_num_at(const cJSON *o, const char *path)
{
	return json_num_or(o, path, NAN);
}

double json_num_or(const cJSON *o, const char *path, double otherwise)
{
	const cJSON *v = json_at(o, path);

	return cJSON_IsNumber(v) ? v->valuedouble : otherwise;
}

const char *json_str_at(const cJSON *o, const char *path)
{
	const cJSON *s = json_at(o, path);

	return cJSON_IsString(s) ? s->valuestring : "?";
}

cJSON *json_child(cJSON *parent, const char *name)
{
	cJSON *o = cJSON_GetObjectItemCaseSensitive(parent, name);

	if (!o)
		o = cJSON_AddObjectToObject(parent, name);
	return o;
}

void json_add_string_or_null(cJSON *o, const char *name, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

bool json_has_string(const cJSON *a, const char *s)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, a)
		if (cJSON_IsString(e) && !strcmp(e->valuestring, s))
			return true;
	return false;
}

char *json_short(const cJSON *v)
{
	char *s = cJSON_IsString(v) ? xstrdup(v->valuestring) : cJSON_PrintUnformatted(v);

	if (!s)
		return xstrdup("?");
	if (strlen(s) > 16)
		strcpy(s + 12, "...");
	return s;
}

void json_lines_diff(struct strbuf *s, const cJSON *a, const cJSON *b, int indent, int width)
{
	const cJSON *l;

	cJSON_ArrayForEach(l, a)
		if (cJSON_IsString(l) && !json_has_string(b, l->valuestring))
			sb_addf(s, "%*s-%.*s\n", indent, "", width ? width : INT_MAX, l->valuestring);
	cJSON_ArrayForEach(l, b)
		if (cJSON_IsString(l) && !json_has_string(a, l->valuestring))
			sb_addf(s, "%*s+%.*s\n", indent, "", width ? width : INT_MAX, l->valuestring);
}
