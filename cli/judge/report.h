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
 * The report of @c (exactly two runs, built from docs[0] and docs[1] by
 * compare_build), every line at most REPORT_WIDTH columns. docs[2..n-1]
 * are more runs of the same two variants, at other CPU counts: the memory
 * answer from the census (at snapshot @phase; NULL: slabmem_phase()'s
 * choice) covers every count that both variants have.
 */
char *report_text(const struct comparison *c, const cJSON *const *docs, int n,
		  const char *phase);

/*
 * The body of a mail that carries report_text() as an attachment: the
 * summary, what changed (the significant rows), the memory answer, the
 * setup and the kernels, then @before_reproduce (the mail's tags; NULL
 * for none) and how to reproduce, in at most @max_lines lines. Where the
 * whole would be longer, fewer rows are shown, then the kernels', the
 * setup's and the memory's sections give way to a line pointing to the
 * attachment (report.txt), in that order. No subject line.
 */
char *report_brief(const struct comparison *c, const cJSON *const *docs, int n,
		   const char *phase, const char *before_reproduce, int max_lines);

#endif
