// SPDX-License-Identifier: GPL-2.0
/*
 * Guest kernels as vm/kernel.sh builds them, the per-run archive that
 * carries a plan into one, and the module's catalogue read from it.
 */
#define _GNU_SOURCE
#include "guest.h"
#include "frames.h"
#include "macro.h"
#include "plan.h"
#include "strbuf.h"
#include "util.h"
#include "vm.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/slabbench.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * vm/kernel.sh's answer to @words, in *out; its exit status. With
 * @variants, that file stands for the user's variants file.
 */
static int kernel_sh(const char *variants, const char *const *words, char **out)
{
	char *script = xasprintf("%s/vm/kernel.sh", slabbench_home());
	char *env = variants ? xasprintf("SLABBENCH_VARIANTS=%s", variants) : NULL;
	const char *argv[8];
	int n = 0, ret;

	if (env) {
		argv[n++] = "env";
		argv[n++] = env;
	}
	argv[n++] = "bash";
	argv[n++] = script;
	while (*words && n < 7)
		argv[n++] = *words++;
	argv[n] = NULL;
	ret = run_capture((char *const *)argv, out, NULL);
	free(env);
	free(script);
	return ret;
}

/*
 * The variants' names come from vm/kernel.sh, which reads both files:
 * 1 when @variant is one, 0 with the names in *known, -1 when kernel.sh
 * refused the user's file (it said why).
 */
static int variant_known(const char *variant, char **known)
{
	char *out = NULL, *name, *save = NULL;
	struct strbuf b = { 0 };
	int found = 0;

	*known = NULL;
	if (kernel_sh(NULL, (const char *[]){ "names", NULL }, &out))
		found = -1;
	for (name = out && !found ? strtok_r(out, "\n", &save) : NULL; name;
	     name = strtok_r(NULL, "\n", &save)) {
		found |= !strcmp(name, variant);
		sb_addf(&b, "%s%s", b.len ? ", " : "", name);
	}
	free(out);
	*known = b.s ? b.s : xstrdup("");
	return found;
}

int variants_check(const char *cmd, char *const *names, int n)
{
	for (int i = 0; i < n; i++) {
		char *known;
		int ok = variant_known(names[i], &known);

		if (!ok)
			error("%s: unknown variant '%s' (known: %s)", cmd, names[i], known);
		free(known);
		if (ok != 1)
			return -1;
	}
	return 0;
}

/* The value of the first "KEY=" line at or after @p, or NULL; *next is after it. */
static const char *kv_find(const char *p, const char *key, const char **next)
{
	size_t klen = strlen(key);

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			*next = p + klen + 1 + strcspn(p + klen + 1, "\n");
			return p + klen + 1;
		}
	}
	return NULL;
}

static char *kv_get(const char *text, const char *key)
{
	const char *next, *v = kv_find(text, key, &next);

	return v ? xstrndup(v, next - v) : NULL;
}

/* Every value of @key, a line each ("" when none). */
static char *kv_all(const char *text, const char *key)
{
	struct strbuf b = { 0 };
	const char *v, *next = text;

	while ((v = kv_find(next, key, &next)))
		sb_addf(&b, "%.*s\n", (int)(next - v), v);
	return b.s ? b.s : xstrdup("");
}

char *variant_line(const char *variants, const char *variant)
{
	char *out = NULL, *line = NULL;

	if (!kernel_sh(variants, (const char *[]){ "describe", variant, NULL }, &out))
		line = kv_get(out, "line");
	free(out);
	return line;
}

int guest_prepare(const char *variant, struct guest *g)
{
	char *agent = xasprintf("%s/build/slabbench-agent", slabbench_home());
	char *out = NULL;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = kernel_sh(NULL, (const char *[]){ "build", variant, agent, NULL }, &out);
	free(agent);
	if (ret) {
		free(out);
		return error("%s guest: building it failed (see above)", variant);
	}
	g->variant = xstrdup(variant);
	g->tree = kv_get(out, "tree");
	g->hash = kv_get(out, "hash");
	g->dir = kv_get(out, "dir");
	g->bzimage = kv_get(out, "bzimage");
	g->initramfs = kv_get(out, "initramfs");
	g->gen_init_cpio = kv_get(out, "gen_init_cpio");
	g->release = kv_get(out, "release");
	g->alloc_config = kv_get(out, "alloc_config");
	g->common_config = kv_get(out, "common_config");
	g->common_sha256 = kv_get(out, "common_sha256");
	g->cmdline = kv_get(out, "cmdline");
	g->module = kv_get(out, "module");
	g->config_base = kv_get(out, "config_base");
	g->config_family = kv_get(out, "config_family");
	g->lacks = kv_all(out, "lacks");
	{
		char *secs = kv_get(out, "build_seconds");

		g->build_seconds = secs ? atof(secs) : -1;
		free(secs);
	}
	free(out);
	if (!g->tree || !g->hash || !g->bzimage || !g->initramfs ||
	    !g->gen_init_cpio || !g->release || !g->alloc_config ||
	    !g->common_config || !g->common_sha256 || !g->cmdline || !g->module ||
	    !g->config_base || !g->config_family) {
		guest_free(g);
		return error("%s guest: vm/kernel.sh did not report every path", variant);
	}
	return 0;
}

