// SPDX-License-Identifier: GPL-2.0
/*
 * The watch's state (watchstate.h): library code, so that its rules, a
 * regression mailed once and a broken commit not retried, are tested
 * without a tree, a kernel or a guest.
 */
#define _GNU_SOURCE
#include "watchstate.h"
#include "json.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *now_text(void)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(stamp);
}

static char *state_path(const char *dir)
{
	return xasprintf("%s/watch.json", dir);
}

cJSON *watch_state_load(const char *dir, const char *tree, const char *branch,
			const char *baseline)
{
	char *path = state_path(dir), *text = read_file(path, NULL);
	cJSON *s;

	if (!text) {
		s = cJSON_CreateObject();
		cJSON_AddStringToObject(s, "tree", tree);
		cJSON_AddStringToObject(s, "branch", branch);
		cJSON_AddStringToObject(s, "baseline", baseline);
		cJSON_AddStringToObject(s, "last_good", baseline);
		cJSON_AddArrayToObject(s, "commits");
		cJSON_AddArrayToObject(s, "reported");
	} else if (!(s = cJSON_Parse(text)) || !cJSON_IsString(json_at(s, "last_good")) ||
		   !cJSON_IsArray(json_at(s, "commits")) || !cJSON_IsArray(json_at(s, "reported"))) {
		error("watch: %s: not a watch's state", path);
		cJSON_Delete(s);
		s = NULL;
	} else if (strcmp(json_str_at(s, "tree"), tree) ||
		   strcmp(json_str_at(s, "branch"), branch)) {
		error("watch: %s: the state of %s branch %s, not of %s branch %s: give another "
		      "--state", path, json_str_at(s, "tree"), json_str_at(s, "branch"), tree,
		      branch);
		cJSON_Delete(s);
		s = NULL;
	}
	free(text);
	free(path);
	return s;
}

int watch_state_save(const char *dir, const cJSON *s)
{
	char *path = state_path(dir), *text = cJSON_Print(s);
	int ret = write_output(path, text);

	free(text);
	free(path);
	return ret;
}

const cJSON *watch_state_tested(const cJSON *s, const char *commit)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, json_at(s, "commits"))
		if (!strcmp(json_str_at(c, "commit"), commit))
			return c;
	return NULL;
}

void watch_state_record(cJSON *s, const char *commit, const char *verdict, const char *note)
{
	cJSON *c = cJSON_CreateObject();
	char *t = now_text();

	cJSON_AddStringToObject(c, "commit", commit);
	cJSON_AddStringToObject(c, "verdict", verdict);
	cJSON_AddStringToObject(c, "time", t);
	if (note)
		cJSON_AddStringToObject(c, "note", note);
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(s, "commits"), c);
	free(t);
}

bool watch_state_reported(const cJSON *s, const char *first, const char *metric)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, json_at(s, "reported"))
		if (!strcmp(json_str_at(r, "commit"), first) &&
		    !strcmp(json_str_at(r, "metric"), metric))
			return true;
	return false;
}

cJSON *watch_state_report(cJSON *s, const char *first, const char *metric, double pct,
			  const char *bisect, const char *mail)
{
	cJSON *r = cJSON_CreateObject();

	cJSON_AddStringToObject(r, "commit", first);
	cJSON_AddStringToObject(r, "metric", metric);
	cJSON_AddNumberToObject(r, "pct", pct);
	cJSON_AddStringToObject(r, "bisect", bisect);
	cJSON_AddStringToObject(r, "mail", mail);
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(s, "reported"), r);
	return r;
}
