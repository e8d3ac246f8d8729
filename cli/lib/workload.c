// SPDX-License-Identifier: GPL-2.0
/*
 * Workload format (docs/workloads.md has the full description):
 *
 *   { "name": "quick", "description": "...", "timeout_s": 300,
 *     "tests": [ { "test": "fastpath", "params": { "size": 64 } } ] }
 *
 * A test that holds memory (params.hold = 1) may add census phases,
 * "census": ["0s", "5s", "30s", "shrink"] (docs/census.md).
 * "boot_userspace": true runs a boot-like user space on every CPU before
 * the after-boot snapshot (the agent's userspace verb); false, or no
 * such key, takes the snapshot with the agent alone. "after_boot_s": N
 * waits N seconds after that user space (or the plan's start) before it.
 * "upper_bound": "WHAT" says that the workload was built to bound its
 * census's figures (WHAT: how), so that the report and the charts label
 * them an upper bound wherever they appear.
 *
 * Parameter values are non-negative integers or words (enum choices).
 * workload_parse() checks the shape, so that a malformed file fails before
 * any kernel is built; workload_check() checks tests, parameters and
 * bounds against the module's own catalogue, before any benchmark boot.
 */
#define _GNU_SOURCE
#include "workload.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT_S 600.0

static bool is_word(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

static int add_param(const char *path, int i, const cJSON *p, char **spec)
{
	char *old = *spec;

	if (!is_word(p->string))
		return error("%s: tests[%d].params: '%s' is not a parameter name",
			     path, i, p->string);
	if (!strcmp(p->string, "test"))
		return error("%s: tests[%d].params.test: 'test' is not a parameter",
			     path, i);
	if (cJSON_IsNumber(p)) {
		double v = p->valuedouble;

		if (v < 0 || v != floor(v) || v > 9007199254740992.0)
			return error("%s: tests[%d].params.%s: expected a non-negative integer",
				     path, i, p->string);
		*spec = xasprintf("%s %s=%.0f", old, p->string, v);
	} else if (cJSON_IsString(p) && is_word(p->valuestring)) {
		*spec = xasprintf("%s %s=%s", old, p->string, p->valuestring);
	} else {
		return error("%s: tests[%d].params.%s: expected an integer or a word",
			     path, i, p->string);
	}
	free(old);
	return 0;
}

/* "Ns" (N in [0, 86400], no leading zero) or "shrink"; -2 if neither. */
static long phase_seconds(const char *s)
{
	size_t n = strlen(s);
	long v;
	char *digits;
	int bad;

	if (!strcmp(s, CENSUS_PHASE_SHRINK))
		return -1;
	if (n < 2 || s[n - 1] != 's' || (s[0] == '0' && n > 2))
		return -2;
	digits = xstrndup(s, n - 1);
	if (!digits)
		out_of_memory();
	bad = parse_long(digits, 0, 86400, &v) || !isdigit((unsigned char)s[0]);
	free(digits);
	return bad ? -2 : v;
}

/*
 * tests[i].census: phases while the test holds its objects, times since
 * its result strictly increasing, the shrink (which changes what is held)
 * last, each within the boot's timeout.
 */
static int parse_census(const char *path, int i, const cJSON *census, double timeout_s,
			struct workload_test *wt)
{
	const cJSON *ph;
	int k = 0;

	if (!wt->holds)
		return error("%s: tests[%d].census: only a test that holds memory (params.hold=1) has census phases",
			     path, i);
	if (!cJSON_IsArray(census) || !cJSON_GetArraySize(census))
		return error("%s: tests[%d].census: expected a non-empty array of phases (\"0s\", \"5s\", ..., \"%s\")",
			     path, i, CENSUS_PHASE_SHRINK);
	wt->census = xcalloc(cJSON_GetArraySize(census), sizeof(*wt->census));
	cJSON_ArrayForEach(ph, census) {
		long s = cJSON_IsString(ph) ? phase_seconds(ph->valuestring) : -2;
		const struct census_phase *prev = k ? &wt->census[k - 1] : NULL;

		if (s == -2)
			return error("%s: tests[%d].census[%d]: expected \"Ns\" (N whole seconds up to 86400) or \"%s\"",
				     path, i, k, CENSUS_PHASE_SHRINK);
		if (prev && prev->seconds == -1)
			return error("%s: tests[%d].census[%d]: %s after %s: the shrink is the last phase",
				     path, i, k, ph->valuestring, CENSUS_PHASE_SHRINK);
		if (prev && s != -1 && s <= prev->seconds)
			return error("%s: tests[%d].census[%d]: %s is not after %s (times since the result, increasing)",
				     path, i, k, ph->valuestring, prev->name);
		if (s >= timeout_s)
			return error("%s: tests[%d].census[%d]: %s is past timeout_s (%.0f s)",
				     path, i, k, ph->valuestring, timeout_s);
		wt->census[k].name = xstrdup(ph->valuestring);
		wt->census[k].seconds = s;
		wt->nr_census = ++k;
	}
	return 0;
}

static int parse_test(const char *path, int i, const cJSON *t, long repeat,
		      double timeout_s, struct workload_test *wt)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(t, "test");
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(t, "params");
	const cJSON *census = cJSON_GetObjectItemCaseSensitive(t, "census");
	const cJSON *hold = cJSON_GetObjectItemCaseSensitive(params, "hold");
	const cJSON *p;

	if (!cJSON_IsObject(t))
		return error("%s: tests[%d]: expected an object", path, i);
	for (p = t->child; p; p = p->next)
		if (strcmp(p->string, "test") && strcmp(p->string, "params") &&
		    strcmp(p->string, "census"))
			return error("%s: tests[%d].%s: unknown key", path, i, p->string);
	if (!cJSON_IsString(name) || !is_word(name->valuestring))
		return error("%s: tests[%d].test: expected a test name", path, i);
	if (params && !cJSON_IsObject(params))
		return error("%s: tests[%d].params: expected an object", path, i);
	wt->test = xstrdup(name->valuestring);
	wt->spec = xasprintf("test=%s", wt->test);
	for (p = params ? params->child : NULL; p; p = p->next) {
		/* --repeat replaces the file's value. */
		if (repeat > 0 && !strcmp(p->string, "repeats"))
			continue;
		if (add_param(path, i, p, &wt->spec))
			return -1;
	}
	if (repeat > 0) {
		char *old = wt->spec;

		wt->spec = xasprintf("%s repeats=%ld", old, repeat);
		free(old);
	}
	/* As the module reads it: a number, or the word "1". */
	wt->holds = (cJSON_IsNumber(hold) && hold->valuedouble == 1) ||
		    (cJSON_IsString(hold) && !strcmp(hold->valuestring, "1"));
	return census ? parse_census(path, i, census, timeout_s, wt) : 0;
}

