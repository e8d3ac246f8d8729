// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench watch: a branch of a user's tree, followed as the kernel test
 * robot follows one. Each new tip is built, booted and run (the cost
 * model by default: exact counts, one boot) and compared with the last
 * good commit's results; a regression beyond the threshold is bisected
 * (bisect.c), and the mail of the first bad commit is written
 * into an outbox, and sent if asked. What was tested and what was
 * reported is kept in STATE/watch.json: a regression is mailed once, a
 * commit that does not build or boot is recorded and not retried.
 */
#define _GNU_SOURCE
#include "bisect.h"
#include "commands.h"
#include "compare.h"
#include "json.h"
#include "options.h"
#include "regmail.h"
#include "revision.h"
#include "runner.h"
#include "util.h"
#include "watchstate.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* r.dir: STATE, the state, results and bisections. */
struct watch {
	const char *branch, *baseline, *outbox, *send, *metric;
	double threshold;
	long poll;
	struct revision_run r;
	struct regmail_opts mail;
};

/* TEST.METRIC as bisect takes it: the test's name when it names one row, else its number. */
static char *metric_name(const struct comparison *c, const struct cmp_row *row)
{
	int same = 0;

	for (int i = 0; i < c->nr_rows; i++)
		if (!strcmp(c->rows[i].test_name, row->test_name) &&
		    !strcmp(c->rows[i].metric, row->metric))
			same++;
	if (same == 1)
		return xasprintf("%s.%s", row->test_name, row->metric);
	return xasprintf("%d.%s", row->test + 1, row->metric);
}

/*
 * The tip's results against the last good commit's: the regression to
 * bisect (its TEST.METRIC and change), the largest beyond the threshold
 * that compare calls a change, among the rows --metric names (else every
 * row outside a sweep). *metric NULL: none. -1 after a message.
 */
static int worst_regression(const struct watch *w, const char *good, const char *tip,
			    char **metric, double *pct)
{
	struct revision_pair p;
	const struct cmp_row *worst = NULL;
	int ret = -1;

	*metric = NULL;
	if (revision_pair_load(&p, &w->r, good, tip))
		goto out;
	for (int i = 0; i < p.c.nr_rows; i++) {
		const struct cmp_row *row = &p.c.rows[i];
		const struct cmp_cell *x = &row->cells[0];
		char *name = metric_name(&p.c, row);
		bool named = w->metric ? !strcmp(name, w->metric) : !row->labels;

		free(name);
		if (named && x->present && x->has_pct && x->significant && x->worse &&
		    fabs(x->pct) >= w->threshold &&
		    (!worst || fabs(x->pct) > fabs(worst->cells[0].pct)))
			worst = row;
	}
	if (worst) {
		*metric = metric_name(&p.c, worst);
		*pct = worst->cells[0].pct;
	}
	ret = 0;
out:
	revision_pair_free(&p);
	return ret;
}

/* good..bad bisected on @metric into @dir; 0 when it named a first bad commit. */
static int bisect(const struct watch *w, const char *good, const char *bad, const char *metric,
		  const char *dir)
{
	struct bisect b = {
		.good = good, .bad = bad, .metric = metric, .threshold = w->threshold, .r = w->r,
	};
	struct bisect_found found = { 0 };
	int ret = -1;

	b.r.cmd = "bisect";
	b.r.dir = dir;
	if (!mkdir_p(dir) && !bisect_start(&b, w->r.tree) && !bisect_find(&b, &found)) {
		bisect_print(&b, &found);
		ret = bisect_report(&b, &found);
	}
	free(found.first);
	return ret ? error("watch: the bisection of %.12s..%.12s failed (see %s)", good, bad,
			   dir) : 0;
}

