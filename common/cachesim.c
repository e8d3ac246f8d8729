// SPDX-License-Identifier: GPL-2.0
/*
 * Set-associative LRU cache levels. Each set keeps its line numbers in
 * recency order, most recent first: a lookup is a scan of at most WAYS
 * entries, cheap next to the TCG callback that calls it.
 */
#include "cachesim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* No line number reaches this: a line is at least 8 bytes. */
#define INVALID UINT64_MAX

struct cache {
	uint64_t sets;
	uint64_t set_mask;	/* sets - 1 when sets is a power of two, else 0 */
	uint32_t ways;
	uint64_t *lines;	/* sets * ways, MRU first within a set */
};

static int parse_u64(const char *s, char **end, uint64_t *v)
{
	unsigned long long n;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtoull(s, end, 10);
	if (errno)
		return -1;
	*v = n;
	return 0;
}

int cache_geom_parse(const char *text, struct cache_geom *g, const char **why)
{
	uint64_t size, ways, line, mult = 1;
	char *p;

	if (parse_u64(text, &p, &size) || size == 0) {
		*why = "the size must be a positive number of bytes, with K, M or G";
		return -1;
	}
	switch (*p) {
	case 'K': mult = 1ULL << 10; p++; break;
	case 'M': mult = 1ULL << 20; p++; break;
	case 'G': mult = 1ULL << 30; p++; break;
	}
	if (size > (UINT64_MAX >> 30)) {
		*why = "the size is too large";
		return -1;
	}
	size *= mult;
	if (*p != '/' || parse_u64(p + 1, &p, &ways) || ways == 0 || ways > 1024) {
		*why = "the associativity must be 1 to 1024 ways, after the first '/'";
		return -1;
	}
	if (*p != '/' || parse_u64(p + 1, &p, &line) || *p != '\0') {
		*why = "the form is SIZE/WAYS/LINE";
		return -1;
	}
	if (line < 8 || line > 4096 || (line & (line - 1))) {
		*why = "the line size must be a power of two from 8 to 4096 bytes";
		return -1;
	}
	if (size % (ways * line)) {
		*why = "the size must be a multiple of ways * line size";
		return -1;
	}
	g->size = size;
	g->ways = (uint32_t)ways;
	g->line = (uint32_t)line;
	return 0;
}

void cache_geom_format(const struct cache_geom *g, char *buf, size_t len)
{
	static const char units[] = "GMK";
	uint64_t size = g->size;
	int i;

	for (i = 0; i < 3; i++) {
		uint64_t u = 1ULL << (10 * (3 - i));

		if (size % u == 0) {
			snprintf(buf, len, "%" PRIu64 "%c/%u/%u", size / u, units[i], g->ways, g->line);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64 "/%u/%u", size, g->ways, g->line);
}

struct cache *cache_new(const struct cache_geom *g)
{
	struct cache *c = malloc(sizeof(*c));
	uint64_t i, n;

	if (!c)
		return NULL;
	c->ways = g->ways;
	c->sets = g->size / ((uint64_t)g->ways * g->line);
	c->set_mask = (c->sets & (c->sets - 1)) ? 0 : c->sets - 1;
	n = c->sets * c->ways;
	c->lines = malloc(n * sizeof(*c->lines));
	if (!c->lines) {
		free(c);
		return NULL;
	}
	for (i = 0; i < n; i++)
		c->lines[i] = INVALID;
	return c;
}

void cache_free(struct cache *c)
{
	if (c)
		free(c->lines);
	free(c);
}

/*
 * A division per access is most of the model's cost when the set count
 * is a power of two, as it nearly always is: mask then.
 */
static inline uint64_t set_of(const struct cache *c, uint64_t line)
{
	return c->set_mask || c->sets == 1 ? line & c->set_mask : line % c->sets;
}

bool cache_touch(struct cache *c, uint64_t line)
{
	uint64_t *set = c->lines + set_of(c, line) * c->ways;
	uint32_t i;
	bool hit;

	if (set[0] == line)
		return true;
	for (i = 1; i < c->ways && set[i] != line; i++)
		;
	hit = i < c->ways;
	if (!hit)
		i = c->ways - 1;	/* the LRU way makes room */
	for (; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = line;
	return hit;
}

unsigned cache_walk(struct cache *const *levels, unsigned n, uint64_t line, uint64_t *misses)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (cache_touch(levels[i], line))
			break;
		misses[i]++;
	}
	return i;
}
