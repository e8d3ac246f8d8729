// SPDX-License-Identifier: GPL-2.0
/*
 * Bisection of a user's tree (see bisect.h). git bisect runs in a bare
 * clone of its own that shares the tree's objects (the tree itself is
 * only read), without a checkout: each step is a variant TREE@COMMIT
 * (docs/user-kernels.md) built, booted and run as `slabbench run` does,
 * then judged against the good revision's results as compare judges a
 * change.
 */
#define _GNU_SOURCE
#include "bisect.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* git bisect run's verdicts. */
enum { STEP_GOOD = 0, STEP_BAD = 1, STEP_SKIP = 125, STEP_ABORT = 128 };

static char *repo_path(const struct bisect *b)
{
	return xasprintf("%s/repo.git", b->r.dir);
}

static char *state_path(const char *dir)
{
	return xasprintf("%s/bisect.json", dir);
}

static int save(struct bisect *b)
{
	struct opt opts[] = { BISECT_OPTS(b), OPT_END() };
	cJSON *j = options_to_json(opts);
	char *path = state_path(b->r.dir), *text = cJSON_Print(j);
	int ret;

	ret = write_output(path, text);
	free(text);
	free(path);
	cJSON_Delete(j);
	return ret;
}

/* The options saved by save(); @j must outlive @b. */
static int load(const char *dir, struct bisect *b, cJSON **j)
{
	struct opt opts[] = { BISECT_OPTS(b), OPT_END() };
	char *path = state_path(dir), *text = read_file(path, NULL);
	int ret = 0;

	*j = text ? cJSON_Parse(text) : NULL;
	free(text);
	memset(b, 0, sizeof(*b));
	b->r.cmd = "bisect";
	b->r.dir = dir;
	b->threshold = NAN;
	if (!*j || options_from_json(path, opts, *j) || !b->r.tree || !b->good || !b->bad ||
	    !b->r.alloc_config || !b->r.workload || !b->metric || isnan(b->threshold) ||
	    !b->r.vm.accel || !b->r.boots)
		ret = error("bisect: %s: not a bisection's options", path);
	free(path);
	return ret;
}

/* Whether @test names @row's test: by name, or by its number in the workload from 1. */
static bool names_test(const struct cmp_row *row, const char *test)
{
	long n;

	if (!parse_long(test, 1, INT_MAX, &n))
		return row->test == n - 1;
	return !strcmp(row->test_name, test);
}

/*
 * @commit's results against the good revision's, for the one row of
 * TEST.METRIC: bad when it moved the wrong way by the threshold or more
 * and compare calls that a change (exact counts: any change; times:
 * significant across boots and beyond the noise floor).
 */
static int verdict_of(const struct bisect *b, const char *commit, struct bisect_verdict *v)
{
	char *test = xstrdup(b->metric), *metric = test + strcspn(test, ".");
	struct revision_pair p;
	const struct cmp_row *row = NULL;
	int ret = -1, rows = 0;

	/* A state without TEST.METRIC names no row, which is refused below. */
	if (*metric)
		*metric++ = '\0';
	if (revision_pair_load(&p, &b->r, b->good, commit))
		goto out;
	for (int i = 0; i < p.c.nr_rows; i++)
		if (names_test(&p.c.rows[i], test) && !strcmp(p.c.rows[i].metric, metric)) {
			row = row ? row : &p.c.rows[i];
			rows++;
		}
	if (row && rows == 1 && row->cells[0].absent) {
		error("bisect: %s: %s is absent, not a count: %s", p.paths[1], b->metric,
		      row->cells[0].absent);
		goto out;
	}
	if (!row || rows > 1 || !row->cells[0].present || !row->cells[0].has_pct) {
		error("bisect: %s: %s names %d rows with a change (it must name one: give the "
		      "test's number in the workload, or a workload without a sweep)", p.paths[1],
		      b->metric, rows);
		goto out;
	}
	v->good_value = row->base_value;
	v->value = row->cells[0].value;
	v->pct = row->cells[0].pct;
	v->bad = row->cells[0].significant && row->cells[0].worse &&
		 fabs(v->pct) >= b->threshold;
	ret = 0;
out:
	revision_pair_free(&p);
	free(test);
	return ret;
}

/* Appends "COMMIT VERDICT VALUE PCT" to DIR/steps for the summary. */
static void log_step(const struct bisect *b, const char *commit, const char *what,
		     const struct bisect_verdict *v)
{
	char *path = xasprintf("%s/steps", b->r.dir);
	FILE *f = fopen(path, "a");

	if (f) {
		fprintf(f, "%s %s %.17g %.17g\n", commit, what, v ? v->value : NAN,
			v ? v->pct : NAN);
		fclose(f);
	}
	free(path);
}

