/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_fuzz.c's mutation engine: a fixed-seed generator (every run tries
 * the same inputs) and the mutations of a seed text, byte- and
 * token-wise, numbers and strings, deep nesting and cuts.
 */
#ifndef SLABBENCH_FUZZ_MUTATE_H
#define SLABBENCH_FUZZ_MUTATE_H

#include "util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A bigger input is not mutated further: the run stays within seconds. */
#define MAX_INPUT (256 * 1024)
#define MAX_SEEDS 16

/* splitmix64: the same sequence on every machine, from a fixed start. */
static uint64_t rng_state = 0x5eed5eed5eed5eedULL;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t below(size_t n)
{
	return n ? rnd() % n : 0;
}

struct buf {
	char *p;
	size_t len;
};

/* @del bytes at @off become @ins; @ins may point into @b. */
static void replace(struct buf *b, size_t off, size_t del, const char *ins, size_t n)
{
	char *p = xmalloc(b->len - del + n + 1);

	memcpy(p, b->p, off);
	memcpy(p + off, ins, n);
	memcpy(p + off + n, b->p + off + del, b->len - off - del);
	b->len = b->len - del + n;
	p[b->len] = '\0';
	free(b->p);
	b->p = p;
}

struct seeds {
	int n;
	char *text[MAX_SEEDS];
	size_t len[MAX_SEEDS];
};

static void add_seed(struct seeds *s, const char *text)
{
	if (s->n == MAX_SEEDS)
		return;
	s->text[s->n] = xstrdup(text);
	s->len[s->n++] = strlen(text);
}

static void free_seeds(struct seeds *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->text[i]);
}

/* Bytes that mean something to JSON or to /proc files; NUL included. */
static const char special[] = "{}[]\":,-+.eE0 \\\n\t\xff";

static const char *const tokens[] = {
	"{", "}", "[", "]", "\"", ":", ",", "null", "true", "false", "{}", "[]",
	"\"test\":", "\"params\":{", "\"repeats\":", "\"name\":", "\"tests\":[",
	"\"timeout_s\":", "\"description\":", "\"schema\":", "\"status\":",
	"\"metrics\":{", "\"samples\":[", "\"better\":", "\"labels\":{", "\"spec\":",
	"\"workload\":{", "\"unit\":", "\"lower\"", "\"higher\"", "\"partial\"",
	"\"complete\"", "\"test\":\"fastpath\"", "\"size\":64", "\\u", "\\",
	"\"irqs\":[", "\"point_order\":[", "\"summary\":{",
	" : tunables ", " : slabdata ", "slabbench-held ", "MemTotal:", " kB\n", ": ",
};

/* Too large, negative, fractional, out of any type's range, or no number. */
static const char *const numbers[] = {
	"0", "-0", "-1", "1.5", "1e-400", "-1e-400", "1e309", "-1e309",
	"1e999999999999", "1.7976931348623157e308", "4.9e-324",
	"9007199254740992", "9007199254740993", "18446744073709551615",
	"18446744073709551616", "-9223372036854775809", "2147483647",
	"2147483648", "-2147483649", "4294967296",
	"123456789012345678901234567890123456789", "0.1e+", "1e", "--1", "0x10",
	"NaN", "nan", "inf", "Infinity", "-Infinity", "00", "1.", ".5", "",
};

/* String contents: not a word, a format, an escape, a key of the format. */
static const char *const strings[] = {
	"", " ", "a b", "test=x", "x=y", "repeats", "params", "test", "schema",
	"\\u0000", "\\ud800", "\\udc00x", "\\\"", "\\\\", "\\n", "\xff\xfe",
	"%s%n%s%n", "\xc3\xa9", "partial", "complete", "higher", "lower",
};

static bool is_number_char(char c)
{
	return c && strchr("0123456789.-+eE", c);
}

/* The number at or after @from, wrapping around; false if none. */
static bool find_number(const struct buf *b, size_t from, size_t *off, size_t *len)
{
	for (size_t i = 0; i < b->len; i++) {
		size_t at = (from + i) % b->len, end;

		if (!isdigit((unsigned char)b->p[at]))
			continue;
		while (at > 0 && is_number_char(b->p[at - 1]))
			at--;
		for (end = at; end < b->len && is_number_char(b->p[end]); end++)
			;
		*off = at;
		*len = end - at;
		return true;
	}
	return false;
}

