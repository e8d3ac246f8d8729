// SPDX-License-Identifier: GPL-2.0
/* The cost model's file and its join to the module's samples (cost.h). */
#define _GNU_SOURCE
#include "cost.h"
#include "util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COST_HEADER "# slabbench-cost "

const struct cost_counter_name cost_counters[COST_NR] = {
	[COST_INSNS] = { "insns", "instructions", "insns/op" },
	[COST_LOADS] = { "loads", "loads", "accesses/op" },
	[COST_STORES] = { "stores", "stores", "accesses/op" },
	[COST_LOCKED] = { "locked", "locked", "insns/op" },
	[COST_IRQFLAG] = { "irqflag", "irqflag", "insns/op" },
	[COST_L1D] = { "l1d_miss", "l1d_misses", "misses/op" },
	[COST_L2] = { "l2_miss", "l2_misses", "misses/op" },
	[COST_LLC] = { "llc_miss", "llc_misses", "misses/op" },
};

int cost_unit(const char *unit)
{
	for (int k = 0; k < COST_NR; k++)
		if (!strcmp(unit, cost_counters[k].unit))
			return 1;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct cost_window *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* "window ID vcpu N insns I ...": the id and counts, else -1. */
static int parse_line(const char *line, struct cost_window *w)
{
	const char *p = line;
	unsigned long vcpu;
	int used;

	/* %lu and %llu take "-1" for ULONG_MAX. */
	if (strchr(p, '-') || sscanf(p, "window %lu vcpu %lu%n", &w->id, &vcpu, &used) != 2)
		return -1;
	p += used;
	for (int k = 0; k < COST_NR; k++) {
		char key[16];

		if (sscanf(p, " %15s %llu%n", key, &w->c[k], &used) != 2 ||
		    strcmp(key, cost_counters[k].key))
			return -1;
		p += used;
	}
	if (sscanf(p, " intr %llu%n", &w->intr, &used) != 1)
		return -1;
	return p[used] ? -1 : 0;
}

int cost_parse(const char *path, const char *text, struct cost_file *cf)
{
	const char *line = text, *end;
	size_t cap = 0, nr = 0;
	int used;

	*cf = (struct cost_file){ 0 };
	if (strncmp(text, COST_HEADER, strlen(COST_HEADER)) ||
	    sscanf(text + strlen(COST_HEADER), "%d %n", &cf->version, &used) != 1)
		return error("%s:1: not a cost-model file (no '" COST_HEADER "VERSION' line)", path);
	if (cf->version != 2)
		return error("%s:1: cost-model file version %d, this slabbench reads 2", path,
			     cf->version);
	end = strchr(text, '\n');
	cf->geometry = xasprintf("%.*s", (int)((end ? end : text + strlen(text)) -
						(text + strlen(COST_HEADER) + used)),
				 text + strlen(COST_HEADER) + used);
	line = end ? end + 1 : text + strlen(text);
	for (size_t no = 2; *line; no++) {
		struct cost_window w;
		char *one;

		end = strchr(line, '\n');
		one = xasprintf("%.*s", (int)(end ? (size_t)(end - line) : strlen(line)), line);
		if (parse_line(one, &w)) {
			error("%s:%zu: not 'window ID vcpu N insns I loads L stores S locked K "
			      "irqflag Q l1d_miss A l2_miss B llc_miss C intr D': %.60s", path, no,
			      one);
			free(one);
			cost_free(cf);
			return -1;
		}
		free(one);
		if (nr == cap) {
			cap = cap ? 2 * cap : 256;
			cf->w = xrealloc(cf->w, cap * sizeof(*cf->w));
		}
		cf->w[nr++] = w;
		cf->lines++;
		line = end ? end + 1 : line + strlen(line);
	}
	/* One window id per sample, its batches and vCPUs summed. */
	if (nr)
		qsort(cf->w, nr, sizeof(*cf->w), by_id);
	for (size_t i = 0; i < nr; i++) {
		if (cf->n && cf->w[cf->n - 1].id == cf->w[i].id) {
			for (int k = 0; k < COST_NR; k++)
				cf->w[cf->n - 1].c[k] += cf->w[i].c[k];
			cf->w[cf->n - 1].intr += cf->w[i].intr;
			continue;
		}
		cf->w[cf->n++] = cf->w[i];
	}
	return 0;
}

void cost_free(struct cost_file *cf)
{
	free(cf->geometry);
	free(cf->w);
	*cf = (struct cost_file){ 0 };
}

const struct cost_window *cost_find(const struct cost_file *cf, unsigned long id)
{
	struct cost_window key = { .id = id };

	return cf->n ? bsearch(&key, cf->w, cf->n, sizeof(*cf->w), by_id) : NULL;
}

char *cost_metric_name(const char *name, enum cost_counter k)
{
	const char *ns = strstr(name, "ns_per_"), *stem = cost_counters[k].metric;

	if (ns && (ns == name || ns[-1] == '_'))
		return xasprintf("%.*s%s%s", (int)(ns - name), name, stem, ns + 2);
	return xasprintf("%s_of_%s", stem, name);
}

static bool whole(const cJSON *n)
{
	return cJSON_IsNumber(n) && n->valuedouble >= 0 && n->valuedouble < 9007199254740992.0 &&
	       (double)(unsigned long long)n->valuedouble == n->valuedouble;
}

/*
 * Why a window is not a sample of its metric, by bit: 1, a context switch
 * entered it (the plugin counted whatever ran while the benchmark's task
 * was switched out); 2, one entered the twin loop's window, whose counts
 * the sample is net of; 4, a batch of the window ended with another task
 * runnable, so schedule() may have run in the benchmark's task and picked
 * it again, which no switch count shows (module: struct sb_timer; a twin
 * loop has no point where it could). A switch is the reason given where
 * there was one.
 */
enum { REJ_SWITCHED = 1, REJ_LOOP_SWITCHED = 2, REJ_CROWDED = 4 };
static const char *const rejected_why[] = {
	[REJ_SWITCHED] = "a context switch entered the window",
	[REJ_LOOP_SWITCHED] = "a context switch entered the twin loop's window",
	[REJ_SWITCHED | REJ_LOOP_SWITCHED] =
		"a context switch entered the window and the twin loop's",
	[REJ_CROWDED] = "another task was runnable in the window: the scheduler may have "
			"run in the benchmark's task",
};

/* The counts of @w and the deliveries it left out, for a raw record. */
static void add_counts(cJSON *o, const struct cost_window *w)
{
	cJSON_AddNumberToObject(o, "intr", w->intr);
	for (int k = 0; k < COST_NR; k++)
		cJSON_AddNumberToObject(o, cost_counters[k].key, w->c[k]);
}

/* The metric the model derives from a timed metric, its samples' arrays. */
struct derived {
	cJSON *d[COST_NR], *samples[COST_NR], *gross[COST_NR], *loops[COST_NR];
	struct cost_rejected rej;
};

static void derived_add(struct derived *dv, cJSON *added, const cJSON *m, bool loop)
{
	const cJSON *labels = cJSON_GetObjectItemCaseSensitive(m, "labels");

	for (int k = 0; k < COST_NR; k++) {
		char *name = cost_metric_name(m->string, k);
		cJSON *d = cJSON_AddObjectToObject(added, name);

		free(name);
		cJSON_AddStringToObject(d, "unit", cost_counters[k].unit);
		cJSON_AddStringToObject(d, "better", "lower");
		if (labels)
			cJSON_AddItemToObject(d, "labels", cJSON_Duplicate(labels, 1));
		dv->d[k] = d;
		dv->samples[k] = cJSON_AddArrayToObject(d, "samples");
		dv->gross[k] = loop ? cJSON_AddArrayToObject(d, "gross") : NULL;
		dv->loops[k] = loop ? cJSON_AddArrayToObject(d, "loop") : NULL;
	}
}

/* Window @w's sample, net of the twin loop's @loop over @ops operations. */
static void derived_sample(struct derived *dv, const struct cost_window *w,
			   const struct cost_window *loop, double ops)
{
	for (int k = 0; k < COST_NR; k++) {
		double net = loop ? (double)w->c[k] - (double)loop->c[k] : w->c[k];

		cJSON_AddItemToArray(dv->samples[k], cJSON_CreateNumber(net / ops));
		if (!loop)
			continue;
		cJSON_AddItemToArray(dv->gross[k], cJSON_CreateNumber(w->c[k] / ops));
		cJSON_AddItemToArray(dv->loops[k], cJSON_CreateNumber(loop->c[k] / ops));
	}
}

static void set_rejected(cJSON *d, const struct cost_rejected *r)
{
	cJSON *o = cJSON_AddObjectToObject(d, "rejected");

	cJSON_AddNumberToObject(o, "windows", r->windows);
	cJSON_AddNumberToObject(o, "switched", r->switched);
	cJSON_AddNumberToObject(o, "loop_switched", r->loop_switched);
	cJSON_AddNumberToObject(o, "crowded", r->crowded);
}

/* Whether @a is absent, or an array of @n whole numbers; *@v its first. */
static bool optional_counts(const cJSON *a, int n, const cJSON **v)
{
	const cJSON *x;

	*v = NULL;
	if (!a)
		return true;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
		return false;
	cJSON_ArrayForEach(x, a)
		if (!whole(x))
			return false;
	*v = a->child;
	return true;
}

/*
 * The model's metrics of the timed metric @m into @added, its windows'
 * raw records into @raw: 0, or -1 with *why set.
 */
static int join_metric(const cJSON *m, const struct cost_file *cf, const char *path,
		       cJSON *added, cJSON *raw, char **why)
{
	const cJSON *ids = cJSON_GetObjectItemCaseSensitive(m, "windows");
	const cJSON *ops = cJSON_GetObjectItemCaseSensitive(m, "ops_per_window");
	const cJSON *switches = cJSON_GetObjectItemCaseSensitive(m, "switches");
	const cJSON *loop_id = cJSON_GetObjectItemCaseSensitive(m, "loop_window");
	const cJSON *loop_sw = cJSON_GetObjectItemCaseSensitive(m, "loop_switches");
	const cJSON *id, *sw, *cr;
	const struct cost_window *loop = NULL;
	struct derived dv = { 0 };
	bool loop_switched;

	if (loop_id && !(whole(loop_id) && whole(loop_sw))) {
		*why = xasprintf("metric %s: the loop window or its switches is not a whole number",
				 m->string);
		return -1;
	}
	loop_switched = loop_id && loop_sw->valuedouble > 0;
	if (loop_id && !(loop = cost_find(cf, loop_id->valuedouble)) && !loop_switched) {
		*why = xasprintf("metric %s: loop window %.0f is not in the cost model's %s",
				 m->string, loop_id->valuedouble, path);
		return -1;
	}
	if (!cJSON_IsArray(ids) || !whole(ops) || ops->valuedouble < 1 ||
	    cJSON_GetArraySize(ids) !=
		    cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "samples")) ||
	    !cJSON_IsArray(switches) || cJSON_GetArraySize(switches) != cJSON_GetArraySize(ids) ||
	    !optional_counts(cJSON_GetObjectItemCaseSensitive(m, "crowded"),
			     cJSON_GetArraySize(ids), &cr)) {
		*why = xasprintf("metric %s: malformed windows, switches, crowded or "
				 "ops_per_window", m->string);
		return -1;
	}
	derived_add(&dv, added, m, loop_id);
	sw = switches->child;
	cJSON_ArrayForEach(id, ids) {
		const struct cost_window *w = whole(id) ? cost_find(cf, id->valuedouble) : NULL;
		int reject = (whole(sw) && sw->valuedouble > 0) | loop_switched << 1;
		cJSON *r;

		if (!reject && cr && cr->valuedouble > 0)
			reject = REJ_CROWDED;

		if (!whole(id) || !whole(sw) || (!w && !reject)) {
			*why = !whole(id) || !whole(sw) ?
				xasprintf("metric %s: a window id or its switches is not a whole "
					  "number", m->string) :
				xasprintf("metric %s: window %.0f is not in the cost model's %s",
					  m->string, id->valuedouble, path);
			return -1;
		}
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "metric", m->string);
		cJSON_AddNumberToObject(r, "window", id->valuedouble);
		cJSON_AddNumberToObject(r, "ops", ops->valuedouble);
		/* A rejected window may have closed in another's handler: no line. */
		if (w)
			add_counts(r, w);
		if (reject) {
			cJSON_AddNumberToObject(r, "switches", sw->valuedouble);
			if (cr)
				cJSON_AddNumberToObject(r, "crowded", cr->valuedouble);
			cJSON_AddStringToObject(r, "rejected", rejected_why[reject]);
			dv.rej.windows++;
			dv.rej.switched += !!(reject & REJ_SWITCHED);
			dv.rej.loop_switched += !!(reject & REJ_LOOP_SWITCHED);
			dv.rej.crowded += reject == REJ_CROWDED;
		} else {
			derived_sample(&dv, w, loop, ops->valuedouble);
		}
		if (loop_id) {
			cJSON *l = cJSON_AddObjectToObject(r, "loop");

			cJSON_AddNumberToObject(l, "window", loop_id->valuedouble);
			if (loop)
				add_counts(l, loop);
			if (reject)
				cJSON_AddNumberToObject(l, "switches", loop_sw->valuedouble);
		}
		cJSON_AddItemToArray(raw, r);
		sw = sw->next;
		cr = cr ? cr->next : NULL;
	}
	for (int k = 0; dv.rej.windows && k < COST_NR; k++)
		set_rejected(dv.d[k], &dv.rej);
	return 0;
}

