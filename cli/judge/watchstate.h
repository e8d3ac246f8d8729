/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `slabbench watch` keeps between calls, in DIR/watch.json: the
 * branch it follows, the last good commit, every commit tested with its
 * verdict, and every regression reported (first bad commit and metric),
 * so that a regression is mailed once and a broken commit never retried.
 */
#ifndef SLABBENCH_WATCHSTATE_H
#define SLABBENCH_WATCHSTATE_H

#include <cjson/cJSON.h>
#include <stdbool.h>

/*
 * DIR/watch.json, or a new state from @baseline; NULL after a message
 * when it belongs to another tree or branch or is not a watch's state.
 */
cJSON *watch_state_load(const char *dir, const char *tree, const char *branch,
			const char *baseline);
int watch_state_save(const char *dir, const cJSON *s);
/* The record of @commit, or NULL when it was never tested. */
const cJSON *watch_state_tested(const cJSON *s, const char *commit);
void watch_state_record(cJSON *s, const char *commit, const char *verdict, const char *note);
/* Whether @first was reported on @metric already: then no second mail. */
bool watch_state_reported(const cJSON *s, const char *first, const char *metric);
/* Records the report of @first on @metric; the record, for "sent". */
cJSON *watch_state_report(cJSON *s, const char *first, const char *metric, double pct,
			  const char *bisect, const char *mail);

#endif
