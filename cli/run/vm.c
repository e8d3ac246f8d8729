// SPDX-License-Identifier: GPL-2.0
/*
 * QEMU control. The guest's console goes to a log file; results come back
 * over a virtio-serial port backed by a file that this loop polls. QEMU is
 * put in a process group of its own, dies with us (PDEATHSIG) and is
 * killed on timeout, SIGINT and SIGTERM, so no guest outlives a run.
 */
#define _GNU_SOURCE
#include "vm.h"
#include "cachesim.h"
#include "frames.h"
#include "qemu.h"
#include "strbuf.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/slabbench.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A KVM guest shows its agent within a second; one that has not after
 * this long is hung, as on hosts without working nested virtualisation. */
#define KVM_READY_TIMEOUT_S 15.0
#define QBOOT_PATH "/usr/share/qemu/qboot.rom"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/*
 * The handlers are the process's: with guests booting on several threads
 * (run -j) the first boot installs them and the last one out restores
 * what was there before.
 */
static pthread_mutex_t signals_lock = PTHREAD_MUTEX_INITIALIZER;
static int signals_users;
static struct sigaction signals_old_int, signals_old_term;

static void signals_catch(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	pthread_mutex_lock(&signals_lock);
	if (!signals_users++) {
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &signals_old_int);
		sigaction(SIGTERM, &sa, &signals_old_term);
	}
	pthread_mutex_unlock(&signals_lock);
}

static void signals_release(void)
{
	pthread_mutex_lock(&signals_lock);
	if (!--signals_users) {
		sigaction(SIGINT, &signals_old_int, NULL);
		sigaction(SIGTERM, &signals_old_term, NULL);
	}
	pthread_mutex_unlock(&signals_lock);
}

const char *const vm_accels[] = { "auto", "kvm", "tcg", "icount", "cost", NULL };

/*
 * The plugin's own parser (common/cachesim.c) checks each level, so that a
 * geometry the plugin would refuse is refused before any boot.
 */
int vm_cost_geometry_check(const char *opt, const char *geometry)
{
	static const char *const keys[] = { "l1d=", "l2=", "llc=" };
	const char *p = geometry;

	do {
		size_t len = strcspn(p, ",");
		const char *why = "not l1d=, l2= or llc=SIZE/WAYS/LINE (SIZE in bytes, or with "
				  "K, M or G), nor sim=window|always";
		struct cache_geom g;
		char item[64];
		bool known;

		snprintf(item, sizeof(item), "%.*s", (int)(len < 63 ? len : 63), p);
		known = !strcmp(item, "sim=window") || !strcmp(item, "sim=always");
		for (size_t k = 0; !known && k < sizeof(keys) / sizeof(keys[0]); k++) {
			if (strncmp(item, keys[k], strlen(keys[k])))
				continue;
			known = !cache_geom_parse(item + strlen(keys[k]), &g, &why);
			break;
		}
		if (!known || len > 63)
			return error("%s: '%s': %s", opt, item, why);
		p += len;
	} while (*p && *++p);
	if (p > geometry && p[-1] == ',')
		return error("%s: '%s' ends with a comma", opt, geometry);
	return 0;
}

