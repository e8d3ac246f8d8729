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

int cost_join(cJSON *res, const struct cost_file *cf, const char *path, char **why)
{
	cJSON *metrics = cJSON_GetObjectItemCaseSensitive(res, "metrics");
	cJSON *added = cJSON_CreateObject(), *raw = cJSON_CreateArray(), *m, *item;

	cJSON_ArrayForEach(m, metrics) {
		const cJSON *ids = cJSON_GetObjectItemCaseSensitive(m, "windows");
		const cJSON *ops = cJSON_GetObjectItemCaseSensitive(m, "ops_per_window");
		const cJSON *labels = cJSON_GetObjectItemCaseSensitive(m, "labels");
		const cJSON *loop_id = cJSON_GetObjectItemCaseSensitive(m, "loop_window");
		const struct cost_window *loop = NULL;
		cJSON *samples[COST_NR], *gross[COST_NR], *loops[COST_NR], *id;

		if (!ids)
			continue;
		if (loop_id && !(whole(loop_id) && (loop = cost_find(cf, loop_id->valuedouble)))) {
			*why = whole(loop_id) ? xasprintf("metric %s: loop window %.0f is not in the "
							  "cost model's %s", m->string,
							  loop_id->valuedouble, path) :
						xasprintf("metric %s: the loop window is not a whole "
							  "number", m->string);
			goto fail;
		}
		if (!cJSON_IsArray(ids) || !whole(ops) || ops->valuedouble < 1 ||
		    cJSON_GetArraySize(ids) !=
			    cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(m, "samples"))) {
			*why = xasprintf("metric %s: malformed windows or ops_per_window", m->string);
			goto fail;
		}
		for (int k = 0; k < COST_NR; k++) {
			char *name = cost_metric_name(m->string, k);
			cJSON *d = cJSON_AddObjectToObject(added, name);

			free(name);
			cJSON_AddStringToObject(d, "unit", cost_counters[k].unit);
			cJSON_AddStringToObject(d, "better", "lower");
			if (labels)
				cJSON_AddItemToObject(d, "labels", cJSON_Duplicate(labels, 1));
			samples[k] = cJSON_AddArrayToObject(d, "samples");
			gross[k] = loop ? cJSON_AddArrayToObject(d, "gross") : NULL;
			loops[k] = loop ? cJSON_AddArrayToObject(d, "loop") : NULL;
		}
		cJSON_ArrayForEach(id, ids) {
			const struct cost_window *w = whole(id) ? cost_find(cf, id->valuedouble) : NULL;
			cJSON *r;

			if (!w) {
				*why = whole(id) ? xasprintf("metric %s: window %.0f is not in the cost "
							     "model's %s", m->string, id->valuedouble,
							     path) :
						   xasprintf("metric %s: a window id is not a whole "
							     "number", m->string);
				goto fail;
			}
			r = cJSON_CreateObject();
			cJSON_AddStringToObject(r, "metric", m->string);
			cJSON_AddNumberToObject(r, "window", w->id);
			cJSON_AddNumberToObject(r, "ops", ops->valuedouble);
			cJSON_AddNumberToObject(r, "intr", w->intr);
			for (int k = 0; k < COST_NR; k++) {
				/* Net of the twin loop's count over as many operations. */
				double net = loop ? (double)w->c[k] - (double)loop->c[k] : w->c[k];

				cJSON_AddItemToArray(samples[k],
						     cJSON_CreateNumber(net / ops->valuedouble));
				cJSON_AddNumberToObject(r, cost_counters[k].key, w->c[k]);
				if (!loop)
					continue;
				cJSON_AddItemToArray(gross[k],
						     cJSON_CreateNumber(w->c[k] / ops->valuedouble));
				cJSON_AddItemToArray(loops[k],
						     cJSON_CreateNumber(loop->c[k] / ops->valuedouble));
			}
			if (loop) {
				cJSON *l = cJSON_AddObjectToObject(r, "loop");

				cJSON_AddNumberToObject(l, "window", loop->id);
				cJSON_AddNumberToObject(l, "intr", loop->intr);
				for (int k = 0; k < COST_NR; k++)
					cJSON_AddNumberToObject(l, cost_counters[k].key, loop->c[k]);
			}
			cJSON_AddItemToArray(raw, r);
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
fail:
	cJSON_Delete(added);
	cJSON_Delete(raw);
	return -1;
}
