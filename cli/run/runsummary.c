// SPDX-License-Identifier: GPL-2.0
/* run's closing summary (see runsummary.h). */
#define _GNU_SOURCE
#include "runsummary.h"
#include "cost.h"
#include "kind.h"
#include "numfmt.h"
#include "schema.h"
#include "stats.h"
#include "strbuf.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The test column: a spec wider than this goes on over lines of its own. */
#define SPEC_WIDTH 44

/* How the run's clock and counts came to be, after "VARIANT, N boots, ". */
static const char *clock_words(const struct run_id *id)
{
	if (!strcmp(id->accel, "cost"))
		return "cost model (TCG plugin): instructions are exact counts, times emulated";
	if (id->emulated)
		return "TCG: times are emulated, the host's speed, not hardware";
	return "KVM: times are the host CPU's";
}

/*
 * The figure a test is summed up by: its first metric, or under the cost
 * model the exact instruction count beside it (the first metric is then
 * the guest's virtual clock).
 */
static const cJSON *headline(const cJSON *test, bool cost)
{
	const cJSON *m = cJSON_GetArrayItem(test_metrics(test), 0), *insns;
	char *name;

	if (!m || !cost)
		return m;
	name = cost_metric_name(m->string, COST_INSNS);
	insns = test_metric(test, name);
	free(name);
	return insns ? insns : m;
}

static const char *kind_label(const cJSON *m, bool emulated)
{
	enum metric_kind k;

	if (metric_kind(metric_unit(m), &k))
		return "?";
	if (emulated && (k == KIND_TIME || k == KIND_CYCLES))
		return "emulated";
	return metric_kind_name(k);
}

/* @v as the kind of @kind deserves: every digit of a count, 4 of a time. */
static void figure(char *out, size_t size, double v, const char *kind)
{
	bool exact = !strcmp(kind, "exact") || !strcmp(kind, "model");

	fmt_sig(out, size, v, exact ? 9 : 4, false, "");
}

/*
 * Under the cost model, a test whose instruction count has no sample
 * says why, where its time stands in: never a count left out in silence.
 * A count some of whose windows were rejected says how many it rests on.
 */
static void count_note(struct strbuf *b, const cJSON *test)
{
	const cJSON *m = cJSON_GetArrayItem(test_metrics(test), 0);
	char *name = m ? cost_metric_name(m->string, COST_INSNS) : NULL, *why, *line = NULL;
	const cJSON *absent = name ? test_absent_metric(test, name) : NULL;
	const cJSON *kept = name ? test_metric(test, name) : NULL;

	if (kept && (why = cost_rejected_words(kept))) {
		line = xasprintf("%s: counted in the windows kept alone, %s", name, why);
		free(why);
	} else if (absent && !kept) {
		why = cost_rejected_words(absent);
		line = xasprintf("%s: no count, %s", name, why ? why : "no window was kept");
		free(why);
	}
	if (line)
		sb_wrap(b, 4, 6, 78, line);
	free(line);
	free(name);
}

char *run_summary(const cJSON *doc)
{
	struct run_id *id = run_ids(NULL, &doc, 1);
	bool cost = !strcmp(id->accel, "cost");
	int nt = run_nr_tests(doc), width = (int)strlen("metric (unit)");
	char **names = xcalloc(nt ? nt : 1, sizeof(*names));
	struct strbuf b = { 0 };

	for (int t = 0; t < nt; t++) {
		const cJSON *m = headline(run_test(doc, t), cost);

		if (!m)
			continue;
		names[t] = xasprintf("%s (%s)", m->string, metric_unit(m));
		if ((int)strlen(names[t]) > width)
			width = (int)strlen(names[t]);
	}
	sb_addf(&b, "%s, %d boot%s, %s:\n", id->variant, run_nr_boots(doc),
		run_nr_boots(doc) == 1 ? "" : "s", clock_words(id));
	sb_addf(&b, "  %-*s  %-*s  %10s  %9s  %5s  %s\n", SPEC_WIDTH, "test", width,
		"metric (unit)", "median", "IQR", "boots", "kind");
	for (int t = 0; t < nt; t++) {
		const cJSON *test = run_test(doc, t), *m = headline(test, cost);
		const char *spec = test_spec(test), *kind;
		char med[32], iqr[32] = "-", *first;
		struct strbuf w = { 0 };
		struct summary s;
		double *x, within;
		size_t n;

		if (!m)
			continue;
		kind = kind_label(m, id->emulated);
		n = metric_boot_medians(m, &x, &within);
		summarize(x, n, &s);
		free(x);
		figure(med, sizeof(med), s.median, kind);
		if (n > 1)
			figure(iqr, sizeof(iqr), s.q3 - s.q1, kind);
		if (spec && !strncmp(spec, "test=", 5))
			spec += 5;
		sb_wrap(&w, 0, 4, SPEC_WIDTH, spec && *spec ? spec : test_name(test));
		first = w.s + strcspn(w.s, "\n");
		sb_addf(&b, "  %-*.*s  %-*s  %10s  %9s  %5zu  %s\n", SPEC_WIDTH, (int)(first - w.s),
			w.s, width, names[t], med, iqr, n, kind);
		/* The rest of the spec, each line indented under its start. */
		for (const char *l = first + 1; *l; l += strcspn(l, "\n") + 1)
			sb_addf(&b, "  %.*s\n", (int)strcspn(l, "\n"), l);
		free(w.s);
		if (cost)
			count_note(&b, test);
	}
	for (int t = 0; t < nt; t++)
		free(names[t]);
	free(names);
	run_ids_free(id, 1);
	return b.s;
}
