/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One level of a set-associative, LRU, physically indexed cache, with no
 * QEMU in sight so that the host's unit tests can drive it. The plugin
 * builds its hierarchy (per-vCPU L1d and L2, one shared LLC) from these.
 */
#ifndef SLABBENCH_CACHESIM_H
#define SLABBENCH_CACHESIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cache_geom {
	uint64_t size;	/* bytes */
	uint32_t ways;
	uint32_t line;	/* bytes, a power of two */
};

/*
 * "SIZE/WAYS/LINE", SIZE in bytes with an optional K, M or G (powers of
 * 1024). Returns 0, or -1 with *why saying what is wrong.
 */
int cache_geom_parse(const char *text, struct cache_geom *g, const char **why);

/* The same text back, the size in the largest unit that divides it. */
void cache_geom_format(const struct cache_geom *g, char *buf, size_t len);

struct cache;

/* NULL when out of memory; the geometry must have come from the parser. */
struct cache *cache_new(const struct cache_geom *g);
void cache_free(struct cache *c);

/*
 * One access to memory line number LINE (physical address / line size).
 * Returns true on a hit; on a miss the line is filled as most recently
 * used, evicting the set's least recently used line.
 */
bool cache_touch(struct cache *c, uint64_t line);

/*
 * LINE looked up in LEVELS[0], then on a miss in LEVELS[1], and so on,
 * stopping at the first hit; every level that missed is filled and its
 * MISSES entry counted. Returns how many levels missed.
 */
unsigned cache_walk(struct cache *const *levels, unsigned n, uint64_t line, uint64_t *misses);

#endif
