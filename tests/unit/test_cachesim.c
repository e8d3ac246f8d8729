// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the cost plugin's cache model: geometry, hits, LRU, levels. */
#include "check.h"
#include "cachesim.h"

#include <stdint.h>

static struct cache *make(const char *text)
{
	struct cache_geom g;
	const char *why;

	if (cache_geom_parse(text, &g, &why))
		return NULL;
	return cache_new(&g);
}

static void test_parse(void)
{
	struct cache_geom g;
	const char *why = NULL;
	char buf[64];

	CHECK(cache_geom_parse("32K/8/64", &g, &why) == 0 && g.size == 32768 && g.ways == 8 &&
		      g.line == 64, "32K/8/64");
	cache_geom_format(&g, buf, sizeof(buf));
	CHECK_STR(buf, "32K/8/64", "formatted back");
	CHECK(cache_geom_parse("2M/16/64", &g, &why) == 0 && g.size == 2u << 20, "2M/16/64");
	CHECK(cache_geom_parse("36M/12/64", &g, &why) == 0, "a set count that is not a power of two");
	cache_geom_format(&g, buf, sizeof(buf));
	CHECK_STR(buf, "36M/12/64", "36M formatted back");
	CHECK(cache_geom_parse("1G/16/64", &g, &why) == 0, "1G");
	cache_geom_format(&g, buf, sizeof(buf));
	CHECK_STR(buf, "1G/16/64", "1G formatted back");
	CHECK(cache_geom_parse("1536/3/64", &g, &why) == 0 && g.size == 1536, "bytes");
	cache_geom_format(&g, buf, sizeof(buf));
	CHECK_STR(buf, "1536/3/64", "a size in no larger unit stays in bytes");
	CHECK(cache_geom_parse("32K/8/48", &g, &why) == -1 && why, "line not a power of two");
	CHECK(cache_geom_parse("32K/0/64", &g, &why) == -1, "zero ways");
	CHECK(cache_geom_parse("0/8/64", &g, &why) == -1, "zero size");
	CHECK(cache_geom_parse("1000/8/64", &g, &why) == -1, "size not a multiple of ways * line");
	CHECK(cache_geom_parse("32K/8", &g, &why) == -1, "no line size");
	CHECK(cache_geom_parse("32K/8/64x", &g, &why) == -1, "trailing junk");
	CHECK(cache_geom_parse("32T/8/64", &g, &why) == -1, "unknown unit");
	CHECK(cache_geom_parse("-32K/8/64", &g, &why) == -1, "negative");
	CHECK(cache_geom_parse("99999999999999999999/8/64", &g, &why) == -1, "overflow");
	CHECK(cache_geom_parse("", &g, &why) == -1, "empty");
}

/* 4 sets of 2 ways: lines 0, 4, 8 share set 0. */
static void test_lru(void)
{
	struct cache *c = make("512/2/64");

	CHECK(c != NULL, "512/2/64 built");
	CHECK(!cache_touch(c, 0), "cold miss");
	CHECK(cache_touch(c, 0), "then a hit");
	CHECK(!cache_touch(c, 4), "same set, second way: miss");
	CHECK(cache_touch(c, 0) && cache_touch(c, 4), "both ways hold");
	CHECK(!cache_touch(c, 8), "a third line in the set misses ...");
	CHECK(!cache_touch(c, 0), "... and evicted the least recently used (0)");
	CHECK(cache_touch(c, 8), "8 stayed");
	CHECK(!cache_touch(c, 4), "4 was evicted by 0's return");
	CHECK(!cache_touch(c, 1) && cache_touch(c, 1), "other sets are independent");
	CHECK(cache_touch(c, 4), "4 is back");
	cache_free(c);
}

/* Direct-mapped and fully associative extremes. */
static void test_extremes(void)
{
	struct cache *dm = make("256/1/64"), *fa = make("256/4/64");
	uint64_t l;
	int hits = 0;

	CHECK(!cache_touch(dm, 0) && !cache_touch(dm, 4) && !cache_touch(dm, 0),
	      "direct-mapped: lines 0 and 4 evict each other");
	for (l = 0; l < 4; l++)
		cache_touch(fa, l * 100);
	for (l = 0; l < 4; l++)
		hits += cache_touch(fa, l * 100);
	CHECK(hits == 4, "fully associative: any 4 lines fit");
	CHECK(!cache_touch(fa, 7) && !cache_touch(fa, 0), "a fifth evicts the oldest");
	cache_free(dm);
	cache_free(fa);
}

/* 3 sets of 4 ways (an LLC slice count need not be a power of two). */
static void test_odd_sets(void)
{
	struct cache *c = make("768/4/64");
	uint64_t l;
	int hits = 0;

	for (l = 0; l < 12; l += 3)
		cache_touch(c, l);
	for (l = 0; l < 12; l += 3)
		hits += cache_touch(c, l);
	CHECK(hits == 4, "lines 0, 3, 6, 9 share set 0 and fit its 4 ways");
	CHECK(!cache_touch(c, 1) && !cache_touch(c, 2), "lines 1 and 2 go to the other sets");
	CHECK(cache_touch(c, 9), "... leaving set 0 alone");
	CHECK(!cache_touch(c, 12) && !cache_touch(c, 0), "a fifth line in set 0 evicts its LRU (0)");
	cache_free(c);
}

/*
 * The two known answers the e2e test checks in a guest, on the model
 * alone: a stream larger than every level misses at every level; a
 * buffer smaller than L1d misses only once.
 */
static void test_hierarchy(void)
{
	struct cache *lv[3] = { make("1K/2/64"), make("2K/2/64"), make("4K/4/64") };
	uint64_t miss[3] = { 0 }, l;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (l = 0; l < 1024; l++)
			cache_walk(lv, 3, l, miss);
	CHECK(miss[0] == 2048 && miss[1] == 2048 && miss[2] == 2048,
	      "striding 64 KiB twice: a miss per access at every level");
	miss[0] = miss[1] = miss[2] = 0;
	for (pass = 0; pass < 11; pass++)
		for (l = 5000; l < 5008; l++)
			cache_walk(lv, 3, l, miss);
	CHECK(miss[0] == 8 && miss[1] == 8 && miss[2] == 8,
	      "8 lines read 11 times: 8 cold misses per level, then none");
	CHECK(cache_walk(lv, 3, 5000, miss) == 0, "an L1d hit goes no further");
	cache_touch(lv[0], 9000);
	cache_touch(lv[0], 9008);	/* same L1d set as 5000 (8 sets) and 9000: evicts 5000 */
	CHECK(cache_walk(lv, 3, 5000, miss) == 1 && miss[0] == 9 && miss[1] == 8,
	      "evicted from L1d only: an L1d miss that hits in L2");
	for (l = 0; l < 3; l++)
		cache_free(lv[l]);
}

int main(void)
{
	test_parse();
	test_lru();
	test_extremes();
	test_odd_sets();
	test_hierarchy();
	return check_done();
}
