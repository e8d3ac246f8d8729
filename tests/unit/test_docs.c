// SPDX-License-Identifier: GPL-2.0
/*
 * The documentation against what it describes: the command pages under
 * docs/commands/ against the option tables they are made from (a page
 * that drifted from `make docs` fails), and every relative link of the
 * README and docs/ against the file, and heading, it points to.
 */
#define _GNU_SOURCE
#include "check.h"
#include "options.h"
#include "strbuf.h"
#include "util.h"

#include <ctype.h>
#include <glob.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_markdown(void)
{
	static const char *const modes[] = { "fast", "slow", NULL };
	static const struct usage usage = {
		.cmd = "demo", .args = "FILE...", .about = "Demonstrates\n  the table.\n",
	};
	const char *out = NULL, *mode = "fast";
	long boots = 5;
	bool quiet = false;
	struct opt opts[] = {
		OPT_BOOLEAN(0, "quiet", &quiet, "say less"),
		OPT_STRING('o', "output", &out, "FILE", "where it goes;\nfoo|bar"),
		OPT_INTEGER("boots", &boots, "N", 1, 100, NULL, "boots a side"),
		OPT_CHOICE("mode", &mode, "MODE", modes, "how"),
		OPT_END(),
	};
	char *argv[] = { "demo", NULL }, *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	options_parse(&usage, opts, 1, argv);
	options_markdown(f, &usage, opts);
	fclose(f);
	CHECK_STR(text,
		  "```\n"
		  "usage: slabbench demo [OPTION...] FILE...\n"
		  "\n"
		  "Demonstrates\n"
		  "  the table.\n"
		  "```\n"
		  "\n"
		  "| option | meaning | values |\n"
		  "| --- | --- | --- |\n"
		  "| `--quiet` | say less |  |\n"
		  "| `-o`, `--output=FILE` | where it goes; foo\\|bar |  |\n"
		  "| `--boots=N` | boots a side | 1 to 100, default 5 |\n"
		  "| `--mode=MODE` | how | fast or slow, default fast |\n",
		  "the Markdown help: the head as the terminal's, a row per option");
	free(text);
}

/* GitHub's anchor of a heading: lower case, '-' for a space, no punctuation. */
static char *anchor_of(const char *heading, size_t len)
{
	struct strbuf b = { 0 };

	sb_addf(&b, "%s", "");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = heading[i];

		if (c == ' ')
			sb_addf(&b, "-");
		else if (isalnum(c) || c == '-' || c == '_' || c >= 0x80)
			sb_addf(&b, "%c", tolower(c));
	}
	return b.s;
}

/* The next line of @p's text outside fenced code, or NULL at the end. */
static const char *next_line(const char **p, size_t *len, bool *fenced)
{
	while (**p) {
		const char *line = *p;

		*len = strcspn(line, "\n");
		*p = line + *len + (line[*len] == '\n');
		if (!strncmp(line, "```", 3)) {
			*fenced = !*fenced;
			continue;
		}
		if (!*fenced)
			return line;
	}
	return NULL;
}

/* Whether Markdown @md has a heading whose anchor is @anchor. */
static bool has_anchor(const char *md, const char *anchor)
{
	struct strbuf seen = { 0 };
	const char *p = md, *line;
	bool fenced = false, found = false;
	size_t len;

	sb_addf(&seen, "\n");
	while (!found && (line = next_line(&p, &len, &fenced))) {
		size_t hashes = strspn(line, "#");
		char *a, *key, *dup;
		int n = 0;

		if (!hashes || hashes > 6 || line[hashes] != ' ')
			continue;
		a = anchor_of(line + hashes + 1, len - hashes - 1);
		/* A heading seen before gets -1, -2... as on GitHub. */
		key = xasprintf("\n%s\n", a);
		for (const char *s = seen.s; (s = strstr(s, key)); s++)
			n++;
		dup = n ? xasprintf("%s-%d", a, n) : xstrdup(a);
		found = !strcmp(dup, anchor);
		sb_addf(&seen, "%s\n", a);
		free(key);
		free(dup);
		free(a);
	}
	free(seen.s);
	return found;
}

/*
 * The relative links of @md, the text of the file @path, that lead to no
 * file or to no heading of it, each added to @bad; returns how many.
 * Links in code (fenced or `spans`) are examples, not links.
 */
