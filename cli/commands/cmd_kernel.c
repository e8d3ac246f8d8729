// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench kernel: the guest kernels in the cache. The recipe itself is
 * vm/kernel.sh; this gives it the same front door as every other command.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "guest.h"
#include "options.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int kernel_script(const char *verb, const char *variant)
{
	char *script = xasprintf("%s/vm/kernel.sh", slabbench_home());
	char *argv[] = { "bash", script, (char *)verb, (char *)variant, NULL };
	int status = run_wait(argv);

	free(script);
	return status ? -1 : 0;
}

int cmd_kernel(int argc, char **argv)
{
	static const struct usage usage = {
		.cmd = "kernel", .args = "build VARIANT... | list | diff VARIANT | clean [VARIANT...]",
		.min_args = 1, .max_args = -1,
		.about = "Builds, lists (with cache state and inputs hash) or removes guest\n"
			 "kernels. Variants are listed in vm/variants and in the user's file\n"
			 "($SLABBENCH_VARIANTS, else ~/.config/slabbench/variants;\n"
			 "docs/user-kernels.md); the cache is\n"
			 "$SLABBENCH_CACHE, else $XDG_CACHE_HOME/slabbench or ~/.cache/slabbench.\n"
			 "'diff' explains every line in which a distro variant's .config (its\n"
			 "build's, else one configured for the purpose) differs from Debian's,\n"
			 "and fails when a line is unexplained.\n",
	};
	struct opt opts[] = { OPT_END() };
	const char *verb;
	int ret = 0;

	if (options_parse(&usage, opts, argc, argv) != 1)
		return 2;
	verb = argv[1];
	if (!strcmp(verb, "list")) {
		if (argc != 2)
			return error("kernel list: takes no arguments"), 2;
		return kernel_script("list", NULL) ? 1 : 0;
	}
	if (!strcmp(verb, "diff")) {
		if (argc != 3)
			return error("kernel diff: name one distro variant"), 2;
		if (variants_check("kernel", argv + 2, 1))
			return 2;
		return kernel_script("diff", argv[2]) ? 1 : 0;
	}
	if (strcmp(verb, "build") && strcmp(verb, "clean"))
		return error("kernel: '%s' is not build, list, diff or clean", verb), 2;
	if (variants_check("kernel", argv + 2, argc - 2))
		return 2;
	if (!strcmp(verb, "build") && argc < 3)
		return error("kernel build: name at least one variant"), 2;
	if (!strcmp(verb, "clean") && argc == 2)
		return kernel_script("clean", NULL) ? 1 : 0;
	for (int i = 2; i < argc && !ret; i++) {
		struct guest g;

		if (!strcmp(verb, "clean")) {
			ret = kernel_script("clean", argv[i]);
		} else if (!(ret = guest_prepare(argv[i], &g))) {
			printf("%s %s %s\n", g.variant, g.release, g.bzimage);
			guest_free(&g);
		}
	}
	return ret ? 1 : 0;
}