int vm_opts_resolve(const char *cmd, struct vm_opts *v)
{
	bool icount = !strcmp(v->accel, "icount") || !strcmp(v->accel, "cost");
	struct opt_longs *l = &v->cpus_list;

	/*
	 * QEMU 7.2's single-threaded icount hangs bringing up a 6.1 kernel's
	 * second vCPU (6.12's and 7.3's come up), and the cost model's join and
	 * determinism are built and tested for one vCPU.
	 */
	for (int i = 0; i < l->n; i++)
		if (icount && l->v[i] > 1)
			return error("--accel=%s runs one vCPU only (under icount a 6.1 kernel never "
				     "brings up a second one); drop --cpus or use --cpus=1", v->accel);
	if (v->cost_geometry && strcmp(v->accel, "cost"))
		return error("%s: --caches needs --accel=cost", cmd);
	if (v->cost_geometry) {
		char *opt = xasprintf("%s: --caches", cmd);
		int bad = vm_cost_geometry_check(opt, v->cost_geometry);

		free(opt);
		if (bad)
			return -1;
	}
	/* The cost model's fixed seed feeds the guest through max's RDRAND. */
	if (v->cpu_model && !strcmp(v->accel, "cost"))
		return error("%s: --cpu-model: --accel=cost runs -cpu max only", cmd);
	for (const char *m = v->cpu_model; m && *m; m++)
		if (!isalnum((unsigned char)*m) && !strchr("-_.", *m))
			return error("%s: --cpu-model=%s: a QEMU CPU model is letters, digits and - _ . "
				     "(qemu-system-x86_64 -cpu help lists them)", cmd, v->cpu_model);
	if (v->cpu_model && !*v->cpu_model)
		return error("%s: --cpu-model: empty", cmd);
	if (v->cpu_model && qemu_cpu_model_check(cmd, v->cpu_model))
		return -1;
	if (!l->n)
		*l = (struct opt_longs){ .n = 1, .v = { icount ? 1 : 2 } };
	for (int i = 0; i < l->n; i++)
		if (v->possible && l->v[i] > v->possible)
			return error("%s: --possible-cpus=%ld is below --cpus=%ld (possible CPUs "
				     "include the online ones)", cmd, v->possible, l->v[i]);
	if (v->possible && v->numa > 1)
		return error("%s: --possible-cpus with --numa=%ld: the hot-pluggable CPUs would "
			     "need nodes of their own; use one node", cmd, v->numa);
	for (int i = 0; i < l->n; i++)
		if (l->v[i] % v->numa)
			return error("%s: --numa=%ld: %ld CPUs do not split evenly over %ld nodes "
				     "(give --cpus multiples of %ld)", cmd, v->numa, l->v[i], v->numa,
				     v->numa);
	return 0;
}

long vm_default_mem_mb(long cpus)
{
	return cpus * VM_MB_PER_CPU > VM_MB_DEFAULT ? cpus * VM_MB_PER_CPU : VM_MB_DEFAULT;
}

void vm_config_set(struct vm_config *c, const struct vm_opts *v, long cpus, double timeout_s)
{
	c->accel = v->accel;
	c->cost_geometry = v->cost_geometry;
	c->cpu_model = v->cpu_model;
	c->cpus = cpus;
	c->numa_nodes = v->numa;
	c->possible_cpus = v->possible ? v->possible : cpus;
	c->mem_mb = v->mem ? v->mem : vm_default_mem_mb(cpus);
	if (v->timeout)
		c->timeout_s = v->timeout;
	else
		c->timeout_s = cpus > VM_CPUS_PER_TIMEOUT ? timeout_s * cpus / VM_CPUS_PER_TIMEOUT :
							    timeout_s;
}

const char *vm_status_name(enum vm_status s)
{
	switch (s) {
	case VM_OK: return "ok";
	case VM_NO_DONE: return "guest ended without finishing";
	case VM_TIMEOUT: return "timed out";
	case VM_INTERRUPTED: return "interrupted";
	case VM_START_FAILED: return "QEMU failed to start";
	}
	return "?";
}

/* A copy of the line at @line, @len long, without its carriage return. */
static char *line_copy(const char *line, size_t len)
{
	char *s = xmalloc(len + 1);

	memcpy(s, line, len);
	s[len] = '\0';
	if (len && s[len - 1] == '\r')
		s[len - 1] = '\0';
	return s;
}

static bool line_has(const char *line, size_t len, const char *const *marks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (memmem(line, len, marks[i], strlen(marks[i])))
			return true;
	return false;
}

