// SPDX-License-Identifier: GPL-2.0
/*
 * The census of SLUB with sheaves (7.0 on: no CPU slabs; cpu_cache=sheaves
 * in the header): its records parsed and refused, the free objects of
 * every sheaf in the identities, the sheaves' memory in the figures.
 */
#define _GNU_SOURCE
#include "check.h"
#include "census.h"
#include "json.h"
#include "procfs.h"
#include "sample.h"
#include "slabmem.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void test_parse(void)
{
	char *text = data_file("census-slub-sheaves.txt"), *err = NULL;
	cJSON *c = census_parse(text, &err);
	const cJSON *km;

	CHECK(c && !err, "sheaves sample parses");
	CHECK_STR(json_str_at(c, "allocator"), "slub", "sheaves: the allocator is slub");
	CHECK_STR(json_str_at(c, "cpu_cache"), "sheaves", "sheaves: the header says so");
	km = cJSON_GetArrayItem(json_at(c, "caches"), 0);
	CHECK(json_num_at(km, "free_sheaf_main") == 50 && json_num_at(km, "free_barn") == 60 &&
	      json_num_at(km, "sheaf_capacity") == 60 && json_num_at(km, "struct_sheaf") == 2560 &&
	      json_num_at(km, "barn_full_sheaves") == 1 && json_num_at(km, "cpu_sheaves") == 3,
	      "sheaves: a record's sheaf figures");
	CHECK(!json_at(km, "cpu_slabs") && !json_at(km, "free_cpu"),
	      "sheaves: no CPU slab field, none zero-filled");
	CHECK(json_num_at(json_at(c, "total"), "free_sheaf_rcu") == 3, "sheaves: the total's sums");
	cJSON_Delete(c);
	free(text);

	/* A census of CPU slabs still parses, without any sheaf field. */
	text = data_file("census-slub.txt");
	c = census_parse(text, &err);
	CHECK(c && !err && !json_at(c, "cpu_cache") &&
	      !json_at(cJSON_GetArrayItem(json_at(c, "caches"), 0), "free_barn"),
	      "a census of CPU slabs parses as before");
	cJSON_Delete(c);
	free(text);
}

