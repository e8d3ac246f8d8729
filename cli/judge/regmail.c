// SPDX-License-Identifier: GPL-2.0
/*
 * The regression report as a mail (see regmail.h): the mail of a
 * comparison and of a bisection, put together here from their headers
 * (regmail_headers.c) and attachments (regmail_attach.c).
 */
#define _GNU_SOURCE
#include "regmail_parts.h"
#include "compare.h"
#include "guest.h"
#include "json.h"
#include "mail.h"
#include "noise.h"
#include "report.h"
#include "results.h"
#include "strbuf.h"
#include "util.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const regmail_attached[2] = { "results-base.json", "results-new.json" };

/*
 * The attachments named, the commit a bisection found in regzbot's
 * words, and the tags a fix carries: said before how to reproduce. A tag
 * is one line whatever its width, as the kernel's tags are.
 */
static char *tags(const struct regmail_opts *o, const struct built *w, const char *reporter)
{
	struct strbuf t = { 0 };

	sb_addf(&t, "Attached: the whole report (report.txt, as slabbench report\n"
		"prints it), the full comparison (compare.txt: every metric of\n"
		"every test), the difference of the kernels' configs\n"
		"(config.diff)%s, reproduce.sh (it runs as it is, with\n"
		"slabbench installed) and both results files.\n",
		cJSON_IsArray(run_common_config_lines(w->docs[0])) ?
		" and each\nconfig as recorded" : "");
	if (w->regzbot)
		sb_addf(&t, "\n#regzbot introduced: %.12s\n", w->regzbot);
	sb_addf(&t, "\nIf you fix the issue in a separate patch or commit, kindly\n"
		"add the following tags:\n| Reported-by: %s\n", reporter);
	if (o->closes)
		sb_addf(&t, "| Closes: %s\n", o->closes);
	if (o->link)
		sb_addf(&t, "| Link: %s\n", o->link);
	return t.s;
}

/* Assembles the message from what the callers gathered. */
static char *assemble(const struct regmail_opts *o, const struct built *w)
{
	struct parts ps = { 0 };
	struct strbuf body = { 0 };
	char *from = NULL, *to = NULL, *cc = NULL, *id = NULL, *mbox = NULL, *t, *brief;

	if (regmail_addressees(o, w, &from, &to, &cc))
		goto out;
	t = tags(o, w, o->reported_by ? o->reported_by : from);
	if (w->intro)
		sb_addf(&body, "%s", w->intro);
	/* A mail compares two runs and attaches both: no more. */
	brief = report_brief(w->c, w->docs, 2, w->phase, t,
			     REGMAIL_BODY_LINES - text_lines(w->intro));
	sb_addf(&body, "%s", brief);
	free(brief);
	free(t);
	if (regmail_attach(&ps, w))
		goto out;
	id = mail_message_id(from);
	mbox = mail_format(&(struct mail){
		.from = from, .to = to, .cc = cc, .subject = w->subject, .message_id = id,
		.in_reply_to = w->in_reply_to, .body = body.s, .parts = ps.p,
		.nr_parts = ps.n });
out:
	for (int i = 0; i < ps.n; i++)
		free(ps.owned[i]);
	free(body.s);
	free(from);
	free(to);
	free(cc);
	free(id);
	return mbox;
}

/*
 * The variants lines of the two runs' kernels that slabbench does not
 * ship, once each, for the reproducer (@file in place of the user's
 * variants file when not NULL): in *lines, NULL when both are built in;
 * -1 after a message when one is in no variants file.
 */
static int reproducer_variants(const struct run_id *ids, const char *file, char **lines)
{
	*lines = NULL;
	for (int r = 0; r < 2; r++) {
		char *line, *v;

		if (variant_built_in(&ids[r]))
			continue;
		line = variant_line(file, ids[r].variant);
		if (!line)
			return error("report: the variant %s is in no variants file: the "
				     "reproducer could not name its kernel", ids[r].variant);
		if (!*lines || !strstr(*lines, line)) {
			v = xasprintf("%s%s\n", *lines ? *lines : "", line);
			free(*lines);
			*lines = v;
		}
		free(line);
	}
	return 0;
}

/* "[slabbench] [TREE] WHO: WHAT": the robot's form. */
static char *robot_subject(const char *tree, const char *who, const char *what)
{
	return xasprintf("[slabbench] [%s] %s: %s", tree, who, what);
}

static char *tree_name_of(const struct regmail_opts *o, const struct run_id *id,
			  const struct side *s)
{
	char *copy, *name;

	if (o->tree_name)
		return xstrdup(o->tree_name);
	if (s->git) {
		copy = xstrdup(s->git);
		name = xstrdup(basename(copy));
		free(copy);
		return name;
	}
	return xasprintf("linux-%s%s", id->release,
			 s->series ? "+series" : "");
}

