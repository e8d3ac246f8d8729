// SPDX-License-Identifier: GPL-2.0
/* Plan verb profile: a run or macro under perf record, sent as perf report's top symbols. */
#define _GNU_SOURCE
#include "agent.h"

#include <errno.h>
#include <linux/slabbench.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PERF_DATA "/tmp/perf.data"

int profile_run(const char *index, char *spec, spec_verb verb)
{
	char *record[] = { SB_GUEST_PERF, "record", "-a", "-e", "cpu-clock", "-F", "499", "-N",
			   "-o", PERF_DATA, NULL };
	char *report[] = { SB_GUEST_PERF, "report", "--stdio", "-i", PERF_DATA, "--sort", "sym",
			   "--no-children", "-q", "--percent-limit", "0.5", NULL };
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	struct stat st;
	size_t len = 0;
	char *text;
	pid_t pid;
	int ret, tries;

	unlink(PERF_DATA);
	pid = fork();
	if (pid == 0) {
		execv(SB_GUEST_PERF, record);
		_exit(127);
	}
	if (pid < 0) {
		say(SB_VERB_PROFILE ": fork: %s", strerror(errno));
		return -1;
	}
	/* perf writes its header once it records; emulated, that takes a while. */
	for (tries = 0; tries < 200 && (stat(PERF_DATA, &st) || !st.st_size); tries++)
		nanosleep(&pause, NULL);
	ret = verb(index, spec);
	kill(pid, SIGINT);
	waitpid(pid, NULL, 0);
	text = capture(report, &len);
	if (!text) {
		say(SB_VERB_PROFILE ": %s report failed", SB_GUEST_PERF);
		return -1;
	}
	send_frame(SB_FRAME_PROFILE, index, text, len);
	free(text);
	return ret;
}
