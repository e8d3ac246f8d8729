// SPDX-License-Identifier: GPL-2.0
/*
 * QEMU's command line: NUMA nodes, possible CPUs, single-threaded TCG for
 * guests wider than the host; the cost model's geometry; QEMU that will
 * not start.
 */
#define _GNU_SOURCE
#include "check.h"
#include "qemu.h"
#include "stub.h"
#include "strbuf.h"
#include "util.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The command line of @c under @accel, its arguments joined by blanks. */
static char *command(const struct vm_config *c, const char *accel)
{
	char **argv = vm_qemu_argv(c, accel, "/run/console.log", "/run/channel");
	struct strbuf b = { 0 };

	for (char **a = argv; *a; a++)
		sb_addf(&b, "%s%s", a == argv ? "" : " ", *a);
	vm_argv_free(argv);
	return b.s;
}

static void test_numa(void)
{
	struct vm_config c = {
		.kernel = "vmlinux", .initrd = "initrd", .cpus = 4, .numa_nodes = 2, .mem_mb = 512,
	};
	char *cmd = command(&c, "tcg");

	CHECK(strstr(cmd, " -smp 4,sockets=2,cores=2,threads=1 -m 512 "
		     "-object memory-backend-ram,id=m0,size=256M "
		     "-numa node,nodeid=0,cpus=0-1,memdev=m0 "
		     "-object memory-backend-ram,id=m1,size=256M "
		     "-numa node,nodeid=1,cpus=2-3,memdev=m1 -kernel vmlinux "),
	      "--numa=2 --cpus=4: two nodes of two CPUs and 256 MB each");
	free(cmd);

	c = (struct vm_config){ .kernel = "k", .initrd = "i", .cpus = 2, .numa_nodes = 2, .mem_mb = 513 };
	cmd = command(&c, "tcg");
	CHECK(strstr(cmd, "id=m0,size=257M -numa node,nodeid=0,cpus=0,memdev=m0 ") &&
	      strstr(cmd, "id=m1,size=256M -numa node,nodeid=1,cpus=1,memdev=m1 "),
	      "one CPU a node; the odd MB to the first node");
	free(cmd);

	c = (struct vm_config){ .kernel = "k", .initrd = "i", .cpus = 64, .numa_nodes = 4, .mem_mb = 2048 };
	cmd = command(&c, "tcg");
	CHECK(strstr(cmd, "-numa node,nodeid=3,cpus=48-63,memdev=m3 ") &&
	      strstr(cmd, "id=m3,size=512M ") && strstr(cmd, "virtserialport"),
	      "four nodes of 64 CPUs, every argument there");
	free(cmd);

	for (int nodes = 0; nodes < 2; nodes++) {
		c = (struct vm_config){ .kernel = "k", .initrd = "i", .cpus = 2, .numa_nodes = nodes,
					.mem_mb = 512 };
		cmd = command(&c, "tcg");
		CHECK(!strstr(cmd, "-numa") && !strstr(cmd, "-object") && strstr(cmd, "-smp 2 -m 512 -kernel"),
		      "%d node%s: no NUMA arguments", nodes, nodes == 1 ? "" : "s (unset)");
		free(cmd);
	}
}

/* --possible-cpus: QEMU lists the CPUs above the online ones as hot-pluggable. */
static void test_possible(void)
{
	struct vm_config c = { .kernel = "k", .initrd = "i", .cpus = 2, .possible_cpus = 8,
			       .mem_mb = 512 };
	char *cmd = command(&c, "tcg");

	CHECK(strstr(cmd, " -smp 2,maxcpus=8 -m 512 ") != NULL,
	      "--possible-cpus=8 --cpus=2: two started, eight possible");
	free(cmd);
	c.possible_cpus = 2;
	cmd = command(&c, "tcg");
	CHECK(strstr(cmd, " -smp 2 -m 512 ") != NULL, "as many possible as online: no maxcpus");
	free(cmd);
}

