// SPDX-License-Identifier: GPL-2.0
/*
 * The test table. A new test is one test_NAME.c defining sb_test_NAME and
 * one line here; Kbuild picks up every test_*.c by itself.
 */
#include <linux/kernel.h>
#include "slabbench.h"

const struct sb_test * const sb_tests[] = {
	&sb_test_fastpath,
	&sb_test_batch,
	&sb_test_sizes,
	&sb_test_bulk,
	&sb_test_remote,
	&sb_test_parallel,
	&sb_test_hitrate,
	&sb_test_overhead,
	&sb_test_merge,
};

const unsigned int sb_nr_tests = ARRAY_SIZE(sb_tests);
