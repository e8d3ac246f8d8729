/* SPDX-License-Identifier: GPL-2.0 */
/* Guest kernels (built by vm/kernel.sh) and the initramfs of one run. */
#ifndef SLABBENCH_GUEST_H
#define SLABBENCH_GUEST_H

#include <cjson/cJSON.h>
#include <stdbool.h>

struct vm_outcome;

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
};

/* Whether vm/variants names @variant; lists the known ones otherwise. */
bool variant_known(const char *variant, char **known);
/* 0 when vm/variants names every one of @names, else -1 and a message. */
int variants_check(const char *cmd, char *const *names, int n);
/* Builds what is missing (progress on a terminal) and fills @g. */
int guest_prepare(const char *variant, struct guest *g);
void guest_free(struct guest *g);
/* The variant's own parameters followed by @extra (may be NULL). */
char *guest_cmdline(const struct guest *g, const char *extra);
/* A new directory for one run's files under the cache; NULL on error. */
char *guest_rundir(const char *label);
/*
 * Boots @g once (1 GB: debug kernels need it; its own cmdline) to carry
 * out @plan; 0 when QEMU ran, whatever the guest did: see o->status.
 */
int guest_boot(const struct guest *g, const char *plan, const char *accel,
	       int cpus, bool single_thread, double timeout_s, struct vm_outcome *o);
/*
 * The module's catalogue (debugfs slabbench/tests), kept beside the
 * module once read: one short boot per module build, none after; the
 * macro workloads (cli/macro.c) appended.
 */
cJSON *guest_catalogue(const struct guest *g);
/*
 * Writes @plan into a small archive of its own and appends it to the base
 * initramfs as @dir/initrd.cpio: per-run inputs never rebuild the base.
 * With @perf, the host's perf (Debian's linux-perf) and its libraries go
 * into that archive too.
 */
int guest_initrd(const struct guest *g, const char *plan, const char *dir, bool perf,
		 char **initrd);
/*
 * Removes that archive once its boots are over (megabytes per run, more
 * with perf; the logs beside it stay) and frees @initrd (may be NULL).
 */
void guest_initrd_free(char *initrd);

#endif