static void test_threads(void)
{
	long host = sysconf(_SC_NPROCESSORS_ONLN);
	struct vm_config c = { .kernel = "k", .initrd = "i", .cpus = 64, .mem_mb = 2048 };
	char *cmd = command(&c, "tcg");

	CHECK(!!strstr(cmd, "-accel tcg,thread=single ") == (host < 64),
	      "64 vCPUs on %ld host cores: TCG on %s", host, host < 64 ? "one thread" : "many");
	free(cmd);
	c.cpus = 1;
	cmd = command(&c, "tcg");
	CHECK(strstr(cmd, "-accel tcg -cpu max "), "1 vCPU: multi-threaded TCG");
	free(cmd);
	c.single_thread = true;
	cmd = command(&c, "tcg");
	CHECK(strstr(cmd, "-accel tcg,thread=single "), "asked for: one thread");
	free(cmd);
	cmd = command(&c, "kvm");
	CHECK(strstr(cmd, "-accel kvm -cpu host ") && !strstr(cmd, "tcg"), "KVM: no TCG threads");
	free(cmd);
}

/* Where a starved vCPU's report is no failure: where the vCPUs take turns. */
static void test_turns(void)
{
	static const int one_cpu[] = { 0 };
	long host = sysconf(_SC_NPROCESSORS_ONLN);
	struct vm_config c = { .kernel = "k", .initrd = "i", .cpus = 1 };

	CHECK(!vm_vcpus_take_turns(&c, "single"), "1 vCPU on one thread: no turns");
	c.cpus = 2;
	CHECK(vm_vcpus_take_turns(&c, "single"), "2 vCPUs on one thread take turns");
	CHECK(!vm_vcpus_take_turns(&c, NULL), "... under KVM they do not");
	c.cpus = host;
	CHECK(!vm_vcpus_take_turns(&c, "multi"), "as many vCPUs as host cores, a thread each: no turns");
	c.cpus = host + 1;
	CHECK(vm_vcpus_take_turns(&c, "multi"), "one more vCPU than host cores: turns");
	c.cpus = 2;
	c.host_cpus = one_cpu;
	c.nr_host_cpus = 1;
	CHECK(vm_vcpus_take_turns(&c, "multi"), "-j: 2 vCPU threads kept to one host CPU take turns");
}

