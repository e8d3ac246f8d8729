// SPDX-License-Identifier: GPL-2.0
/* The host's QEMU (see qemu.h). */
#define _GNU_SOURCE
#include "qemu.h"
#include "util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *qemu_binary(void)
{
	const char *env = getenv("SLABBENCH_QEMU");

	return env && *env ? env : "qemu-system-x86_64";
}

char *qemu_version(void)
{
	char *cmd = xasprintf("%s --version 2>/dev/null", qemu_binary());
	FILE *p = popen(cmd, "r");
	char line[256] = "";

	free(cmd);
	if (p) {
		if (!fgets(line, sizeof(line), p))
			line[0] = '\0';
		pclose(p);
	}
	line[strcspn(line, "\n")] = '\0';
	return xstrdup(line[0] ? line : "unknown");
}

int qemu_cpu_model_check(const char *cmd, const char *model)
{
	char *sh = xasprintf("%s -cpu help 2>/dev/null", qemu_binary());
	FILE *p = popen(sh, "r");
	char line[512], arch[64], name[128];
	bool listed = false, found = false;

	free(sh);
	/*
	 * "x86 Skylake-Server-v4  Intel Xeon ...": a model a line, after
	 * the architecture; the CPUID flags after them are indented.
	 */
	while (p && fgets(line, sizeof(line), p)) {
		if (line[0] == ' ' || sscanf(line, "%63s %127s", arch, name) != 2 ||
		    !strcmp(name, "CPUs:"))
			continue;
		listed = true;
		found |= !strcmp(name, model);
	}
	if (p)
		pclose(p);
	if (!listed)
		return error("%s: --cpu-model=%s: '%s -cpu help' listed no CPU models to check it "
			     "against", cmd, model, qemu_binary());
	if (!found)
		return error("%s: --cpu-model=%s: QEMU knows no such CPU model ('%s -cpu help' "
			     "lists them)", cmd, model, qemu_binary());
	return 0;
}
