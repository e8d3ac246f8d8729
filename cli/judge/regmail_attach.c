// SPDX-License-Identifier: GPL-2.0
/*
 * What the mail attaches: the full report, the full comparison, the
 * configs' difference, each config as recorded, a reproducer that runs
 * both sides as they ran, and both results files, compressed.
 */
#define _GNU_SOURCE
#include "regmail_parts.h"
#include "guestopts.h"
#include "json.h"
#include "mail.h"
#include "strbuf.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const attached_gz[2] = { "results-base.json.gz", "results-new.json.gz" };

bool variant_built_in(const struct run_id *id)
{
	const char *tree = id->tree;

	return tree[0] != '/' && !strchr(tree, '+') && !strchr(tree, '@');
}

/* What run options gave the guest of @id, whose results are @doc. */
static char *run_opts(const struct run_id *id, const cJSON *doc)
{
	struct strbuf b = { 0 };
	struct vm_opts v;
	char **argv;

	guest_opts_of_run(id, &v);
	argv = guest_opts_argv(&v);
	for (char **a = argv; *a; a++) {
		sb_shell_word(&b, *a);
		sb_addf(&b, " ");
	}
	sb_addf(&b, "--boots=%d", run_nr_boots(doc));
	options_argv_free(argv);
	return b.s;
}

/* A name safe in a file name and a shell word. */
static char *safe_name(const char *s)
{
	char *n = xstrdup(*s ? s : "workload");

	for (char *p = n; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			*p = '_';
	return n;
}

/*
 * A script that runs both sides as the report's runs ran (variants,
 * workload as recorded, guest options) and writes the report: it needs
 * slabbench, nothing of this machine but a user tree's path.
 */
static char *reproducer(const char *subject, const struct run_id *ids, const cJSON *const *d,
			const char *variants)
{
	struct strbuf b = { 0 };
	char *opts[2] = { run_opts(&ids[0], d[0]), run_opts(&ids[1], d[1]) };
	char *wl = safe_name(run_workload(d[0]) ? run_workload(d[0]) : "");
	char *wjson = cJSON_Print(run_workload_def(d[0]));
	const char *v[2] = { ids[0].variant, ids[1].variant };

	sb_addf(&b, "#!/bin/bash\n"
		"# Reproduces slabbench's report\n#   %s\n"
		"# in ./slabbench-reproduce (or the directory given), with slabbench\n"
		"# on PATH or at $SLABBENCH (its README: make deps && make).\n"
		"set -euo pipefail\n"
		"SLABBENCH=${SLABBENCH:-slabbench}\n"
		"dir=${1:-slabbench-reproduce}\n"
		"mkdir -p \"$dir\"\ncd \"$dir\"\n", subject);
	if (variants) {
		sb_addf(&b, "# The kernels: git trees and patch series by path, as on the\n"
			"# reporter's machine (docs/user-kernels.md).\n"
			"cat >variants <<'SLABBENCH_EOF'\n%sSLABBENCH_EOF\n"
			"export SLABBENCH_VARIANTS=$PWD/variants\n", variants);
	}
	sb_addf(&b, "# The workload as the runs recorded it.\ncat >%s.json <<'SLABBENCH_EOF'\n"
		"%s\nSLABBENCH_EOF\n", wl, wjson ? wjson : "{}");
	if (!strcmp(opts[0], opts[1]) && strcmp(v[0], v[1])) {
		sb_addf(&b, "\"$SLABBENCH\" run --alloc=%s,%s --workload=\"$PWD/%s.json\" \\\n"
			"\t%s -o out\n", v[0], v[1], wl, opts[0]);
		sb_addf(&b, "\"$SLABBENCH\" report out/%s-%s-cpus*.json out/%s-%s-cpus*.json\n",
			v[0], wl, v[1], wl);
	} else {
		for (int r = 0; r < 2; r++)
			sb_addf(&b, "\"$SLABBENCH\" run --alloc=%s --workload=\"$PWD/%s.json\" \\\n"
				"\t%s -o %s.json\n", v[r], wl, opts[r], r ? "new" : "base");
		sb_addf(&b, "\"$SLABBENCH\" report base.json new.json\n");
	}
	free(wjson);
	free(wl);
	free(opts[0]);
	free(opts[1]);
	return b.s;
}

/* The configs' difference: the allocator lines, then every other line recorded. */
static char *config_diff(const struct run_id *ids, const cJSON *const *d)
{
	struct strbuf s = { 0 };
	const cJSON *ca = run_common_config_lines(d[0]);
	const cJSON *cb = run_common_config_lines(d[1]);

	sb_addf(&s, "--- base: %s, tree %s\n+++ new: %s, tree %s\n", ids[0].variant, ids[0].tree,
		ids[1].variant, ids[1].tree);
	json_lines_diff(&s, run_allocator_config(d[0]), run_allocator_config(d[1]), 0, 0);
	if (cJSON_IsArray(ca) && cJSON_IsArray(cb))
		json_lines_diff(&s, ca, cb, 0, 0);
	else
		sb_addf(&s, "# only the allocator lines: the results do not record the others\n");
	return s.s;
}

/* A kernel's config as recorded: every line set, the allocator's too; NULL if not kept. */
static char *config_of(const struct run_id *id, const cJSON *doc)
{
	const cJSON *common = run_common_config_lines(doc), *l;
	struct strbuf s = { 0 };

	if (!cJSON_IsArray(common))
		return NULL;
	sb_addf(&s, "# %s, tree %s: the config's lines as slabbench recorded them\n",
		id->variant, id->tree);
	cJSON_ArrayForEach(l, common)
		if (cJSON_IsString(l))
			sb_addf(&s, "%s\n", l->valuestring);
	cJSON_ArrayForEach(l, run_allocator_config(doc))
		if (cJSON_IsString(l))
			sb_addf(&s, "%s\n", l->valuestring);
	return s.s;
}

static void part_text(struct parts *ps, const char *name, const char *type, char *text)
{
	ps->p[ps->n] = (struct mail_part){ name, type, text, strlen(text) };
	ps->owned[ps->n++] = text;
}

static int part_gzip(struct parts *ps, const char *name, const void *data, size_t len)
{
	size_t n;
	void *z = mail_gzip(data, len, &n);

	if (!z)
		return -1;
	ps->p[ps->n] = (struct mail_part){ name, "application/gzip", z, n };
	ps->owned[ps->n++] = z;
	return 0;
}

int regmail_attach(struct parts *ps, const struct built *w)
{
	char *cfg;

	part_text(ps, "report.txt", "text/plain; charset=utf-8", xstrdup(w->report));
	part_text(ps, "compare.txt", "text/plain; charset=utf-8", compare_text(w->c));
	part_text(ps, "config.diff", "text/plain; charset=utf-8", config_diff(w->ids, w->docs));
	for (int r = 0; r < 2; r++) {
		cfg = config_of(&w->ids[r], w->docs[r]);
		if (cfg) {
			int ret = part_gzip(ps, r ? "config-new.gz" : "config-base.gz", cfg,
					    strlen(cfg));

			free(cfg);
			if (ret)
				return -1;
		}
	}
	part_text(ps, "reproduce.sh", "text/x-shellscript; charset=utf-8",
		  reproducer(w->report_subject, w->ids, w->docs, w->variants));
	for (int r = 0; r < 2; r++) {
		size_t len;
		char *text = read_file(w->paths[r], &len);

		if (!text)
			return error("report: %s: %s", w->paths[r], strerror(errno));
		if (part_gzip(ps, attached_gz[r], text, len)) {
			free(text);
			return -1;
		}
		free(text);
	}
	return 0;
}
