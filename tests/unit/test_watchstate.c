// SPDX-License-Identifier: GPL-2.0
/*
 * The watch's state: a regression is mailed once (the second call after
 * a mail finds it reported and writes none), a tested commit is not
 * tested again, the state survives a save and a load, and a state of
 * another tree or branch is refused.
 */
#define _GNU_SOURCE
#include "check.h"
#include "json.h"
#include "util.h"
#include "watchstate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const good = "1111111111111111111111111111111111111111";
static const char *const bad = "2222222222222222222222222222222222222222";

static void test_once(const char *dir)
{
	cJSON *s = watch_state_load(dir, "/src/linux", "main", good), *again;

	CHECK(s != NULL, "a new state from the baseline");
	if (!s)
		return;
	CHECK_STR(json_str_at(s, "last_good"), good, "the baseline is the last good commit");
	CHECK(!watch_state_tested(s, bad), "nothing is tested yet");
	watch_state_record(s, bad, "regressed", "slab.instructions_per_op");
	CHECK(watch_state_tested(s, bad) != NULL, "a recorded commit is tested");
	CHECK(!watch_state_reported(s, bad, "slab.instructions_per_op"), "nothing is reported yet");
	watch_state_report(s, bad, "slab.instructions_per_op", 4.2, "/b", "/m.mbox");
	CHECK(watch_state_reported(s, bad, "slab.instructions_per_op"),
	      "the first bad commit is reported on its metric");
	CHECK(!watch_state_reported(s, bad, "slab.loads_per_op"),
	      "... but not on another metric, which gets its own mail");
	CHECK(!watch_state_reported(s, good, "slab.instructions_per_op"),
	      "... nor another commit on that metric");
	CHECK(watch_state_save(dir, s) == 0, "the state is saved");
	cJSON_Delete(s);

	/* The next call (cron's next run) reads what the last one wrote. */
	again = watch_state_load(dir, "/src/linux", "main", good);
	CHECK(again && watch_state_reported(again, bad, "slab.instructions_per_op"),
	      "a second call finds the regression reported: no second mail");
	CHECK(again && watch_state_tested(again, bad), "... and the commit tested: not retried");
	cJSON_Delete(again);
}

static void test_refused(const char *dir)
{
	char *path = xasprintf("%s/watch.json", dir);
	cJSON *s;

	s = watch_state_load(dir, "/src/linux", "next", good);
	CHECK(s == NULL, "the state of branch main is refused for branch next");
	cJSON_Delete(s);
	s = watch_state_load(dir, "/src/other", "main", good);
	CHECK(s == NULL, "... and for another tree");
	cJSON_Delete(s);
	CHECK(write_output(path, "{\"last_good\": 1}") == 0, "a broken state written");
	s = watch_state_load(dir, "/src/linux", "main", good);
	CHECK(s == NULL, "a file that is not a watch's state is refused");
	cJSON_Delete(s);
	free(path);
}

int main(void)
{
	char tmpl[] = "/tmp/sbwatch-XXXXXX", *dir = mkdtemp(tmpl);

	CHECK(dir != NULL, "temp dir");
	if (!dir)
		return check_done();
	test_once(dir);
	test_refused(dir);
	{
		char *rm = xasprintf("rm -rf '%s'", dir);

		CHECK(system(rm) == 0, "temp dir removed");
		free(rm);
	}
	return check_done();
}
