// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark table, made from the list in sb_benches.h. A new
 * benchmark is one bench_NAME.c defining sb_bench_NAME and its line in
 * that list; Kbuild picks up every bench_*.c by itself, slabbench.h
 * declares what the list names.
 */
#include <linux/kernel.h>
#include "slabbench.h"

#define SB_BENCH(name) (&sb_bench_##name),
const struct sb_bench * const sb_benches[] = {
#include "sb_benches.h"
};
#undef SB_BENCH

const unsigned int sb_nr_benches = ARRAY_SIZE(sb_benches);
