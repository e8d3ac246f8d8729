/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a guest plan: one function per verb of the agent's plan
 * (SB_VERB_* in <linux/slabbench.h>), so that no host file spells a plan
 * line out by hand.
 */
#ifndef SLABBENCH_PLAN_H
#define SLABBENCH_PLAN_H

/*
 * Names the host's plans give their frames: the plan writer and the frame
 * routing of the results must agree on them.
 */
#define PLAN_INFO		"info"
#define PLAN_CATALOGUE		"catalogue"
#define PLAN_CMDLINE		"cmdline"
#define PLAN_CONFIG		"config"
#define PLAN_HELD		"slabinfo.held-"	/* followed by the test's index */
/*
 * Snapshots are WHAT.WHEN: what was read (meminfo, census, slabinfo or
 * SLUB's sysfs) at which point ("before", "after", "tN.PHASE";
 * docs/census.md).
 */
#define PLAN_MEMINFO		"meminfo"
#define PLAN_CENSUS		"census"
#define PLAN_SLABINFO		"slabinfo"
#define PLAN_SLUB_SYSFS		"sysfs"
#define PLAN_KTAP		"ktap"
#define PLAN_KMEMLEAK		"kmemleak"
/* What the boot-like user space ran (the userspace verb), before "before". */
#define PLAN_USERSPACE		"userspace"

struct plan;

struct plan *plan_new(void);
void plan_free(struct plan *p);
/* The plan so far, one line per verb. */
const char *plan_text(const struct plan *p);

void plan_file(struct plan *p, const char *name, const char *path);
void plan_write(struct plan *p, const char *path, const char *value);
void plan_run(struct plan *p, const char *spec);
void plan_macro(struct plan *p, const char *spec);
/* @verb is SB_VERB_RUN or SB_VERB_MACRO. */
void plan_profile(struct plan *p, const char *verb, const char *spec);
/* argv ends with NULL; no word may contain a blank (the agent splits on them). */
void plan_cmd(struct plan *p, const char *name, ...) __attribute__((sentinel));
/* Attributes of every entry of directory @dir, as one file frame; NULL-ended. */
void plan_attrs(struct plan *p, const char *name, const char *dir, ...) __attribute__((sentinel));
/* Sleeps until @seconds after the last run, macro, profile or userspace line ended. */
void plan_wait(struct plan *p, long seconds);
void plan_reload(struct plan *p, long n, const char *spec);
void plan_fuzz(struct plan *p, long n, long seed);
/* A boot-like user space on every online CPU; what ran as file @name. */
void plan_userspace(struct plan *p, const char *name);

#endif
