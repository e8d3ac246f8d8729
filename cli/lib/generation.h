/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An allocator's generation: the kernel release it ran in and how it
 * caches objects per CPU (docs/concepts.md, "generation"). A comparison
 * of two generations is not an allocator change alone: everything else
 * in the kernel moved with it.
 */
#ifndef SLABBENCH_GENERATION_H
#define SLABBENCH_GENERATION_H

#include "schema.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

/* How the allocator keeps free objects for each CPU. */
enum percpu_design {
	PCPU_UNKNOWN,		/* neither the census nor the release tells */
	PCPU_NONE,		/* SLOB: no per-CPU cache */
	PCPU_ARRAYS,		/* SLAB: per-CPU arrays of object pointers */
	PCPU_CPU_SLABS,		/* SLUB before 7.0: CPU slabs and per-CPU partial slabs */
	PCPU_SHEAVES,		/* SLUB from 7.0: sheaves, per-node barns, no CPU slabs */
};

struct generation {
	const char *release;	/* "6.1.192"; "?" when not recorded */
	int major, minor;	/* of the release; -1 when it has none */
	enum percpu_design design;
	/* What told the design: "census", "release", "allocator"; "?" when nothing did. */
	const char *by;
};

/*
 * The generation of the run @id whose results are @doc. SLUB's design is
 * read from the run's census where it has one (a SLUB census with
 * sheaves says so in its header; one without has CPU slabs), else from
 * the release: sheaves from 7.0 on, when every cache got them.
 */
void generation_of(const struct run_id *id, const cJSON *doc, struct generation *g);

/* "per-CPU arrays", "CPU slabs and per-CPU partial slabs", "sheaves", ... */
const char *generation_design_words(enum percpu_design d);

/* "6.1.192, per-CPU arrays" */
char *generation_text(const struct generation *g);

/*
 * Whether @a and @b are of different generations: another release
 * (major.minor: a stable update is the same generation), or another
 * per-CPU design of one allocator. SLAB against SLUB of one release is
 * the allocator change itself, not another generation. False when
 * either's release is unknown.
 */
bool generation_differ(const struct generation *a, const struct generation *b,
		       const char *alloc_a, const char *alloc_b);

#endif