/* git send-email on @mbox: the user's sendemail.* settings, or sendmail. */
static int send_mail(const struct watch *w, const char *mbox, const char *from)
{
	char *from_opt = xasprintf("--from=%s", from), *out = NULL;
	char *argv[12] = { "git", "send-email", "--confirm=never",
			   "--suppress-cc=misc-by", "--suppress-cc=bodycc", from_opt };
	int n = 6, ret;

	if (!strcmp(w->send, "sendmail"))
		argv[n++] = "--smtp-server=/usr/sbin/sendmail";
	argv[n++] = (char *)mbox;
	argv[n] = NULL;
	ret = run_capture(argv, &out, NULL);
	/* It exits 0 on an address it cannot use: only "Result:" says it went. */
	if (!ret && !strstr(out ? out : "", "\nResult: "))
		ret = -1;
	free(out);
	free(from_opt);
	return ret ? error("watch: git send-email did not send %s (see above)", mbox) : 0;
}

/* The mail's From header, as git send-email's sender. */
static char *mail_from(const char *mbox)
{
	char *text = read_file(mbox, NULL), *p = text ? strstr(text, "\nFrom: ") : NULL, *f;

	f = p ? strndup(p + 7, strcspn(p + 7, "\n")) : NULL;
	free(text);
	return f;
}

/*
 * The regression of @tip from @good on @metric: bisected, mailed once.
 * 0 when it was reported (now or before); *unsent when its mail could
 * not be sent (it stays in the outbox, "sent": false in the state).
 */
static int regression(const struct watch *w, cJSON *s, const char *good, const char *tip,
		      const char *metric, double pct, bool *unsent)
{
	char *dir = xasprintf("%s/bisect-%.12s-%.12s", w->r.dir, good, tip);
	char *first = NULL, *mail = NULL, *mbox = NULL, *from = NULL;
	char *report = xasprintf("%s/report.txt", dir);
	cJSON *r;
	int ret = -1;

	printf("watch: %.12s: %s %+.1f%% against %.12s: bisecting\n", tip, metric, pct, good);
	fflush(stdout);
	/* A bisection an earlier call did not finish starts again. */
	if (access(report, F_OK) && !access(dir, F_OK)) {
		char *argv[] = { "rm", "-rf", dir, NULL }, *out = NULL;

		run_capture(argv, &out, NULL);
		free(out);
	}
	if (access(report, F_OK) && bisect(w, good, tip, metric, dir))
		goto out;
	first = regmail_first_bad(dir);
	if (!first) {
		error("watch: %s: the bisection named no first bad commit", dir);
		goto out;
	}
	if (watch_state_reported(s, first, metric)) {
		printf("watch: %.12s was reported already (%s)\n", first, metric);
		ret = 0;
		goto out;
	}
	mail = regmail_bisect(&w->mail, dir);
	mbox = xasprintf("%s/%.12s-%s.mbox", w->outbox, first, metric);
	if (!mail || mkdir_p(w->outbox) || write_output(mbox, mail))
		goto out;
	r = watch_state_report(s, first, metric, pct, dir, mbox);
	printf("watch: %.12s is the first bad commit: %s\n", first, mbox);
	ret = 0;
	if (w->send) {
		from = mail_from(mbox);
		*unsent = from ? send_mail(w, mbox, from) : error("watch: %s has no From", mbox);
		cJSON_AddBoolToObject(r, "sent", !*unsent);
		if (!*unsent)
			printf("watch: sent %s\n", mbox);
	}
out:
	free(from);
	free(report);
	free(mbox);
	free(mail);
	free(first);
	free(dir);
	return ret;
}

/*
 * One look at the branch: its tip, if new, is tested first (a tip that
 * does not build or boot needs no baseline to be recorded), then judged
 * against the last good commit. 0, or 1 when something failed.
 */
