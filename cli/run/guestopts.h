/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest options as command-line words again, from the option table
 * (OPT_VM, options_to_argv()): for a command that runs another with
 * them (watch's bisect), and for the command that runs again what a run
 * recorded (the report's, the mail's reproducer).
 */
#ifndef SLABBENCH_GUESTOPTS_H
#define SLABBENCH_GUESTOPTS_H

#include "schema.h"
#include "vm.h"

/* "--accel=tcg", "--cpus=2", ...: @v's options; free with options_argv_free(). */
char **guest_opts_argv(const struct vm_opts *v);
/*
 * The options that give the guest of @id again: its accelerator, CPUs,
 * memory, kernel parameters and cache geometry as recorded, and what
 * differs from the defaults (NUMA nodes, possible CPUs, a CPU model
 * other than max or host); @v's strings point into @id.
 */
void guest_opts_of_run(const struct run_id *id, struct vm_opts *v);

#endif