static void test_refused(void)
{
	static const struct {
		const char *file, *old, *new, *want;
	} cases[] = {
		{ "census-slub-sheaves.txt", "free_barn=60 ", "free_barn=60 free_cpu=0 ",
		  "census line 2: free_cpu= does not belong on a slub (sheaves) census's cache record" },
		{ "census-slub-sheaves.txt", " free_barn=60", "",
		  "census line 2: a cache record without free_barn=" },
		{ "census-slub-sheaves.txt", " sheaf_capacity=60", "",
		  "census line 2: a cache record without sheaf_capacity=" },
		{ "census-slub-sheaves.txt", " struct_sheaf=4608", "",
		  "census line 6: a total record without struct_sheaf=" },
		{ "census-slub-sheaves.txt", "cpu_cache=sheaves", "cpu_cache=slabs",
		  "census line 1: cpu_cache=slabs: only a slub census has one, and it is sheaves" },
		{ "census-slab.txt", "allocator=slab", "allocator=slab cpu_cache=sheaves",
		  "census line 1: cpu_cache=sheaves: only a slub census has one, and it is sheaves" },
		{ "census-slub.txt", "free_cpu=40", "free_cpu=40 free_barn=0",
		  "census line 2: free_barn= does not belong on a slub census's cache record" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *base = data_file(cases[i].file), *text = edit(base, cases[i].old, cases[i].new);
		char *err = NULL;
		cJSON *c = census_parse(text, &err);

		CHECK(!c && err, "refused: %s", cases[i].want);
		CHECK_STR(err, cases[i].want, "and said so in one line");
		cJSON_Delete(c);
		free(err);
		free(text);
		free(base);
	}
}

static cJSON *checks_of(const char *text, const char *slabinfo)
{
	char *err = NULL;
	cJSON *c = census_parse(text, &err), *k;

	if (!c) {
		printf("#   %s\n", err);
		free(err);
		return cJSON_CreateObject();
	}
	k = census_checks(c, NULL, slabinfo, NULL);
	cJSON_Delete(c);
	return k;
}

static const char *first_failure(const cJSON *k)
{
	const cJSON *f = cJSON_GetArrayItem(json_at(k, "failures"), 0);

	return cJSON_IsString(f) ? f->valuestring : "(none)";
}

static void test_checks(void)
{
	char *text = data_file("census-slub-sheaves.txt");
	char *info = data_file("census-slub-sheaves.slabinfo"), *t;
	cJSON *k = checks_of(text, info);
	const char *const names[] = { "objects", "pages", "sums", "lists", "node", "counter",
				      "identities", "slabinfo" };
	bool exact = cJSON_GetArraySize(json_at(k, "failures")) == 0;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		exact &= !strcmp(json_str_at(k, names[i]), "exact");
	CHECK(exact, "sheaves sample and its slabinfo: every check exact");
	cJSON_Delete(k);

	/* Objects in sheaves are free: one fewer in a barn leaves a residual. */
	t = edit(text, "free_barn=60 node_partial_slabs=1", "free_barn=59 node_partial_slabs=1");
	k = checks_of(t, info);
	CHECK_STR(json_str_at(k, "objects"), "off", "one object fewer in a barn: objects off");
	CHECK_STR(first_failure(k), "objects: kmalloc-64: objects=768, but live and free_* add up to 767 (residual +1)",
		  "named, with the residual");
	cJSON_Delete(k);
	free(t);
	t = edit(text, "free_sheaf_rcu=3 free_barn=0 node", "free_sheaf_rcu=4 free_barn=0 node");
	k = checks_of(t, info);
	CHECK_STR(json_str_at(k, "objects"), "off", "an rcu_free sheaf's objects count too");
	cJSON_Delete(k);
	free(t);

	/* slabinfo counts the sheaves' objects as active, as CPU slabs' before. */
	t = edit(info, "   23     40    200", "   35     40    200");
	k = checks_of(text, t);
	CHECK_STR(json_str_at(k, "slabinfo"), "off",
		  "slabinfo's active objects without the sheaves' free ones: off");
	cJSON_Delete(k);
	free(t);
	free(text);
	free(info);
}

/* The sheaves' memory: allocator's structures, out of kmalloc's live bytes. */
static void test_figures(void)
{
	char *text = data_file("census-slub-sheaves.txt"), *err = NULL;
	cJSON *c = census_parse(text, &err);
	struct slabmem m;
	double sum = 0;

	CHECK(c && slabmem_of(c, &m) == 0, "figures: a sheaves census has them");
	CHECK_NEAR(m.part[SM_FREE_SHEAF_MAIN], 50 * 64 + 4 * 512 + 12 * 200, 0,
		   "figures: free in main sheaves, by size");
	CHECK_NEAR(m.part[SM_FREE_SHEAF_RCU], 3 * 200, 0, "figures: rcu_free sheaves");
	CHECK_NEAR(m.part[SM_FREE_BARN], 60 * 64, 0, "figures: the barns' sheaves");
	CHECK_NEAR(m.part[SM_FREE_CPU] + m.part[SM_FREE_CPU_PARTIAL], 0, 0,
		   "figures: no CPU slabs, so 0");
	CHECK_NEAR(m.part[SM_STRUCTS], 1024 + 448, 0, "figures: kmem_cache, nodes and barns");
	CHECK_NEAR(m.part[SM_SHEAF_STRUCTS], 4608, 0, "figures: the sheaves, a location apart");
	CHECK_NEAR(m.part[SM_LIVE], 53760 - (1024 + 448 + 4608), 0,
		   "figures: the sheaves are no caller's live bytes");
	for (int p = 0; p < SM_NR_PARTS; p++)
		sum += p == SM_PERCPU ? 0 : m.part[p];
	CHECK_NEAR(sum, 19 * 4096, 0, "figures: the parts add up to the slab pages, once each");
	cJSON_Delete(c);
	free(text);
}

int main(void)
{
	test_parse();
	test_refused();
	test_checks();
	test_figures();
	return check_done();
}