void console_scan(const char *log, bool turns, char **problem, char **starved)
{
	static const char *const marks[] = {
		"Kernel panic", "Oops:", "BUG:", "WARNING:", "general protection fault",
		"kernel BUG at", "UBSAN:", "KASAN:", "kmemleak:", "Call Trace:",
	};
	/*
	 * The detectors of a CPU that did not run: the soft-lockup watchdog,
	 * RCU's stall warnings, the hung-task check. They time in guest time,
	 * which runs on while a vCPU waits for its turn on the host.
	 */
	static const char *const waited[] = {
		"watchdog: BUG: soft lockup", "rcu: INFO:", "self-detected stall",
		"blocked for more than",
	};
	const char *line = log;

	*problem = *starved = NULL;
	while (line && *line && !*problem) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (line_has(line, len, waited, ARRAY_SIZE(waited))) {
			if (!turns)
				*problem = line_copy(line, len);
			else if (!*starved)
				*starved = line_copy(line, len);
		} else if (line_has(line, len, marks, ARRAY_SIZE(marks)) &&
			   !(*starved && memmem(line, len, "Call Trace:", 11))) {
			/* A backtrace after such a report is the report's own. */
			*problem = line_copy(line, len);
		}
		line = end ? end + 1 : NULL;
	}
}

void print_console_tail(const char *path, int lines)
{
	char *log = read_file(path, NULL);
	const char *p;
	int n = 0;

	if (!log)
		return;
	p = log + strlen(log);
	while (p > log && n <= lines)
		if (*--p == '\n')
			n++;
	if (*p == '\n')
		p++;
	fprintf(stderr, "--- last lines of %s ---\n", path);
	for (; *p; p++)
		if (*p != '\r')
			fputc(*p, stderr);
	fprintf(stderr, "--- end of console ---\n");
	free(log);
}

/* A readable, writable /dev/kvm; whether guests really run is a boot away. */
static bool kvm_openable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * The verdict of the last KVM probe, valid for this host boot and QEMU:
 * probing costs a hung boot, so it is paid once, not on every run.
 */
static char *kvm_verdict_key(const char *version)
{
	char *boot_id = read_file("/proc/sys/kernel/random/boot_id", NULL);
	char *key;

	if (boot_id)
		boot_id[strcspn(boot_id, "\n")] = '\0';
	key = xasprintf("%s %s", boot_id ? boot_id : "-", version);
	free(boot_id);
	return key;
}

static int kvm_verdict_read(const char *version)
{
	char *path = xasprintf("%s/kvm.verdict", slabbench_cache());
	char *text = read_file(path, NULL), *key = kvm_verdict_key(version);
	int verdict = -1;
	size_t klen = strlen(key);

	if (text && !strncmp(text, key, klen) && text[klen] == ' ')
		verdict = !strncmp(text + klen + 1, "ok", 2);
	free(text);
	free(key);
	free(path);
	return verdict;
}

static void kvm_verdict_write(const char *version, bool ok)
{
	char *path = xasprintf("%s/kvm.verdict", slabbench_cache());
	char *key = kvm_verdict_key(version);
	char *text = xasprintf("%s %s\n", key, ok ? "ok" : "broken");

	if (!mkdir_p(slabbench_cache()))
		write_file_atomic(path, text, strlen(text));
	free(text);
	free(key);
	free(path);
}

struct boot {
	const struct vm_config *c;
	const char *accel;
	double ready_timeout_s;	/* 0: none */
	char *channel_path;
	char *console_path;
	char *qemu_log_path;
	bool ready;
	bool done;
	double ready_s;
	double wall_s;
};

/*
 * TCG on one host thread when the caller asks, or when the guest has more
 * vCPUs than the host has cores: then the vCPU threads of multi-threaded
 * TCG only take turns, and slowly (32 vCPUs on 2 cores came up in 32 s,
 * against 4.8 s on one thread). Nothing such a guest measures is a time.
 */
static bool tcg_single_thread(const struct vm_config *c)
{
	return c->single_thread || c->cpus > sysconf(_SC_NPROCESSORS_ONLN);
}

bool vm_vcpus_take_turns(const struct vm_config *c, const char *tcg_thread)
{
	long threads = c->nr_host_cpus ? c->nr_host_cpus : sysconf(_SC_NPROCESSORS_ONLN);

	if (!tcg_thread)
		return false;
	return c->cpus > (strcmp(tcg_thread, "single") ? threads : 1);
}

