// SPDX-License-Identifier: GPL-2.0
/*
 * slabbench-agent: /init of the guest. It mounts what the module needs,
 * loads slabbench.ko, carries out the plan the host put into the initramfs
 * (plan.c) and sends everything back as frames on a virtio-serial port of
 * its own, so that results never depend on what the console happened to
 * print. The verbs and frames are linux/slabbench.h's.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <dirent.h>
#include <errno.h>
#include <linux/slabbench.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void mount_or_say(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * Drivers that a distribution kernel has as modules (the virtio port this
 * agent talks through, on Debian's kernel), in the order of their names.
 */
static int load_preload_modules(void)
{
	struct dirent **names;
	char path[300];
	int n, i, ret = 0;

	n = scandir(SB_GUEST_PRELOAD_DIR, &names, NULL, by_name);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && !ret) {
			snprintf(path, sizeof(path), "%s/%s", SB_GUEST_PRELOAD_DIR,
				 names[i]->d_name);
			ret = load_module(path);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return ret;
}

int main(void)
{
	char status[48];
	struct timespec now;
	int ret;

	mount_or_say("proc", "/proc", "proc");
	mount_or_say("sysfs", "/sys", "sysfs");
	mount_or_say("devtmpfs", "/dev", "devtmpfs");
	mount_or_say("debugfs", "/sys/kernel/debug", "debugfs");
	mount_or_say("tmpfs", "/tmp", "tmpfs");
	/* perf keeps state under $HOME: the only writable place is /tmp. */
	setenv("HOME", "/tmp", 1);

	if (load_preload_modules())
		say("a preloaded module failed; the results port may be missing");
	if (port_open()) {
		say("no virtio-serial port named %s", SB_PORT_NAME);
		reboot(RB_AUTOBOOT);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	snprintf(status, sizeof(status), "%ld.%03ld", (long)now.tv_sec,
		 now.tv_nsec / 1000000);
	send_frame(SB_FRAME_READY, "uptime", status, strlen(status));

	ret = load_module(SB_GUEST_MODULE);
	if (!ret)
		ret = plan_execute();
	snprintf(status, sizeof(status), "%d", ret ? 1 : 0);
	send_frame(SB_FRAME_DONE, "status", status, strlen(status));
	port_close();
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