int workload_parse(const char *path, const char *text, long repeat,
		   struct workload *w)
{
	const cJSON *name, *tests, *timeout, *userspace, *settle, *bound, *t, *k;
	int i = 0;

	memset(w, 0, sizeof(*w));
	w->path = xstrdup(path);
	w->json = cJSON_Parse(text);
	if (!w->json) {
		const char *at = cJSON_GetErrorPtr();
		long off = at && at >= text ? (long)(at - text) : -1;

		workload_free(w);
		return error("%s: not valid JSON (near byte %ld)", path, off);
	}
	if (!cJSON_IsObject(w->json)) {
		workload_free(w);
		return error("%s: expected a JSON object at the top", path);
	}
	for (k = w->json->child; k; k = k->next) {
		if (strcmp(k->string, "name") && strcmp(k->string, "description") &&
		    strcmp(k->string, "tests") && strcmp(k->string, "timeout_s") &&
		    strcmp(k->string, "boot_userspace") && strcmp(k->string, "after_boot_s") &&
		    strcmp(k->string, "upper_bound")) {
			error("%s: %s: unknown key", path, k->string);
			goto fail;
		}
	}
	name = cJSON_GetObjectItemCaseSensitive(w->json, "name");
	tests = cJSON_GetObjectItemCaseSensitive(w->json, "tests");
	timeout = cJSON_GetObjectItemCaseSensitive(w->json, "timeout_s");
	userspace = cJSON_GetObjectItemCaseSensitive(w->json, "boot_userspace");
	settle = cJSON_GetObjectItemCaseSensitive(w->json, "after_boot_s");
	bound = cJSON_GetObjectItemCaseSensitive(w->json, "upper_bound");
	if (!cJSON_IsString(name) || !is_word(name->valuestring)) {
		error("%s: name: expected a word", path);
		goto fail;
	}
	w->name = xstrdup(name->valuestring);
	if (!cJSON_IsArray(tests) || !cJSON_GetArraySize(tests)) {
		error("%s: tests: expected a non-empty array", path);
		goto fail;
	}
	w->timeout_s = DEFAULT_TIMEOUT_S;
	if (timeout) {
		if (!cJSON_IsNumber(timeout) || timeout->valuedouble <= 0 ||
		    timeout->valuedouble > 86400) {
			error("%s: timeout_s: expected seconds in (0, 86400]", path);
			goto fail;
		}
		w->timeout_s = timeout->valuedouble;
	}
	if (userspace && !cJSON_IsBool(userspace)) {
		error("%s: boot_userspace: expected true or false", path);
		goto fail;
	}
	w->boot_userspace = cJSON_IsTrue(userspace);
	if (bound && (!cJSON_IsString(bound) || !*bound->valuestring)) {
		error("%s: upper_bound: expected words saying how the workload bounds its figures",
		      path);
		goto fail;
	}
	if (settle && (!cJSON_IsNumber(settle) || settle->valuedouble < 0 ||
		       settle->valuedouble != floor(settle->valuedouble) ||
		       settle->valuedouble >= w->timeout_s)) {
		error("%s: after_boot_s: expected whole seconds below timeout_s (%.0f)", path,
		      w->timeout_s);
		goto fail;
	}
	w->after_boot_s = settle ? (long)settle->valuedouble : 0;
	w->nr_tests = cJSON_GetArraySize(tests);
	w->tests = xcalloc(w->nr_tests, sizeof(*w->tests));
	cJSON_ArrayForEach(t, tests) {
		if (parse_test(path, i, t, repeat, w->timeout_s, &w->tests[i]))
			goto fail;
		i++;
	}
	return 0;
fail:
	workload_free(w);
	return -1;
}

