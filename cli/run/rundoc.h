/* SPDX-License-Identifier: GPL-2.0 */
/* A run's results document as it starts, before its boots (the runner's). */
#ifndef SLABBENCH_RUNDOC_H
#define SLABBENCH_RUNDOC_H

#include "guest.h"
#include "vm.h"

#include <cjson/cJSON.h>

struct workload;

/*
 * Status "partial", the host, the guest machine @c as staged, the
 * kernel of @g with the base, family, preemption model and slab options
 * of its .config @build_config, the workload @w and its tests, and no
 * boots yet.
 */
cJSON *rundoc_new(const struct vm_config *c, const struct guest *g, const struct workload *w,
		  const char *build_config);

/* The preemption model .config text @config chose ("PREEMPT_LAZY"), or "?". */
const char *rundoc_preempt_model(const char *config);

/*
 * How the boot of @c ended, @r, as a results file records it: in @boot
 * its outcome, accelerator, times and console lines; in @vm, unless it
 * has them already, the machine that ran it (accelerator, TCG threads,
 * QEMU's version, CPU model).
 */
void boot_outcome_to_json(cJSON *boot, cJSON *vm, const struct vm_config *c,
			  const struct vm_outcome *r);
/*
 * The inverse: @r from @boot and @vm (those fields only; the caller
 * finds the channel and files). -1, with nothing to free, when @boot names no outcome.
 */
int boot_outcome_from_json(const cJSON *boot, const cJSON *vm, struct vm_outcome *r);

#endif