/*
 * One memory backend and one node per NUMA node, each with an even share:
 * CPUs in order (node 0 has the first ones), memory in whole MB, a
 * remainder one MB each to the first nodes.
 */
static int numa_args(char **argv, int n, const struct vm_config *c)
{
	long per;

	if (c->numa_nodes < 2)
		return n;
	per = c->cpus / c->numa_nodes;
	for (long i = 0; i < c->numa_nodes; i++) {
		long mb = c->mem_mb / c->numa_nodes + (i < c->mem_mb % c->numa_nodes);

		argv[n++] = xstrdup("-object");
		argv[n++] = xasprintf("memory-backend-ram,id=m%ld,size=%ldM", i, mb);
		argv[n++] = xstrdup("-numa");
		argv[n++] = per > 1 ? xasprintf("node,nodeid=%ld,cpus=%ld-%ld,memdev=m%ld", i,
						i * per, (i + 1) * per - 1, i) :
				      xasprintf("node,nodeid=%ld,cpus=%ld,memdev=m%ld", i, i, i);
	}
	return n;
}

/*
 * Under TCG, "max": every feature QEMU emulates (RDRAND for the cost
 * model's seed among them). The model sets the XSAVE area, which ends
 * task_struct (the FPU state): 4936 B under max on 6.1, against 2752 B
 * for a model without AVX-512, so the model changes what the process
 * caches hold. Results record it (vm.cpu_model).
 */
const char *vm_cpu_model(const char *requested, const char *accel)
{
	if (requested)
		return requested;
	return !strcmp(accel, "kvm") ? "host" : "max";
}

