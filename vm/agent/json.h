/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest agent's JSON reader, for what the module writes: its results
 * and errors, its catalogue, its info. The agent is linked statically
 * (the guest has no libraries) and Debian's libcjson-dev ships no static
 * library, so the agent cannot link the cJSON the host uses; this is the
 * subset the agent needs: a strict parser into a tree, and lookups.
 *
 * Strict: one value and nothing else but blanks, nesting at most
 * JSON_MAX_DEPTH deep, and ASCII only, as the module writes (a reason
 * that quotes a spec escapes the rest): any other byte is an error.
 */
#ifndef SLABBENCH_AGENT_JSON_H
#define SLABBENCH_AGENT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 32

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json {
	enum json_type type;
	/* A member of an object: its name, unescaped. */
	char *key;
	/* JSON_STRING: the text unescaped (@len bytes, NUL-terminated); JSON_NUMBER: as written. */
	char *str;
	size_t len;
	/* JSON_ARRAY, JSON_OBJECT: the first element or member, then ->next. */
	struct json *child;
	struct json *next;
};

/* The value in @len bytes of @buf, or NULL if they are not one JSON value. */
struct json *json_parse(const char *buf, size_t len);
void json_free(struct json *j);
/* The member @key of object @obj, the last if there are several; NULL if none. */
const struct json *json_get(const struct json *obj, const char *key);
/* A string's text, or NULL if @j is not a string. */
const char *json_str(const struct json *j);
/* A number that is a whole number in uint64_t (no sign, fraction or exponent). */
bool json_u64(const struct json *j, uint64_t *v);

#endif
