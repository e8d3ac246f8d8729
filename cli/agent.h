/* SPDX-License-Identifier: GPL-2.0 */
/* The guest agent's parts (cli/agent*.c), linked into one static /init. */
#ifndef SLABBENCH_AGENT_H
#define SLABBENCH_AGENT_H

#include <stddef.h>
#include <stdint.h>

#define RUN_PATH "/sys/kernel/debug/slabbench/run"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void send_frame(const char *kind, const char *name, const char *data, size_t len);
/* Everything a descriptor gives until EOF, NUL-terminated; NULL on error. */
char *read_fd(int fd, size_t *len);
/* The same for the file at @path; NULL if it cannot be opened or read. */
char *read_path(const char *path, size_t *len);
/* Runs @argv (no shell), its standard output in *@len bytes; NULL if it failed. */
char *capture(char *const argv[], size_t *len);
/* A /proc/meminfo field in kB, per-CPU counters folded first; -1 if none. */
double meminfo_kb(const char *field);
/* CLOCK_MONOTONIC in seconds. */
double now_s(void);

/*
 * fuzz N SEED (cli/agent_fuzz.c): @n generated specs written to run, then
 * hostile ones; sends the outcome as KTAP in file frame "fuzz".
 */
int fuzz_test(long n, uint64_t seed);

/*
 * Macro workloads (cli/agent_macro.c): runs SPEC, "test=NAME k=v ...",
 * with every parameter given (cli/macro.c fills in the defaults), and
 * sends a result frame shaped like the module's, or an error frame.
 */
int macro_run(const char *index, const char *spec);
/*
 * Runs @verb (run_spec or macro_run) on @spec under a system-wide
 * "perf record" and sends "perf report"'s top symbols as a profile frame.
 */
int profile_run(const char *index, const char *spec,
		int (*verb)(const char *index, const char *spec));

#endif