static int watch_once(const struct watch *w, const char *baseline)
{
	cJSON *s = watch_state_load(w->r.dir, w->r.tree, w->branch, baseline);
	char *tip = NULL, *good, *metric = NULL;
	bool unsent = false;
	double pct = 0;
	int ret = 1;

	if (!s)
		return 1;
	good = xstrdup(json_str_at(s, "last_good"));
	tip = git_commit(w->r.tree, w->branch);
	if (!tip) {
		error("watch: %s has no branch %s", w->r.tree, w->branch);
		goto out;
	}
	if (!strcmp(tip, good) || watch_state_tested(s, tip)) {
		printf("watch: %s at %.12s: nothing new\n", w->branch, tip);
		ret = watch_state_save(w->r.dir, s) ? 1 : 0;
		goto out;
	}
	printf("watch: %s at %.12s: testing it against %.12s\n", w->branch, tip, good);
	fflush(stdout);
	if (revision_run(&w->r, tip)) {
		printf("watch: %.12s did not build, boot or run its workload: recorded\n", tip);
		watch_state_record(s, tip, "broken", "it did not build, boot or run its workload");
		ret = watch_state_save(w->r.dir, s) ? 1 : 0;
		goto out;
	}
	if (revision_run(&w->r, good)) {
		error("watch: the last good commit %.12s did not build, boot or run", good);
		goto out;
	}
	if (worst_regression(w, good, tip, &metric, &pct))
		goto out;
	if (!metric) {
		printf("watch: %.12s is good against %.12s\n", tip, good);
		watch_state_record(s, tip, "good", NULL);
		cJSON_ReplaceItemInObject(s, "last_good", cJSON_CreateString(tip));
		ret = watch_state_save(w->r.dir, s) ? 1 : 0;
		goto out;
	}
	if (regression(w, s, good, tip, metric, pct, &unsent)) {
		watch_state_record(s, tip, "regressed", "its regression was not bisected and reported");
		watch_state_save(w->r.dir, s);
		goto out;
	}
	/* Reported: later commits are judged against the regressed level. */
	watch_state_record(s, tip, "regressed", metric);
	cJSON_ReplaceItemInObject(s, "last_good", cJSON_CreateString(tip));
	ret = watch_state_save(w->r.dir, s) || unsent ? 1 : 0;
out:
	free(metric);
	free(tip);
	free(good);
	cJSON_Delete(s);
	return ret;
}

