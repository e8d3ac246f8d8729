// SPDX-License-Identifier: GPL-2.0
/*
 * Plan verb userspace: what a system's init does before anyone looks at
 * its memory, on every online CPU. A real init runs commands that the
 * scheduler spreads over idle CPUs, and each CPU that has run a fork and
 * an exec keeps per-CPU slabs (SLUB) or arrays (SLAB) of the process
 * caches: task_struct, mm_struct, signal, sighand, files, names_cache,
 * proc inodes, kmalloc. The agent alone forks nothing and stays on one
 * CPU, so without this an after-boot snapshot describes a system that
 * never ran user space on its other CPUs.
 *
 * Deterministic rather than scheduled: one child per online CPU, in CPU
 * order, each pinned to its CPU and running the same busybox commands
 * (fork and exec each, as an init script would); every command's
 * processes inherit the pin. The first command reports the CPU it ran
 * on, so that the pin is checked, not assumed.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <errno.h>
#include <linux/slabbench.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The first command's output is /proc/self/stat of a process on the CPU. */
static char *const *const commands[] = {
	(char *const[]){ "/bin/cat", "/proc/self/stat", NULL },
	(char *const[]){ "/bin/mount", NULL },
	(char *const[]){ "/bin/uname", "-a", NULL },
	(char *const[]){ "/bin/ls", "-l", "/dev", "/sys/devices/system/cpu", NULL },
	(char *const[]){ "/bin/ps", NULL },
	(char *const[]){ "/bin/sh", "-c", "cat /proc/cmdline /proc/meminfo | wc -l", NULL },
	(char *const[]){ "/bin/dmesg", NULL },
	(char *const[]){ "/bin/sync", NULL },
};

/* Field 39 of /proc/PID/stat, the CPU the task last ran on; -1 if none. */
static int stat_cpu(const char *stat)
{
	/* The command name (field 2) may hold blanks: count from its ')'. */
	const char *p = strrchr(stat, ')');
	int field = 2;

	while (p && field < 39 && (p = strchr(p + 1, ' ')))
		field++;
	return p ? atoi(p + 1) : -1;
}

/*
 * In the child pinned to @cpu: every command in turn. Exits 0, 1 if a
 * command failed, 2 if the first ran on another CPU (the pin did not hold).
 */
static void __attribute__((noreturn)) run_on(int cpu)
{
	cpu_set_t one;
	size_t len;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		_exit(2);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		char *out = capture(commands[i], &len);

		if (!out)
			_exit(1);
		if (!i && stat_cpu(out) != cpu)
			_exit(2);
		free(out);
	}
	_exit(0);
}

/* The commands as JSON strings, for the record. */
static void commands_json(FILE *out)
{
	fputs("\"commands\":[", out);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		fprintf(out, "%s\"", i ? "," : "");
		for (char *const *w = commands[i]; *w; w++)
			fprintf(out, "%s%s", w == commands[i] ? "" : " ", *w);
		fputs("\"", out);
	}
	fputs("]", out);
}

int userspace_run(const char *name)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	char *json = NULL;
	int ran = 0, ret = 0;
	double t = now_s();
	cpu_set_t all;
	size_t len = 0;
	FILE *out;

	/* PID 1 may run anywhere: its mask is every online CPU. */
	if (sched_getaffinity(0, sizeof(all), &all)) {
		say(SB_VERB_USERSPACE ": sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	say(SB_VERB_USERSPACE ": %zu commands on each of %d CPUs", ARRAY_SIZE(commands),
	    CPU_COUNT(&all));
	for (int cpu = 0; cpu < CPU_SETSIZE && !ret; cpu++) {
		int status;
		pid_t pid;

		if (!CPU_ISSET(cpu, &all))
			continue;
		pid = fork();
		if (!pid)
			run_on(cpu);
		while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			say(SB_VERB_USERSPACE ": on CPU %d: %s", cpu,
			    pid < 0 ? strerror(errno) :
			    WIFEXITED(status) && WEXITSTATUS(status) == 2 ?
			    "the commands did not run on that CPU" : "a command failed");
			ret = -1;
		}
		ran++;
	}
	if (ret)
		return -1;
	out = open_memstream(&json, &len);
	if (!out)
		return -1;
	fprintf(out, "{\"cpus_online\":%ld,\"cpus_ran\":%d,\"pinned\":true,\"order\":\"cpu\","
		"\"seconds\":%.3f,", online, ran, now_s() - t);
	commands_json(out);
	fputs("}\n", out);
	if (fclose(out)) {
		free(json);
		return -1;
	}
	send_frame(SB_FRAME_FILE, name, json, len);
	free(json);
	return 0;
}
