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

#endif
