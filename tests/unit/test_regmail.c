// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the regression mail: a body a maintainer reads (at most
 * REGMAIL_BODY_LINES lines, leading with what changed), the whole report
 * and the full comparison attached, tags never wrapped nor refused for
 * their width, read back by Python's mailbox and email packages; and the
 * mail of a bisection, with its "#regzbot introduced:" line; the
 * variants lines its reproducer carries, as vm/kernel.sh reads them.
 */
#define _GNU_SOURCE
#include "check.h"
#include "compare.h"
#include "guest.h"
#include "noise.h"
#include "regmail.h"
#include "report.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Real results of 5 interleaved boots of slab and slub under TCG, and their floor. */
static const char *const paths[] = {
	"tests/data/report5-slab.json", "tests/data/report5-slub.json",
};
#define NOISE "tests/data/noise-compare.json"

/* 30 and 60 characters: a Reported-by: tag of 110 columns. */
#define NAME "Maximiliana Ottilie Wojciechow"
#define ADDRESS "maximiliana.ottilie.wojciechowska-brzeczyszczyki@example.org"

/*
 * Python's reading of the mail in @mbox: one message, the body's lines,
 * and each attachment against what it must hold (@report, @compare);
 * a line "ok - ..." or "not ok - ..." each, checked here.
 */
static const char check_py[] =
	"import email, email.policy, mailbox, sys\n"
	"mbox, report, compare = sys.argv[1:4]\n"
	"msgs = list(mailbox.mbox(mbox))\n"
	"m = email.message_from_bytes(msgs[0].as_bytes(), policy=email.policy.default)\n"
	"body = m.get_body(preferencelist=('plain',)).get_content()\n"
	"att = {p.get_filename(): p.get_content() for p in m.iter_attachments()\n"
	"       if p.get_content_type() == 'text/plain'}\n"
	"lines = body.split('\\n')\n"
	"checks = {\n"
	"  'one message, multipart/mixed': len(msgs) == 1 and m.get_content_type() == 'multipart/mixed',\n"
	"  'From: the long identity': m['From'].addresses[0].addr_spec == '" ADDRESS "',\n"
	"  'body: %d lines, at most 150' % len(body.splitlines()): len(body.splitlines()) <= 150,\n"
	"  'body: what changed before the setup': 0 < body.find('What changed') < body.find('\\nSetup'),\n"
	"  'body: the memory answer before the setup': 0 < body.find('\\nMemory') < body.find('\\nSetup'),\n"
	"  'body: tags before how to reproduce': 0 < body.find('| Reported-by:') < body.find('To reproduce'),\n"
	"  'body: the Reported-by: tag on one line': '| Reported-by: " NAME " <" ADDRESS ">' in lines,\n"
	"  'body: the Closes: tag on one line': any(l.startswith('| Closes: https://') and len(l) > 72 for l in lines),\n"
	"  'body: every other line within 72 columns': all(len(l) <= 72 for l in lines if not l.startswith('| ')),\n"
	"  'report.txt holds the whole report': att.get('report.txt') == open(report).read(),\n"
	"  'compare.txt holds the full comparison': att.get('compare.txt') == open(compare).read(),\n"
	"}\n"
	"for name, ok in checks.items():\n"
	"    print('%s - mail: %s' % ('ok' if ok else 'not ok', name))\n";

/* Writes @text to a new file in /tmp; its path, to free and unlink. */
static char *scratch(const char *text)
{
	char *path = xstrdup("/tmp/slabbench-regmail-XXXXXX");
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		printf("# cannot write %s\n", path);
	if (fd >= 0)
		close(fd);
	return path;
}

