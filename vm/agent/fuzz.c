// SPDX-License-Identifier: GPL-2.0
/* Plan verb fuzz: generated and hostile specs against the module's run file. */
#define _GNU_SOURCE
#include "agent.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/slabbench.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * fuzz N SEED: N specs written to run, most of them broken on purpose,
 * built from the module's own catalogue with a fixed-seed generator, so
 * that a failure comes back with the spec that caused it on every run.
 * Each must give a JSON result, or fail the write with EINVAL, E2BIG,
 * ENOMEM or EBUSY and leave {"error": ..., "errno": N} for the read.
 */

#define FZ_NAME 32
#define FZ_MAX_TESTS 32
#define FZ_MAX_PARAMS 16
#define FZ_MAX_CHOICES 8
#define FZ_MAX_WORDS (FZ_MAX_PARAMS + 2)
#define FZ_WORD 400
/* Over-long specs reach this far past SB_SPEC_MAX. */
#define FZ_SPEC_CAP 8192
/* Failing specs shown per case: enough to reproduce, short to read. */
#define FZ_MAX_SHOWN 8
#define LIT(s) s, sizeof(s) - 1

/* xorshift64*, seeded through splitmix64: the same specs on every libc. */
struct rng {
	uint64_t s;
};

static void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	r->s = (z ^ (z >> 31)) | 1;
}

