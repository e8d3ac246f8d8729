/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The names that slabbench.ko (kmod/), the guest agent (vm/agent/) and the
 * host program (cli/) must agree on, and nothing else: defines only, so
 * that the module, the static agent and the host each include it as is.
 *
 *   host --plan--> agent --spec--> debugfs slabbench/run (module)
 *   host <--frames on the results port-- agent <--JSON-- module
 */
#ifndef _UAPI_LINUX_SLABBENCH_H
#define _UAPI_LINUX_SLABBENCH_H

/* The module's name: delete_module(), and the "module" member of info. */
#define SB_MODULE_NAME		"slabbench"

/* The module's debugfs directory and its files, all root-only. */
#define SB_DEBUGFS_DIR		"slabbench"
#define SB_FILE_INFO		"info"		/* what it runs on (JSON) */
#define SB_FILE_TESTS		"tests"		/* the catalogue (JSON) */
#define SB_FILE_RUN		"run"		/* write a spec, read its result */
#define SB_FILE_SELFTEST	"selftest"	/* open runs it; read KTAP */
#define SB_FILE_SLAB_PAGES	"slab_pages"	/* settled slab memory (pages) */

/*
 * The same files where the guest mounts debugfs. SB_DEBUGFS_FILE() and
 * not SB_DEBUGFS_PATH NAME: checkpatch takes two names in a row for a
 * complex macro, a string and a name for a string.
 */
#define SB_DEBUGFS_FILE(name)	"/sys/kernel/debug/" SB_DEBUGFS_DIR "/" name
#define SB_DEBUGFS_PATH		SB_DEBUGFS_FILE("")
#define SB_PATH_INFO		SB_DEBUGFS_FILE(SB_FILE_INFO)
#define SB_PATH_TESTS		SB_DEBUGFS_FILE(SB_FILE_TESTS)
#define SB_PATH_RUN		SB_DEBUGFS_FILE(SB_FILE_RUN)
#define SB_PATH_SELFTEST	SB_DEBUGFS_FILE(SB_FILE_SELFTEST)
#define SB_PATH_SLAB_PAGES	SB_DEBUGFS_FILE(SB_FILE_SLAB_PAGES)

/*
 * A spec written to run: "test=NAME key=value ...", shorter than
 * SB_SPEC_MAX bytes (a longer write fails with E2BIG). Writing
 * SB_SPEC_RELEASE instead frees what an "overhead hold=1" run kept.
 */
#define SB_SPEC_MAX		512
#define SB_SPEC_RELEASE		"release"
/*
 * The cache an "overhead hold=1" run keeps alive until then: the host
 * reads its line in /proc/slabinfo to cross-check the module's figures.
 */
#define SB_HELD_CACHE		"slabbench-held"

/*
 * The slab census (docs/census.md): provided by our kernel patch in mm/
 * (vm/patches/), not by the module, so a kernel without the patch
 * (Debian's packaged one) has no such file. Each read takes one census,
 * as text; writing SB_CENSUS_SHRINK shrinks every cache.
 */
#define SB_PATH_CENSUS		"/sys/kernel/debug/slab_census"
#define SB_CENSUS_SHRINK	"shrink"

/* Where the host's initramfs puts things in the guest. */
#define SB_GUEST_PLAN		"/slabbench/plan"
#define SB_GUEST_MODULE		"/lib/modules/slabbench.ko"
/* Drivers to load before anything else, in name order (Debian's virtio). */
#define SB_GUEST_PRELOAD_DIR	"/lib/modules/pre"
/* The host's perf, copied in when a plan needs it. */
#define SB_GUEST_PERF		"/usr/bin/perf"

/*
 * Plan verbs, one line each in SB_GUEST_PLAN:
 *   run SPEC           write SPEC to run, send the result (result or error)
 *   macro SPEC         run a macro workload, send its result
 *   profile VERB SPEC  VERB (run or macro) under perf record -a, then
 *                      send perf report's top symbols (profile)
 *   file NAME PATH     send PATH's contents (file; missing if absent)
 *   write PATH VALUE   write VALUE to PATH; a PATH this kernel lacks is
 *                      skipped
 *   cmd NAME ARGV...   run ARGV (no shell), send its standard output (cmd)
 *   attrs NAME DIR ATTR...
 *                      for each entry E of DIR in name order, one line
 *                      "E ATTR=V ..." with V the first word of DIR/E/ATTR
 *                      (an ATTR that E lacks is left out); sent as file
 *                      NAME (missing if DIR is absent)
 *   wait SECONDS       sleep until SECONDS after the last run, macro,
 *                      profile or userspace line ended (the plan's start
 *                      if none)
 *   reload N SPEC      unload attempt during SPEC, then N unload and load
 *                      cycles; the outcome as KTAP in file "reload"
 *   fuzz N SEED        N generated specs, then hostile ones; the outcome
 *                      as KTAP in file "fuzz"
 *   userspace NAME     a boot-like user space on every online CPU in
 *                      turn (a child pinned to it forks and execs busybox
 *                      commands); what ran, as JSON in file NAME
 */
#define SB_VERB_RUN		"run"
#define SB_VERB_MACRO		"macro"
#define SB_VERB_PROFILE		"profile"
#define SB_VERB_FILE		"file"
#define SB_VERB_WRITE		"write"
#define SB_VERB_CMD		"cmd"
#define SB_VERB_ATTRS		"attrs"
#define SB_VERB_WAIT		"wait"
#define SB_VERB_RELOAD		"reload"
#define SB_VERB_FUZZ		"fuzz"
#define SB_VERB_USERSPACE	"userspace"

/*
 * The results channel: a virtio-serial port of its own, so that results
 * never depend on what the console printed. Each frame is
 * "@SB KIND NAME LENGTH\n", LENGTH bytes, "\n": length-prefixed, so that
 * payloads (JSON, /proc files) need no escaping.
 */
#define SB_PORT_NAME		"org.slabbench.results"
#define SB_FRAME_MAGIC		"@SB "
#define SB_FRAME_KIND_MAX	16	/* with the NUL */
#define SB_FRAME_NAME_MAX	64	/* with the NUL */
#define SB_FRAME_HEAD_MAX	128	/* a longer first line is not a frame */
#define SB_FRAME_PAYLOAD_MAX	(64u << 20)

/* Frame kinds; NAME is what the plan line or the agent gave. */
#define SB_FRAME_READY		"ready"		/* agent up: NAME uptime */
#define SB_FRAME_RESULT		"result"	/* NAME: the test's index */
#define SB_FRAME_ERROR		"error"		/* NAME: the test's index */
#define SB_FRAME_PROFILE	"profile"	/* NAME: the test's index */
#define SB_FRAME_FILE		"file"
#define SB_FRAME_MISSING	"missing"	/* file: no such path */
#define SB_FRAME_CMD		"cmd"
#define SB_FRAME_DONE		"done"		/* NAME status: "0" or failed */

/* Names of the agent's own files in the channel. */
#define SB_NAME_RELOAD		"reload"
#define SB_NAME_FUZZ		"fuzz"

#endif /* _UAPI_LINUX_SLABBENCH_H */
