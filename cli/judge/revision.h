/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A revision of a user's git tree as a variant (TREE@COMMIT,
 * docs/user-kernels.md): run, and compared with another, as bisect and
 * watch do. Both keep their results and variants file in one directory.
 */
#ifndef SLABBENCH_REVISION_H
#define SLABBENCH_REVISION_H

#include "compare.h"
#include "vm.h"

struct revision_run {
	const char *cmd;	/* "bisect" or "watch": messages and the variant's name */
	const char *dir;	/* results, and the variants file the runs read */
	const char *tree, *alloc_config, *workload;
	long boots;
	struct vm_opts vm;
};

/*
 * The user's --tree, --alloc-config, --boots and --workload made usable,
 * in @r: the tree an absolute path without blanks (*tree), the boots'
 * default (RUN_COST_BOOTS with the cost model, else RUN_BOOTS) and, for
 * times, their floor, the workload resolved (*workload). The caller
 * frees both. 0, or -1 after a message.
 */
int revision_setup(struct revision_run *r, char **tree, char **workload);

/* DIR/<12 hex>.json: @commit's results. */
char *revision_results(const struct revision_run *r, const char *commit);

/*
 * Builds, boots and runs @commit as the variant CMD-<12 hex>, added to
 * DIR/variants once; results already there are kept. 0, or the runner's
 * exit status (2 when the variants file cannot be written).
 */
int revision_run(const struct revision_run *r, const char *commit);

/* Two revisions' results compared as compare does: @good the base. */
struct revision_pair {
	char *paths[2], *noise_file;
	cJSON **docs, *noise;
	struct comparison c;
};

/* 0, or -1 after a message; revision_pair_free() either way. */
int revision_pair_load(struct revision_pair *p, const struct revision_run *r, const char *good,
		       const char *commit);
void revision_pair_free(struct revision_pair *p);

/* This program's path, for the children it runs (a rebuilt one: the new one); NULL on error. */
char *self_exe(void);

#endif