char *regmail_comparison(const struct regmail_opts *o, const char *const *paths,
			 const cJSON *const *docs, const struct comparison *c, const char *phase)
{
	char *report = report_text(c, docs, 2, phase);
	const char *rs = strncmp(report, "Subject: ", 9) ? "" : report + 9;
	char *rsubj = xstrndup(rs, strcspn(rs, "\n")), *what, *who, *tree, *subject, *mbox = NULL;
	char *files[6], *variants = NULL, *maint = NULL;
	const char *vs = strstr(rsubj, " vs "), *colon = vs ? strstr(vs, ": ") : NULL;
	struct run_id *ids = run_ids(NULL, docs, 2);
	struct side s;
	int nf = 0;

	side_of(&ids[1], &s);
	what = xstrdup(colon ? colon + 2 : rsubj);
	if (s.git)
		who = xasprintf("%.12s (\"%s\")", s.commit, s.title ? s.title : "?");
	else if (s.series)
		who = xasprintf("(\"%s\")", s.title ? s.title : "the series");
	else
		who = xasprintf("%s vs %s", ids[1].variant, ids[0].variant);
	tree = tree_name_of(o, &ids[1], &s);
	subject = robot_subject(tree, who, what);
	nf = allocator_files(ids[1].allocator, files, 3);
	if (strcasecmp(ids[0].allocator, ids[1].allocator))
		nf += allocator_files(ids[0].allocator, files + nf, 1);
	if (reproducer_variants(ids, NULL, &variants))
		goto out;
	if (!o->maintainers_tree && !s.git && !o->no_maintainers) {
		char version[16];

		snprintf(version, sizeof(version), "%s", ids[1].tree);
		version[strcspn(version, "+")] = '\0';
		maint = cached_source(version);
	}
	mbox = assemble(o, &(struct built){
		.subject = subject, .report_subject = rsubj, .c = c, .phase = phase,
		.report = report, .paths = paths, .docs = docs, .ids = ids, .variants = variants,
		.git = o->maintainers_tree ? NULL : s.git, .commit = s.commit,
		.files = files, .nr_files = nf,
		.maint_dir = o->maintainers_tree ? o->maintainers_tree : maint,
		.in_reply_to = o->in_reply_to ? o->in_reply_to : s.message_id });
	if (mbox && !o->in_reply_to && s.series && !s.message_id)
		warning("report: %s has no Message-Id: the mail starts a thread of its own",
			s.series);
out:
	for (int i = 0; i < nf; i++)
		free(files[i]);
	run_ids_free(ids, 2);
	side_free(&s);
	free(maint);
	free(variants);
	free(subject);
	free(tree);
	free(who);
	free(what);
	free(rsubj);
	free(report);
	return mbox;
}

char *regmail_first_bad(const char *dir)
{
	char *path = xasprintf("%s/bisect-run.log", dir), *log = read_file(path, NULL), *p;
	char *first = NULL;

	p = log ? strstr(log, " is the first bad commit") : NULL;
	if (p) {
		while (p > log && p[-1] != '\n')
			p--;
		first = strndup(p, strspn(p, "0123456789abcdef"));
	}
	free(log);
	free(path);
	return first;
}

/* "fastpath.instructions_per_op +91.0% regression" from the first bad step of DIR/steps. */
static char *bisect_change(const char *dir, const char *first, const char *metric)
{
	char *path = xasprintf("%s/steps", dir), *text = read_file(path, NULL), *save = NULL;
	char *line, *what = NULL;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && !what;
	     line = strtok_r(NULL, "\n", &save)) {
		char commit[64], verdict[16];
		double value, pct;

		if (sscanf(line, "%63s %15s %lf %lf", commit, verdict, &value, &pct) == 4 &&
		    !strcmp(commit, first) && !strcmp(verdict, "bad"))
			what = xasprintf(fabs(pct) < 100 ? "%s %+.1f%% regression" :
					 "%s %+.0f%% regression", metric, pct);
	}
	free(text);
	free(path);
	return what;
}

/* How the bisection in @dir (its bisect.json @j) found @who, before the report of it. */
static char *bisect_intro(const cJSON *j, const char *dir, const char *who)
{
	char *steps = xasprintf("%s/steps", dir), *text = read_file(steps, NULL), *p;
	struct strbuf b = { 0 };
	int ran = 0, skipped = 0;

	for (p = text; p && *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] ? 1 : 0)) {
		if (!strncmp(p + strcspn(p, " "), " skip ", 6))
			skipped++;
		else
			ran++;
	}
	sb_addf(&b, "slabbench bisected a regression of %s\n(threshold %g%%) "
		"to\n\n  %.*s\n\n", json_str_at(j, "metric"),
		json_num_at(j, "threshold"), MAIL_WIDTH - 2, who);
	sb_addf(&b, "%d commits built and ran, %d were skipped (they did not build\n"
		"or boot). Below: the first bad commit against the good one,\n"
		"%.12s.\n\n", ran, skipped, json_str_at(j, "good"));
	free(text);
	free(steps);
	return b.s;
}

