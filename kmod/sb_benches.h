/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmarks, in catalogue and self-test order: a line each, naming
 * the sb_bench_NAME that its bench_NAME.c defines. Read twice, with
 * SB_BENCH defined by the reader: slabbench.h declares each, and
 * sb_benches.c makes the table of them. No include guard for that.
 */
SB_BENCH(fastpath)
SB_BENCH(batch)
SB_BENCH(sizes)
SB_BENCH(bulk)
SB_BENCH(remote)
SB_BENCH(parallel)
SB_BENCH(hitrate)
SB_BENCH(overhead)
SB_BENCH(caches)
SB_BENCH(merge)
SB_BENCH(calib)
SB_BENCH(nolock)