/* What lies between the first quote at or after @from and the next. */
static bool find_string(const struct buf *b, size_t from, size_t *off, size_t *len)
{
	const char *q = memchr(b->p + from, '"', b->len - from), *end;

	if (!q)
		q = memchr(b->p, '"', b->len);
	if (!q)
		return false;
	end = memchr(q + 1, '"', b->p + b->len - q - 1);
	if (!end)
		return false;
	*off = q + 1 - b->p;
	*len = end - q - 1;
	return true;
}

/* @depth arrays or objects around a 1; cJSON refuses past 1000. */
static char *nested(size_t depth, bool objects, size_t *open_len, size_t *len)
{
	const char *open = objects ? "{\"a\":" : "[";
	size_t n = strlen(open);
	char *s = xmalloc(depth * (n + 1) + 2), *p = s;

	for (size_t i = 0; i < depth; i++, p += n)
		memcpy(p, open, n);
	*open_len = p - s;
	*p++ = '1';
	memset(p, objects ? '}' : ']', depth);
	p += depth;
	*p = '\0';
	*len = p - s;
	return s;
}

static void mutate_once(struct buf *b, const struct seeds *s)
{
	static const size_t depths[] = { 2, 64, 999, 1000, 1001, 20000 };
	static const size_t long_strings[] = { 63, 64, 65, 5000 };
	size_t pos = below(b->len + 1), n, off, len, open_len;
	char *tmp;
	const char *str;
	int i;

	switch (below(10)) {
	case 0:		/* bit flips */
		for (n = 1 + below(4); b->len && n; n--)
			b->p[below(b->len)] ^= 1 << below(8);
		break;
	case 1:		/* one byte replaced */
		if (b->len)
			b->p[below(b->len)] = below(4) ? special[below(sizeof(special))]
						      : (char)rnd();
		break;
	case 2:		/* a token of the formats inserted */
		str = tokens[below(ARRAY_SIZE(tokens))];
		replace(b, pos, 0, str, strlen(str));
		break;
	case 3:		/* a range deleted */
		n = below(4) ? 1 + below(16) : below(b->len - pos + 1);
		replace(b, pos, n < b->len - pos ? n : b->len - pos, "", 0);
		break;
	case 4:		/* a range duplicated elsewhere */
		off = below(b->len + 1);
		n = below(b->len - off + 1);
		replace(b, pos, 0, b->p + off, below(4) && n > 32 ? 32 : n);
		break;
	case 5:		/* a number replaced */
		str = numbers[below(ARRAY_SIZE(numbers))];
		if (!find_number(b, pos, &off, &len)) {
			off = pos;
			len = 0;
		}
		replace(b, off, len, str, strlen(str));
		break;
	case 6:		/* a string's contents replaced */
		if (!find_string(b, pos, &off, &len))
			break;
		if (below(4)) {
			str = strings[below(ARRAY_SIZE(strings))];
			replace(b, off, len, str, strlen(str));
		} else {
			n = long_strings[below(ARRAY_SIZE(long_strings))];
			tmp = xmalloc(n);
			memset(tmp, 'w', n);
			replace(b, off, len, tmp, n);
			free(tmp);
		}
		break;
	case 7:		/* spliced: this input's head, a seed's tail */
		i = below(s->n);
		off = below(s->len[i] + 1);
		replace(b, pos, b->len - pos, s->text[i] + off, s->len[i] - off);
		break;
	case 8:		/* deep nesting, in place of a number or around it all */
		tmp = nested(depths[below(ARRAY_SIZE(depths))], below(2), &open_len, &n);
		if (below(2) && find_number(b, pos, &off, &len)) {
			replace(b, off, len, tmp, n);
		} else {
			replace(b, 0, 0, tmp, open_len);
			replace(b, b->len, 0, tmp + open_len + 1, n - open_len - 1);
		}
		free(tmp);
		break;
	default:	/* random bytes inserted */
		n = 1 + below(8);
		tmp = xmalloc(n);
		for (size_t k = 0; k < n; k++)
			tmp[k] = (char)rnd();
		replace(b, pos, 0, tmp, n);
		free(tmp);
		break;
	}
}

/* A seed with one to four mutations stacked. */
static void mutate(struct buf *b, const struct seeds *s)
{
	int i = below(s->n);

	b->len = s->len[i];
	b->p = xmalloc(b->len + 1);
	memcpy(b->p, s->text[i], b->len + 1);
	for (int k = 1 + below(4); k && b->len <= MAX_INPUT; k--)
		mutate_once(b, s);
}

#endif
