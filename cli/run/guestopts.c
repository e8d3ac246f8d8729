// SPDX-License-Identifier: GPL-2.0
/* The guest options as words again (see guestopts.h). */
#define _GNU_SOURCE
#include "guestopts.h"
#include "options.h"

#include <math.h>
#include <string.h>

char **guest_opts_argv(const struct vm_opts *v)
{
	struct vm_opts copy = *v;
	struct opt opts[] = { OPT_VM(&copy, OPT_LONGS_MAX), OPT_END() };

	return options_to_argv(opts);
}

/* A recorded string that says something: not empty, not "?" (not recorded). */
static const char *known(const char *s)
{
	return s && *s && strcmp(s, "?") ? s : NULL;
}

void guest_opts_of_run(const struct run_id *id, struct vm_opts *v)
{
	const char *model = known(id->cpu_model);

	/* 0 and NULL are the table's "not given": options_to_argv() leaves them out. */
	*v = (struct vm_opts){ .accel = known(id->accel), .cmdline = known(id->cmdline),
			       .cost_geometry = known(id->cost_requested) };
	if (isfinite(id->cpus))
		v->cpus_list = (struct opt_longs){ .n = 1, .v = { (long)id->cpus } };
	if (id->numa_nodes > 1)
		v->numa = (long)id->numa_nodes;
	if (id->possible_cpus > id->cpus)
		v->possible = (long)id->possible_cpus;
	if (isfinite(id->mem_mb))
		v->mem = (long)id->mem_mb;
	if (model && strcmp(model, "max") && strcmp(model, "host"))
		v->cpu_model = model;
}