void guest_free(struct guest *g)
{
	free(g->variant);
	free(g->tree);
	free(g->hash);
	free(g->dir);
	free(g->bzimage);
	free(g->initramfs);
	free(g->gen_init_cpio);
	free(g->release);
	free(g->alloc_config);
	free(g->common_config);
	free(g->common_sha256);
	free(g->cmdline);
	free(g->module);
	free(g->config_base);
	free(g->config_family);
	free(g->lacks);
	memset(g, 0, sizeof(*g));
}

char *guest_cmdline(const struct guest *g, const char *extra)
{
	bool both = g->cmdline[0] && extra && extra[0];

	return xasprintf("%s%s%s", g->cmdline, both ? " " : "", extra ? extra : "");
}

/* A new directory for one run's files under the cache; NULL on error. */
static char *guest_rundir(const char *label)
{
	char *parent = xasprintf("%s/runs", slabbench_cache());
	char *dir = xasprintf("%s/%s-XXXXXX", parent, label);
	int ret = mkdir_p(parent);

	free(parent);
	if (!ret && !mkdtemp(dir))
		ret = error("%s: %s", dir, strerror(errno));
	if (ret) {
		free(dir);
		return NULL;
	}
	return dir;
}

static int append_file(FILE *to, const char *path)
{
	FILE *from = fopen(path, "rb");
	char buf[65536];
	size_t n;

	if (!from)
		return error("%s: %s", path, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			break;
	n = ferror(from) || ferror(to);
	fclose(from);
	return n ? error("copying %s: %s", path, strerror(errno)) : 0;
}

/*
 * gen_init_cpio lines for perf and every library ldd finds for it, each
 * at the path the loader looks for it, with the directories first.
 */
static char *perf_files(void)
{
	char *argv[] = { "ldd", SB_GUEST_PERF, NULL }, *out = NULL, *line, *save = NULL;
	struct strbuf b = { 0 };

	if (access(SB_GUEST_PERF, X_OK)) {
		error("%s is missing: install it with 'apt-get install linux-perf'", SB_GUEST_PERF);
		return NULL;
	}
	if (run_capture(argv, &out, NULL)) {
		free(out);
		error("ldd %s failed", SB_GUEST_PERF);
		return NULL;
	}
	sb_addf(&b, "dir /usr 0755 0 0\ndir /usr/bin 0755 0 0\ndir /lib 0755 0 0\n"
		"dir /lib/x86_64-linux-gnu 0755 0 0\ndir /lib64 0755 0 0\n"
		"file %s %s 0755 0 0\n", SB_GUEST_PERF, SB_GUEST_PERF);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char path[512];

		/* "libz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)" or the loader. */
		if (sscanf(line, " %*s => %511s", path) == 1 || sscanf(line, " %511s (", path) == 1)
			if (path[0] == '/')
				sb_addf(&b, "file %s %s 0755 0 0\n", path, path);
	}
	free(out);
	return b.s;
}

/*
 * The time the per-run archive gives its files and directories, the
 * cost model's guest clock (vm.c), so that the archive is the same bytes
 * from run to run: it is the only input of a boot that changed between
 * runs of the same kernels (the plan file's mtime, and gen_init_cpio's
 * default of the current time for directories), and under icount the
 * instructions the kernel spends unpacking it (digits 0-9 and a-f parse
 * by different branches) decide where every later timer tick lands.
 */
#define GUEST_ARCHIVE_MTIME 1704067200L	/* 2024-01-01T00:00:00Z */

/*
 * Writes @plan into a small archive of its own and appends it to the base
 * initramfs as @dir/initrd.cpio: per-run inputs never rebuild the base.
 * With @perf, the host's perf (Debian's linux-perf) and its libraries go
 * into that archive too.
 */
