// SPDX-License-Identifier: GPL-2.0
/*
 * Metric kinds by unit: the one table that decides what compare tests.
 * Times are statistical; everything counted is exact up to the system's
 * own variation and a test of it would only measure that variation, so
 * it is shown, not tested.
 */
#include "kind.h"
#include "util.h"

#include <string.h>

static const struct {
	const char *unit;
	enum metric_kind kind;
} kinds[] = {
	{ "ns", KIND_TIME },
	{ "ops/s", KIND_TIME },
	/* The macro workloads' wall time (vm/agent/macro.c). */
	{ "s", KIND_TIME },
	{ "cycles", KIND_CYCLES },
	{ "calls", KIND_EXACT },
	{ "pages", KIND_EXACT },
	{ "bytes", KIND_EXACT },
	{ "objects", KIND_EXACT },
	{ "per1k", KIND_EXACT },
	{ "objects/call", KIND_EXACT },
	{ "%", KIND_EXACT },
	{ "insns/op", KIND_EXACT },
	{ "accesses/op", KIND_EXACT },
	/* The macro workloads' dcache growth, a count. */
	{ "dentries", KIND_EXACT },
	/* The memcg workload's charges, read from the groups' memory.stat. */
	{ "kB", KIND_EXACT },
	{ "misses/op", KIND_MODEL },
};

int metric_kind(const char *unit, enum metric_kind *kind)
{
	for (size_t i = 0; unit && i < ARRAY_SIZE(kinds); i++) {
		if (!strcmp(kinds[i].unit, unit)) {
			*kind = kinds[i].kind;
			return 0;
		}
	}
	return -1;
}

const char *metric_kind_name(enum metric_kind kind)
{
	static const char *const names[] = {
		[KIND_TIME] = "time", [KIND_CYCLES] = "cycles",
		[KIND_EXACT] = "exact", [KIND_MODEL] = "model",
	};

	return names[kind];
}

bool kind_shows_difference(enum metric_kind kind)
{
	return kind == KIND_EXACT || kind == KIND_MODEL;
}
