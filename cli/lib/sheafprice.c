// SPDX-License-Identifier: GPL-2.0
/*
 * The price of per-CPU caching: joins the census of each caches test of
 * the sheaves workload with the batch test of the same variant and ask
 * in a cost-model run (instructions) and the hitrate test of the same
 * ask (refills). What a test asked is read from its parameters, as the
 * module took them, never from its position in a workload file.
 */
#define _GNU_SOURCE
#include "sheafprice.h"
#include "json.h"
#include "schema.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What @t asked of its cache's sheaves: SHEAF_ASKED_* or the capacity. */
static long sheaf_asked(const cJSON *t)
{
	double on = test_param_num(t, "sheaves"), cap = test_param_num(t, "sheaf_capacity");

	if (!isnan(on) && on == 0)
		return SHEAF_ASKED_NONE;
	return isnan(cap) ? SHEAF_ASKED_DEFAULT : (long)cap;
}

static double metric_median(const cJSON *t, const char *name)
{
	const cJSON *m = test_metric(t, name);
	struct summary s;

	if (!m)
		return NAN;
	metric_summarize(m, &s);
	return s.n ? s.median : NAN;
}

/*
 * The first test named @test with @asked in a run of @variant among
 * @docs that has @metric; NULL if none.
 */
static const cJSON *find_test(const cJSON *const *docs, const struct run_id *ids, int n,
			      const char *variant, const char *test, long asked,
			      const char *metric)
{
	for (int r = 0; r < n; r++) {
		if (strcmp(ids[r].variant, variant))
			continue;
		for (int i = 0; i < run_nr_tests(docs[r]); i++) {
			const cJSON *t = run_test(docs[r], i);

			if (!strcmp(test_name(t), test) && sheaf_asked(t) == asked &&
			    test_metric(t, metric))
				return t;
		}
	}
	return NULL;
}

/* The census's caches whose names start as @first's, less its digits. */
static bool of_test(const cJSON *cache, const char *first)
{
	const char *name = json_str_at(cache, "name");
	size_t len = strlen(first);

	while (len && first[len - 1] >= '0' && first[len - 1] <= '9')
		len--;
	return name && len && !strncmp(name, first, len);
}

/*
 * Bytes held by the test's caches in @census; the capacity their
 * records give in *@cap (-1 without the field).
 */
static double held_bytes(const cJSON *census, const char *first, long *cap)
{
	double ps = census_header(census, "page_size"), held = 0;

	*cap = -1;
	for (int i = 0; i < census_nr_caches(census); i++) {
		const cJSON *c = census_cache_at(census, i);
		double f = census_cache_field(c, "sheaf_capacity");

		if (!of_test(c, first))
			continue;
		if (!isnan(f))
			*cap = (long)f;
		held += census_cache_field(c, "pages") * ps;
		for (const char *const *k = (const char *const[]){ "struct_sheaf", "struct_percpu",
								   NULL }; *k; k++) {
			f = census_cache_field(c, *k);
			held += isnan(f) ? 0 : f;
		}
	}
	return held;
}

/* The point of caches test @i of run @r; 0 when it has one. */
static int point_of(const cJSON *const *docs, const struct run_id *ids, int n, int r, int i,
		    struct sheaf_point *p)
{
	const cJSON *t = run_test(docs[r], i), *hr;
	const char *first = cJSON_GetStringValue(test_extra(t, "first_cache", 0));
	char *when = xasprintf("t%d.0s", i);
	int nb = run_nr_boots(docs[r]);
	double *held = xcalloc(nb ? nb : 1, sizeof(*held));
	struct summary s;

	memset(p, 0, sizeof(*p));
	p->capacity = -1;
	for (int b = 0; first && b < nb; b++) {
		const cJSON *census = boot_census(docs[r], b, when);

		if (census && census_nr_caches(census))
			held[p->boots++] = held_bytes(census, first, &p->capacity);
	}
	free(when);
	if (!p->boots) {
		free(held);
		return -1;
	}
	summarize(held, p->boots, &s);
	free(held);
	p->held = s.median;
	p->variant = ids[r].variant;
	p->allocator = ids[r].allocator;
	p->cpus = (long)ids[r].cpus;
	p->asked = sheaf_asked(t);
	p->insns_per_pair = NAN;
	t = find_test(docs, ids, n, p->variant, "batch", p->asked, "alloc_instructions_per_op");
	if (t)
		p->insns_per_pair = metric_median(t, "alloc_instructions_per_op") +
				    metric_median(t, "free_instructions_per_op");
	hr = find_test(docs, ids, n, p->variant, "hitrate", p->asked, "alloc_slowpath_per1k");
	p->refills_per1k = hr ? metric_median(hr, "alloc_slowpath_per1k") : NAN;
	p->limit = hr ? (long)json_num_or(test_extra(hr, "slab_tunables", 0), "limit", -1) : -1;
	return 0;
}

int sheaf_points(const cJSON *const *docs, int n, struct sheaf_point **pts)
{
	struct run_id *ids = run_ids(NULL, docs, n);
	int nr = 0, cap = 0;

	*pts = NULL;
	for (int r = 0; r < n; r++) {
		/* A cost-model guest has one vCPU: its census is no CPU count's answer. */
		if (!strcmp(ids[r].accel, "cost"))
			continue;
		for (int i = 0; i < run_nr_tests(docs[r]); i++) {
			if (strcmp(test_name(run_test(docs[r], i)), "caches"))
				continue;
			if (nr == cap) {
				cap = cap ? 2 * cap : 8;
				*pts = xrealloc(*pts, cap * sizeof(**pts));
			}
			if (!point_of(docs, ids, n, r, i, &(*pts)[nr]))
				nr++;
		}
	}
	/* variant and allocator are the documents' strings: the ids can go. */
	run_ids_free(ids, n);
	if (!nr) {
		free(*pts);
		*pts = NULL;
	}
	return nr;
}
