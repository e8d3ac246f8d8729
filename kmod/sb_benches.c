// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark table, in catalogue and self-test order. A new benchmark
 * is one bench_NAME.c defining sb_bench_NAME, its line here and its
 * declaration in slabbench.h; Kbuild picks up every bench_*.c by itself.
 */
#include <linux/kernel.h>
#include "slabbench.h"

const struct sb_bench * const sb_benches[] = {
	&sb_bench_fastpath,
	&sb_bench_batch,
	&sb_bench_sizes,
	&sb_bench_bulk,
	&sb_bench_remote,
	&sb_bench_parallel,
	&sb_bench_hitrate,
	&sb_bench_overhead,
	&sb_bench_caches,
	&sb_bench_merge,
	&sb_bench_calib,
	&sb_bench_nolock,
};

const unsigned int sb_nr_benches = ARRAY_SIZE(sb_benches);
