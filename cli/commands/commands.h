/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands, one file each (cmd_NAME.c), dispatched from slabbench.c. */
#ifndef SLABBENCH_COMMANDS_H
#define SLABBENCH_COMMANDS_H

/* argv[0] is the subcommand's name; returns the exit status. */
int cmd_run(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_selftest(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_noise(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_watch(int argc, char **argv);

#endif