static int broken_links(const char *path, const char *md, struct strbuf *bad)
{
	char *copy = xstrdup(path), *dir = xstrdup(dirname(copy));
	const char *p = md, *line;
	bool fenced = false;
	size_t len;
	int n = 0;

	while ((line = next_line(&p, &len, &fenced))) {
		bool code = false;

		for (size_t i = 0; i + 1 < len; i++) {
			size_t tlen;
			char *target, *hash, *file, *text;
			struct stat st;
			bool ok;

			if (line[i] == '`')
				code = !code;
			if (code || line[i] != ']' || line[i + 1] != '(')
				continue;
			tlen = strcspn(line + i + 2, ")\n");
			target = xstrndup(line + i + 2, tlen);
			if (strstr(target, "://") || !strncmp(target, "mailto:", 7)) {
				free(target);
				continue;
			}
			hash = strchr(target, '#');
			if (hash)
				*hash++ = '\0';
			/* An empty file is this one, which need not be on disk yet. */
			file = *target ? xasprintf("%s/%s", dir, target) : NULL;
			ok = !file || !stat(file, &st);
			if (ok && hash) {
				text = file ? read_file(file, NULL) : xstrdup(md);
				ok = text && has_anchor(text, hash);
				free(text);
			}
			if (!ok) {
				sb_addf(bad, " %s:(%s%s%s)", path, target, hash ? "#" : "",
					hash ? hash : "");
				n++;
			}
			free(file);
			free(target);
		}
	}
	free(dir);
	free(copy);
	return n;
}

static void test_link_checker(void)
{
	struct strbuf bad = { 0 };
	int n = broken_links("docs/x.md",
			     "# A title, here\n"
			     "[a](nowhere.md) [b](measured.md#no-such-heading)\n"
			     "`[c](skip.md)` [d](measured.md) [e](#a-title-here)\n"
			     "[f](#a-title-here-1) [g](https://example.org/x)\n"
			     "```\n[h](fenced.md)\n```\n",
			     &bad);

	CHECK(n == 3, "the link checker finds a missing file, a missing heading and a "
		      "missing second heading, and nothing else (%d:%s)", n, bad.s ? bad.s : "");
	free(bad.s);
}

static void test_links(void)
{
	static const char *const patterns[] = { "README.md", "docs/*.md", "docs/commands/*.md" };
	glob_t g = { 0 };

	for (size_t i = 0; i < sizeof(patterns) / sizeof(*patterns); i++)
		glob(patterns[i], i ? GLOB_APPEND : 0, NULL, &g);
	CHECK(g.gl_pathc > 10, "README.md and docs/ have their pages (%zu)", g.gl_pathc);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct strbuf bad = { 0 };
		char *md = read_file(g.gl_pathv[i], NULL);
		int n = md ? broken_links(g.gl_pathv[i], md, &bad) : -1;

		CHECK(n == 0, "every relative link of %s leads to a file and heading%s",
		      g.gl_pathv[i], bad.s ? bad.s : "");
		free(bad.s);
		free(md);
	}
	globfree(&g);
}

/* Whether every page of directory @a is in @b, the same. */
static bool same_pages(const char *a, const char *b, struct strbuf *diff)
{
	char *pattern = xasprintf("%s/*.md", a);
	glob_t g = { 0 };
	bool same = true;

	glob(pattern, 0, NULL, &g);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *other = xasprintf("%s/%s", b, strrchr(g.gl_pathv[i], '/') + 1);
		char *x = read_file(g.gl_pathv[i], NULL), *y = read_file(other, NULL);

		if (!x || !y || strcmp(x, y)) {
			sb_addf(diff, " %s", other);
			same = false;
		}
		free(x);
		free(y);
		free(other);
	}
	same = same && g.gl_pathc > 0;
	globfree(&g);
	free(pattern);
	return same;
}

static void test_pages(void)
{
	char dir[] = "/tmp/slabbench-docs-XXXXXX";
	char *argv[] = { "scripts/docs.sh", dir, NULL }, *out = NULL, *rm;
	struct strbuf diff = { 0 };
	bool made = mkdtemp(dir) && run_capture(argv, &out, NULL) == 0;

	CHECK(made, "scripts/docs.sh writes the command pages into %s", dir);
	CHECK(made && same_pages(dir, "docs/commands", &diff) &&
	      same_pages("docs/commands", dir, &diff),
	      "docs/commands/ is what make docs writes, no page more or less "
	      "(run make docs):%s", diff.s ? diff.s : "");
	rm = xasprintf("rm -rf %s", dir);
	if (system(rm))
		printf("# could not remove %s\n", dir);
	free(rm);
	free(diff.s);
	free(out);
}

int main(void)
{
	if (chdir(slabbench_home())) {
		printf("not ok - cannot enter %s\n", slabbench_home());
		return 1;
	}
	test_markdown();
	test_link_checker();
	test_links();
	test_pages();
	return check_done();
}
