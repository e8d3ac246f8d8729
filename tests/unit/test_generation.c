// SPDX-License-Identifier: GPL-2.0
/* Unit tests of an allocator's generation: the rule, and what the report says of it. */
#define _GNU_SOURCE
#include "check.h"
#include "census_fixture.h"
#include "generation.h"
#include "report_check.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* A fixture's run and its kernel. */
struct run {
	struct fixture f;
	struct fixture_kernel k;
};

/* The generation of a fixture's run; @census false drops its boots (no census). */
static void gen_of(struct run r, bool census, struct generation *g)
{
	cJSON *doc = fixture_doc_kernel(&r.f, &r.k);
	const cJSON *const docs[] = { doc };
	struct run_id *id;

	if (!census)
		cJSON_DeleteItemFromObject(doc, "boots");
	id = run_ids(NULL, docs, 1);
	generation_of(id, doc, g);
	/* The release is the run's string: keep a copy past the document. */
	g->release = strcmp(g->release, "?") ? r.k.release : "?";
	run_ids_free(id, 1);
	cJSON_Delete(doc);
}

static void test_rule(void)
{
	struct run slab = { { "slab", "SLAB", 2, 1, 1, NULL, 0, false }, { "6.1.192", false } };
	struct run slub = { { "slub", "SLUB", 2, 1, 1, NULL, 0, false }, { "6.1.192", false } };
	struct run s612 = { { "slub-6.12", "SLUB", 2, 1, 1, NULL, 0, false }, { "6.12.57", false } };
	struct run s73 = { { "slub-7.3", "SLUB", 2, 1, 1, NULL, 0, false }, { "7.3.1", true } };
	struct run slob = { { "slob", "SLOB", 2, 1, 1, NULL, 0, false }, { "6.1.192", false } };
	struct generation g, h;
	char *text;

	gen_of(slab, true, &g);
	CHECK(g.design == PCPU_ARRAYS && !strcmp(g.by, "allocator") && g.major == 6 &&
	      g.minor == 1, "generation: SLAB has per-CPU arrays, release 6.1");
	gen_of(slob, true, &g);
	CHECK(g.design == PCPU_NONE, "generation: SLOB has no per-CPU cache");
	gen_of(slub, true, &g);
	CHECK(g.design == PCPU_CPU_SLABS && !strcmp(g.by, "census"),
	      "generation: a SLUB census without sheaves says CPU slabs");
	gen_of(s73, true, &g);
	CHECK(g.design == PCPU_SHEAVES && !strcmp(g.by, "census") && g.major == 7 && g.minor == 3,
	      "generation: a census with cpu_cache=sheaves says sheaves");
	/* The census over the release: a 6.x kernel whose census says sheaves has them. */
	s73.k.release = "6.18.2";
	gen_of(s73, true, &g);
	CHECK(g.design == PCPU_SHEAVES, "generation: the census decides before the release");
	s73.k.release = "7.0.0";
	gen_of(s73, false, &g);
	CHECK(g.design == PCPU_SHEAVES && !strcmp(g.by, "release"),
	      "generation: without a census, SLUB of 7.0 has sheaves");
	gen_of(s612, false, &g);
	CHECK(g.design == PCPU_CPU_SLABS && !strcmp(g.by, "release"),
	      "generation: without a census, SLUB of 6.12 has CPU slabs");
	s612.k.release = NULL;
	gen_of(s612, false, &g);
	CHECK(g.design == PCPU_UNKNOWN && g.major == -1 && !strcmp(g.by, "?"),
	      "generation: no census and no release tell nothing");

	gen_of(slab, true, &g);
	gen_of(slub, true, &h);
	CHECK(!generation_differ(&g, &h, "SLAB", "SLUB"),
	      "generation: SLAB against SLUB of one release is the allocator change, not another "
	      "generation");
	slub.k.release = "6.1.158";
	gen_of(slub, true, &g);
	CHECK(!generation_differ(&g, &h, "SLUB", "SLUB"),
	      "generation: a stable update is the same generation");
	s612.k.release = "6.12.57";
	gen_of(s612, true, &g);
	CHECK(generation_differ(&h, &g, "SLUB", "SLUB"),
	      "generation: SLUB of 6.1 against 6.12 differ, the design alike");
	s73.k.release = "7.3.1";
	gen_of(s73, true, &g);
	gen_of(slab, true, &h);
	CHECK(generation_differ(&h, &g, "SLAB", "SLUB"),
	      "generation: SLAB of 6.1 against SLUB of 7.3 differ");
	s73.k.release = "6.1.192";
	gen_of(s73, true, &g);
	gen_of(slub, true, &h);
	CHECK(generation_differ(&h, &g, "SLUB", "SLUB"),
	      "generation: one release, SLUB with and without sheaves differ in design");
	slab.k.release = NULL;
	gen_of(slab, true, &h);
	CHECK(!generation_differ(&h, &g, "SLAB", "SLUB"),
	      "generation: an unknown release claims no difference");
	text = generation_text(&(struct generation){ .release = "7.3.1", .design = PCPU_SHEAVES });
	CHECK_STR(text, "7.3.1, sheaves", "generation: its text names the release and the design");
	free(text);
}

/* The report of two fixtures' runs. */
static char *report_pair(struct run a, struct run b)
{
	cJSON *docs[2] = { fixture_doc_kernel(&a.f, &a.k), fixture_doc_kernel(&b.f, &b.k) };
	char *text = report_of(docs);

	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
	return text;
}

static void test_report(void)
{
	struct run slab = { { "slab", "SLAB", 2, 1, 5, NULL, 0, false }, { "6.1.192", false } };
	struct run slub = { { "slub", "SLUB", 2, 1, 5, NULL, 0, false }, { "6.1.192", false } };
	struct run s73 = { { "slub-7.3", "SLUB", 2, 1, 5, NULL, 0, false }, { "7.3.1", true } };
	char *text = report_pair(slab, s73);

	CHECK(text && says(text, "slabbench compared slub-7.3 (SLUB 7.3.1, sheaves) against slab "
			   "(SLAB 6.1.192, per-CPU arrays)"),
	      "report: the summary names each side's release and per-CPU design");
	CHECK(text && says(text, "The comparison is across generations (SLUB 7.3.1 with sheaves "
			   "against SLAB 6.1.192 with per-CPU arrays), not an allocator change "
			   "alone"),
	      "report: the summary says the comparison is across generations");
	CHECK(text && says(text, "new SLUB 7.3.1 (sheaves, as its census says), variant slub-7.3") &&
	      says(text, "base SLAB 6.1.192 (per-CPU arrays), variant slab") &&
	      says(text, "generation WARNING: The comparison is across generations"),
	      "report: Kernels gives each generation, how it is known, and the warning");
	free(text);
	text = report_pair(slab, slub);
	CHECK(text && says(text, "slub (SLUB 6.1.192, CPU slabs and per-CPU partial slabs) against "
			   "slab (SLAB 6.1.192, per-CPU arrays)") &&
	      !strstr(text, "across generations"),
	      "report: SLAB against SLUB of one kernel is not across generations");
	free(text);
	slub.k.release = "6.12.57";
	text = report_pair(s73, slub);
	CHECK(text && says(text, "across generations (SLUB 6.12.57 with CPU slabs and per-CPU "
			   "partial slabs against SLUB 7.3.1 with sheaves)"),
	      "report: SLUB against SLUB of another release is across generations");
	free(text);
}

int main(void)
{
	test_rule();
	test_report();
	return check_done();
}