int bisect_step(const char *dir)
{
	struct bisect b;
	struct bisect_verdict v;
	char *repo, *commit;
	cJSON *j;
	int ret;

	if (load(dir, &b, &j))
		return STEP_ABORT;
	repo = repo_path(&b);
	commit = git_line(repo, "rev-parse", "BISECT_HEAD", NULL);
	if (!commit) {
		error("bisect: %s: no BISECT_HEAD", repo);
		ret = STEP_ABORT;
	} else if (revision_run(&b.r, commit)) {
		fprintf(stderr, "slabbench: bisect: skipping %.12s: it did not build, boot or "
			"run its workload (see above)\n", commit);
		log_step(&b, commit, "skip", NULL);
		ret = STEP_SKIP;
	} else if (verdict_of(&b, commit, &v)) {
		ret = STEP_ABORT;
	} else {
		fprintf(stderr, "slabbench: bisect: %.12s is %s: %s %.6g (%+.2f%%)\n", commit,
			v.bad ? "bad" : "good", b.metric, v.value, v.pct);
		log_step(&b, commit, v.bad ? "bad" : "good", &v);
		ret = v.bad ? STEP_BAD : STEP_GOOD;
	}
	free(commit);
	free(repo);
	cJSON_Delete(j);
	return ret;
}

/* "1234567890ab ("subject")" of @commit, for messages and the report. */
static char *commit_title(const struct bisect *b, const char *commit)
{
	char *repo = repo_path(b);
	char *t = git_line(repo, "log", "-1", "--abbrev=12", "--format=%h (\"%s\")", commit, NULL);

	free(repo);
	return t ? t : xasprintf("%.12s", commit);
}

/*
 * "Subject: [slabbench] [mm/slub] 1234567890ab: fastpath.ns_per_op +5.0%
 * regression", as the kernel test robot names a commit: the prefix of
 * its subject, its id, then the verdict. The test's name gives way first,
 * so that the verdict shows.
 */
static char *subject_line(const struct bisect *b, const char *commit, double pct)
{
	char *repo = repo_path(b), *subj = git_line(repo, "log", "-1", "--format=%s", commit, NULL);
	char *colon = subj ? strstr(subj, ": ") : NULL, *line = NULL;
	const char *names[] = { b->metric, strchr(b->metric, '.') + 1 };

	/* Without the prefix, then the metric without its test, with the prefix if it fits. */
	for (int i = 0; i < 4; i++) {
		bool prefix = !(i & 1) && colon && colon - subj <= 24;

		free(line);
		line = xasprintf("Subject: [slabbench] %s%.*s%s%.12s: %s %+.1f%% regression",
				 prefix ? "[" : "", prefix ? (int)(colon - subj) : 0,
				 prefix ? subj : "", prefix ? "] " : "", commit, names[i / 2], pct);
		if (strlen(line) <= REPORT_WIDTH)
			break;
	}
	if (strlen(line) > REPORT_WIDTH)
		strcpy(line + REPORT_WIDTH - 3, "...");
	free(subj);
	free(repo);
	return line;
}

/*
 * The report of the first bad commit against the good revision, under a
 * subject that names the commit and a head that says how it was found,
 * as the kernel test robot's reports do.
 */
static int write_report(const struct bisect *b, const char *first, const struct bisect_verdict *v,
			const struct bisect_verdict *vbad, int tested, int skipped)
{
	char *out = xasprintf("%s/report.txt", b->r.dir);
	char *title = commit_title(b, first), *text = NULL, *line;
	struct revision_pair p;
	struct strbuf s = { 0 };
	int ret = -1;

	if (!revision_pair_load(&p, &b->r, b->good, first)) {
		text = report_text(&p.c, (const cJSON *const *)p.docs, 2, NULL);
		line = subject_line(b, first, v->pct);
		sb_addf(&s, "%s\n\nslabbench bisected a %+.1f%% change of %s\n(threshold %g%%) to\n\n",
			line, v->pct, b->metric, b->threshold);
		sb_addf(&s, "%.*s\n\nin the tree\n\n%.*s\n\n", REPORT_WIDTH, title, REPORT_WIDTH,
			b->r.tree);
		sb_addf(&s, "  %-11s %-14s %s\n", "", "commit", b->metric);
		sb_addf(&s, "  %-11s %-14.12s %.6g\n", "good", b->good, v->good_value);
		sb_addf(&s, "  %-11s %-14.12s %.6g\n", "bad", b->bad, vbad->value);
		sb_addf(&s, "  %-11s %-14.12s %.6g\n\n", "first bad", first, v->value);
		/* What the kernel's regression tracking reads, when the report goes out. */
		sb_addf(&s, "#regzbot introduced: %.12s\n\n", first);
		sb_addf(&s, "%d commits built and ran, %d were skipped (they did not build\n"
			"or boot). Below: the first bad commit against the good one. The\n"
			"variants it names are those of\n\n%.*s/variants\n\n"
			"(SLABBENCH_VARIANTS=that file for the commands at its end).\n",
			tested, skipped, REPORT_WIDTH - 9, b->r.dir);
		free(line);
		/* The report's own subject (folded, maybe) gives way to the commit's. */
		sb_addf(&s, "%s", strstr(text, "\n\n") ? strstr(text, "\n\n") : "");
		ret = write_output(out, s.s);
		if (!ret)
			printf("report: %s\n", out);
	}
	revision_pair_free(&p);
	free(text);
	free(s.s);
	free(title);
	free(out);
	return ret;
}