int cost_join(cJSON *res, const struct cost_file *cf, const char *path, char **why)
{
	cJSON *metrics = cJSON_GetObjectItemCaseSensitive(res, "metrics");
	cJSON *added = cJSON_CreateObject(), *raw = cJSON_CreateArray(), *m, *item;

	cJSON_ArrayForEach(m, metrics) {
		if (cJSON_GetObjectItemCaseSensitive(m, "windows") &&
		    join_metric(m, cf, path, added, raw, why)) {
			cJSON_Delete(added);
			cJSON_Delete(raw);
			return -1;
		}
	}
	while ((item = added->child)) {
		cJSON_DetachItemViaPointer(added, item);
		cJSON_AddItemToObject(metrics, item->string, item);
	}
	cJSON_Delete(added);
	if (cJSON_GetArraySize(raw))
		cJSON_AddItemToObject(res, "cost_windows", raw);
	else
		cJSON_Delete(raw);
	return 0;
}

bool cost_rejected(const cJSON *m, struct cost_rejected *r)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(m, "rejected");
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "windows");
	const cJSON *sw = cJSON_GetObjectItemCaseSensitive(o, "switched");
	const cJSON *lsw = cJSON_GetObjectItemCaseSensitive(o, "loop_switched");
	const cJSON *cr = cJSON_GetObjectItemCaseSensitive(o, "crowded");
	struct cost_rejected none;

	r = r ? r : &none;
	*r = (struct cost_rejected){ 0 };
	if (!whole(n) || n->valuedouble < 1 || !whole(sw) || !whole(lsw) || (cr && !whole(cr)))
		return false;
	*r = (struct cost_rejected){ n->valuedouble, sw->valuedouble, lsw->valuedouble,
				     cr ? cr->valuedouble : 0 };
	return true;
}

