// SPDX-License-Identifier: GPL-2.0
/* Plan verb fuzz: generated and hostile specs against the module's run file. */
#define _GNU_SOURCE
#include "agent.h"
#include "fuzz.h"
#include "json.h"

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

/* Failing specs shown per case: enough to reproduce, short to read. */
#define FZ_MAX_SHOWN 8

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

/*
 * Whether the answer is one JSON object whose first member is the string
 * @first ("test" for a result, "error" for an error), and for an error
 * whose "errno" is @err.
 */
static bool fz_answer_is(const char *buf, size_t n, const char *first, int err)
{
	struct json *doc = json_parse(buf, n);
	uint64_t e;
	bool ok;

	ok = doc && doc->type == JSON_OBJECT && doc->child &&
	     !strcmp(doc->child->key, first) && json_str(doc->child) &&
	     (!err || (json_u64(json_get(doc, "errno"), &e) && e == (uint64_t)err));
	json_free(doc);
	return ok;
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
		if (fz_answer_is(buf, n, "test", 0))
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
	if (fz_answer_is(buf, n, "error", err))
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

/* The reason in {"error":"REASON","errno":N}. */
static void fz_show_reason(FILE *f, const char *answer)
{
	struct json *doc = json_parse(answer, strlen(answer));
	const struct json *reason = json_get(doc, "error");

	if (json_str(reason)) {
		fputs(": ", f);
		fz_show(f, reason->str, reason->len);
	}
	json_free(doc);
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
	/* Zeroed: when no spec takes measurable time, none is the slowest. */
	struct fz_spec *s = malloc(sizeof(*s)), *slow = calloc(1, sizeof(*slow));
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
		catalogue = fz_parse_catalogue(tests, tests_len, cat);
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