/* Counts DIR/steps' verdicts: commits that ran, and those skipped. */
static void count_steps(const struct bisect *b, int *tested, int *skipped)
{
	char *path = xasprintf("%s/steps", b->r.dir), *text = read_file(path, NULL), *p;

	*tested = *skipped = 0;
	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (strstr(p, " skip ") && strstr(p, " skip ") < strchr(p, '\n'))
			(*skipped)++;
		else
			(*tested)++;
	}
	free(text);
	free(path);
}

/* The good and the bad revision, measured before git bisect starts. */
static int measure_ends(const struct bisect *b, struct bisect_verdict *vbad)
{
	const char *ends[2] = { b->good, b->bad };

	for (int i = 0; i < 2; i++) {
		if (revision_run(&b->r, ends[i]))
			return error("bisect: the %s revision %.12s did not build, boot or run "
				     "its workload", i ? "bad" : "good", ends[i]);
	}
	if (verdict_of(b, b->bad, vbad))
		return -1;
	log_step(b, b->good, "good", NULL);
	log_step(b, b->bad, vbad->bad ? "bad" : "good", vbad);
	if (!vbad->bad)
		return error("bisect: %s is no regression from good %.12s (%.6g) to bad %.12s "
			     "(%.6g, %+.2f%%; threshold %g%%, and compare must call it a change): "
			     "nothing to bisect", b->metric, b->good, vbad->good_value, b->bad,
			     vbad->value, vbad->pct, b->threshold);
	return 0;
}

/* git bisect run with this program's step; the first bad commit, or NULL. */
static char *bisect_run(const struct bisect *b)
{
	char *self = self_exe(), *repo = repo_path(b);
	char *log = xasprintf("%s/bisect-run.log", b->r.dir);
	char *step_arg = xasprintf("--step=%s", b->r.dir), *out = NULL, *first = NULL, *p;
	char *argv[] = { "git", "-C", repo, "bisect", "run", self, "bisect", step_arg, NULL };
	char *started;

	if (!self) {
		error("bisect: /proc/self/exe: %s", strerror(errno));
		goto out;
	}
	started = git_line(repo, "bisect", "start", "--no-checkout", b->bad, b->good, NULL);
	if (!started) {
		error("bisect: git bisect start failed in %s", repo);
		goto out;
	}
	free(started);
	run_capture(argv, &out, NULL);
	write_output(log, out ? out : "");
	p = out ? strstr(out, " is the first bad commit") : NULL;
	if (p) {
		while (p > out && p[-1] != '\n')
			p--;
		first = xstrndup(p, strspn(p, "0123456789abcdef"));
	} else {
		error("bisect: git bisect run found no first bad commit (log: %s)", log);
		fprintf(stderr, "%s", out ? out : "");
	}
	free(git_line(repo, "bisect", "reset", NULL));
out:
	free(out);
	free(step_arg);
	free(log);
	free(repo);
	free(self);
	return first;
}

void bisect_print(const struct bisect *b, const struct bisect_found *f)
{
	const char *names[3] = { "good", "bad", "first bad" };
	const char *commits[3] = { b->good, b->bad, f->first };
	const struct bisect_verdict *v[3] = { NULL, &f->bad, &f->at_first };

	printf("%s is the first bad commit\n", f->first);
	for (int i = 0; i < 3; i++) {
		char *t = commit_title(b, commits[i]);

		if (v[i])
			printf("  %-9s %s: %s %.6g (%+.2f%%)\n", names[i], t, b->metric, v[i]->value,
			       v[i]->pct);
		else
			printf("  %-9s %s: %s %.6g\n", names[i], t, b->metric, f->bad.good_value);
		free(t);
	}
	printf("  %d commits built and ran, %d skipped\n", f->tested, f->skipped);
}

int bisect_start(const struct bisect *b, const char *tree)
{
	char *repo = repo_path(b), *cloned = NULL;
	int ret = -1;

	if (!access(repo, F_OK))
		error("bisect: %s holds a bisection already: give another -o", b->r.dir);
	else if (!(cloned = git_line(b->r.dir, "clone", "-q", "--bare", "--shared", tree, repo,
				     NULL)))
		error("bisect: cannot clone %s into %s", tree, repo);
	else
		ret = 0;
	free(cloned);
	free(repo);
	return ret;
}

int bisect_find(struct bisect *b, struct bisect_found *f)
{
	memset(f, 0, sizeof(*f));
	if (save(b) || measure_ends(b, &f->bad))
		return -1;
	f->first = bisect_run(b);
	if (!f->first || verdict_of(b, f->first, &f->at_first))
		return -1;
	count_steps(b, &f->tested, &f->skipped);
	return 0;
}

int bisect_report(const struct bisect *b, const struct bisect_found *f)
{
	return write_report(b, f->first, &f->at_first, &f->bad, f->tested, f->skipped);
}