char **vm_qemu_argv(const struct vm_config *c, const char *accel, const char *console,
		    const char *channel)
{
	/* 48 fixed arguments at most, and four per NUMA node. */
	char **argv = xcalloc(48 + 4 * VM_NUMA_MAX + 1, sizeof(*argv));
	int n = 0;

	argv[n++] = xstrdup(qemu_binary());
	argv[n++] = xstrdup("-nodefaults");
	argv[n++] = xstrdup("-no-user-config");
	argv[n++] = xstrdup("-display");
	argv[n++] = xstrdup("none");
	/* Without ACPI, reboot -f with -no-reboot is how the guest exits. */
	argv[n++] = xstrdup("-no-reboot");
	if (!strcmp(accel, "kvm")) {
		argv[n++] = xstrdup("-accel");
		argv[n++] = xstrdup("kvm");
		argv[n++] = xstrdup("-cpu");
		argv[n++] = xstrdup(vm_cpu_model(c->cpu_model, accel));
	} else if (!strcmp(accel, "icount") || !strcmp(accel, "cost")) {
		/* Guest time counts instructions: slow, deterministic. */
		argv[n++] = xstrdup("-accel");
		argv[n++] = xstrdup("tcg,thread=single");
		argv[n++] = xstrdup("-icount");
		argv[n++] = xstrdup("shift=0,sleep=off");
		argv[n++] = xstrdup("-cpu");
		argv[n++] = xstrdup(vm_cpu_model(c->cpu_model, accel));
		if (!strcmp(accel, "cost")) {
			/* RDRAND (-cpu max has it) from the boot's seed, not the host's entropy. */
			argv[n++] = xstrdup("-seed");
			argv[n++] = xasprintf("%ld", c->seed > 0 ? c->seed : 1);
			/* The guest's wall clock (and what it seeds) from the guest's own time. */
			argv[n++] = xstrdup("-rtc");
			argv[n++] = xstrdup("base=2024-01-01T00:00:00,clock=vm");
			argv[n++] = xstrdup("-plugin");
			argv[n++] = xasprintf("%s/%s,out=%s/%s%s%s", slabbench_home(),
					      VM_COST_PLUGIN, c->dir, VM_COST_FILE,
					      c->cost_geometry ? "," : "",
					      c->cost_geometry ? c->cost_geometry : "");
		}
	} else {
		argv[n++] = xstrdup("-accel");
		argv[n++] = xstrdup(tcg_single_thread(c) ? "tcg,thread=single" : "tcg");
		argv[n++] = xstrdup("-cpu");
		argv[n++] = xstrdup(vm_cpu_model(c->cpu_model, accel));
	}
	/* qboot starts a -kernel guest in a fraction of SeaBIOS's time. */
	if (access(QBOOT_PATH, R_OK) == 0) {
		argv[n++] = xstrdup("-bios");
		argv[n++] = xstrdup(QBOOT_PATH);
	}
	argv[n++] = xstrdup("-smp");
	/*
	 * A node per socket: QEMU's default puts every CPU in one socket, and
	 * a kernel with NUMA then warns that CPUs sharing a last-level cache
	 * sit on different nodes.
	 */
	if (c->numa_nodes > 1)
		argv[n++] = xasprintf("%ld,sockets=%ld,cores=%ld,threads=1", c->cpus,
				      c->numa_nodes, c->cpus / c->numa_nodes);
	else if (c->possible_cpus > c->cpus)
		/* The rest are listed in ACPI's MADT as disabled: possible, as on hosts. */
		argv[n++] = xasprintf("%ld,maxcpus=%ld", c->cpus, c->possible_cpus);
	else
		argv[n++] = xasprintf("%ld", c->cpus);
	argv[n++] = xstrdup("-m");
	argv[n++] = xasprintf("%ld", c->mem_mb);
	n = numa_args(argv, n, c);
	argv[n++] = xstrdup("-kernel");
	argv[n++] = xstrdup(c->kernel);
	argv[n++] = xstrdup("-initrd");
	argv[n++] = xstrdup(c->initrd);
	argv[n++] = xstrdup("-append");
	/*
	 * loglevel=5 keeps WARN lines on the console, where we look for them.
	 * Emulated CPUs fail the TSC synchronisation check although QEMU's TSC
	 * is one clock for all vCPUs; tsc=reliable keeps the cheap TSC
	 * clocksource instead of HPET reads in every timed batch. The i8042
	 * probe only costs boot time: the guest has no keyboard.
	 */
	argv[n++] = xasprintf("console=ttyS0 panic=-1 loglevel=5 tsc=reliable "
			      "i8042.noaux i8042.nokbd i8042.nopnp%s%s",
			      c->cmdline ? " " : "", c->cmdline ? c->cmdline : "");
	argv[n++] = xstrdup("-serial");
	argv[n++] = xasprintf("file:%s", console);
	argv[n++] = xstrdup("-device");
	/*
	 * Under the cost model a kick of the results port is handled at once on
	 * the vCPU's thread, not by the main loop when the host gets to it: its
	 * interrupt then lands at the same guest instruction on every run.
	 */
	argv[n++] = xstrdup(strcmp(accel, "cost") ? "virtio-serial-pci" :
				"virtio-serial-pci,ioeventfd=off");
	argv[n++] = xstrdup("-chardev");
	argv[n++] = xasprintf("file,id=sbres,path=%s", channel);
	argv[n++] = xstrdup("-device");
	argv[n++] = xstrdup("virtserialport,chardev=sbres,name=" SB_PORT_NAME);
	argv[n] = NULL;
	return argv;
}