static int guest_initrd(const struct guest *g, const char *plan, const char *dir, bool perf,
			char **initrd)
{
	char *plan_path = xasprintf("%s/plan", dir);
	char *list_path = xasprintf("%s/run.list", dir);
	const char *plan_dir_end = strrchr(SB_GUEST_PLAN, '/');
	char *list = xasprintf("dir %.*s 0755 0 0\nfile %s %s 0644 0 0\n",
			       (int)(plan_dir_end - SB_GUEST_PLAN), SB_GUEST_PLAN,
			       SB_GUEST_PLAN, plan_path);
	char mtime[24];
	char *argv[] = { g->gen_init_cpio, "-t", mtime, list_path, NULL };
	const struct timespec fixed[2] = { { GUEST_ARCHIVE_MTIME, 0 }, { GUEST_ARCHIVE_MTIME, 0 } };
	char *cpio = NULL;
	size_t cpio_len;
	FILE *f = NULL;
	int ret = -1;

	*initrd = xasprintf("%s/initrd.cpio", dir);
	if (perf) {
		char *files = perf_files(), *old = list;

		if (!files)
			goto out;
		list = xasprintf("%s%s", old, files);
		free(old);
		free(files);
	}
	snprintf(mtime, sizeof(mtime), "%ld", GUEST_ARCHIVE_MTIME);
	if (write_file_atomic(plan_path, plan, strlen(plan)) ||
	    write_file_atomic(list_path, list, strlen(list)))
		goto out;
	/* gen_init_cpio gives a file its own mtime, -t only to the rest. */
	if (utimensat(AT_FDCWD, plan_path, fixed, 0)) {
		error("%s: %s", plan_path, strerror(errno));
		goto out;
	}
	if (run_capture(argv, &cpio, &cpio_len)) {
		error("%s: gen_init_cpio failed", list_path);
		goto out;
	}
	f = fopen(*initrd, "wb");
	if (!f) {
		error("%s: %s", *initrd, strerror(errno));
		goto out;
	}
	/* The kernel unpacks concatenated newc archives in order. */
	if (append_file(f, g->initramfs))
		goto out;
	if (fwrite(cpio, 1, cpio_len, f) != cpio_len) {
		error("%s: %s", *initrd, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (f && fclose(f) && !ret)
		ret = error("%s: %s", *initrd, strerror(errno));
	free(cpio);
	free(plan_path);
	free(list_path);
	free(list);
	return ret;
}

int guest_stage(const struct guest *g, const struct plan *plan, bool perf,
		struct guest_stage *s)
{
	memset(s, 0, sizeof(*s));
	s->rundir = guest_rundir(g->variant);
	if (!s->rundir || guest_initrd(g, plan_text(plan), s->rundir, perf, &s->initrd)) {
		guest_unstage(s);
		return -1;
	}
	s->vm = (struct vm_config){
		.label = g->variant, .kernel = g->bzimage, .initrd = s->initrd,
		.dir = s->rundir, .cmdline = g->cmdline,
	};
	return 0;
}

void guest_unstage(struct guest_stage *s)
{
	if (s->initrd)
		unlink(s->initrd);
	free(s->initrd);
	free(s->rundir);
	memset(s, 0, sizeof(*s));
}

cJSON *guest_catalogue(const struct guest *g)
{
	char *dir = xstrdup(g->module), *path, *text;
	struct guest_stage s;
	struct plan *plan;
	cJSON *cat = NULL;
	struct vm_outcome o;
	struct frame f;
	size_t pos = 0;
	int booted;

	*strrchr(dir, '/') = '\0';
	path = xasprintf("%s/catalogue.json", dir);
	text = read_file(path, NULL);
	if (text) {
		cat = cJSON_Parse(text);
		free(text);
		if (cat)
			goto out;
	}
	progress("%s: reading the module's catalogue", g->variant);
	plan = plan_new();
	plan_file(plan, PLAN_CATALOGUE, SB_PATH_TESTS);
	booted = -1;
	if (!guest_stage(g, plan, false, &s)) {
		s.vm.accel = "auto";
		s.vm.cpus = 2;
		s.vm.mem_mb = 1024;
		s.vm.timeout_s = 300;
		booted = vm_boot(&s.vm, &o);
		guest_unstage(&s);
	}
	plan_free(plan);
	if (booted)
		goto out;
	progress_done();
	while (!cat && frame_next(o.channel, o.channel_len, &pos, &f) == 1)
		if (!strcmp(f.kind, SB_FRAME_FILE) && !strcmp(f.name, PLAN_CATALOGUE) &&
		    (cat = cJSON_ParseWithLength(f.data, f.len)) &&
		    write_file_atomic(path, f.data, f.len))
			warning("%s: not kept; the next run reads it again", path);
	if (!cat) {
		error("%s guest: the module's catalogue did not come back (%s)", g->variant,
		      vm_status_name(o.status));
		print_console_tail(o.console_path, 20);
	}
	vm_outcome_free(&o);
out:
	if (cat)
		macro_catalogue(cat);
	free(path);
	free(dir);
	return cat;
}