int workload_load(const char *path, long repeat, struct workload *w)
{
	char *text = read_file(path, NULL);
	int ret;

	if (!text)
		return error("%s: %s", path, strerror(errno));
	ret = workload_parse(path, text, repeat, w);
	free(text);
	return ret;
}

void workload_free(struct workload *w)
{
	for (int i = 0; w->tests && i < w->nr_tests; i++) {
		free(w->tests[i].test);
		free(w->tests[i].spec);
		for (int k = 0; k < w->tests[i].nr_census; k++)
			free(w->tests[i].census[k].name);
		free(w->tests[i].census);
	}
	free(w->tests);
	free(w->path);
	free(w->name);
	cJSON_Delete(w->json);
	memset(w, 0, sizeof(*w));
}

static const cJSON *named(const cJSON *array, const char *name)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, array) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "name");

		if (cJSON_IsString(n) && !strcmp(n->valuestring, name))
			return e;
	}
	return NULL;
}

static char *names_of(const cJSON *array)
{
	char *list = xstrdup(""), *old;
	const cJSON *e;

	cJSON_ArrayForEach(e, array) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "name");

		if (!cJSON_IsString(n))
			continue;
		old = list;
		list = xasprintf("%s%s%s", old, *old ? ", " : "", n->valuestring);
		free(old);
	}
	return list;
}

