// SPDX-License-Identifier: GPL-2.0
/*
 * Slab memory from the census: each boot's census turned into bytes by
 * location, and the boots of a sweep grouped by allocator and CPU count.
 * Every figure is a sum of what the census counted, times the sizes it
 * reported; nothing comes from structure-size constants.
 */
#define _GNU_SOURCE
#include "slabmem.h"
#include "census.h"
#include "util.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(SM_FREE_EMPTY - SM_FREE_CPU + 1 == CENSUS_NR_FREE,
	       "a part per free place of the census");

const char *const slabmem_part_names[SM_NR_PARTS] = {
	[SM_LIVE] = "live objects",
	[SM_PADDING] = "padding of live objects",
	[SM_FREE_CPU] = "free in CPU slabs",
	[SM_FREE_CPU_PARTIAL] = "free in per-CPU partial slabs",
	[SM_FREE_CPU_ARRAY] = "free in per-CPU arrays",
	[SM_FREE_SHARED] = "free in shared arrays",
	[SM_FREE_ALIEN] = "free in alien caches",
	[SM_FREE_SHEAF_MAIN] = "free in main sheaves",
	[SM_FREE_SHEAF_SPARE] = "free in spare sheaves",
	[SM_FREE_SHEAF_RCU] = "freed by RCU, in rcu_free sheaves",
	[SM_FREE_BARN] = "free in barns' sheaves",
	[SM_FREE_NODE_PARTIAL] = "free in node partial slabs",
	[SM_FREE_EMPTY] = "free in empty slabs",
	[SM_TAIL] = "slab tails",
	[SM_STRUCTS] = "allocator's structures",
	[SM_SHEAF_STRUCTS] = "sheaves' structures",
	[SM_PERCPU] = "per-CPU structures",
};

/* A field the allocator does not have is absent, and counts 0 (census.md). */
static double or_zero(double v)
{
	return isnan(v) ? 0 : v;
}

/*
 * The padding in @bytes of slots of the cache named @holder: the slots of
 * the allocator's own structures count the holder's object_size in its
 * live bytes and the rest in its padding. SLUB gives kmem_cache and
 * kmem_cache_node caches of their own; SLAB kmallocs its nodes and arrays
 * from kmalloc-128 to kmalloc-4k, and SLUB its barns and sheaves (a
 * sheaf's capacity makes it a kmalloc size exactly), whose slots are
 * their object size: no padding, and no such holder (nor when the slots
 * are not whole slots of it).
 */
static double holder_padding(const cJSON *census, const char *holder, double bytes)
{
	const cJSON *h = census_cache(census, holder);
	double size = h ? census_cache_field(h, "size") : NAN;
	double object_size = h ? census_cache_field(h, "object_size") : NAN;

	if (!(size > 0) || isnan(object_size) || fmod(bytes, size))
		return 0;
	return bytes / size * (size - object_size);
}

int slabmem_of(const cJSON *census, struct slabmem *m)
{
	double own_cache = 0, own_node = 0, own_sheaf = 0, own_pad;
	double ps = census_header(census, "page_size");
	double pages = census_total(census, "pages");
	double percpu = census_total(census, "percpu_pages");

	memset(m, 0, sizeof(*m));
	if (isnan(ps) || isnan(pages) || isnan(percpu))
		return -1;
	m->slab = (pages + or_zero(census_total(census, "kmalloc_large_pages"))) * ps;
	m->slab_percpu = m->slab + percpu * ps;
	m->caches = census_nr_caches(census);
	if (!m->caches) {
		m->overhead = NAN;
		for (int p = 0; p < SM_NR_PARTS; p++)
			m->part[p] = NAN;
		return 0;
	}
	for (int i = 0; i < m->caches; i++) {
		const cJSON *c = census_cache_at(census, i);
		double size = census_cache_field(c, "size"), live = census_cache_field(c, "live");
		double object_size = census_cache_field(c, "object_size");

		m->part[SM_LIVE] += live * object_size;
		m->part[SM_PADDING] += live * (size - object_size);
		for (int f = 0; f < CENSUS_NR_FREE; f++)
			m->part[SM_FREE_CPU + f] +=
				or_zero(census_cache_field(c, census_free_fields[f])) * size;
		m->part[SM_TAIL] += census_cache_field(c, "pages") * ps -
				    census_cache_field(c, "objects") * size;
		m->part[SM_PERCPU] += or_zero(census_cache_field(c, "struct_percpu"));
		own_cache += or_zero(census_cache_field(c, "struct_cache"));
		own_node += or_zero(census_cache_field(c, "struct_node"));
		own_sheaf += or_zero(census_cache_field(c, "struct_sheaf"));
	}
	/* The allocator's structures are live slab objects that no caller holds. */
	own_pad = holder_padding(census, "kmem_cache", own_cache) +
		  holder_padding(census, "kmem_cache_node", own_node);
	m->part[SM_STRUCTS] = own_cache + own_node;
	m->part[SM_SHEAF_STRUCTS] = own_sheaf;
	m->part[SM_LIVE] -= own_cache + own_node + own_sheaf - own_pad;
	m->part[SM_PADDING] -= own_pad;
	for (int p = 0; p < SM_NR_PARTS; p++)
		if (p != SM_LIVE)
			m->overhead += m->part[p];
	return 0;
}

