// SPDX-License-Identifier: GPL-2.0
/* Plan verb reload: the module must refuse to go mid-run, and unload and load cleanly. */
#define _GNU_SOURCE
#include "agent.h"
#include "json.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/slabbench.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Slab memory that loading and unloading may leave in caches without a
 * leak: debugfs and sysfs inodes and dentries, and slabs kept on per-CPU
 * and partial lists.
 */
#define RELOAD_SLACK_KB 512

/*
 * Slab memory in kB as the module reads it once RCU callbacks have run and
 * KASAN's quarantine is empty: /proc/meminfo's Slab moves by megabytes on
 * a debug kernel between two readings. -1 if the module does not answer.
 */
static double settled_slab_kb(void)
{
	size_t len = 0;
	char *text = read_path(SB_PATH_SLAB_PAGES, &len);
	double kb = text && isdigit((unsigned char)text[0]) ?
		    strtod(text, NULL) * sysconf(_SC_PAGESIZE) / 1024 : -1;

	free(text);
	return kb;
}

/*
 * Whether @pid sleeps inside write(2): writing a spec, the writer waits
 * there while the test runs on its pinned kthread. /proc/PID/syscall
 * shows the call of a blocked task, "running" otherwise.
 */
static bool in_write(pid_t pid)
{
	char path[64], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return isdigit((unsigned char)buf[0]) && strtol(buf, NULL, 10) == SYS_write;
}

/*
 * Attempts at catching a run in progress. A host busy with kernel builds
 * has held the agent's vCPU past a whole run (its length is the spec's,
 * cli/commands/cmd_selftest.c): an attempt that did not see the writer in
 * write(2) tells nothing of the module and is made again, saying so; a
 * module that goes while the writer is seen there fails at once.
 */
#define RELOAD_ATTEMPTS 5

/*
 * One attempt: a child writes @spec to the run file, which it holds open
 * from before the write until it exits; once it sleeps in write(2) the
 * module is asked to go. Whether unloading was refused during the run
 * (into *@caught whether the run was seen in progress then), the
 * child's exit status into *@status; -1 if no child could be started.
 */
static int try_unload_during_run(const char *spec, FILE *out, int attempt, bool *caught,
				 int *status)
{
	int pipefd[2], unload_err;
	double start, deadline;
	pid_t child, exited = 0;
	char sync;

	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	child = fork();
	if (child == 0) {
		int fd = open(SB_PATH_RUN, O_RDWR | O_CLOEXEC);

		/* The file is open: the module is pinned from here on. */
		if (write(pipefd[1], "x", 1) != 1 || fd < 0)
			_exit(2);
		_exit(write(fd, spec, strlen(spec)) < 0);
	}
	close(pipefd[1]);
	if (child < 0 || read(pipefd[0], &sync, 1) != 1) {
		close(pipefd[0]);
		if (child > 0)
			waitpid(child, status, 0);
		return -1;
	}
	close(pipefd[0]);
	start = now_s();
	deadline = start + 60;
	while (!(*caught = in_write(child)) && !(exited = waitpid(child, status, WNOHANG)) &&
	       now_s() < deadline)
		usleep(1000);
	unload_err = syscall(SYS_delete_module, SB_MODULE_NAME, O_NONBLOCK) ? errno : 0;
	*caught = *caught && in_write(child);
	if (!*caught)
		fprintf(out, "# attempt %d: the run was not caught in progress (%s after %.3f s): %s\n",
			attempt, exited ? "the writer had exited" : "the writer was not in write(2)",
			now_s() - start, spec);
	if (unload_err != EWOULDBLOCK)
		fprintf(out, "# attempt %d: unloading during the run: %s\n", attempt,
			unload_err ? strerror(unload_err) : "the module went");
	if (!exited)
		waitpid(child, status, 0);
	return unload_err == EWOULDBLOCK;
}

/*
 * An open debugfs file pins the module (fops->owner): unloading while a
 * run is going on must be refused, and the run must complete; then @n
 * unload and load cycles must leave slab memory where it was. Each
 * attempt waits for the run to start, whatever the guest's speed, so
 * SPEC only has to outlast a poll (fastpath warms up for 50 ms).
 */
int reload_test(long n, const char *spec)
{
	char *ktap = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&ktap, &len);
	int status = -1, refused = 1, attempt, cycles_ok = 1;
	char *info;
	size_t info_len = 0;
	struct json *doc;
	const char *module;
	double before, after;
	bool caught = false;
	long i;

	if (!out)
		return -1;
	fprintf(out, "KTAP version 1\n1..5\n");
	for (attempt = 1; attempt <= RELOAD_ATTEMPTS && !caught; attempt++) {
		/* Not caught, the module may have gone with the writer's file. */
		if (!refused)
			load_module(SB_GUEST_MODULE);
		refused = try_unload_during_run(spec, out, attempt, &caught, &status);
		if (refused < 0) {
			fclose(out);
			free(ktap);
			return -1;
		}
	}
	fprintf(out, "%sok 1 unloading during a run is refused\n", refused && caught ? "" : "not ");
	fprintf(out, "%sok 2 the run completes\n",
		WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : "not ");
	if (!refused)
		load_module(SB_GUEST_MODULE);
	before = settled_slab_kb();
	for (i = 0; i < n && cycles_ok; i++) {
		if (syscall(SYS_delete_module, SB_MODULE_NAME, O_NONBLOCK)) {
			fprintf(out, "# cycle %ld: unloading: %s\n", i + 1, strerror(errno));
			cycles_ok = 0;
		}
		if (load_module(SB_GUEST_MODULE)) {
			fprintf(out, "# cycle %ld: loading failed\n", i + 1);
			cycles_ok = 0;
		}
	}
	fprintf(out, "%sok 3 unload and load %ld times\n", cycles_ok ? "" : "not ", n);
	after = settled_slab_kb();
	fprintf(out, "# Slab %.0f kB before, %.0f kB after (slack %d kB)\n", before,
		after, RELOAD_SLACK_KB);
	fprintf(out, "%sok 4 slab memory back to its baseline\n",
		before >= 0 && after >= 0 && after - before <= RELOAD_SLACK_KB ? "" : "not ");
	info = read_path(SB_PATH_INFO, &info_len);
	doc = info ? json_parse(info, info_len) : NULL;
	module = json_str(json_get(doc, "module"));
	fprintf(out, "%sok 5 the module answers\n",
		module && !strcmp(module, SB_MODULE_NAME) ? "" : "not ");
	json_free(doc);
	free(info);
	if (fclose(out))
		return -1;
	send_frame(SB_FRAME_FILE, SB_NAME_RELOAD, ktap, len);
	free(ktap);
	return 0;
}