/* Python's verdicts on @mbox, each counted as a check here. */
static void python_checks(const char *mbox, const char *report, const char *compare)
{
	char *py = scratch(check_py), *rp = scratch(report), *cp = scratch(compare);
	char *argv[] = { "python3", py, (char *)mbox, rp, cp, NULL }, *out = NULL, *save, *l;
	int n = 0;

	CHECK(run_capture(argv, &out, NULL) == 0, "mail: python3 reads it");
	for (l = out ? strtok_r(out, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		CHECK(!strncmp(l, "ok - ", 5), "%s", l + (strncmp(l, "ok - ", 5) ? 9 : 5));
		n++;
	}
	CHECK(n == 11, "mail: python3 gave its 11 verdicts (%d)", n);
	unlink(py);
	unlink(rp);
	unlink(cp);
	free(py);
	free(rp);
	free(cp);
	free(out);
}

static void test_comparison_mail(void)
{
	struct regmail_opts o = {
		.from = NAME " <" ADDRESS ">", .to = "linux-mm@kvack.org",
		.no_maintainers = true,
		.closes = "https://lore.kernel.org/linux-mm/20261206120000.1234567-1-"
			  "maximiliana@example.org/",
	};
	cJSON **docs = compare_load(paths, 2, false), *noise;
	struct comparison c = { 0 };
	char *mail = NULL, *report, *compare, *mbox, *body;
	bool missing;

	noise = noise_load(NOISE, &missing);
	CHECK(docs && noise && !compare_build(&c, regmail_attached, (const cJSON *const *)docs,
					      2, 0.05, noise, NOISE),
	      "mail: the runs compare");
	if (!docs || !noise)
		goto out;
	/* Results that keep each kernel's config lines: the mail attaches them too. */
	for (int r = 0; r < 2; r++) {
		const char *lines[] = { "CONFIG_SMP=y", r ? "CONFIG_SLUB=y" : "CONFIG_SLAB=y" };

		cJSON_AddItemToObject(cJSON_GetObjectItem(docs[r], "kernel"), "common_config_lines",
				      cJSON_CreateStringArray(lines, 2));
	}
	mail = regmail_comparison(&o, paths, (const cJSON *const *)docs, &c, NULL);
	CHECK(mail != NULL && strlen(NAME) == 30 && strlen(ADDRESS) == 60,
	      "mail: written with a %zu-character name, a %zu-character address and a Closes: "
	      "tag of %zu columns", strlen(NAME), strlen(ADDRESS), strlen(o.closes) + 10);
	if (!mail)
		goto out;
	report = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	compare = compare_text(&c);
	CHECK(text_lines(report) > 150 || strstr(report, "\nResults"),
	      "mail: the whole report (%d lines) has its Results table", text_lines(report));
	body = strstr(mail, "\n\nslabbench compared ");
	CHECK(body && !strstr(body, "\nResults (") && strstr(body, "\nWhat changed ("),
	      "mail: the body shows what changed, not the whole table");
	CHECK(strstr(mail, "filename=\"config-new.gz\""), "mail: each config as recorded attached");
	mbox = scratch(mail);
	python_checks(mbox, report, compare);
	unlink(mbox);
	free(mbox);
	free(report);
	free(compare);
out:
	free(mail);
	compare_free(&c);
	cJSON_Delete(noise);
	compare_unload(docs, 2);
}

/* Runs @cmd in the shell; whether it succeeded. */
static bool sh(const char *fmt, const char *a, const char *b)
{
	char *cmd = xasprintf(fmt, a, b);
	bool ok = system(cmd) == 0;

	free(cmd);
	return ok;
}

/*
 * A finished bisection (bisect -o DIR) made by hand: a git tree of one
 * commit, the first bad, whose results are the slub runs, the good's the
 * slab runs. Its mail names the commit for regzbot.
 */
static void test_bisect_mail(void)
{
	char dir[] = "/tmp/slabbench-bisect-XXXXXX", *tree, *first = NULL, *path, *text;
	char *mail = NULL;
	const char *good = "0123456789ab";
	struct regmail_opts o = {
		.from = NAME " <" ADDRESS ">", .to = "linux-mm@kvack.org", .no_maintainers = true,
	};

	if (!mkdtemp(dir))
		return;
	tree = xasprintf("%s/linux", dir);
	CHECK(sh("set -e; mkdir -p %s/mm; cd %s; git init -q .; echo x >mm/slub.c; "
		 "git add mm/slub.c; git -c user.name=A -c user.email=a@example.org "
		 "commit -qm 'mm/slub: slower'", tree, tree), "bisect: a tree of one commit");
	first = run_words("git", "-C", tree, "rev-parse", "HEAD", NULL);
	if (!first)
		goto out;
	first[strcspn(first, "\n")] = '\0';
	path = xasprintf("%s/bisect.json", dir);
	text = xasprintf("{\"tree\":\"%s\",\"good\":\"%s\",\"metric\":\"fastpath.ns_per_op\","
			 "\"threshold\":5}", tree, good);
	write_file_atomic(path, text, strlen(text));
	free(path);
	free(text);
	path = xasprintf("%s/bisect-run.log", dir);
	text = xasprintf("running\n%s is the first bad commit\n", first);
	write_file_atomic(path, text, strlen(text));
	free(path);
	free(text);
	path = xasprintf("%s/steps", dir);
	text = xasprintf("%s bad 195.45 -16.6\n", first);
	write_file_atomic(path, text, strlen(text));
	free(path);
	free(text);
	CHECK(sh("cp tests/data/report5-slab.json %s/%.12s.json", dir, good) &&
	      sh("cp tests/data/report5-slub.json %s/%.12s.json", dir, first),
	      "bisect: the good and first bad commits' results");
	setenv("SLABBENCH_NOISE", NOISE, 1);
	mail = regmail_bisect(&o, dir);
	CHECK(mail != NULL, "bisect: the mail is written");
	text = xasprintf("\n#regzbot introduced: %.12s\n", first);
	CHECK(mail && strstr(mail, text), "bisect: '#regzbot introduced: %.12s' on a line of its "
	      "own", first);
	CHECK(mail && strstr(mail, text) < strstr(mail, "\n| Reported-by: "),
	      "bisect: before the tags");
	free(text);
	CHECK(mail && strstr(mail, "slabbench bisected a regression of fastpath.ns_per_op") &&
	      strstr(mail, "filename=\"report.txt\""),
	      "bisect: how it was found leads, the whole report attached");
out:
	sh("rm -rf %s%s", dir, "");
	free(mail);
	free(first);
	free(tree);
}

/*
 * A user's line as vm/kernel.sh splits it (blanks folded, comments
 * passed over), a built-in one from vm/variants, none for an unknown.
 */
static void test_variant_line(void)
{
	char *path = scratch("# mine 6.1 base alloc-slab\n\n  mine   6.1+/nowhere/series\t"
			     "base alloc-slub\n");
	char *line = variant_line(path, "mine");

	CHECK_STR(line, "mine 6.1+/nowhere/series base alloc-slub",
		  "variants: a user's line, blanks folded, past a comment naming it");
	free(line);
	line = variant_line(path, "slab");
	CHECK_STR(line, "slab 6.1 base alloc-slab", "variants: a built-in line");
	free(line);
	line = variant_line(path, "mine2");
	CHECK(!line, "variants: none for an unknown variant (kernel.sh says so above)");
	free(line);
	unlink(path);
	free(path);
}

int main(void)
{
	test_variant_line();
	test_comparison_mail();
	test_bisect_mail();
	return check_done();
}