static void test_cost(void)
{
	struct vm_config c = { .kernel = "k", .initrd = "i", .dir = "/run", .cpus = 1, .mem_mb = 512,
			       .cost_geometry = "llc=256K/16/64" };
	char *cmd = command(&c, "cost");
	char *plugin = xasprintf("-plugin %s/" VM_COST_PLUGIN ",out=/run/" VM_COST_FILE
				 ",llc=256K/16/64 ", slabbench_home());

	CHECK(strstr(cmd, "-accel tcg,thread=single -icount shift=0,sleep=off "),
	      "cost: single-threaded TCG under icount, for interrupts at fixed instructions");
	CHECK(strstr(cmd, plugin), "cost: the plugin, its file in the run directory, the geometry");
	free(cmd);
	free(plugin);
	c.cost_geometry = NULL;
	cmd = command(&c, "cost");
	CHECK(strstr(cmd, "," "out=/run/" VM_COST_FILE " "), "no geometry: the plugin's defaults");
	free(cmd);
	cmd = command(&c, "icount");
	CHECK(!strstr(cmd, "-plugin"), "icount: no plugin");
	free(cmd);
	CHECK(vm_cost_geometry_check("g", "l1d=32K/8/64,l2=1048576/16/64,llc=32M/16/64,sim=always") == 0,
	      "a whole geometry, bytes or K/M, and sim= are accepted");
	CHECK(vm_cost_geometry_check("g", "llc=1G/16/64") == 0, "G is accepted");
	static const char *const bad[] = {
		"", "l1i=32K/8/64", "llc=32/16", "llc=32K/16/64/1", "llc=0/16/64", "llc=32T/16/64",
		"llc=32K/x/64", "llc=32K/16/64,", "sim=never", "l1d=32K/8/-64",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(vm_cost_geometry_check("g", bad[i]) == -1, "geometry '%s' refused", bad[i]);
}

static int check_caches(const void *geometry)
{
	return vm_cost_geometry_check("run: --caches", geometry);
}

/* A geometry the plugin would refuse is refused before any boot, with the plugin's reason. */
static void test_cost_geometry_why(void)
{
	int ret;
	char *got = stderr_of(check_caches, "l1d=32K/3/64", &ret);

	CHECK(ret == -1, "l1d=32K/3/64: refused (32K is not a multiple of 3 ways x 64 bytes)");
	CHECK_STR(got, "slabbench: run: --caches: 'l1d=32K/3/64': the size must be a multiple "
		  "of ways * line size\n", "... in one line naming the option and what is wrong");
	free(got);
	got = stderr_of(check_caches, "llc=256K/16/48", &ret);
	CHECK(ret == -1 && strstr(got, "'llc=256K/16/48': the line size must be a power of two"),
	      "a line of 48 bytes: refused with the plugin's reason");
	free(got);
}

static int boot(const void *c)
{
	struct vm_outcome o;
	int ret = vm_boot(c, &o);

	vm_outcome_free(&o);
	return ret;
}

/*
 * QEMU that will not start (here a stand-in that fails as QEMU does on a
 * plugin it cannot load) is reported in its own words, and vm_boot fails.
 */
static void test_start_failed(void)
{
	char dir[] = "/tmp/test_vm.XXXXXX", *qemu, *got;
	struct vm_config c = { .label = "slab", .kernel = "k", .initrd = "i", .dir = dir,
			       .accel = "tcg", .cpus = 1, .mem_mb = 512, .timeout_s = 30 };
	int ret;

	if (!mkdtemp(dir)) {
		CHECK(0, "a temporary directory");
		return;
	}
	qemu = stub_program(dir, "qemu",
			    "echo \"slabbench-cost: bad plugin argument 'l1d=32K/3/64': the size "
			    "must be a multiple of ways * line size\" >&2\n"
			    "echo \"qemu: -plugin x.so: Could not load plugin x.so\" >&2\n"
			    "exit 1\n");
	CHECK(qemu, "a QEMU that fails to load its plugin");
	setenv("SLABBENCH_QEMU", qemu ? qemu : "", 1);
	got = stderr_of(boot, &c, &ret);
	unsetenv("SLABBENCH_QEMU");
	CHECK(ret == -1, "QEMU exited 1 before the guest ran: vm_boot fails");
	CHECK(strstr(got, "slab guest: ") && strstr(got, "failed to start (") &&
	      strstr(got, "/qemu.log): slabbench-cost: bad plugin argument 'l1d=32K/3/64': the size "
			  "must be a multiple of ways * line size; qemu: -plugin x.so: Could not load "
			  "plugin x.so\n") && !strchr(got, '\n')[1],
	      "... in one line with QEMU's own words and where they are");
	free(got);
	free(qemu);
	got = xasprintf("rm -rf %s", dir);
	CHECK(!system(got), "cleaned up");
	free(got);
}

/* The -cpu that results record as vm.cpu_model is the one QEMU is given. */
static void test_cpu_model(void)
{
	static const char *const accels[] = { "kvm", "tcg", "icount", "cost" };
	struct vm_config c = { .kernel = "k", .initrd = "i", .dir = "/run", .cpus = 1, .mem_mb = 512 };

	char *cmd;

	for (size_t i = 0; i < sizeof(accels) / sizeof(accels[0]); i++) {
		cmd = command(&c, accels[i]);
		char *want = xasprintf(" -cpu %s ", vm_cpu_model(NULL, accels[i]));

		CHECK(strstr(cmd, want) && strstr(cmd, " -cpu ") == strstr(cmd, want),
		      "%s: QEMU's one -cpu is vm_cpu_model's %s", accels[i], vm_cpu_model(NULL, accels[i]));
		free(want);
		free(cmd);
	}
	c.cpu_model = "EPYC-Milan";
	cmd = command(&c, "tcg");
	CHECK(strstr(cmd, " -cpu EPYC-Milan ") && !strstr(cmd, " -cpu max "),
	      "--cpu-model: QEMU's -cpu is the one asked for");
	free(cmd);
	CHECK_STR(vm_cpu_model(NULL, "tcg"), "max", "TCG: -cpu max");
	CHECK_STR(vm_cpu_model(NULL, "kvm"), "host", "KVM: -cpu host");
}

static int check_model(const void *model)
{
	return qemu_cpu_model_check("run", model);
}

/*
 * --cpu-model is checked against what QEMU lists (here a stand-in with
 * QEMU 7.2's layout), once, before any boot: a model QEMU does not know
 * is refused in one line of ours, not in QEMU's words after a boot.
 */
static void test_cpu_model_listed(void)
{
	static const char *const unknown[] = { "NoSuchCPU", "x86", "CPUs:", "avx2", "skylake-server-v4" };
	char dir[] = "/tmp/test_vm.XXXXXX", *qemu, *got, *rm;
	int ret;

	if (!mkdtemp(dir)) {
		CHECK(0, "a temporary directory");
		return;
	}
	qemu = stub_program(dir, "qemu",
			    "[ \"$*\" = \"-cpu help\" ] || exit 1\n"
			    "echo 'Available CPUs:'\n"
			    "echo 'x86 Skylake-Server-v4     Intel Xeon Processor (Skylake, IBRS, no TSX)'\n"
			    "echo 'x86 max                   Enables all features supported by the accelerator'\n"
			    "echo\necho 'Recognized CPUID flags:'\necho '  avx avx2 NoSuchCPU'\n");
	CHECK(qemu, "a QEMU that lists two CPU models");
	setenv("SLABBENCH_QEMU", qemu ? qemu : "", 1);
	got = stderr_of(check_model, "Skylake-Server-v4", &ret);
	CHECK(ret == 0 && !*got, "a model QEMU lists is accepted, silently");
	free(got);
	got = stderr_of(check_model, "max", &ret);
	CHECK(ret == 0, "so is max");
	free(got);
	got = stderr_of(check_model, "NoSuchCPU", &ret);
	CHECK(ret == -1, "a model QEMU does not list is refused");
	rm = xasprintf("slabbench: run: --cpu-model=NoSuchCPU: QEMU knows no such CPU model ('%s "
		       "-cpu help' lists them)\n", qemu ? qemu : "");
	CHECK_STR(got, rm, "... in one line naming the option, the model and where the list is");
	free(rm);
	free(got);
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		got = stderr_of(check_model, unknown[i], &ret);
		CHECK(ret == -1, "'%s' (a heading, a flag, the architecture, a model in other case): "
		      "no model", unknown[i]);
		free(got);
	}
	setenv("SLABBENCH_QEMU", "/nonexistent/qemu", 1);
	got = stderr_of(check_model, "Skylake-Server-v4", &ret);
	CHECK(ret == -1 && !strcmp(got, "slabbench: run: --cpu-model=Skylake-Server-v4: "
				   "'/nonexistent/qemu -cpu help' listed no CPU models to check it "
				   "against\n"),
	      "no QEMU to ask: refused, saying so in one line");
	unsetenv("SLABBENCH_QEMU");
	free(got);
	free(qemu);
	rm = xasprintf("rm -rf %s", dir);
	CHECK(!system(rm), "cleaned up");
	free(rm);
}

int main(void)
{
	test_numa();
	test_possible();
	test_cpu_model();
	test_threads();
	test_turns();
	test_cost();
	test_cost_geometry_why();
	test_start_failed();
	test_cpu_model_listed();
	return check_done();
}
