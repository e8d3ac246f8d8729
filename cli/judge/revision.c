// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "revision.h"
#include "noise.h"
#include "runner.h"
#include "util.h"
#include "workload.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int revision_setup(struct revision_run *r, char **tree, char **workload)
{
	if (!*r->alloc_config || strpbrk(r->alloc_config, "\n#"))
		return error("%s: --alloc-config: '%s' is not a list of fragments", r->cmd,
			     r->alloc_config);
	*tree = realpath(r->tree, NULL);
	if (!*tree)
		return error("%s: --tree: %s: %s", r->cmd, r->tree, strerror(errno));
	if (strpbrk(*tree, " \t\n"))
		return error("%s: --tree: %s: a path with blanks cannot be a variant's tree", r->cmd,
			     *tree);
	r->tree = *tree;
	if (!r->boots)
		r->boots = strcmp(r->vm.accel, "cost") ? RUN_BOOTS : RUN_COST_BOOTS;
	if (strcmp(r->vm.accel, "cost") && r->boots < CMP_MIN_BOOTS)
		return error("%s: --boots=%ld: a time is judged across %d boots or more (or use "
			     "--accel=cost)", r->cmd, r->boots, CMP_MIN_BOOTS);
	*workload = workload_resolve(r->workload);
	r->workload = *workload;
	return 0;
}

char *revision_results(const struct revision_run *r, const char *commit)
{
	return xasprintf("%s/%.12s.json", r->dir, commit);
}

int revision_run(const struct revision_run *r, const char *commit)
{
	char *vpath = xasprintf("%s/variants", r->dir), *name = xasprintf("%s-%.12s", r->cmd, commit);
	char *out = revision_results(r, commit), *line = NULL;
	struct runner_opts o = {
		.vm = r->vm, .allocs = name, .workload = r->workload, .output = out,
		.boots = r->boots, .quiet = true,
	};
	char *text = read_file(vpath, NULL);
	int ret = 0;

	if (!access(out, F_OK))
		goto out;
	line = xasprintf("%s %s@%s %s\n", name, r->tree, commit, r->alloc_config);
	if (!text || !strstr(text, line)) {
		FILE *f = fopen(vpath, "a");

		if (!f || fputs(line, f) < 0)
			ret = error("%s: %s: %s", r->cmd, vpath, strerror(errno));
		if (f && fclose(f))
			ret = error("%s: %s: %s", r->cmd, vpath, strerror(errno));
	}
	setenv("SLABBENCH_VARIANTS", vpath, 1);
	ret = ret ? 2 : runner_run(&o);
out:
	free(text);
	free(line);
	free(out);
	free(name);
	free(vpath);
	return ret;
}

int revision_pair_load(struct revision_pair *p, const struct revision_run *r, const char *good,
		       const char *commit)
{
	bool missing = false;

	memset(p, 0, sizeof(*p));
	p->paths[0] = revision_results(r, good);
	p->paths[1] = revision_results(r, commit);
	p->noise_file = noise_path();
	p->docs = compare_load((const char *const *)p->paths, 2, false);
	p->noise = noise_load(p->noise_file, &missing);
	if (!p->docs || (!p->noise && !missing))
		return -1;
	return compare_build(&p->c, (const char *const *)p->paths,
			     (const cJSON *const *)p->docs, 2, 0.05, p->noise, p->noise_file);
}

void revision_pair_free(struct revision_pair *p)
{
	compare_free(&p->c);
	compare_unload(p->docs, 2);
	cJSON_Delete(p->noise);
	free(p->noise_file);
	free(p->paths[0]);
	free(p->paths[1]);
}

char *self_exe(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0)
		return NULL;
	self[n] = '\0';
	/* Rebuilt while it runs: the children run the program now at that path. */
	if (n > 10 && !strcmp(self + n - 10, " (deleted)"))
		self[n - 10] = '\0';
	return xstrdup(self);
}
