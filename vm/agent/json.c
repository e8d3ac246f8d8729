// SPDX-License-Identifier: GPL-2.0
/* The agent's JSON reader (json.h): recursive descent into a tree. */
#define _GNU_SOURCE
#include "json.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct jp {
	const char *p, *end;
};

static struct json *jp_value(struct jp *j, int depth);

static void jp_space(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool jp_is(struct jp *j, char c)
{
	if (j->p == j->end || *j->p != c)
		return false;
	j->p++;
	return true;
}

static int jp_hex(struct jp *j)
{
	int v = 0, i;
	char c;

	for (i = 0; i < 4; i++) {
		if (j->p == j->end || !isxdigit((unsigned char)*j->p))
			return -1;
		c = *j->p++;
		v = v * 16 + (isdigit((unsigned char)c) ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

/* Code point @u as UTF-8 at @dst; surrogates stand as themselves. */
static size_t jp_utf8(char *dst, int u)
{
	if (u < 0x80) {
		dst[0] = u;
		return 1;
	}
	if (u < 0x800) {
		dst[0] = 0xc0 | u >> 6;
		dst[1] = 0x80 | (u & 0x3f);
		return 2;
	}
	dst[0] = 0xe0 | u >> 12;
	dst[1] = 0x80 | ((u >> 6) & 0x3f);
	dst[2] = 0x80 | (u & 0x3f);
	return 3;
}

/* A string at *j->p, unescaped into a new buffer; NULL if malformed. */
static char *jp_string(struct jp *j, size_t *len)
{
	const char *q;
	char *s, *d;
	unsigned char c;
	int u;

	if (!jp_is(j, '"'))
		return NULL;
	/* Up to the closing quote: escapes never grow (\uXXXX gives at most 3). */
	for (q = j->p; q < j->end && *q != '"'; q++)
		if (*q == '\\')
			q++;
	s = d = malloc(q - j->p + 1);
	if (!s)
		return NULL;
	while (j->p < j->end) {
		c = *j->p++;
		if (c == '"') {
			*d = '\0';
			*len = d - s;
			return s;
		}
		if (c < 0x20 || c >= 0x7f || (c == '\\' && j->p == j->end))
			break;
		if (c != '\\') {
			*d++ = c;
			continue;
		}
		c = *j->p++;
		if (c == 'u') {
			u = jp_hex(j);
			if (u < 0)
				break;
			d += jp_utf8(d, u);
		} else if (c && strchr("\"\\/", c)) {
			*d++ = c;
		} else if (c && strchr("bfnrt", c)) {
			*d++ = "\b\f\n\r\t"[strchr("bfnrt", c) - "bfnrt"];
		} else {
			break;
		}
	}
	free(s);
	return NULL;
}

static bool jp_digits(struct jp *j)
{
	const char *start = j->p;

	while (j->p < j->end && isdigit((unsigned char)*j->p))
		j->p++;
	return j->p > start;
}

static bool jp_number(struct jp *j)
{
	jp_is(j, '-');
	if (!jp_is(j, '0') && !jp_digits(j))
		return false;
	if (jp_is(j, '.') && !jp_digits(j))
		return false;
	if (jp_is(j, 'e') || jp_is(j, 'E')) {
		if (!jp_is(j, '+'))
			jp_is(j, '-');
		return jp_digits(j);
	}
	return true;
}

static bool jp_literal(struct jp *j, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n))
		return false;
	j->p += n;
	return true;
}

/* After the opening bracket: the members up to @close, named in an object. */
static bool jp_members(struct jp *j, struct json *parent, int depth, char close)
{
	struct json **tail = &parent->child, *v;
	char *key = NULL;
	size_t len;

	jp_space(j);
	if (jp_is(j, close))
		return true;
	for (;;) {
		if (parent->type == JSON_OBJECT) {
			key = jp_string(j, &len);
			jp_space(j);
			if (!key || !jp_is(j, ':')) {
				free(key);
				return false;
			}
		}
		v = jp_value(j, depth + 1);
		if (!v) {
			free(key);
			return false;
		}
		v->key = key;
		*tail = v;
		tail = &v->next;
		jp_space(j);
		if (jp_is(j, close))
			return true;
		if (!jp_is(j, ','))
			return false;
		jp_space(j);
	}
}

static struct json *jp_value(struct jp *j, int depth)
{
	struct json *v;
	const char *start;
	bool ok;

	jp_space(j);
	if (j->p == j->end || depth > JSON_MAX_DEPTH)
		return NULL;
	v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	start = j->p;
	switch (*j->p) {
	case '{':
	case '[':
		v->type = *j->p++ == '{' ? JSON_OBJECT : JSON_ARRAY;
		ok = jp_members(j, v, depth, v->type == JSON_OBJECT ? '}' : ']');
		break;
	case '"':
		v->type = JSON_STRING;
		v->str = jp_string(j, &v->len);
		ok = v->str;
		break;
	case 't':
		v->type = JSON_TRUE;
		ok = jp_literal(j, "true");
		break;
	case 'f':
		v->type = JSON_FALSE;
		ok = jp_literal(j, "false");
		break;
	case 'n':
		v->type = JSON_NULL;
		ok = jp_literal(j, "null");
		break;
	default:
		v->type = JSON_NUMBER;
		ok = jp_number(j) && (v->str = strndup(start, j->p - start)) != NULL;
		break;
	}
	if (!ok) {
		json_free(v);
		return NULL;
	}
	return v;
}

struct json *json_parse(const char *buf, size_t len)
{
	struct jp j = { buf, buf + len };
	struct json *v = jp_value(&j, 0);

	jp_space(&j);
	if (v && j.p != j.end) {
		json_free(v);
		return NULL;
	}
	return v;
}

void json_free(struct json *j)
{
	struct json *next;

	while (j) {
		json_free(j->child);
		next = j->next;
		free(j->key);
		free(j->str);
		free(j);
		j = next;
	}
}

const struct json *json_get(const struct json *obj, const char *key)
{
	const struct json *m, *found = NULL;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (m = obj->child; m; m = m->next)
		if (!strcmp(m->key, key))
			found = m;
	return found;
}

const char *json_str(const struct json *j)
{
	return j && j->type == JSON_STRING ? j->str : NULL;
}

bool json_u64(const struct json *j, uint64_t *v)
{
	char *end;

	if (!j || j->type != JSON_NUMBER || !isdigit((unsigned char)j->str[0]))
		return false;
	errno = 0;
	*v = strtoull(j->str, &end, 10);
	return !errno && !*end;
}