void vm_argv_free(char **argv)
{
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

static pid_t spawn_qemu(struct boot *b)
{
	char **argv = vm_qemu_argv(b->c, b->accel, b->console_path, b->channel_path);
	cpu_set_t cpus;
	pid_t pid;

	/* Built before fork: the child of a threaded parent only execs. */
	CPU_ZERO(&cpus);
	for (int i = 0; i < b->c->nr_host_cpus; i++)
		CPU_SET(b->c->host_cpus[i], &cpus);

	unlink(b->channel_path);
	unlink(b->console_path);
	if (!strcmp(b->accel, "cost")) {
		char *cost = xasprintf("%s/%s", b->c->dir, VM_COST_FILE);

		/* A boot that dies early must not leave the last boot's counts. */
		unlink(cost);
		free(cost);
	}
	pid = fork();
	if (pid == 0) {
		int fd = open(b->qemu_log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null = open("/dev/null", O_RDONLY);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* Our own group: a terminal's ^C reaches us, and we end QEMU. */
		setpgid(0, 0);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		if (null >= 0)
			dup2(null, STDIN_FILENO);
		/* Unpinned would not be what the results say: refuse to start. */
		if (b->c->nr_host_cpus && sched_setaffinity(0, sizeof(cpus), &cpus)) {
			fprintf(stderr, "sched_setaffinity: %s\n", strerror(errno));
			_exit(127);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	vm_argv_free(argv);
	return pid;
}

/* What the boot loop learns from the frames that arrived since the last look. */
struct scan {
	struct boot *b;
	double start;
	int results;
};

static int scan_ready(const struct frame *f, void *ctx)
{
	struct scan *s = ctx;

	(void)f;
	if (!s->b->ready) {
		s->b->ready = true;
		s->b->ready_s = monotonic_seconds() - s->start;
	}
	return 0;
}

static int scan_result(const struct frame *f, void *ctx)
{
	(void)f;
	((struct scan *)ctx)->results++;
	return 0;
}

static int scan_done(const struct frame *f, void *ctx)
{
	(void)f;
	((struct scan *)ctx)->b->done = true;
	return 0;
}

static const struct frame_route boot_routes[] = {
	{ SB_FRAME_READY, NULL, scan_ready },
	{ SB_FRAME_RESULT, NULL, scan_result },
	{ SB_FRAME_ERROR, NULL, scan_result },
	{ SB_FRAME_DONE, NULL, scan_done },
	{ 0 },
};

static enum vm_status run_boot(struct boot *b)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	double start = monotonic_seconds();
	enum vm_status st = VM_NO_DONE;
	struct scan scan = { .b = b, .start = start };
	size_t pos = 0;
	int wstatus;
	pid_t pid;

	signals_catch();
	pid = spawn_qemu(b);
	if (pid < 0) {
		st = VM_START_FAILED;
		goto out;
	}
	for (;;) {
		pid_t w = waitpid(pid, &wstatus, WNOHANG);
		double now = monotonic_seconds() - start;
		size_t len = 0;
		char *chan = read_file(b->channel_path, &len);

		if (chan) {
			frames_route(chan, len, &pos, boot_routes, &scan);
			free(chan);
		}
		if (w == pid) {
			/*
			 * QEMU refuses its options, a plugin or a file with a
			 * message and exit status 1 before the guest runs; a
			 * guest that ends (poweroff, panic, triple fault) exits 0.
			 */
			if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) && !b->ready)
				st = VM_START_FAILED;
			else
				st = b->done ? VM_OK : VM_NO_DONE;
			break;
		}
		if (interrupted || now > b->c->timeout_s ||
		    (b->ready_timeout_s && !b->ready && now > b->ready_timeout_s)) {
			st = interrupted ? VM_INTERRUPTED : VM_TIMEOUT;
			kill(pid, SIGKILL);
			while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
				;
			break;
		}
		if (b->c->expected_results)
			progress("%s guest (%s): %s, %d/%d tests, %.0fs", b->c->label,
				 b->accel, b->ready ? "running" : "booting", scan.results,
				 b->c->expected_results, now);
		nanosleep(&tick, NULL);
	}
	progress_done();
out:
	b->wall_s = monotonic_seconds() - start;
	signals_release();
	return st;
}

/*
 * What QEMU said when it would not start: the last lines of its log,
 * one line joined by "; ", for a message that carries QEMU's own words.
 */
#define QEMU_WORDS_LINES 4
static char *qemu_words(const char *log_path)
{
	char *log = read_file(log_path, NULL), *save = NULL, *line;
	const char *last[QEMU_WORDS_LINES];
	struct strbuf b = { 0 };
	int n = 0;

	for (line = log ? strtok_r(log, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (n == QEMU_WORDS_LINES)
			memmove(last, last + 1, sizeof(last) - sizeof(*last));
		last[n < QEMU_WORDS_LINES ? n++ : n - 1] = line;
	}
	for (int i = 0; i < n; i++)
		sb_addf(&b, "%s%s", i ? "; " : "", last[i]);
	if (!n)
		sb_addf(&b, "%s", log ? "it said nothing" : "no log");
	free(log);
	return b.s;
}

int vm_boot(const struct vm_config *c, struct vm_outcome *o)
{
	struct boot b = { .c = c };
	const char *accel = c->accel;
	bool probing = false, failed;
	int verdict;

	memset(o, 0, sizeof(*o));
	o->qemu_version = qemu_version();
	if (!strcmp(accel, "auto")) {
		accel = "tcg";
		if (kvm_openable()) {
			verdict = kvm_verdict_read(o->qemu_version);
			if (verdict != 0) {
				accel = "kvm";
				probing = verdict < 0;
			}
		}
	} else if (!strcmp(accel, "kvm") && !kvm_openable()) {
		return error("--accel=kvm: /dev/kvm cannot be opened: %s", strerror(errno));
	} else if (!strcmp(accel, "cost")) {
		char *plugin = xasprintf("%s/%s", slabbench_home(), VM_COST_PLUGIN);
		int missing = access(plugin, R_OK);

		if (missing)
			error("--accel=cost: the cost-model plugin %s: %s (build it with make)",
			      plugin, strerror(errno));
		free(plugin);
		if (missing)
			return -1;
	}
	b.channel_path = xasprintf("%s/channel", c->dir);
	b.console_path = xasprintf("%s/console.log", c->dir);
	b.qemu_log_path = xasprintf("%s/qemu.log", c->dir);
	b.accel = accel;
	if (!strcmp(c->accel, "auto") && !strcmp(accel, "kvm"))
		b.ready_timeout_s = KVM_READY_TIMEOUT_S;
	o->status = run_boot(&b);
	if (!strcmp(c->accel, "auto") && !strcmp(accel, "kvm")) {
		bool ok = b.ready;

		if (probing || !ok)
			kvm_verdict_write(o->qemu_version, ok);
		if (!ok && o->status != VM_INTERRUPTED) {
			if (o->status == VM_TIMEOUT)
				warning("KVM is present but its guest never became ready in %.0fs; "
					"using TCG (emulated, slower) from now on", KVM_READY_TIMEOUT_S);
			else
				warning("KVM is present but QEMU failed with it (%s); "
					"using TCG (emulated, slower) from now on", b.qemu_log_path);
			b.accel = accel = "tcg";
			b.ready_timeout_s = 0;
			b.ready = b.done = false;
			o->status = run_boot(&b);
		}
	}
	snprintf(o->accel, sizeof(o->accel), "%s", accel);
	if (strcmp(accel, "kvm"))
		o->tcg_thread = !strcmp(accel, "icount") || !strcmp(accel, "cost") ||
				tcg_single_thread(c) ? "single" : "multi";
	if (!strcmp(accel, "cost")) {
		o->cost_path = xasprintf("%s/%s", c->dir, VM_COST_FILE);
		o->cost_text = read_file(o->cost_path, NULL);
	}
	o->channel = read_file(b.channel_path, &o->channel_len);
	if (!o->channel) {
		o->channel = xstrdup("");
		o->channel_len = 0;
	}
	o->ready_s = b.ready ? b.ready_s : -1;
	o->wall_s = b.wall_s;
	o->console_path = b.console_path;
	{
		char *log = read_file(b.console_path, NULL);

		if (log)
			console_scan(log, vm_vcpus_take_turns(c, o->tcg_thread), &o->console_problem,
				     &o->console_starved);
		free(log);
	}
	failed = o->status == VM_START_FAILED;
	if (failed) {
		char *words = qemu_words(b.qemu_log_path);

		error("%s guest: %s failed to start (%s): %s", c->label, qemu_binary(),
		      b.qemu_log_path, words);
		free(words);
		vm_outcome_free(o);
	}
	free(b.channel_path);
	free(b.qemu_log_path);
	return failed ? -1 : 0;
}

void vm_outcome_free(struct vm_outcome *o)
{
	free(o->channel);
	free(o->console_path);
	free(o->qemu_version);
	free(o->console_problem);
	free(o->console_starved);
	free(o->cost_text);
	free(o->cost_path);
	memset(o, 0, sizeof(*o));
}
