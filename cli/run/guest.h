/* SPDX-License-Identifier: GPL-2.0 */
/* Guest kernels (built by vm/kernel.sh) and the initramfs of one run. */
#ifndef SLABBENCH_GUEST_H
#define SLABBENCH_GUEST_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "vm.h"

struct plan;

struct guest {
	char *variant;
	char *tree;
	char *hash;		/* of the kernel's inputs */
	char *dir;
	char *bzimage;
	char *initramfs;	/* base: agent, busybox, module */
	char *gen_init_cpio;
	char *release;
	char *alloc_config;	/* the .config lines that pick the allocator */
	char *common_config;	/* all the other lines */
	char *common_sha256;	/* equal between fair variants of one tree */
	double build_seconds;	/* of the kernel, when it was built; -1 unknown */
	char *cmdline;		/* parameters it always boots with, maybe "" */
	char *module;		/* slabbench.ko built for it */
	char *config_base;	/* where its config came from, for reports */
	char *config_family;	/* small, distro, debian or user */
	char *lacks;		/* what cannot be measured on its tree, a line each; maybe "" */
};

/* 0 when a variants file names every one of @names, else -1 and a message. */
int variants_check(const char *cmd, char *const *names, int n);
/*
 * The line that names @variant in the variants files, as vm/kernel.sh
 * reads them (with @variants in place of the user's file); NULL after
 * kernel.sh's message when none does.
 */
char *variant_line(const char *variants, const char *variant);
/* Builds what is missing (progress on a terminal) and fills @g. */
int guest_prepare(const char *variant, struct guest *g);
void guest_free(struct guest *g);
/* The variant's own parameters followed by @extra (may be NULL). */
char *guest_cmdline(const struct guest *g, const char *extra);

/* A plan staged for booting: a run directory and the archive with the plan. */
struct guest_stage {
	char *rundir;
	char *initrd;
	/* Kernel, initrd, directory and the variant's cmdline set; the rest is the caller's. */
	struct vm_config vm;
};

/*
 * Writes @plan into a small archive of its own, appended to the base
 * initramfs in a new run directory: per-run inputs never rebuild the
 * base. With @perf, the host's perf (Debian's linux-perf) and its
 * libraries go in too. Boot it with vm_boot(&s->vm, ...) as often as
 * wanted.
 */
int guest_stage(const struct guest *g, const struct plan *plan, bool perf,
		struct guest_stage *s);
/* Removes the archive (megabytes per run); the logs beside it stay. */
void guest_unstage(struct guest_stage *s);

/*
 * The module's catalogue (debugfs slabbench/tests), kept beside the
 * module once read: one short boot per module build, none after; the
 * macro workloads (cli/run/macro.c) appended.
 */
cJSON *guest_catalogue(const struct guest *g);

#endif
