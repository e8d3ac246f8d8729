/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest agent's files share: io.c's helpers for every job, each
 * job's entry, which only the plan (plan.c) calls, and the plan's, which
 * only main.c calls.
 */
#ifndef SLABBENCH_AGENT_H
#define SLABBENCH_AGENT_H

#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* io.c */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int write_all(int fd, const char *buf, size_t len);
/* Finds the results port by its name; 0, or -1 if it never showed up. */
int port_open(void);
void port_close(void);
void send_frame(const char *kind, const char *name, const char *data, size_t len);
/* Everything a descriptor gives until EOF, NUL-terminated; NULL on error. */
char *read_fd(int fd, size_t *len);
/* The same for the file at @path; NULL if it cannot be opened or read. */
char *read_path(const char *path, size_t *len);
/* Writes @value to @path; a @path this kernel lacks is skipped (0). */
int write_value(const char *path, const char *value);
/* Runs @argv (no shell), its standard output in *@len bytes; NULL if it failed. */
char *capture(char *const argv[], size_t *len);
/* finit_module() on @path; a module already loaded is no error. */
int load_module(const char *path);
/* A /proc/meminfo field in kB, per-CPU counters folded first; -1 if none. */
double meminfo_kb(const char *field);
/* CLOCK_MONOTONIC in seconds. */
double now_s(void);

/* plan.c: carries out SB_GUEST_PLAN; 0, or -1 once a line failed. */
int plan_execute(void);

/*
 * A verb that runs one spec and sends a result (or error) frame named
 * @index: plan.c's run_spec, macro.c's macro_run.
 */
typedef int (*spec_verb)(const char *index, char *spec);

/*
 * reload.c: tries to unload the module while @spec runs, then unloads and
 * loads it @n times; sends the outcome as KTAP in file frame SB_NAME_RELOAD.
 */
int reload_test(long n, const char *spec);

/*
 * fuzz.c: @n generated specs written to run, then hostile ones; sends the
 * outcome as KTAP in file frame SB_NAME_FUZZ.
 */
int fuzz_test(long n, uint64_t seed);

/*
 * userspace.c: a child pinned to each online CPU in turn forks and execs
 * busybox commands; sends what ran as JSON in file frame @name.
 */
int userspace_run(const char *name);

/*
 * macro.c: runs a macro workload, "test=NAME k=v ...", its parameters
 * checked against macro_table.c (a missing one takes its default; @spec
 * is split in place), and sends a result frame shaped like the module's, or an error frame.
 */
int macro_run(const char *index, char *spec);
/* macro.c: ends what a macro run with hold=1 keeps (the plan's release). */
void macro_release(void);

/*
 * profile.c: runs @verb on @spec under a system-wide "perf record" and
 * sends "perf report"'s top symbols as a profile frame.
 */
int profile_run(const char *index, char *spec, spec_verb verb);

#endif