/* N of a held phase's snapshot, "tN.0s"; -1 for any other name. */
static long held_test(const char *when)
{
	char *end;
	long t;

	if (when[0] != 't' || !isdigit((unsigned char)when[1]))
		return -1;
	t = strtol(when + 1, &end, 10);
	return strcmp(end, ".0s") ? -1 : t;
}

const char *slabmem_phase(const cJSON *const *docs, int n, const char *want)
{
	const char *best = NULL;
	long best_t = LONG_MAX;
	const cJSON *s;

	if (want)
		return want;
	for (int r = 0; r < n; r++) {
		cJSON_ArrayForEach(s, boot_snapshots(docs[r], 0)) {
			long t = held_test(s->string);

			if (t >= 0 && t < best_t && boot_census(docs[r], 0, s->string)) {
				best = s->string;
				best_t = t;
			}
		}
	}
	return best ? best : "after";
}

int slabmem_points(const cJSON *const *docs, int n, const char *phase,
		   struct slabmem_point **points)
{
	struct run_id *ids = run_ids(NULL, docs, n);
	struct slabmem_point *pts = xcalloc(n, sizeof(*pts));
	int nr = 0;

	for (int r = 0; r < n; r++) {
		const struct run_id *id = &ids[r];
		const char *label = strcmp(id->variant, "?") ? id->variant : id->allocator;
		long numa = isnan(id->numa_nodes) ? 1 : (long)id->numa_nodes;
		long possible = (long)id->possible_cpus;
		struct slabmem_point *p = NULL;

		for (int i = 0; i < nr && !p; i++)
			if (!strcmp(pts[i].label, label) && pts[i].cpus == (long)id->cpus &&
			    pts[i].numa == numa && pts[i].possible == possible)
				p = &pts[i];
		if (!p) {
			p = &pts[nr];
			*p = (struct slabmem_point){
				.label = label, .allocator = id->allocator, .cpus = (long)id->cpus,
				.numa = numa, .possible = possible, .family = id->config_family,
			};
			generation_of(id, docs[r], &p->gen);
		}
		for (int b = 0; b < run_nr_boots(docs[r]); b++) {
			const cJSON *census = boot_census(docs[r], b, phase);
			struct slabmem m;

			if (!census || slabmem_of(census, &m))
				continue;
			p->boots = xrealloc(p->boots, (p->nr_boots + 1) * sizeof(*p->boots));
			p->boots[p->nr_boots++] = m;
			/* A bound pooled with other figures is still no more than a bound. */
			if (!p->workload || (!p->bound && run_upper_bound(docs[r])))
				p->workload = run_workload(docs[r]);
			if (!p->bound)
				p->bound = run_upper_bound(docs[r]);
		}
		/* A new point that no boot filled is no point. */
		if (p == &pts[nr] && p->nr_boots)
			nr++;
	}
	run_ids_free(ids, n);
	*points = pts;
	return nr;
}

void slabmem_points_free(struct slabmem_point *p, int n)
{
	for (int i = 0; p && i < n; i++)
		free(p[i].boots);
	free(p);
}

void slabmem_summary(const struct slabmem_point *p, size_t offset, struct summary *s)
{
	double *x = xcalloc(p->nr_boots + 1, sizeof(*x));
	size_t n = 0;

	for (int b = 0; b < p->nr_boots; b++) {
		double v = *(const double *)((const char *)&p->boots[b] + offset);

		if (!isnan(v))
			x[n++] = v;
	}
	summarize(x, n, s);
	free(x);
}

void slabmem_ratio_fill(struct slabmem_ratio *x)
{
	double lo, hi;

	x->r = x->a.n && x->b.n && x->a.mean > 0 ? x->b.mean / x->a.mean : NAN;
	/* The interval of the percent change, by the delta method, as compare's. */
	x->has_ci = x->a.n >= SLABMEM_MIN_BOOTS_CI && x->b.n >= SLABMEM_MIN_BOOTS_CI &&
		    !percent_change_ci(&x->a, &x->b, 0.05, &lo, &hi);
	if (x->has_ci) {
		x->lo = 1 + lo / 100;
		x->hi = 1 + hi / 100;
	}
}

bool slabmem_ratio(const struct slabmem_point *a, const struct slabmem_point *b,
		   size_t offset, struct slabmem_ratio *x)
{
	slabmem_summary(a, offset, &x->a);
	slabmem_summary(b, offset, &x->b);
	if (!x->a.n || !x->b.n || x->a.mean <= 0)
		return false;
	slabmem_ratio_fill(x);
	return true;
}
