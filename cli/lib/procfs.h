/* SPDX-License-Identifier: GPL-2.0 */
/* Parsers of what the guest sends as text: /proc and /sys files, perf's report. */
#ifndef SLABBENCH_PROCFS_H
#define SLABBENCH_PROCFS_H

#include <cjson/cJSON.h>

/* /proc/meminfo text as {"Field": number-in-kB, ...}. */
cJSON *meminfo_parse(const char *text);
/* The line of @cache in /proc/slabinfo text as an object; NULL if none. */
cJSON *slabinfo_parse(const char *text, const char *cache);
/*
 * Every cache's line in /proc/slabinfo text, in order, as slabinfo_parse()
 * gives it with "name" first; NULL with *@bad_line (from 1) if one does
 * not parse.
 */
cJSON *slabinfo_lines(const char *text, int *bad_line);
/*
 * The agent's attrs lines of /sys/kernel/slab ("NAME slabs=12 partial=1
 * ...") as {NAME: {"slabs": 12, ...}}; the value of a name given twice is
 * the last. NULL with *@bad_line (from 1) if a line has no name, or a
 * value that is not an unsigned decimal integer.
 */
cJSON *slub_sysfs_parse(const char *text, int *bad_line);
/*
 * "perf report --stdio --sort sym" lines as [{"percent", "symbol",
 * "kernel"}], the first @max.
 */
cJSON *perf_report_parse(const char *text, int max);

#endif