char *regmail_bisect(const struct regmail_opts *o, const char *dir)
{
	char *jpath = xasprintf("%s/bisect.json", dir), *jtext = read_file(jpath, NULL);
	cJSON *j = jtext ? cJSON_Parse(jtext) : NULL, *docs[2] = { NULL, NULL };
	char *first = regmail_first_bad(dir), *paths[2] = { NULL, NULL }, *report = NULL;
	char *vpath = xasprintf("%s/variants", dir);
	char *variants = NULL, *who = NULL, *what = NULL, *tree = NULL, *subject = NULL;
	char *author = NULL, *files_out = NULL, *mbox = NULL, *rsubj = NULL, *files[40];
	char *noise_file = noise_path(), *intro = NULL;
	const char *git, *good;
	struct run_id *ids = NULL;
	struct comparison c = { 0 };
	cJSON *noise = NULL;
	bool missing = false;
	int nf = 0;

	if (!j || !first) {
		error("report: %s: not a finished bisection (%s)", dir,
		      !j ? "no bisect.json" : "bisect-run.log names no first bad commit");
		goto out;
	}
	git = json_str_at(j, "tree");
	good = json_str_at(j, "good");
	paths[0] = xasprintf("%s/%.12s.json", dir, good);
	paths[1] = xasprintf("%s/%.12s.json", dir, first);
	docs[0] = results_load(paths[0]);
	docs[1] = docs[0] ? results_load(paths[1]) : NULL;
	if (!docs[1]) {
		error("report: %s: cannot load the results", paths[docs[0] ? 1 : 0]);
		goto out;
	}
	ids = run_ids(NULL, (const cJSON *const *)docs, 2);
	if (reproducer_variants(ids, vpath, &variants))
		goto out;
	who = run_words("git", "-C", git, "log", "-1", "--abbrev=12", "--format=%h (\"%s\")", first,
		      NULL);
	author = run_words("git", "-C", git, "log", "-1", "--format=%an <%ae>", first, NULL);
	files_out = run_words("git", "-C", git, "diff-tree", "--no-commit-id", "--name-only", "-r",
			    first, NULL);
	what = bisect_change(dir, first, json_str_at(j, "metric"));
	if (!who || !files_out || !what) {
		error("report: %s: cannot read the commit %.12s, its files or its figures",
		      dir, first);
		goto out;
	}
	for (char *save = NULL, *f = strtok_r(files_out, "\n", &save); f && nf < 40;
	     f = strtok_r(NULL, "\n", &save))
		files[nf++] = xstrdup(f);
	if (o->tree_name) {
		tree = xstrdup(o->tree_name);
	} else {
		char *copy = xstrdup(git);

		tree = xstrdup(basename(copy));
		free(copy);
	}
	subject = robot_subject(tree, who, what);
	rsubj = xstrdup(subject);
	noise = noise_load(noise_file, &missing);
	if ((!noise && !missing) ||
	    compare_build(&c, regmail_attached, (const cJSON *const *)docs, 2, 0.05, noise,
			  noise_file)) {
		error("report: %s: cannot compare the first bad commit with the good one", dir);
		goto out;
	}
	report = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	intro = bisect_intro(j, dir, who);
	mbox = assemble(o, &(struct built){
		.subject = subject, .report_subject = rsubj, .intro = intro, .c = &c,
		.report = report, .regzbot = first,
		.paths = (const char *const *)paths, .docs = (const cJSON *const *)docs,
		.ids = ids, .variants = variants, .git = o->maintainers_tree ? NULL : git, .commit = first,
		.files = files, .nr_files = nf, .maint_dir = o->maintainers_tree,
		.author = author, .in_reply_to = o->in_reply_to });
out:
	for (int i = 0; i < nf; i++)
		free(files[i]);
	run_ids_free(ids, 2);
	cJSON_Delete(j);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
	free(jtext);
	free(jpath);
	free(first);
	free(paths[0]);
	free(paths[1]);
	free(report);
	free(vpath);
	free(variants);
	free(who);
	free(what);
	free(tree);
	free(subject);
	free(rsubj);
	free(author);
	free(files_out);
	free(intro);
	free(noise_file);
	cJSON_Delete(noise);
	compare_free(&c);
	return mbox;
}
