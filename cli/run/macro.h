/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Macro workloads: userspace programs the guest agent runs, beside the
 * module's microbenchmarks, in the same workload files and results.
 */
#ifndef SLABBENCH_MACRO_H
#define SLABBENCH_MACRO_H

#include <cjson/cJSON.h>
#include <stdbool.h>

/* Whether @test names a macro workload rather than a module test. */
bool macro_known(const char *test);
/* Whether it runs perf (which then goes into the guest). */
bool macro_needs_perf(const char *test);
/*
 * @spec ("test=NAME k=v ...", checked) with every parameter the agent
 * needs: the defaults of those it lacks appended.
 */
char *macro_spec(const char *spec);
/* Appends the macro workloads to @catalogue, in the module's format. */
void macro_catalogue(cJSON *catalogue);

#endif
