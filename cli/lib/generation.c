// SPDX-License-Identifier: GPL-2.0
/* An allocator's generation: its kernel release and per-CPU design. */
#define _GNU_SOURCE
#include "generation.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* The release from which every SLUB cache has sheaves and none a CPU slab. */
#define SHEAVES_MAJOR 7

/*
 * What the run's censuses say of SLUB's design: sheaves when one says
 * cpu_cache=sheaves, CPU slabs when one is a SLUB census without it;
 * PCPU_UNKNOWN when the run has no SLUB census.
 */
static enum percpu_design census_design(const cJSON *doc)
{
	enum percpu_design d = PCPU_UNKNOWN;

	for (int b = 0; b < run_nr_boots(doc); b++) {
		const cJSON *s;

		cJSON_ArrayForEach(s, boot_snapshots(doc, b)) {
			const cJSON *census = boot_census(doc, b, s->string);
			const char *alloc, *cache;

			if (!census)
				continue;
			alloc = cJSON_GetStringValue(cJSON_GetObjectItem(census, "allocator"));
			cache = cJSON_GetStringValue(cJSON_GetObjectItem(census, "cpu_cache"));
			if (!alloc || strcmp(alloc, "slub"))
				continue;
			if (cache && !strcmp(cache, "sheaves"))
				return PCPU_SHEAVES;
			d = PCPU_CPU_SLABS;
		}
	}
	return d;
}

void generation_of(const struct run_id *id, const cJSON *doc, struct generation *g)
{
	*g = (struct generation){ .release = id->release, .major = -1, .minor = -1, .by = "?" };
	if (sscanf(id->release, "%d.%d", &g->major, &g->minor) != 2)
		g->major = g->minor = -1;
	if (!strcmp(id->allocator, "SLAB")) {
		g->design = PCPU_ARRAYS;
		g->by = "allocator";
	} else if (!strcmp(id->allocator, "SLOB")) {
		g->design = PCPU_NONE;
		g->by = "allocator";
	} else if (!strcmp(id->allocator, "SLUB")) {
		g->design = census_design(doc);
		if (g->design != PCPU_UNKNOWN) {
			g->by = "census";
		} else if (g->major >= 0) {
			g->design = g->major >= SHEAVES_MAJOR ? PCPU_SHEAVES : PCPU_CPU_SLABS;
			g->by = "release";
		}
	}
}

const char *generation_design_words(enum percpu_design d)
{
	switch (d) {
	case PCPU_NONE:
		return "no per-CPU cache";
	case PCPU_ARRAYS:
		return "per-CPU arrays";
	case PCPU_CPU_SLABS:
		return "CPU slabs and per-CPU partial slabs";
	case PCPU_SHEAVES:
		return "sheaves";
	default:
		return "per-CPU design unknown";
	}
}

char *generation_text(const struct generation *g)
{
	return xasprintf("%s, %s", g->release, generation_design_words(g->design));
}

bool generation_differ(const struct generation *a, const struct generation *b,
		       const char *alloc_a, const char *alloc_b)
{
	if (a->major < 0 || b->major < 0)
		return false;
	if (a->major != b->major || a->minor != b->minor)
		return true;
	return !strcmp(alloc_a, alloc_b) && a->design != b->design;
}
