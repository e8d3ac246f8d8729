// SPDX-License-Identifier: GPL-2.0
/* The regression report as a mail (see regmail.h). */
#define _GNU_SOURCE
#include "regmail.h"
#include "compare.h"
#include "json.h"
#include "mail.h"
#include "noise.h"
#include "report.h"
#include "results.h"
#include "schema.h"
#include "strbuf.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const regmail_attached[2] = { "results-base.json", "results-new.json" };
static const char *const attached_gz[2] = { "results-base.json.gz", "results-new.json.gz" };

static char *sender(const struct regmail_opts *o)
{
	char *name, *email, *from;

	if (o->from)
		return xstrdup(o->from);
	name = run_words("git", "config", "user.name", NULL);
	email = run_words("git", "config", "user.email", NULL);
	if (!email || !*email) {
		error("report: no sender: give --from, or set git config user.email");
		from = NULL;
	} else {
		from = name && *name ? xasprintf("%s <%s>", name, email) : xstrdup(email);
	}
	free(name);
	free(email);
	return from;
}

/* A list of addresses without repeats, and without those of @not. */
struct addrs {
	char **a;
	int n;
};

static bool addrs_has(const struct addrs *l, const char *addr)
{
	char *bare = mail_bare_address(addr);
	bool has = false;

	for (int i = 0; i < l->n && !has; i++) {
		char *b = mail_bare_address(l->a[i]);

		has = !strcmp(b, bare);
		free(b);
	}
	free(bare);
	return has;
}

static void addrs_add(struct addrs *l, const char *list, const struct addrs *not)
{
	char **v;
	int n = mail_split_addresses(list ? list : "", &v);

	for (int i = 0; i < n; i++) {
		if (addrs_has(l, v[i]) || (not && addrs_has(not, v[i]))) {
			free(v[i]);
			continue;
		}
		l->a = xrealloc(l->a, (l->n + 1) * sizeof(*l->a));
		l->a[l->n++] = v[i];
	}
	free(v);
}

static char *addrs_join(const struct addrs *l)
{
	struct strbuf b = { 0 };

	sb_addf(&b, "%s", "");
	for (int i = 0; i < l->n; i++)
		sb_addf(&b, "%s%s", i ? ", " : "", l->a[i]);
	return b.s;
}

static void addrs_free(struct addrs *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->a[i]);
	free(l->a);
}

/*
 * The tree's scripts/get_maintainer.pl on @files, run in @dir: mailing
 * lists into @lists, people into @people. git's history is not asked
 * (--no-git): the MAINTAINERS file answers, the same on every run.
 */
static int get_maintainer(const char *dir, char *const *files, int n, struct addrs *lists,
			  struct addrs *people)
{
	char *argv[48] = { "env", "-C", (char *)dir, "perl", "scripts/get_maintainer.pl",
			   "--no-tree", "--no-git", "--no-git-fallback", "--no-keywords",
			   "-f" };
	char *out = NULL, *save = NULL, *line;
	int argc = 10, given = 0;

	for (int i = 0; i < n && argc < 47; i++) {
		char *path = xasprintf("%s/%s", dir, files[i]);
		struct stat st;

		if (!stat(path, &st) && S_ISREG(st.st_mode)) {
			argv[argc++] = files[i];
			given++;
		}
		free(path);
	}
	argv[argc] = NULL;
	if (!given)
		return error("report: none of the files to ask get_maintainer.pl about is in %s",
			     dir);
	if (run_capture(argv, &out, NULL)) {
		free(out);
		return error("report: %s/scripts/get_maintainer.pl failed (see above)", dir);
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *role = strstr(line, " (");

		if (!strchr(line, '@'))
			continue;
		if (role)
			*role = '\0';
		/* "(open list:SLAB ALLOCATOR)", "(moderated list:...)" */
		addrs_add(role && strstr(role + 1, "list") ? lists : people, line, NULL);
	}
	free(out);
	return 0;
}

static int remove_tree(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };
	char *out = NULL;
	int ret = run_capture(argv, &out, NULL);

	free(out);
	return ret;
}

/*
 * get_maintainer.pl of the git tree @git at @commit: the script, the
 * MAINTAINERS file and @files as they are at that commit, in a
 * directory of their own (the user's checkout is neither read for them
 * nor written).
 */
static int git_maintainers(const char *git, const char *commit, char *const *files, int n,
			   struct addrs *lists, struct addrs *people)
{
	const char *tmpdir = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/slabbench-maint.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	char *dir = mkdtemp(tmpl);
	const char *fixed[] = { "scripts/get_maintainer.pl", "MAINTAINERS" };
	int ret = 0;

