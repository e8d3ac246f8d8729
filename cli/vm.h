/* SPDX-License-Identifier: GPL-2.0 */
/* Booting a guest in QEMU and collecting what its agent sends. */
#ifndef SLABBENCH_VM_H
#define SLABBENCH_VM_H

#include <stdbool.h>
#include <stddef.h>

/* What a user chooses about the guest machine (the shared VM options). */
struct vm_opts {
	const char *accel;
	long cpus;		/* 0: resolved by vm_cpus_for_accel */
	long mem;		/* MB */
	long timeout;		/* s per boot; 0: the caller's default */
	const char *cmdline;	/* extra kernel parameters, may be NULL */
};

struct vm_config {
	const char *label;	/* for progress and messages, e.g. "slab" */
	const char *kernel;	/* bzImage */
	const char *initrd;
	const char *dir;	/* run directory: console log, channel file */
	const char *accel;	/* auto, kvm, tcg or icount */
	int cpus;
	int mem_mb;
	const char *cmdline;	/* extra kernel parameters, may be NULL */
	double timeout_s;
	int expected_results;	/* for the progress line */
	/*
	 * TCG on one host thread. QEMU 7.2's multi-threaded TCG can go on
	 * running translated code of a kprobe after it was removed (about one
	 * hitrate run in 40 hangs): for guests that time nothing.
	 */
	bool single_thread;
};

enum vm_status {
	VM_OK,			/* QEMU exited after the agent's done frame */
	VM_NO_DONE,		/* QEMU exited, the agent never finished */
	VM_TIMEOUT,
	VM_INTERRUPTED,
	VM_START_FAILED,
};

struct vm_outcome {
	enum vm_status status;
	char accel[8];		/* the accelerator actually used */
	char *channel;		/* the agent's frames */
	size_t channel_len;
	char *console_path;
	char *qemu_version;
	double ready_s;		/* host seconds from QEMU start to agent ready */
	double wall_s;
	/* The first console line that marks the kernel unhealthy, if any. */
	char *console_problem;
};

int vm_boot(const struct vm_config *c, struct vm_outcome *o);
void vm_outcome_free(struct vm_outcome *o);
const char *vm_status_name(enum vm_status s);
/* Returns the first line of @log that shows an oops, panic, BUG, WARN... */
char *console_problem(const char *log);
/* The last @lines lines of a console log, for error messages. */
void print_console_tail(const char *path, int lines);
/* The accelerators --accel takes, NULL-terminated. */
extern const char *const vm_accels[];
/*
 * Resolves *cpus (0: not given) for @accel: 2 by default, 1 under icount,
 * where more is refused. Returns -1 with a message on a refusal.
 */
int vm_cpus_for_accel(const char *accel, long *cpus);

#endif
