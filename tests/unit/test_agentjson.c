// SPDX-License-Identifier: GPL-2.0
/*
 * The guest agent's JSON reader (vm/agent/json.c) and the fuzzer's
 * catalogue reading on it (vm/agent/fuzz_gen.c). The reader is held
 * against cJSON, the host's parser: on the shipped results files and on
 * fixed-seed mutations of them it must never take what cJSON refuses, and
 * what both take they must read alike.
 */
#define _GNU_SOURCE
#include "check.h"
#include "fuzz.h"
#include "json.h"

#include <cjson/cJSON.h>
#include <glob.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MUTATIONS 400

static bool parses(const char *text)
{
	struct json *j = json_parse(text, strlen(text));

	json_free(j);
	return j != NULL;
}

static void test_syntax(void)
{
	static const struct {
		const char *text;
		bool ok;
	} cases[] = {
		{ "{}", true }, { " [ ] \n", true }, { "0", true },
		{ "-0.5e+3", true }, { "\"\"", true }, { "[true,false,null]", true },
		{ "{\"a\":{\"b\":[1,2,{}]}}", true }, { "", false }, { " ", false },
		{ "{", false }, { "{\"a\"}", false }, { "{\"a\":1,}", false },
		{ "[1,]", false }, { "[1 2]", false }, { "{} {}", false },
		{ "01", false }, { "1.", false }, { ".5", false }, { "+1", false },
		{ "1e", false }, { "tru", false }, { "nul", false },
		{ "\"a", false }, { "\"\\x\"", false }, { "\"\\u12G4\"", false },
		{ "\"tab\there\"", false }, { "\"\xc3\xa9\"", false },
		{ "{1:2}", false }, { "[\"a\\\"]", false },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(parses(cases[i].text) == cases[i].ok, "json: %s %s",
		      cases[i].ok ? "takes" : "refuses", cases[i].text);
}

static void test_depth(void)
{
	char text[2 * (JSON_MAX_DEPTH + 2) + 1];
	int n;

	for (n = JSON_MAX_DEPTH + 1; n <= JSON_MAX_DEPTH + 2; n++) {
		memset(text, '[', n);
		memset(text + n, ']', n);
		text[2 * n] = '\0';
		CHECK(parses(text) == (n == JSON_MAX_DEPTH + 1),
		      "json: %d nested arrays %s", n,
		      n == JSON_MAX_DEPTH + 1 ? "taken" : "refused");
	}
}

static void test_values(void)
{
	const char *text = "{\"s\":\"a\\\"b\\\\\\/\\n\\u0041\\u00e9\\u0000z\","
			   "\"n\":18446744073709551615,\"big\":18446744073709551616,"
			   "\"neg\":-1,\"frac\":1.5,\"exp\":1e3,\"dup\":1,\"dup\":2}";
	struct json *j = json_parse(text, strlen(text));
	const struct json *s = json_get(j, "s");
	uint64_t v = 0;

	CHECK(j && j->type == JSON_OBJECT, "json: an object");
	CHECK(s && s->len == 11 && !memcmp(s->str, "a\"b\\/\nA\xc3\xa9\0z", 11),
	      "json: escapes unescaped, \\u00e9 as UTF-8, \\u0000 kept in len");
	CHECK(json_u64(json_get(j, "n"), &v) && v == UINT64_MAX, "json: u64 max");
	CHECK(!json_u64(json_get(j, "big"), &v), "json: u64 overflow refused");
	CHECK(!json_u64(json_get(j, "neg"), &v) && !json_u64(json_get(j, "frac"), &v) &&
	      !json_u64(json_get(j, "exp"), &v), "json: u64 only whole, unsigned, plain");
	CHECK(json_u64(json_get(j, "dup"), &v) && v == 2, "json: the last of duplicate members");
	CHECK(!json_get(j, "none") && !json_get(s, "s") && !json_str(json_get(j, "n")),
	      "json: lookups of what is not there");
	json_free(j);
}

/* Whether @a (ours) and @b (cJSON's) hold the same values. */
static bool same(const struct json *a, const cJSON *b)
{
	const struct json *m;
	const cJSON *c;

	switch (a->type) {
	case JSON_NULL:
		return cJSON_IsNull(b);
	case JSON_FALSE:
		return cJSON_IsFalse(b);
	case JSON_TRUE:
		return cJSON_IsTrue(b);
	case JSON_NUMBER:
		return cJSON_IsNumber(b) && strtod(a->str, NULL) == b->valuedouble;
	case JSON_STRING:
		return cJSON_IsString(b) && !strcmp(a->str, b->valuestring);
	case JSON_ARRAY:
	case JSON_OBJECT:
		if (a->type == JSON_ARRAY ? !cJSON_IsArray(b) : !cJSON_IsObject(b))
			return false;
		for (m = a->child, c = b->child; m && c; m = m->next, c = c->next)
			if ((m->key && strcmp(m->key, c->string)) || !same(m, c))
				return false;
		return !m && !c;
	}
	return false;
}

/* 0: both refuse; 1: both take, alike; -1: they differ. */
static int compare(const char *text, size_t len)
{
	struct json *a = json_parse(text, len);
	cJSON *b = cJSON_ParseWithOpts(text, NULL, 1);
	int ret = a ? (b && same(a, b) ? 1 : -1) : 0;

	json_free(a);
	cJSON_Delete(b);
	return ret;
}

static uint64_t rng_state = 0x5eed;

static unsigned int below(unsigned int n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (rng_state >> 33) % n;
}

/* One mutation of @src into @dst (NUL-terminated): a byte changed, dropped or doubled, or a cut. */
static size_t mutate(const char *src, size_t len, char *dst)
{
	static const char bytes[] = "{}[]\",:\\0-.eE \tntfu1";
	size_t at = below(len), n = len;

	memcpy(dst, src, len);
	switch (below(4)) {
	case 0:
		dst[at] = bytes[below(sizeof(bytes) - 1)];
		break;
	case 1:
		memmove(dst + at, dst + at + 1, len - at - 1);
		n--;
		break;
	case 2:
		memmove(dst + at + 1, dst + at, len - at);
		n++;
		break;
	default:
		n = at;
	}
	dst[n] = '\0';
	return n;
}

static void test_against_cjson(void)
{
	unsigned int files = 0, taken = 0, differ = 0, both = 0, i, k;
	glob_t g;
	char *text, *mut;
	size_t len;
	FILE *f;

	if (glob("tests/data/*.json", 0, NULL, &g))
		g.gl_pathc = 0;
	for (i = 0; i < g.gl_pathc; i++) {
		f = fopen(g.gl_pathv[i], "r");
		text = NULL;
		len = 0;
		if (!f || getdelim(&text, &len, '\0', f) < 0) {
			if (f)
				fclose(f);
			free(text);
			continue;
		}
		fclose(f);
		len = strlen(text);
		files++;
		taken += compare(text, len) == 1;
		mut = malloc(len + 2);
		for (k = 0; mut && len && k < MUTATIONS; k++) {
			switch (compare(mut, mutate(text, len, mut))) {
			case 1:
				both++;
				break;
			case -1:
				if (!differ++)
					printf("# %s, mutation %u: taken unlike cJSON\n",
					       g.gl_pathv[i], k);
				break;
			}
		}
		free(mut);
		free(text);
	}
	globfree(&g);
	CHECK(files >= 5 && taken == files, "json: the %u results files read as cJSON reads them",
	      files);
	CHECK(!differ, "json: %u mutations, none taken where cJSON refuses or read otherwise",
	      files * MUTATIONS);
	CHECK(both > files * MUTATIONS / 20, "json: %u mutations taken by both, read alike", both);
}

static void test_catalogue(void)
{
	const char *ok = "[{\"name\":\"fastpath\",\"description\":\"d\",\"params\":["
			 "{\"name\":\"size\",\"description\":\"x\",\"type\":\"u64\","
			 "\"default\":64,\"min\":8,\"max\":8192},"
			 "{\"name\":\"api\",\"description\":\"y\",\"type\":\"enum\","
			 "\"default\":\"cache\",\"choices\":[\"cache\",\"kmalloc\"]}]},"
			 "{\"name\":\"nolock\",\"description\":\"n\",\"available\":false,"
			 "\"absent\":\"not here\",\"params\":[]},"
			 "{\"name\":\"merge\",\"description\":\"z\",\"available\":true,\"params\":[]}]\n";
	static const char * const bad[] = {
		"{}",
		"[]",
		"[{\"name\":\"t\",\"description\":\"d\"}]",
		"[{\"name\":\"t\",\"params\":[{\"name\":\"p\",\"type\":\"u64\",\"default\":1,\"min\":0}]}]",
		"[{\"name\":\"t\",\"params\":[{\"name\":\"p\",\"type\":\"enum\",\"choices\":[]}]}]",
		"[{\"name\":\"t\",\"params\":[{\"name\":\"p\",\"type\":\"u64\",\"default\":-1,\"min\":0,\"max\":1}]}]",
		"[{\"name\":\"a name longer than the thirty-one bytes\",\"params\":[]}]",
	};
	struct fz_catalogue *c = calloc(1, sizeof(*c));
	const struct fz_param *p;
	unsigned int i;

	if (!c)
		return;
	CHECK(!fz_parse_catalogue(ok, strlen(ok), c) && c->nr_tests == 2 &&
	      !strcmp(c->tests[1].name, "merge") && !c->tests[1].nr_params,
	      "catalogue: two tests read, the one this kernel lacks left out");
	p = c->tests[0].params;
	CHECK(c->tests[0].nr_params == 2 && !p[0].is_enum && p[0].def == 64 &&
	      p[0].min == 8 && p[0].max == 8192 && p[1].is_enum && p[1].nr_choices == 2 &&
	      !strcmp(p[1].choices[1], "kmalloc"), "catalogue: bounds and choices read");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(c, 0, sizeof(*c));
		CHECK(fz_parse_catalogue(bad[i], strlen(bad[i]), c) == -1,
		      "catalogue: refuses %s", bad[i]);
	}
	free(c);
}

int main(void)
{
	test_syntax();
	test_depth();
	test_values();
	test_against_cjson();
	test_catalogue();
	return check_done();
}