	if (!dir) {
		free(tmpl);
		return error("report: mkdtemp: %s", strerror(errno));
	}
	for (int i = 0; i < n + 2 && !ret; i++) {
		const char *f = i < 2 ? fixed[i] : files[i - 2];
		char *spec = xasprintf("%s:%s", commit, f), *path = xasprintf("%s/%s", dir, f);
		char *argv[] = { "git", "-C", (char *)git, "cat-file", "blob", spec, NULL };
		char *data = NULL, *d = xstrdup(path);
		size_t len = 0;

		/* A file the commit deletes is not there to ask about. */
		if (!run_capture(argv, &data, &len)) {
			if (mkdir_p(dirname(d)) || write_file_atomic(path, data, len))
				ret = -1;
		} else if (i < 2) {
			ret = error("report: %s has no %s at %.12s", git, f, commit);
		}
		free(d);
		free(data);
		free(path);
		free(spec);
	}
	if (!ret)
		ret = get_maintainer(dir, files, n, lists, people);
	remove_tree(dir);
	free(tmpl);
	return ret;
}

/* To and Cc: lists as To, people as Cc, then what the options add. */
static int recipients(const struct regmail_opts *o, struct addrs *lists, struct addrs *people,
		      char **to, char **cc)
{
	struct addrs t = { 0 }, c = { 0 };

	addrs_add(&t, o->to, NULL);
	for (int i = 0; i < lists->n && !o->no_maintainers; i++)
		addrs_add(&t, lists->a[i], NULL);
	addrs_add(&c, o->cc, &t);
	for (int i = 0; i < people->n && !o->no_maintainers; i++)
		addrs_add(&c, people->a[i], &t);
	/* Without a list, the people are whom it is to. */
	if (!t.n) {
		t = c;
		c = (struct addrs){ 0 };
	}
	if (!t.n) {
		addrs_free(&t);
		return error("report: the mail has no recipient: give --to");
	}
	*to = addrs_join(&t);
	*cc = addrs_join(&c);
	addrs_free(&t);
	addrs_free(&c);
	return 0;
}

/* Files a change of the allocator @alloc ("SLUB") is in. */
static int allocator_files(const char *alloc, char **files, int max)
{
	static const char *const common[] = { "mm/slab_common.c", "mm/slab.h" };
	int n = 0;

	if (!strcasecmp(alloc, "SLUB") || !strcasecmp(alloc, "SLAB") || !strcasecmp(alloc, "SLOB"))
		files[n++] = xasprintf("mm/%c%c%c%c.c", tolower(alloc[0]), tolower(alloc[1]),
				       tolower(alloc[2]), tolower(alloc[3]));
	for (size_t i = 0; i < ARRAY_SIZE(common) && n < max; i++)
		files[n++] = xstrdup(common[i]);
	return n;
}

/* A git tree variant's "DIR@COMMIT[+uncommitted]": DIR and COMMIT; false otherwise. */
static bool git_variant(const char *tree, char **dir, char **commit)
{
	const char *at = strrchr(tree, '@');

	if (tree[0] != '/' || !at)
		return false;
	*dir = strndup(tree, at - tree);
	*commit = strndup(at + 1, strspn(at + 1, "0123456789abcdef"));
	return true;
}

/* A series variant's "VERSION+SERIES": the series' path; NULL otherwise. */
static const char *series_path(const char *tree)
{
	const char *plus = strchr(tree, '+');

	return tree[0] != '/' && plus && plus[1] ? plus + 1 : NULL;
}

/* The kernel source slabbench unpacked for @version ("6.1"), if it has one. */
static char *cached_source(const char *version)
{
	char *dir = xasprintf("%s/src", slabbench_cache()), *found = NULL;
	char *prefix = xasprintf("linux-%s-", version);
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && !found && (e = readdir(d))) {
		char *done = xasprintf("%s/%s/.complete", dir, e->d_name);

		if (!strncmp(e->d_name, prefix, strlen(prefix)) && !access(done, F_OK) &&
		    !strchr(e->d_name + strlen(prefix), '.'))
			found = xasprintf("%s/%s", dir, e->d_name);
		free(done);
	}
	if (d)
		closedir(d);
	free(prefix);
	free(dir);
	return found;
}

/*
 * The header value of @name in the first message of @text ("Message-Id"),
 * up to the blank line that ends its headers (an mbox's "From " line is
 * just one more line before them); NULL if none.
 */
