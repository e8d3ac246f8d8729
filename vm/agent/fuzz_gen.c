// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzz verb's specs (fuzz.h): built from the module's catalogue by a
 * fixed-seed generator, so that a failure comes back with the spec that
 * caused it on every run.
 */
#define _GNU_SOURCE
#include "agent.h"
#include "fuzz.h"
#include "json.h"

#include <ctype.h>
#include <inttypes.h>
#include <linux/slabbench.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rng_seed(struct rng *r, uint64_t seed)
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

/* The "name" of @obj into @dst, FZ_NAME bytes. */
static bool fz_name(const struct json *obj, char *dst)
{
	const char *name = json_str(json_get(obj, "name"));

	if (!name || strlen(name) >= FZ_NAME)
		return false;
	strcpy(dst, name);
	return true;
}

static bool fz_read_param(const struct json *j, struct fz_param *p)
{
	const char *type = json_str(json_get(j, "type"));
	const struct json *c = json_get(j, "choices");

	if (!fz_name(j, p->name) || !type)
		return false;
	if (!strcmp(type, "u64"))
		return json_u64(json_get(j, "default"), &p->def) &&
		       json_u64(json_get(j, "min"), &p->min) &&
		       json_u64(json_get(j, "max"), &p->max);
	if (strcmp(type, "enum") || !c || c->type != JSON_ARRAY)
		return false;
	p->is_enum = true;
	for (c = c->child; c; c = c->next) {
		if (p->nr_choices == FZ_MAX_CHOICES || !json_str(c) ||
		    c->len >= FZ_NAME)
			return false;
		strcpy(p->choices[p->nr_choices++], c->str);
	}
	return p->nr_choices;
}

/*
 * The catalogue as kmod/sb_spec.c writes it: an array of tests, each
 * {"name", "description", "available" (and "absent", why not),
 * "params": [...]}, each parameter {"name",
 * "description", "type", and its bounds ("u64") or choices ("enum")}.
 */
int fz_parse_catalogue(const char *text, size_t len, struct fz_catalogue *c)
{
	struct json *root = json_parse(text, len);
	const struct json *t, *p, *params, *avail;
	struct fz_test *test;
	bool ok = root && root->type == JSON_ARRAY && root->child;

	for (t = ok ? root->child : NULL; t && ok; t = t->next) {
		avail = json_get(t, "available");
		/* A test this kernel cannot run is refused as an unknown one is. */
		if (avail && avail->type == JSON_FALSE)
			continue;
		params = json_get(t, "params");
		ok = c->nr_tests < FZ_MAX_TESTS && params &&
		     params->type == JSON_ARRAY;
		if (!ok)
			break;
		test = &c->tests[c->nr_tests++];
		ok = fz_name(t, test->name);
		for (p = params->child; p && ok; p = p->next)
			ok = test->nr_params < FZ_MAX_PARAMS &&
			     fz_read_param(p, &test->params[test->nr_params++]);
	}
	json_free(root);
	return ok ? 0 : -1;
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



const char * const fz_expect_names[] = {
	"anything", "a result", "a release", "EINVAL", "E2BIG",
};

const char * const fz_kind_names[K_NR] = {
	"valid", "value", "key", "enum", "bytes", "random", "long", "release",
};

/* Per hundred specs: most break one thing in an otherwise valid spec. */
static const unsigned int fz_kind_weights[K_NR] = { 5, 33, 20, 6, 20, 6, 5, 5 };

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

void fz_generate(struct rng *r, const struct fz_catalogue *c, struct fz_spec *s)
{
	do
		fz_generate_one(r, c, s);
	while (fz_forbidden(s));
}