/* VALUE of parameter @p (a catalogue entry), as the spec carries it. */
static int check_value(const char *where, const cJSON *p, const char *value)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(p, "type");
	const cJSON *min = cJSON_GetObjectItemCaseSensitive(p, "min");
	const cJSON *max = cJSON_GetObjectItemCaseSensitive(p, "max");
	const cJSON *choices = cJSON_GetObjectItemCaseSensitive(p, "choices"), *c;
	char *end, *list;
	double v;

	if (cJSON_IsString(type) && !strcmp(type->valuestring, "enum")) {
		cJSON_ArrayForEach(c, choices)
			if (cJSON_IsString(c) && !strcmp(c->valuestring, value))
				return 0;
		list = xstrdup("");
		cJSON_ArrayForEach(c, choices) {
			char *old = list;

			list = xasprintf("%s%s%s", old, *old ? ", " : "", cJSON_IsString(c) ? c->valuestring : "?");
			free(old);
		}
		error("%s: '%s' is not one of %s", where, value, list);
		free(list);
		return -1;
	}
	errno = 0;
	v = strtod(value, &end);
	if (*end || errno || !isdigit((unsigned char)value[0]))
		return error("%s: '%s' is not a number", where, value);
	if ((cJSON_IsNumber(min) && v < min->valuedouble) ||
	    (cJSON_IsNumber(max) && v > max->valuedouble))
		return error("%s: %s out of range [%.0f, %.0f]", where, value,
			     cJSON_IsNumber(min) ? min->valuedouble : 0,
			     cJSON_IsNumber(max) ? max->valuedouble : 0);
	return 0;
}

int workload_check(const struct workload *w, const cJSON *catalogue)
{
	for (int i = 0; i < w->nr_tests; i++) {
		const cJSON *test = named(catalogue, w->tests[i].test);
		const cJSON *params = cJSON_GetObjectItemCaseSensitive(test, "params");
		char *spec = xstrdup(w->tests[i].spec), *save = NULL, *tok, *list;
		int ret = 0;

		if (!test) {
			list = names_of(catalogue);
			error("%s: tests[%d].test: unknown test '%s' (the module has %s)",
			      w->path, i, w->tests[i].test, list);
			free(list);
			free(spec);
			return -1;
		}
		/* A test the module has but this kernel cannot run: say why. */
		if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(test, "available"))) {
			const cJSON *why = cJSON_GetObjectItemCaseSensitive(test, "absent");

			error("%s: tests[%d].test: test '%s' is not available on this kernel: %s",
			      w->path, i, w->tests[i].test,
			      cJSON_IsString(why) ? why->valuestring : "the module does not say why");
			free(spec);
			return -1;
		}
		/* The first token is test=NAME. */
		strtok_r(spec, " ", &save);
		while (!ret && (tok = strtok_r(NULL, " ", &save))) {
			/* A token without '=' has an empty value, which the check refuses. */
			char *value = tok + strcspn(tok, "="), *where;
			const cJSON *p;

			if (*value)
				*value++ = '\0';
			where = xasprintf("%s: tests[%d].params.%s", w->path, i, tok);
			p = named(params, tok);
			if (!p) {
				list = names_of(params);
				ret = error("%s: test %s has no such parameter (it has %s)",
					    where, w->tests[i].test, list);
				free(list);
			} else {
				ret = check_value(where, p, value);
			}
			free(where);
		}
		free(spec);
		if (ret)
			return -1;
	}
	return 0;
}

/*
 * A bare name is a path only where it names a file: results directories
 * are often named after their workload ("kernel/"), and a run started
 * beside one means the shipped workload.
 */
char *workload_resolve(const char *name_or_path)
{
	struct stat st;

	if (strchr(name_or_path, '/') || strstr(name_or_path, ".json") ||
	    (stat(name_or_path, &st) == 0 && !S_ISDIR(st.st_mode)))
		return xstrdup(name_or_path);
	return xasprintf("%s/workloads/%s.json", slabbench_home(), name_or_path);
}