void cost_rejected_merge(cJSON *to, const cJSON *from)
{
	struct cost_rejected a, b;

	if (!cost_rejected(from, &b))
		return;
	cost_rejected(to, &a);
	a.windows += b.windows;
	a.switched += b.switched;
	a.loop_switched += b.loop_switched;
	a.crowded += b.crowded;
	cJSON_DeleteItemFromObject(to, "rejected");
	set_rejected(to, &a);
}

char *cost_rejected_count(int n)
{
	return xasprintf("%d window%s rejected", n, n == 1 ? "" : "s");
}

char *cost_rejected_words(const cJSON *m)
{
	int kept = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "samples"));
	struct cost_rejected r;
	char *of, *s;

	if (!cost_rejected(m, &r))
		return NULL;
	if (kept)
		of = xasprintf("%d of %d windows", r.windows, r.windows + kept);
	else
		of = r.windows == 1 ? xstrdup("the only window") :
				      xasprintf("all %d windows", r.windows);
	if (!r.crowded)
		s = xasprintf("%s rejected: a context switch entered %s (%d the sample's window, "
			      "%d its twin loop's)", of, r.windows == 1 ? "it" : "them",
			      r.switched, r.loop_switched);
	else if (r.crowded == r.windows)
		s = xasprintf("%s rejected: another task was runnable in %s, so the scheduler "
			      "may have run in the benchmark's task", of,
			      r.windows == 1 ? "it" : "them");
	else
		s = xasprintf("%s rejected: a context switch entered %d (%d the sample's window, "
			      "%d its twin loop's), another task was runnable in %d", of,
			      r.windows - r.crowded, r.switched, r.loop_switched, r.crowded);
	free(of);
	return s;
}

void cost_set_absent(cJSON *t)
{
	cJSON *metrics = cJSON_GetObjectItemCaseSensitive(t, "metrics"), *m, *next, *absent;

	for (m = metrics ? metrics->child : NULL; m; m = next) {
		next = m->next;
		if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "samples")) ||
		    !cost_rejected(m, NULL))
			continue;
		absent = cJSON_GetObjectItemCaseSensitive(t, "absent_metrics");
		if (!absent)
			absent = cJSON_AddObjectToObject(t, "absent_metrics");
		cJSON_DetachItemViaPointer(metrics, m);
		cJSON_AddItemToObject(absent, m->string, m);
	}
}
