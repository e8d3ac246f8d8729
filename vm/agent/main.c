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
#include <malloc.h>
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

/*
 * The agent's heap, grown and touched once, before any snapshot, and
 * never given back: a snapshot reads the census and then /proc/slabinfo
 * into buffers (a census of 800 caches is about 500 KB), and a buffer
 * from a new mapping would allocate a vm_area_struct and, at its first
 * fault, an anon_vma_chain; growing the heap, maple tree nodes. Those
 * are the agent's own slab objects, allocated between two reads that
 * are compared: on SLAB such an allocation refills a CPU array with a
 * batch from the node lists and moves slabinfo's active_objs
 * (vm_area_struct and anon_vma_chain by 16 on slab-distro).
 */
#define HEAP_RESERVE (4 << 20)

static void heap_reserve(void)
{
	char *p;

	/* 32 MB, glibc's largest: no buffer of the agent's is mapped alone. */
	if (!mallopt(M_MMAP_THRESHOLD, 32 << 20) || !mallopt(M_TRIM_THRESHOLD, -1) ||
	    !(p = malloc(HEAP_RESERVE))) {
		say("cannot reserve the heap: snapshots may count the agent's mappings");
		return;
	}
	memset(p, 0, HEAP_RESERVE);
	free(p);
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
	heap_reserve();

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