int cmd_watch(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "watch",
		.about = "Follows BRANCH of the git tree DIR: each new tip is built, booted and run\n"
			 "(variant TREE@COMMIT with the --alloc-config fragments, as bisect does)\n"
			 "and compared with the last good commit, first --baseline. A change\n"
			 "for the worse of PCT percent or more that compare calls a change (the\n"
			 "cost model's counts: any change) is bisected, and the mail of the first\n"
			 "bad commit ('report --mbox --bisect') goes into the outbox, and is sent\n"
			 "with --send. STATE/watch.json keeps what was tested and reported: a\n"
			 "regression is mailed once; a commit that does not build or boot is\n"
			 "recorded, never retried nor reported. Once per call (for cron), or\n"
			 "every --poll seconds.\n",
	};
	static const char *const sends[] = { "git", "sendmail", NULL };
	struct watch w = {
		.threshold = 5,
		.r = { .cmd = "watch", .alloc_config = "base alloc-slub", .workload = "cost",
		       .vm = { .accel = "cost", .numa = 1 } },
	};
	const char *state = NULL, *outbox = NULL;
	char *tree = NULL, *baseline = NULL, *workload = NULL, *abs = NULL, *lock = NULL;
	int ret = 2, fd = -1;
	struct opt opts[] = {
		OPT_STRING(0, "tree", &w.r.tree, "DIR", "the git tree (only read)"),
		OPT_STRING(0, "branch", &w.branch, "BRANCH", "the branch to follow"),
		OPT_STRING(0, "baseline", &w.baseline, "REV",
			   "the first good commit (when the state is new)"),
		{ .type = OPT_T_STRING, .name = "state", .value = &state, .argh = "DIR",
		  .help = "the state, results and bisections", .deftext = "results/watch-BRANCH" },
		{ .type = OPT_T_STRING, .name = "outbox", .value = &outbox, .argh = "DIR",
		  .help = "where the mails are written", .deftext = "STATE/outbox" },
		OPT_CHOICE("send", &w.send, "HOW", sends,
			   "send each mail with git send-email (its\nsendemail.* settings) or "
			   "through sendmail"),
		{ .type = OPT_T_STRING, .name = "alloc-config", .value = &w.r.alloc_config,
		  .argh = "LIST", .help = "the variant's config, as bisect takes it",
		  .deftext = "\"base alloc-slub\"" },
		OPT_STRING(0, "workload", &w.r.workload, "FILE",
			   "a workload file, or a name in workloads/"),
		OPT_STRING(0, "metric", &w.metric, "TEST.METRIC",
			   "watch this one metric (else every metric\noutside a sweep)"),
		OPT_DOUBLE("threshold", &w.threshold, "PCT", 0, 1000, true,
			   "the smallest change in percent that is a regression"),
		OPT_VM(&w.r.vm, 1),
		{ .type = OPT_T_LONG, .name = "boots", .value = &w.r.boots, .argh = "N", .min = 1,
		  .max = 100, .help = "boots per commit",
		  .deftext = OPT_STR(RUN_COST_BOOTS) " with --accel=cost, else " OPT_STR(RUN_BOOTS) },
		OPT_INTEGER("poll", &w.poll, "S", 0, 86400 * 7, "s",
			    "look again every S seconds (0: once, for cron)"),
		{ .type = OPT_T_STRING, .name = "from", .value = &w.mail.from, .argh = "ADDR",
		  .help = "the mail's sender", .deftext = "git config user.name and user.email" },
		OPT_STRING(0, "to", &w.mail.to, "LIST", "more recipients (comma-separated)"),
		OPT_STRING(0, "cc", &w.mail.cc, "LIST", "more Cc (comma-separated)"),
		OPT_BOOLEAN(0, "no-maintainers", &w.mail.no_maintainers,
			    "only --to and --cc: get_maintainer.pl is not run"),
		{ .type = OPT_T_STRING, .name = "reported-by", .value = &w.mail.reported_by,
		  .argh = "ADDR", .help = "the Reported-by: tag's identity", .deftext = "--from" },
		{ .type = OPT_T_STRING, .name = "tree-name", .value = &w.mail.tree_name,
		  .argh = "NAME", .help = "the subject's [NAME]", .deftext = "DIRNAME:BRANCH" },
		OPT_END(),
	};

	if (options_parse(&usage, opts, argc, argv) < 0)
		return 2;
	setenv("GIT_OPTIONAL_LOCKS", "0", 1);
	if (!w.r.tree || !w.branch || !w.baseline) {
		error("watch: --tree, --branch and --baseline are needed");
		goto out;
	}
	if (revision_setup(&w.r, &tree, &workload))
		goto out;
	baseline = git_commit(tree, w.baseline);
	if (!baseline) {
		error("watch: --baseline: %s has no revision '%s'", tree, w.baseline);
		goto out;
	}
	if (state) {
		abs = mkdir_p(state) ? NULL : realpath(state, NULL);
	} else {
		char *s = xasprintf("results/watch-%s", w.branch);

		for (char *p = s + strlen("results/watch-"); *p; p++)
			if (*p == '/')
				*p = '-';
		abs = mkdir_p(s) ? NULL : realpath(s, NULL);
		free(s);
	}
	if (!abs)
		goto out;
	w.r.dir = abs;
	lock = xasprintf("%s/lock", abs);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
		error("watch: %s: another watch is running on this state", lock);
		goto out;
	}
	{
		char *ob = outbox ? xstrdup(outbox) : xasprintf("%s/outbox", abs);
		char *tn = NULL;

		w.outbox = ob;
		if (!w.mail.tree_name) {
			char *base = strrchr(tree, '/');

			tn = xasprintf("%s:%s", base ? base + 1 : tree, w.branch);
			w.mail.tree_name = tn;
		}
		do {
			ret = watch_once(&w, baseline);
			if (w.poll)
				sleep(w.poll);
		} while (w.poll);
		free(tn);
		free(ob);
	}
out:
	if (fd >= 0)
		close(fd);
	free(lock);
	free(abs);
	free(workload);
	free(baseline);
	free(tree);
	return ret;
}
