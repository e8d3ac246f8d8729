/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SLABBENCH_MEMFLUSH_H
#define SLABBENCH_MEMFLUSH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Flushes the memory controller's counters of groups slabbench-0 to
 * @groups - 1 under @root, so that their memory.stat is the charges now;
 * *@how says by what. 0, or -1 with @why when it cannot be done or shown.
 */
int memcg_flush_all(const char *root, int groups, const char **how, char *why, size_t whylen);

/*
 * Whether @trace, the text of tracefs's trace file, holds a forced
 * memcg_flush_stats of the group @gone, then one of the root @root by the
 * same task: reparent_state_local()'s two, in order. Cuts @trace in lines.
 */
bool memflush_offline_seen(char *trace, unsigned long long gone, unsigned long long root);

#endif
