/* SPDX-License-Identifier: GPL-2.0 */
/* The host's QEMU: which program, its version, the CPU models it knows. */
#ifndef SLABBENCH_QEMU_H
#define SLABBENCH_QEMU_H

/* $SLABBENCH_QEMU, else qemu-system-x86_64 on PATH. */
const char *qemu_binary(void);
/* Its first --version line, or "unknown"; free it. */
char *qemu_version(void);
/*
 * Whether @model is a CPU model that 'QEMU -cpu help' lists, asked once
 * before any boot, so that a model QEMU does not know is refused in our
 * words; -1 after a one-line message naming @cmd.
 */
int qemu_cpu_model_check(const char *cmd, const char *model);

#endif