static char *first_header(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; *p && *p != '\n'; p = strchr(p, '\n') ? strchr(p, '\n') + 1 :
						 p + strlen(p)) {
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			const char *v = p + n + 1, *e;

			v += strspn(v, " \t");
			if (*v == '\n')
				v += 1 + strspn(v + 1, " \t");
			e = v + strcspn(v, "\n");
			while (e > v && isspace((unsigned char)e[-1]))
				e--;
			return e > v ? strndup(v, e - v) : NULL;
		}
	}
	return NULL;
}

/* A series' first file: the cover letter of git format-patch, else the first patch. */
static char *series_first(const char *series)
{
	struct dirent **list;
	struct stat st;
	char *text = NULL;
	int n;

	if (stat(series, &st))
		return NULL;
	if (!S_ISDIR(st.st_mode))
		return read_file(series, NULL);
	n = scandir(series, &list, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(list[i]->d_name);

		if (!text && len > 6 && (!strcmp(list[i]->d_name + len - 6, ".patch") ||
					 !strcmp(list[i]->d_name + len - 5, ".diff"))) {
			char *path = xasprintf("%s/%s", series, list[i]->d_name);

			text = read_file(path, NULL);
			free(path);
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	return text;
}

/* "title" of a series' first patch without its "[PATCH v2 0/3]". */
static char *series_title(const char *text)
{
	char *s = text ? first_header(text, "Subject") : NULL, *t;

	if (!s)
		return NULL;
	t = s;
	while (*t == '[' && strchr(t, ']'))
		t = strchr(t, ']') + 1 + strspn(strchr(t, ']') + 1, " ");
	t = xstrdup(t);
	free(s);
	return t;
}

/* The variant's line of the variants file @path; NULL if it has none. */
static char *variant_line(const char *path, const char *variant)
{
	char *text = read_file(path, NULL), *save = NULL, *line, *found = NULL;
	size_t n = strlen(variant);

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (!strncmp(line, variant, n) && (line[n] == ' ' || line[n] == '\t'))
			found = xstrdup(line);
	}
	free(text);
	return found;
}

/* The user's variants file, as vm/kernel.sh finds it. */
static char *user_variants(void)
{
	const char *env = getenv("SLABBENCH_VARIANTS"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (env && *env)
		return xstrdup(env);
	if (xdg && *xdg)
		return xasprintf("%s/slabbench/variants", xdg);
	return xasprintf("%s/.config/slabbench/variants", home ? home : "");
}

static bool built_in(const struct run_id *id)
{
	const char *tree = id->tree;

	return tree[0] != '/' && !strchr(tree, '+') && !strchr(tree, '@');
}

/* What run options gave the guest of @id, whose results are @doc. */
static char *run_opts(const struct run_id *id, const cJSON *doc)
{
	struct strbuf b = { 0 };
	const char *cmdline = id->cmdline;
	const char *caches = id->cost_requested;
	double numa = id->numa_nodes;

	sb_addf(&b, "--accel=%s --cpus=%.0f --mem=%.0f --boots=%d", id->accel, id->cpus,
		id->mem_mb, run_nr_boots(doc));
	if (numa > 1)
		sb_addf(&b, " --numa=%.0f", numa);
	if (*cmdline && strcmp(cmdline, "?"))
		sb_addf(&b, " --cmdline='%s'", cmdline);
	if (*caches && strcmp(caches, "?"))
		sb_addf(&b, " --caches=%s", caches);
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

/* The lines of @a that @b lacks as -, then @b's that @a lacks as +. */
static void lines_diff(struct strbuf *s, const cJSON *a, const cJSON *b)
{
	const cJSON *l;

	cJSON_ArrayForEach(l, a)
		if (cJSON_IsString(l) && !json_has_string(b, l->valuestring))
			sb_addf(s, "-%s\n", l->valuestring);
	cJSON_ArrayForEach(l, b)
		if (cJSON_IsString(l) && !json_has_string(a, l->valuestring))
			sb_addf(s, "+%s\n", l->valuestring);
}

/* The configs' difference: the allocator lines, then every other line recorded. */
static char *config_diff(const struct run_id *ids, const cJSON *const *d)
{
	struct strbuf s = { 0 };
	const cJSON *ca = run_common_config_lines(d[0]);
	const cJSON *cb = run_common_config_lines(d[1]);

	sb_addf(&s, "--- base: %s, tree %s\n+++ new: %s, tree %s\n", ids[0].variant, ids[0].tree,
		ids[1].variant, ids[1].tree);
	lines_diff(&s, run_allocator_config(d[0]), run_allocator_config(d[1]));
	if (cJSON_IsArray(ca) && cJSON_IsArray(cb))
		lines_diff(&s, ca, cb);
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

struct parts {
	struct mail_part p[8];
	void *owned[8];
	int n;
};

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

/* What the mail says of one side, and how to reach its maintainers. */
struct side {
	char *git, *commit;	/* a git tree variant */
	const char *series;	/* a series variant */
	char *title;		/* the commit's or the series' first patch's */
	char *message_id;	/* the series' cover letter's */
};

static void side_free(struct side *s)
{
	free(s->git);
	free(s->commit);
	free(s->title);
	free(s->message_id);
}

static void side_of(const struct run_id *id, struct side *s)
{
	const char *tree = id->tree;

	memset(s, 0, sizeof(*s));
	if (git_variant(tree, &s->git, &s->commit)) {
		s->title = run_words("git", "-C", s->git, "log", "-1", "--format=%s", s->commit, NULL);
	} else if ((s->series = series_path(tree))) {
		char *first = series_first(s->series);

		s->title = series_title(first);
		s->message_id = first ? first_header(first, "Message-Id") : NULL;
		free(first);
	}
}

struct built {
	const char *subject, *body, *report_subject;
	const char *const *paths;
	const cJSON *const *docs;
	const struct run_id *ids;	/* of @docs */
	char *variants;			/* lines for the reproducer, or NULL */
	const char *git, *commit;	/* whose files name the maintainers */
	char **files;
	int nr_files;
	const char *maint_dir;		/* else a tree on disk */
	const char *author;		/* Cc'd: the culprit's */
	const char *in_reply_to;
};

/* Assembles the message from what the callers gathered. */
static char *assemble(const struct regmail_opts *o, const struct built *w)
{
	struct addrs lists = { 0 }, people = { 0 };
	struct parts ps = { 0 };
	struct strbuf body = { 0 };
	char *from = sender(o), *to = NULL, *cc = NULL, *id = NULL, *mbox = NULL, *cfg;
	const char *reporter;

	if (!from)
		goto out;
	if (!o->no_maintainers) {
		int ret = w->git ? git_maintainers(w->git, w->commit, w->files, w->nr_files,
						   &lists, &people) :
			  w->maint_dir ? get_maintainer(w->maint_dir, w->files, w->nr_files,
							&lists, &people) :
			  error("report: no kernel tree to run scripts/get_maintainer.pl in: "
				"give --maintainers-tree=DIR, or --no-maintainers and --to");

		if (ret)
			goto out;
		if (w->author)
			addrs_add(&people, w->author, NULL);
	}
	if (recipients(o, &lists, &people, &to, &cc))
		goto out;
	reporter = o->reported_by ? o->reported_by : from;
	/* A tag is one line: it cannot wrap. */
	if (mail_columns(reporter, strlen(reporter)) > MAIL_WIDTH - 15 ||
	    (o->closes && strlen(o->closes) > MAIL_WIDTH - 10) ||
	    (o->link && strlen(o->link) > MAIL_WIDTH - 8)) {
		error("report: a Reported-by:, Closes: or Link: tag would be wider than %d "
		      "columns", MAIL_WIDTH);
		goto out;
	}
	sb_addf(&body, "%s\n", w->body);
	sb_addf(&body, "\nAttached: the difference of the kernels' configs (config.diff)%s,\n"
		"reproduce.sh (it runs as it is, with slabbench installed) and\n"
		"both results files.\n",
		cJSON_IsArray(run_common_config_lines(w->docs[0])) ?
		" and\neach config as recorded" : "");
	sb_addf(&body, "\nIf you fix the issue in a separate patch or commit, kindly\n"
		"add the following tags:\n| Reported-by: %s\n", reporter);
	if (o->closes)
		sb_addf(&body, "| Closes: %s\n", o->closes);
	if (o->link)
		sb_addf(&body, "| Link: %s\n", o->link);
	part_text(&ps, "config.diff", "text/plain; charset=utf-8", config_diff(w->ids, w->docs));
	for (int r = 0; r < 2; r++) {
		cfg = config_of(&w->ids[r], w->docs[r]);
		if (cfg) {
			int ret = part_gzip(&ps, r ? "config-new.gz" : "config-base.gz", cfg,
					    strlen(cfg));

			free(cfg);
			if (ret)
				goto out;
		}
	}
	part_text(&ps, "reproduce.sh", "text/x-shellscript; charset=utf-8",
		  reproducer(w->report_subject, w->ids, w->docs, w->variants));
	for (int r = 0; r < 2; r++) {
		size_t len;
		char *text = read_file(w->paths[r], &len);

		if (!text) {
			error("report: %s: %s", w->paths[r], strerror(errno));
			goto out;
		}
		if (part_gzip(&ps, attached_gz[r], text, len)) {
			free(text);
			goto out;
		}
		free(text);
	}
	id = mail_message_id(from);
	mbox = mail_format(&(struct mail){
		.from = from, .to = to, .cc = cc, .subject = w->subject, .message_id = id,
		.in_reply_to = w->in_reply_to, .body = body.s, .parts = ps.p,
		.nr_parts = ps.n });
out:
	for (int i = 0; i < ps.n; i++)
		free(ps.owned[i]);
	addrs_free(&lists);
	addrs_free(&people);
	free(body.s);
	free(from);
	free(to);
	free(cc);
	free(id);
	return mbox;
}

/* The report's text after its subject line and the blank line that follows. */
static const char *after_subject(const char *report)
{
	const char *p = !strncmp(report, "Subject: ", 9) ? strchr(report, '\n') : NULL;

	if (!p)
		return report;
	return p + 1 + (p[1] == '\n');
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
			 const cJSON *const *docs, const char *report)
{
	const char *rs = strncmp(report, "Subject: ", 9) ? "" : report + 9;
	char *rsubj = strndup(rs, strcspn(rs, "\n")), *what, *who, *tree, *subject, *mbox = NULL;
	char *files[6], *variants = NULL, *vpath = user_variants(), *maint = NULL;
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
	for (int r = 0; r < 2; r++) {
		char *line;

		if (built_in(&ids[r]))
			continue;
		line = variant_line(vpath, ids[r].variant);
		if (!line) {
			error("report: the variant %s is not in %s: the reproducer could not "
			      "name its kernel", ids[r].variant, vpath);
			goto out;
		}
		if (!variants || !strstr(variants, line)) {
			char *v = xasprintf("%s%s\n", variants ? variants : "", line);

			free(variants);
			variants = v;
		}
		free(line);
	}
	if (!o->maintainers_tree && !s.git && !o->no_maintainers) {
		char version[16];

		snprintf(version, sizeof(version), "%s", ids[1].tree);
		version[strcspn(version, "+")] = '\0';
		maint = cached_source(version);
	}
	mbox = assemble(o, &(struct built){
		.subject = subject, .body = after_subject(report), .report_subject = rsubj,
		.paths = paths, .docs = docs, .ids = ids, .variants = variants,
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
	free(vpath);
	free(variants);
	free(subject);
	free(tree);
	free(who);
	free(what);
	free(rsubj);
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

/*
 * How the bisection in @dir found @first, then the report of @first
 * against the good commit (@docs), its files named as attached.
 */
static char *bisect_body(const cJSON *j, const char *dir, const char *who,
			 const cJSON *const *docs)
{
	char *steps = xasprintf("%s/steps", dir), *text = read_file(steps, NULL);
	char *noise_file = noise_path(), *report = NULL, *p;
	struct comparison c = { 0 };
	struct strbuf b = { 0 };
	bool missing = false;
	cJSON *noise = noise_load(noise_file, &missing);
	int ran = 0, skipped = 0;

	for (p = text; p && *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] ? 1 : 0)) {
		if (!strncmp(p + strcspn(p, " "), " skip ", 6))
			skipped++;
		else
			ran++;
	}
	if ((noise || missing) &&
	    !compare_build(&c, regmail_attached, docs, 2, 0.05, noise, noise_file))
		report = report_text(&c, docs, 2, NULL);
	if (report) {
		sb_addf(&b, "slabbench bisected a regression of %s\n(threshold %g%%) "
			"to\n\n  %.*s\n\n", json_str_at(j, "metric"),
			json_num_at(j, "threshold"), MAIL_WIDTH - 2, who);
		sb_addf(&b, "%d commits built and ran, %d were skipped (they did not build\n"
			"or boot). Below: the first bad commit against the good one,\n"
			"%.12s.\n\n", ran, skipped, json_str_at(j, "good"));
		sb_addf(&b, "%s", after_subject(report));
	}
	compare_free(&c);
	cJSON_Delete(noise);
	free(noise_file);
	free(report);
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
	const char *git, *good;
	struct run_id *ids = NULL;
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
	for (int r = 0; r < 2; r++) {
		char *line = variant_line(vpath, ids[r].variant);
		char *v = xasprintf("%s%s\n", variants ? variants : "", line ? line : "");

		free(line);
		free(variants);
		variants = v;
	}
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
	report = bisect_body(j, dir, who, (const cJSON *const *)docs);
	if (!report) {
		error("report: %s: cannot compare the first bad commit with the good one", dir);
		goto out;
	}
	mbox = assemble(o, &(struct built){
		.subject = subject, .body = report, .report_subject = rsubj,
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
	return mbox;
}
