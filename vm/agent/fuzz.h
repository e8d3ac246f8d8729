/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzz verb's two halves: fuzz_gen.c builds specs from the module's
 * catalogue, most of them broken on purpose, each with the answer it must
 * get; fuzz.c sends them and judges the answers.
 */
#ifndef SLABBENCH_AGENT_FUZZ_H
#define SLABBENCH_AGENT_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FZ_NAME 32
#define FZ_MAX_TESTS 32
#define FZ_MAX_PARAMS 16
#define FZ_MAX_CHOICES 8
#define FZ_MAX_WORDS (FZ_MAX_PARAMS + 2)
#define FZ_WORD 400
/* Over-long specs reach this far past SB_SPEC_MAX. */
#define FZ_SPEC_CAP 8192
#define LIT(s) s, sizeof(s) - 1

/* xorshift64*, seeded through splitmix64: the same specs on every libc. */
struct rng {
	uint64_t s;
};

void rng_seed(struct rng *r, uint64_t seed);

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

/* The catalogue in @len bytes of @text (the module's "tests"); 0 or -1. */
int fz_parse_catalogue(const char *text, size_t len, struct fz_catalogue *c);

/* What the answer to a spec should be, where the spec decides it. */
enum fz_expect { X_ANY, X_RESULT, X_RELEASED, X_EINVAL, X_E2BIG };

extern const char * const fz_expect_names[];

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

extern const char * const fz_kind_names[K_NR];

struct fz_spec {
	char buf[FZ_SPEC_CAP];
	size_t len;
	enum fz_kind kind;
	enum fz_expect expect;
	const struct fz_test *test;
};

/* The next spec of the sequence @r, and what its answer must be. */
void fz_generate(struct rng *r, const struct fz_catalogue *c, struct fz_spec *s);

#endif