static uint64_t rng_next(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

/* The bias of the modulo is negligible for the small @n used here. */
static uint64_t rng_below(struct rng *r, uint64_t n)
{
	return rng_next(r) % n;
}

struct fz_param {
	char name[FZ_NAME];
	bool is_enum;
	uint64_t def, min, max;
	unsigned int nr_choices;
	char choices[FZ_MAX_CHOICES][FZ_NAME];
};

struct fz_test {
	char name[FZ_NAME];
	unsigned int nr_params;
	struct fz_param params[FZ_MAX_PARAMS];
};

struct fz_catalogue {
	unsigned int nr_tests;
	struct fz_test tests[FZ_MAX_TESTS];
};

/* Moves *p past @lit if the text there starts with it. */
static bool fz_skip(const char **p, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

/* The rest of a JSON string whose opening quote is behind *p. */
static bool fz_word(const char **p, char *dst, size_t cap)
{
	size_t n = strcspn(*p, "\"");

	if (!(*p)[n] || n >= cap)
		return false;
	memcpy(dst, *p, n);
	dst[n] = '\0';
	*p += n + 1;
	return true;
}

static bool fz_number(const char **p, const char *lit, uint64_t *v)
{
	char *end;

	if (!fz_skip(p, lit) || !isdigit((unsigned char)**p))
		return false;
	errno = 0;
	*v = strtoull(*p, &end, 10);
	*p = end;
	return !errno;
}

/*
 * The catalogue as kmod/sb_spec.c writes it: per test {"name", then
 * "description", then "params": [...]}, per parameter {"name", then
 * "description", then "type" and its bounds or choices}. Its strings hold
 * no quotes, so a scan for the members in that order is enough.
 */
static int fz_parse_catalogue(const char *p, struct fz_catalogue *c)
{
	struct fz_test *t = NULL;
	struct fz_param *prm;
	char name[FZ_NAME];

	while ((p = strstr(p, "{\"name\":\""))) {
		p += strlen("{\"name\":\"");
		if (!fz_word(&p, name, sizeof(name)) ||
		    !fz_skip(&p, ",\"description\":\"") || !(p = strchr(p, '"')))
			return -1;
		p++;
		if (fz_skip(&p, ",\"params\":[")) {
			if (c->nr_tests == FZ_MAX_TESTS)
				return -1;
			t = &c->tests[c->nr_tests++];
			strcpy(t->name, name);
			continue;
		}
		if (!t || t->nr_params == FZ_MAX_PARAMS)
			return -1;
		prm = &t->params[t->nr_params++];
		strcpy(prm->name, name);
		if (fz_number(&p, ",\"type\":\"u64\",\"default\":", &prm->def)) {
			if (!fz_number(&p, ",\"min\":", &prm->min) ||
			    !fz_number(&p, ",\"max\":", &prm->max))
				return -1;
			continue;
		}
		if (!fz_skip(&p, ",\"type\":\"enum\",\"default\":\"") ||
		    !(p = strstr(p, "\"choices\":[")))
			return -1;
		p += strlen("\"choices\":[");
		prm->is_enum = true;
		while (fz_skip(&p, "\"")) {
			if (prm->nr_choices == FZ_MAX_CHOICES ||
			    !fz_word(&p, prm->choices[prm->nr_choices++], FZ_NAME))
				return -1;
			fz_skip(&p, ",");
		}
		if (!prm->nr_choices)
			return -1;
	}
	return c->nr_tests ? 0 : -1;
}

static const struct fz_test *fz_find_test(const struct fz_catalogue *c,
					  const char *name)
{
	unsigned int i;

	for (i = 0; i < c->nr_tests; i++)
		if (!strcmp(c->tests[i].name, name))
			return &c->tests[i];
	return NULL;
}

static bool fz_has_param(const struct fz_test *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->nr_params; i++)
		if (!strcmp(t->params[i].name, name))
			return true;
	return false;
}

static bool fz_is_choice(const struct fz_param *p, const char *word)
{
	unsigned int i;

	for (i = 0; i < p->nr_choices; i++)
		if (!strcmp(p->choices[i], word))
			return true;
	return false;
}

/* What the answer to a spec should be, where the spec decides it. */
enum fz_expect { X_ANY, X_RESULT, X_RELEASED, X_EINVAL, X_E2BIG };

static const char * const fz_expect_names[] = {
	"anything", "a result", "a release", "EINVAL", "E2BIG",
};

enum fz_kind {
	K_VALID,	/* every parameter given, small */
	K_VALUE,	/* one value hostile: bounds, overflow, syntax */
	K_KEY,		/* keys and test= unknown, doubled, without '=' */
	K_ENUM,		/* enum words wrong */
	K_BYTES,	/* random bytes in a valid spec */
	K_RANDOM,	/* random bytes only */
	K_LONG,		/* padded to SB_SPEC_MAX - 1 and beyond */
	K_RELEASE,	/* "release" and near misses */
	K_NR
};

static const char * const fz_kind_names[K_NR] = {
	"valid", "value", "key", "enum", "bytes", "random", "long", "release",
};

/* Per hundred specs: most break one thing in an otherwise valid spec. */
static const unsigned int fz_kind_weights[K_NR] = { 5, 33, 20, 6, 20, 6, 5, 5 };

struct fz_spec {
	char buf[FZ_SPEC_CAP];
	size_t len;
	enum fz_kind kind;
	enum fz_expect expect;
	const struct fz_test *test;
};

/* A spec before it is joined: "test=NAME" first, then a word per parameter. */
struct fz_words {
	unsigned int n;
	char w[FZ_MAX_WORDS][FZ_WORD];
};

static void fz_put(struct fz_spec *s, const char *data, size_t n)
{
	if (n > FZ_SPEC_CAP - s->len)
		n = FZ_SPEC_CAP - s->len;
	memcpy(s->buf + s->len, data, n);
	s->len += n;
}

/*
 * A value that keeps a valid run short. Defaults up to 64 are sizes, CPU
 * ids, flags, seeds and repeats; larger ones are amounts of work (iters,
 * count, objects, rounds, max_bulk), taken at their minimum plus at most
 * 9: thousands of valid runs must fit in seconds under TCG.
 */
static uint64_t fz_cheap(struct rng *r, const struct fz_param *p)
{
	uint64_t v = p->def <= 64 ? p->def : p->min + rng_below(r, 10);

	return v < p->max ? v : p->max;
}

static void fz_set(struct rng *r, const struct fz_param *p, char *word)
{
	if (p->is_enum)
		snprintf(word, FZ_WORD, "%s=%s", p->name,
			 p->choices[rng_below(r, p->nr_choices)]);
	else
		snprintf(word, FZ_WORD, "%s=%" PRIu64, p->name, fz_cheap(r, p));
}

/* Every parameter of @t given a small value: a spec that must run. */
static void fz_base(struct rng *r, const struct fz_test *t,
		    struct fz_words *w)
{
	unsigned int i;

	snprintf(w->w[0], FZ_WORD, "test=%s", t->name);
	for (i = 0; i < t->nr_params; i++)
		fz_set(r, &t->params[i], w->w[i + 1]);
	w->n = t->nr_params + 1;
}

static void fz_join(struct rng *r, const struct fz_words *w, bool shuffle,
		    struct fz_spec *s)
{
	static const char * const seps[] = { " ", " ", " ", "\t", "\n", "  ", " \t\n" };
	unsigned int order[FZ_MAX_WORDS], i, j, tmp;
	const char *sep;

	for (i = 0; i < w->n; i++)
		order[i] = i;
	for (i = w->n - 1; shuffle && i > 0; i--) {
		j = rng_below(r, i + 1);
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	s->len = 0;
	for (i = 0; i < w->n; i++) {
		if (i) {
			sep = seps[rng_below(r, ARRAY_SIZE(seps))];
			fz_put(s, sep, strlen(sep));
		}
		fz_put(s, w->w[order[i]], strlen(w->w[order[i]]));
	}
	if (!rng_below(r, 4))
		fz_put(s, "\n", 1);
}

/* Sets @v to a hostile value of @p and says what the module must answer. */
static enum fz_expect fz_bad_value(struct rng *r, const struct fz_param *p,
				   uint64_t cheap, char *v)
{
	static const char * const junk[] = {
		"abc", "1e3", "12abc", "0x", "--1", "1.5", "1,2", "+", "0b1",
		"0x1g", "'1'", "\xd9\xa1",
	};
	bool top = p->max == UINT64_MAX;
	unsigned int i, n;

	switch (rng_below(r, 13)) {
	case 0:
		if (p->min)
			sprintf(v, "%" PRIu64, p->min - 1);
		else
			strcpy(v, "-1");
		return X_EINVAL;
	case 1:
		if (top)
			break;
		sprintf(v, "%" PRIu64, p->max + 1);
		return X_EINVAL;
	case 2:
		if (top)
			break;
		sprintf(v, "%#" PRIx64, p->max + 1);
		return X_EINVAL;
	case 3:
		strcpy(v, "18446744073709551615");
		return top ? X_ANY : X_EINVAL;
	case 4:
		sprintf(v, "-%" PRIu64, rng_below(r, 1000));
		return X_EINVAL;
	case 5:
		n = 21 + rng_below(r, 280);
		v[0] = '1' + rng_below(r, 9);
		for (i = 1; i < n; i++)
			v[i] = '0' + rng_below(r, 10);
		v[n] = '\0';
		return X_EINVAL;
	case 6:
		strcpy(v, junk[rng_below(r, ARRAY_SIZE(junk))]);
		return X_EINVAL;
	case 7:
		v[0] = '\0';
		return X_EINVAL;
	case 8:
		sprintf(v, rng_below(r, 2) ? "0x%" PRIx64 : "0X%" PRIX64, cheap);
		return X_RESULT;
	case 9:
		sprintf(v, "+%" PRIu64, cheap);
		return X_RESULT;
	case 10:
		/* A leading zero makes it octal to kstrtou64(). */
		sprintf(v, "%0*" PRIu64, (int)(2 + rng_below(r, 20)), cheap);
		return X_ANY;
	case 11:
		/* In range, but a consumer=0 is then the producer's CPU. */
		sprintf(v, "%" PRIu64, p->min);
		return X_ANY;
	case 12:
		/*
		 * In range, but a CPU id there is offline. Amounts of work at
		 * their maximum would run for minutes: their minimum instead.
		 */
		sprintf(v, "%" PRIu64, p->max <= 8192 ? p->max : p->min);
		return X_ANY;
	}
	strcpy(v, "18446744073709551616");
	return X_EINVAL;
}

/* The index of a random parameter of @t that is (not) an enum, or -1. */
static int fz_pick_param(struct rng *r, const struct fz_test *t, bool is_enum)
{
	unsigned int i, n = 0, idx[FZ_MAX_PARAMS];

	for (i = 0; i < t->nr_params; i++)
		if (t->params[i].is_enum == is_enum)
			idx[n++] = i;
	return n ? (int)idx[rng_below(r, n)] : -1;
}

static enum fz_expect fz_value(struct rng *r, const struct fz_test *t,
			       struct fz_words *w)
{
	int i = fz_pick_param(r, t, false);
	const struct fz_param *p;
	enum fz_expect x;
	char v[FZ_WORD - FZ_NAME - 1];

	if (i < 0)
		return X_RESULT;
	p = &t->params[i];
	x = fz_bad_value(r, p, fz_cheap(r, p), v);
	snprintf(w->w[i + 1], FZ_WORD, "%s=%s", p->name, v);
	return x;
}

static enum fz_expect fz_enum(struct rng *r, const struct fz_catalogue *c,
			      const struct fz_test *t, struct fz_words *w)
{
	int i = fz_pick_param(r, t, true), j;
	const struct fz_param *p;
	const struct fz_test *other;
	char v[FZ_NAME + 1];
	size_t k;

	if (i < 0)
		return fz_value(r, t, w);
	p = &t->params[i];
	strcpy(v, p->choices[rng_below(r, p->nr_choices)]);
	switch (rng_below(r, 6)) {
	case 0:
		for (k = 0; v[k]; k++)
			v[k] = toupper((unsigned char)v[k]);
		break;
	case 1:
		v[strlen(v) - 1] = '\0';
		break;
	case 2:
		strcat(v, "x");
		break;
	case 3:
		sprintf(v, "%u", (unsigned int)rng_below(r, p->nr_choices + 1));
		break;
	case 4:
		/* A choice of some other enum parameter, if any. */
		other = &c->tests[rng_below(r, c->nr_tests)];
		j = fz_pick_param(r, other, true);
		if (j >= 0)
			strcpy(v, other->params[j].choices[rng_below(r, other->params[j].nr_choices)]);
		break;
	}
	snprintf(w->w[i + 1], FZ_WORD, "%s=%s", p->name, v);
	return fz_is_choice(p, v) ? X_RESULT : X_EINVAL;
}

static enum fz_expect fz_key(struct rng *r, const struct fz_catalogue *c,
			     const struct fz_test *t, struct fz_words *w)
{
	unsigned int i = rng_below(r, w->n), k;
	const struct fz_test *other = &c->tests[rng_below(r, c->nr_tests)];
	char *word = w->w[i], *eq = word + strcspn(word, "="), name[FZ_NAME + 1];

	switch (rng_below(r, 10)) {
	case 0:
		/* A parameter of another test, or of none. */
		snprintf(name, sizeof(name), "%s",
			 other->nr_params ? other->params[rng_below(r, other->nr_params)].name : "bogus");
		if (fz_has_param(t, name))
			strcat(name, "_");
		snprintf(w->w[w->n++], FZ_WORD, "%s=1", name);
		return X_EINVAL;
	case 1:
		strcpy(w->w[w->n++], word);
		return X_EINVAL;
	case 2:
		if (i)
			fz_set(r, &t->params[i - 1], w->w[w->n++]);
		else
			snprintf(w->w[w->n++], FZ_WORD, "test=%s", other->name);
		return X_EINVAL;
	case 3:
		memmove(eq, eq + 1, strlen(eq));
		return X_EINVAL;
	case 4:
		*eq = rng_below(r, 2) ? ':' : ' ';
		return X_EINVAL;
	case 5:
		eq[1] = '\0';
		return X_EINVAL;
	case 6:
		memmove(word, eq, strlen(eq) + 1);
		return X_EINVAL;
	case 7:
		for (k = 0; word + k < eq; k++)
			word[k] = toupper((unsigned char)word[k]);
		return X_EINVAL;
	case 8:
		memmove(eq + 1, eq, strlen(eq) + 1);
		return X_EINVAL;
	}
	/* test=NAME near a real name: a prefix, a suffix, another case. */
	strcpy(name, t->name);
	switch (rng_below(r, 3)) {
	case 0:
		name[strlen(name) - 1] = '\0';
		break;
	case 1:
		strcat(name, "s");
		break;
	default:
		name[0] = toupper((unsigned char)name[0]);
	}
	snprintf(w->w[0], FZ_WORD, "test=%s", name);
	return fz_find_test(c, name) ? X_ANY : X_EINVAL;
}

static char fz_byte(struct rng *r)
{
	static const char special[] = "\n\t =\"\\\r\v\x80\xff\xc3\xa0" "09";

	/* sizeof(special) counts the terminator: NUL is one of them. */
	if (rng_below(r, 4))
		return rng_below(r, 256);
	return special[rng_below(r, sizeof(special))];
}

/*
 * test= goes last: a NUL anywhere before it cuts the spec short of its
 * test, never of the parameters that keep the run small.
 */
static void fz_bytes(struct rng *r, struct fz_words *w, struct fz_spec *s)
{
	char test[FZ_WORD];
	unsigned int k;
	size_t pos;

	strcpy(test, w->w[0]);
	memmove(w->w[0], w->w[1], (w->n - 1) * sizeof(w->w[0]));
	strcpy(w->w[w->n - 1], test);
	fz_join(r, w, false, s);
	for (k = 1 + rng_below(r, 3); k; k--) {
		pos = rng_below(r, s->len + 1);
		switch (rng_below(r, 3)) {
		case 0:
			if (pos < s->len)
				s->buf[pos] = fz_byte(r);
			break;
		case 1:
			if (s->len == FZ_SPEC_CAP)
				break;
			memmove(s->buf + pos + 1, s->buf + pos, s->len - pos);
			s->buf[pos] = fz_byte(r);
			s->len++;
			break;
		default:
			if (pos == s->len)
				break;
			memmove(s->buf + pos, s->buf + pos + 1, s->len - pos - 1);
			s->len--;
		}
	}
}

/* A valid spec padded to SB_SPEC_MAX - 1 bytes, which must run, or beyond. */
static enum fz_expect fz_long(struct rng *r, struct fz_spec *s)
{
	static const char * const pads[] = { " ", "\t", "\n", "x=1 " };
	size_t target;
	const char *pad;
	bool blank = rng_below(r, 2);

	switch (rng_below(r, 4)) {
	case 0:
		target = SB_SPEC_MAX - 1;
		blank = true;
		break;
	case 1:
		target = SB_SPEC_MAX;
		break;
	case 2:
		target = SB_SPEC_MAX + 1;
		break;
	default:
		target = SB_SPEC_MAX + rng_below(r, FZ_SPEC_CAP - SB_SPEC_MAX + 1);
	}
	while (s->len < target) {
		pad = pads[rng_below(r, blank ? 3 : ARRAY_SIZE(pads))];
		fz_put(s, pad, target - s->len < strlen(pad) ? target - s->len : strlen(pad));
	}
	return target < SB_SPEC_MAX ? X_RESULT : X_E2BIG;
}

static enum fz_expect fz_release(struct rng *r, struct fz_spec *s)
{
	static const struct {
		const char *text;
		size_t len;
		enum fz_expect x;
	} rel[] = {
		{ LIT(SB_SPEC_RELEASE), X_RELEASED },
		{ LIT(SB_SPEC_RELEASE "\n"), X_RELEASED },
		{ LIT(SB_SPEC_RELEASE "\0test=fastpath"), X_ANY },
		{ LIT(SB_SPEC_RELEASE " "), X_EINVAL },
		{ LIT(" " SB_SPEC_RELEASE), X_EINVAL },
		{ LIT("Release"), X_EINVAL },
		{ LIT("releas"), X_EINVAL },
		{ LIT(SB_SPEC_RELEASE "\n\n"), X_EINVAL },
		{ LIT(SB_SPEC_RELEASE "=1"), X_EINVAL },
		{ LIT("test=" SB_SPEC_RELEASE), X_EINVAL },
		{ LIT(SB_SPEC_RELEASE "\n" SB_SPEC_RELEASE), X_EINVAL },
	};
	unsigned int i = rng_below(r, ARRAY_SIZE(rel));

	s->len = 0;
	fz_put(s, rel[i].text, rel[i].len);
	return rel[i].x;
}

/*
 * Tests whose runs patch kernel text (hitrate's kprobes). Under QEMU 7.2's
 * multi-threaded TCG, some 40 runs of one leave the vCPUs trapping forever
 * on an int3 already taken out of __slab_free (single-threaded TCG: 400
 * runs pass): the fuzzer sends these only specs that must be refused.
 */
static const char * const fz_no_run[] = { "hitrate" };

/* Whether @s may run a test of fz_no_run[]. */
static bool fz_forbidden(const struct fz_spec *s)
{
	unsigned int i;

	if (s->expect == X_EINVAL || s->expect == X_E2BIG || !s->test)
		return false;
	for (i = 0; i < ARRAY_SIZE(fz_no_run); i++)
		if (!strcmp(s->test->name, fz_no_run[i]))
			return true;
	return false;
}

static void fz_generate_one(struct rng *r, const struct fz_catalogue *c,
			    struct fz_spec *s)
{
	static struct fz_words w;
	unsigned int pick = rng_below(r, 100), k;
	bool shuffle = !rng_below(r, 3);
	size_t i;

	for (k = 0; pick >= fz_kind_weights[k]; k++)
		pick -= fz_kind_weights[k];
	s->kind = k;
	s->test = &c->tests[rng_below(r, c->nr_tests)];
	fz_base(r, s->test, &w);
	switch (s->kind) {
	case K_VALID:
		s->expect = X_RESULT;
		break;
	case K_VALUE:
		s->expect = fz_value(r, s->test, &w);
		break;
	case K_KEY:
		s->expect = fz_key(r, c, s->test, &w);
		break;
	case K_ENUM:
		s->expect = fz_enum(r, c, s->test, &w);
		break;
	case K_BYTES:
		s->expect = X_ANY;
		fz_bytes(r, &w, s);
		break;
	case K_RANDOM:
		s->expect = X_ANY;
		s->test = NULL;
		s->len = rng_below(r, 700);
		for (i = 0; i < s->len; i++)
			s->buf[i] = rng_below(r, 256);
		break;
	case K_LONG:
		fz_join(r, &w, shuffle, s);
		s->expect = fz_long(r, s);
		break;
	default:
		s->test = NULL;
		s->expect = fz_release(r, s);
	}
	if (s->kind < K_BYTES)
		fz_join(r, &w, shuffle, s);
	if (s->len >= SB_SPEC_MAX)
		s->expect = X_E2BIG;
}

static void fz_generate(struct rng *r, const struct fz_catalogue *c,
			struct fz_spec *s)
{
	do
		fz_generate_one(r, c, s);
	while (fz_forbidden(s));
}

/*
 * A minimal JSON validator: the module writes ASCII only (reasons that
 * quote the spec escape the rest), so any other byte is an error too.
 */
struct jp {
	const char *p, *end;
};

static bool jp_value(struct jp *j, int depth);

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

static bool jp_string(struct jp *j)
{
	unsigned char c;
	int i;

	if (!jp_is(j, '"'))
		return false;
	while (j->p < j->end) {
		c = *j->p++;
		if (c == '"')
			return true;
		if (c < 0x20 || c >= 0x7f)
			return false;
		if (c != '\\')
			continue;
		if (j->p == j->end)
			return false;
		c = *j->p++;
		if (c == 'u') {
			for (i = 0; i < 4; i++)
				if (j->p == j->end || !isxdigit((unsigned char)*j->p++))
					return false;
		} else if (!c || !strchr("\"\\/bfnrt", c)) {
			return false;
		}
	}
	return false;
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

/* After the opening bracket: members up to @close, keyed in an object. */
static bool jp_members(struct jp *j, int depth, char close, bool keyed)
{
	jp_space(j);
	if (jp_is(j, close))
		return true;
	for (;;) {
		if (keyed) {
			if (!jp_string(j))
				return false;
			jp_space(j);
			if (!jp_is(j, ':'))
				return false;
		}
		if (!jp_value(j, depth + 1))
			return false;
		jp_space(j);
		if (jp_is(j, close))
			return true;
		if (!jp_is(j, ','))
			return false;
		jp_space(j);
	}
}

static bool jp_value(struct jp *j, int depth)
{
	jp_space(j);
	if (j->p == j->end || depth > 32)
		return false;
	switch (*j->p) {
	case '{':
		j->p++;
		return jp_members(j, depth, '}', true);
	case '[':
		j->p++;
		return jp_members(j, depth, ']', false);
	case '"':
		return jp_string(j);
	case 't':
		return jp_literal(j, "true");
	case 'f':
		return jp_literal(j, "false");
	case 'n':
		return jp_literal(j, "null");
	}
	return jp_number(j);
}

/* Whether @buf is one JSON object and nothing else but blanks. */
static bool json_object(const char *buf, size_t len)
{
	struct jp j = { buf, buf + len };

	jp_space(&j);
	if (j.p == j.end || *j.p != '{' || !jp_value(&j, 0))
		return false;
	jp_space(&j);
	return j.p == j.end;
}

enum fz_outcome {
	O_RESULT, O_RELEASED, O_EINVAL, O_E2BIG, O_ENOMEM, O_EBUSY, O_BAD, O_NR
};

static const char * const fz_outcome_names[O_NR] = {
	"result", "released", "EINVAL", "E2BIG", "ENOMEM", "EBUSY", "malformed",
};

static bool fz_as_expected(enum fz_expect x, enum fz_outcome o)
{
	switch (x) {
	case X_RESULT:
		return o == O_RESULT;
	case X_RELEASED:
		return o == O_RELEASED;
	case X_EINVAL:
		return o == O_EINVAL;
	case X_E2BIG:
		return o == O_E2BIG;
	default:
		return o != O_BAD;
	}
}

/* What the module reads: up to the first NUL; sysfs_streq(SB_SPEC_RELEASE). */
static bool fz_is_release(const char *spec, size_t len)
{
	size_t n = strnlen(spec, len), r = strlen(SB_SPEC_RELEASE);

	return (n == r || (n == r + 1 && spec[r] == '\n')) &&
	       !strncmp(spec, SB_SPEC_RELEASE, r);
}

/* The last "errno" member: a reason may quote the word, never unescaped. */
static long fz_errno(const char *answer)
{
	const char *p, *last = NULL;

	for (p = answer; (p = strstr(p, "\"errno\":")); p++)
		last = p;
	return last ? strtol(last + strlen("\"errno\":"), NULL, 10) : -1;
}

/*
 * Writes @len bytes of @spec on a fresh open of run and reads the answer,
 * as run_spec() does. *answer is what the read gave, to be freed; a
 * malformed outcome says why in @why.
 */
static enum fz_outcome fz_send(const char *spec, size_t len, char **answer,
			       char *why, size_t cap)
{
	int fd = open(SB_PATH_RUN, O_RDWR | O_CLOEXEC), err = 0;
	enum fz_outcome o;
	size_t n = 0;
	ssize_t done;
	char *buf;

	*answer = NULL;
	if (fd < 0) {
		snprintf(why, cap, "open: %s", strerror(errno));
		return O_BAD;
	}
	done = write(fd, spec, len);
	if (done < 0)
		err = errno;
	buf = read_fd(fd, &n);
	close(fd);
	if (!buf) {
		snprintf(why, cap, "reading the answer failed");
		return O_BAD;
	}
	*answer = buf;
	if (done >= 0 && (size_t)done != len) {
		snprintf(why, cap, "write took %zd of %zu bytes", done, len);
		return O_BAD;
	}
	if (done >= 0 && fz_is_release(spec, len)) {
		if (!n)
			return O_RELEASED;
		snprintf(why, cap, "release answered");
		return O_BAD;
	}
	if (done >= 0) {
		if (json_object(buf, n) && !strncmp(buf, "{\"test\":\"", 9))
			return O_RESULT;
		snprintf(why, cap, "the answer is not a JSON result");
		return O_BAD;
	}
	switch (err) {
	case EINVAL:
		o = O_EINVAL;
		break;
	case E2BIG:
		o = O_E2BIG;
		break;
	case ENOMEM:
		o = O_ENOMEM;
		break;
	case EBUSY:
		/* Refused before the module may touch the file's buffer. */
		return O_EBUSY;
	default:
		snprintf(why, cap, "write failed: %s", strerror(err));
		return O_BAD;
	}
	if (json_object(buf, n) && !strncmp(buf, "{\"error\":\"", 10) &&
	    fz_errno(buf) == err)
		return o;
	snprintf(why, cap, "%s, but the answer is not {\"error\": ..., \"errno\": %d}",
		 fz_outcome_names[o], err);
	return O_BAD;
}

/* @s for a KTAP line: printable ASCII as is, the rest as \xNN. */
static void fz_show(FILE *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < 100; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\')
			fputc(s[i], f);
		else
			fprintf(f, "\\x%02x", (unsigned char)s[i]);
	}
	if (len > 100)
		fprintf(f, "... (%zu bytes)", len);
}

/* The reason in {"error":"REASON","errno":N}, as escaped there. */
static void fz_show_reason(FILE *f, const char *answer)
{
	const char *start = answer + strlen("{\"error\":\""), *p, *end = NULL;

	for (p = start; (p = strstr(p, "\",\"errno\":")); p++)
		end = p;
	if (end)
		fprintf(f, ": %.*s", (int)(end - start), start);
}

/*
 * Hostile specs within the bounds or just past them: huge counts and sizes
 * (the memory and work caps), offline or equal CPUs, numbers that
 * overflow. Each must be refused before anything runs: no spec may hang
 * the guest or push it into the OOM killer.
 */
static const char * const fz_hostile[] = {
	"test=overhead count=1000000 size=8192",
	"test=overhead count=1000000 size=2048 hold=1",
	"test=caches caches=800 objs=10000 hold=1",
	"test=batch count=1000000 size=8192",
	"test=batch count=1000000 size=8 repeats=1000",
	"test=fastpath iters=100000000 repeats=1000",
	"test=fastpath cpu=8191",
	"test=fastpath iters=18446744073709551615",
	"test=fastpath size=18446744073709551616",
	"test=fastpath repeats=99999999999999999999999999999999",
	"test=remote producer=0 consumer=0",
	"test=remote producer=1 consumer=1",
	"test=remote consumer=8191",
	"test=remote count=10000000 batch=1024 size=8192 repeats=1000",
	"test=bulk objects=10000000 max_bulk=256 repeats=100",
	"test=bulk max_bulk=257",
	"test=hitrate count=65536 size=8192",
	"test=hitrate count=65536 rounds=100000 repeats=1000",
	"test=hitrate cpu=8191",
	"test=parallel iters=10000000 burst=1024 size=8192 repeats=100 max_cpus=64",
	"test=parallel max_cpus=65",
	"test=sizes iters=10000000 repeats=100",
	"test=batch seed=4294967296",
	"test=bulk touch=2",
	"test=hitrate seed=4294967296",
};

#define FUZZ_CHECK_SPEC "test=fastpath iters=1000 repeats=1"

/* Sends the hostile specs; returns how many were not refused. */
static unsigned int fuzz_hostile(FILE *out)
{
	char why[160], *answer;
	enum fz_outcome o;
	unsigned int i, failed = 0;

	for (i = 0; i < ARRAY_SIZE(fz_hostile); i++) {
		o = fz_send(fz_hostile[i], strlen(fz_hostile[i]), &answer, why,
			    sizeof(why));
		fprintf(out, "# hostile: %s: %s", fz_hostile[i],
			fz_outcome_names[o]);
		if (o == O_EINVAL || o == O_ENOMEM)
			fz_show_reason(out, answer);
		else
			failed++;
		fprintf(out, "%s%s\n", o == O_BAD ? ": " : "", o == O_BAD ? why : "");
		free(answer);
	}
	return failed;
}

int fuzz_test(long n, uint64_t seed)
{
	struct fz_catalogue *cat = calloc(1, sizeof(*cat));
	struct fz_spec *s = malloc(sizeof(*s)), *slow = malloc(sizeof(*slow));
	unsigned int outcomes[O_NR] = { 0 }, kinds[K_NR] = { 0 };
	unsigned int runs[FZ_MAX_TESTS] = { 0 }, bad = 0, missed = 0, i;
	double run_s[FZ_MAX_TESTS] = { 0 }, start, t, slowest = -1;
	char *ktap = NULL, *bad_log = NULL, *missed_log = NULL, *answer, *tests;
	size_t len = 0, bad_len = 0, missed_len = 0, tests_len = 0;
	FILE *out = open_memstream(&ktap, &len);
	FILE *bad_out = open_memstream(&bad_log, &bad_len);
	FILE *missed_out = open_memstream(&missed_log, &missed_len);
	int catalogue = -1, ret = -1;
	char why[160];
	enum fz_outcome o;
	struct rng r;
	long k;

	if (!cat || !s || !slow || !out || !bad_out || !missed_out)
		goto out;
	fprintf(out, "KTAP version 1\n1..4\n");
	tests = read_path(SB_PATH_TESTS, &tests_len);
	if (tests)
		catalogue = fz_parse_catalogue(tests, cat);
	free(tests);
	if (catalogue) {
		fprintf(out, "# %s: no catalogue to build specs from\n", SB_PATH_TESTS);
		n = 0;
	}
	rng_seed(&r, seed);
	start = now_s();
	for (k = 0; k < n; k++) {
		/* A guest that hangs leaves only its console: how far it got. */
		if (!(k % 1000))
			say(SB_VERB_FUZZ ": spec %ld of %ld", k, n);
		fz_generate(&r, cat, s);
		t = now_s();
		o = fz_send(s->buf, s->len, &answer, why, sizeof(why));
		t = now_s() - t;
		free(answer);
		outcomes[o]++;
		kinds[s->kind]++;
		if (o == O_RESULT && s->test) {
			runs[s->test - cat->tests]++;
			run_s[s->test - cat->tests] += t;
		}
		if (t > slowest) {
			slowest = t;
			*slow = *s;
		}
		if (o == O_BAD && bad++ < FZ_MAX_SHOWN) {
			fprintf(bad_out, "# spec %ld (%s): ", k, fz_kind_names[s->kind]);
			fz_show(bad_out, s->buf, s->len);
			fprintf(bad_out, ": %s\n", why);
		} else if (o != O_BAD && !fz_as_expected(s->expect, o) &&
			   missed++ < FZ_MAX_SHOWN) {
			fprintf(missed_out, "# spec %ld (%s): ", k, fz_kind_names[s->kind]);
			fz_show(missed_out, s->buf, s->len);
			fprintf(missed_out, ": %s, expected %s\n", fz_outcome_names[o],
				fz_expect_names[s->expect]);
		}
	}
	if (fclose(bad_out) | fclose(missed_out)) {
		bad_out = missed_out = NULL;
		goto out;
	}
	bad_out = missed_out = NULL;
	fprintf(out, "# seed %" PRIu64 ": %ld specs in %.1f s", seed, n, now_s() - start);
	if (n) {
		fprintf(out, ", slowest %.3f s: ", slowest);
		fz_show(out, slow->buf, slow->len);
	}
	fprintf(out, "\n# answers:");
	for (i = 0; i < O_NR; i++)
		fprintf(out, " %s %u", fz_outcome_names[i], outcomes[i]);
	fprintf(out, "\n# kinds:");
	for (i = 0; i < K_NR; i++)
		fprintf(out, " %s %u", fz_kind_names[i], kinds[i]);
	fprintf(out, "\n# results per test:");
	for (i = 0; i < cat->nr_tests; i++)
		fprintf(out, " %s %u (%.1f s)", cat->tests[i].name, runs[i], run_s[i]);
	fprintf(out, "\n%s", bad_log);
	fprintf(out, "%sok 1 %ld specs: every answer well-formed\n",
		!catalogue && !bad ? "" : "not ", n);
	if (missed)
		fprintf(out, "# %u answers not as predicted\n", missed);
	fprintf(out, "%s%sok 2 %ld specs: every answer as predicted\n", missed_log,
		!catalogue && !missed ? "" : "not ", n);
	fprintf(out, "%sok 3 hostile specs refused\n", fuzz_hostile(out) ? "not " : "");
	o = fz_send(LIT(FUZZ_CHECK_SPEC), &answer, why, sizeof(why));
	fprintf(out, "# %s: %s\n", FUZZ_CHECK_SPEC, o == O_BAD ? why : fz_outcome_names[o]);
	fprintf(out, "%sok 4 the module answers afterwards\n",
		o == O_RESULT && strstr(answer, "\"metrics\":{") ? "" : "not ");
	free(answer);
	if (fclose(out)) {
		out = NULL;
		goto out;
	}
	out = NULL;
	send_frame(SB_FRAME_FILE, SB_NAME_FUZZ, ktap, len);
	ret = 0;
out:
	if (bad_out)
		fclose(bad_out);
	if (missed_out)
		fclose(missed_out);
	if (out)
		fclose(out);
	free(missed_log);
	free(bad_log);
	free(ktap);
	free(slow);
	free(s);
	free(cat);
	return ret;
}
