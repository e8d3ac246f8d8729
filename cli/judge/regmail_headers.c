// SPDX-License-Identifier: GPL-2.0
/*
 * Who the mail goes to and which thread it joins: the sender, the lists
 * and people the tree's scripts/get_maintainer.pl names for the files of
 * the change, and for a git tree's commit or a patch series its title
 * and the series' cover letter to reply to.
 */
#define _GNU_SOURCE
#include "regmail_parts.h"
#include "mail.h"
#include "strbuf.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

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
int allocator_files(const char *alloc, char **files, int max)
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
char *cached_source(const char *version)
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

void side_free(struct side *s)
{
	free(s->git);
	free(s->commit);
	free(s->title);
	free(s->message_id);
}

void side_of(const struct run_id *id, struct side *s)
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

int regmail_addressees(const struct regmail_opts *o, const struct built *w, char **from,
		       char **to, char **cc)
{
	struct addrs lists = { 0 }, people = { 0 };
	int ret = -1;

	*from = sender(o);
	if (!*from)
		goto out;
	if (!o->no_maintainers) {
		int found = w->git ? git_maintainers(w->git, w->commit, w->files, w->nr_files,
						     &lists, &people) :
			    w->maint_dir ? get_maintainer(w->maint_dir, w->files, w->nr_files,
							  &lists, &people) :
			    error("report: no kernel tree to run scripts/get_maintainer.pl in: "
				  "give --maintainers-tree=DIR, or --no-maintainers and --to");

		if (found)
			goto out;
		if (w->author)
			addrs_add(&people, w->author, NULL);
	}
	ret = recipients(o, &lists, &people, to, cc) ? -1 : 0;
out:
	addrs_free(&lists);
	addrs_free(&people);
	return ret;
}
