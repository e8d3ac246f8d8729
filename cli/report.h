/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabbench report: two results files as a plain-text mail for linux-mm,
 * in the style of the kernel test robot's reports.
 */
#ifndef SLABBENCH_REPORT_H
#define SLABBENCH_REPORT_H

#include "compare.h"

#include <cjson/cJSON.h>

#define REPORT_WIDTH 72

/*
 * The report of @c (exactly two runs, built from @docs by compare_build),
 * every line at most REPORT_WIDTH columns.
 */
char *report_text(const struct comparison *c, const cJSON *const *docs);

#endif
