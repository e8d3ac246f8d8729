# SPDX-License-Identifier: GPL-2.0
#
#   make          the slabbench program and the guest agent (build/)
#   make test     host unit tests (ASan + UBSan) and end-to-end tests in QEMU
#   make test-slow the slow guests: debug kernels (KASAN, kmemleak, lockdep), A/A on
#                  default, user trees (6.12, 7.3), bisect and the watcher,
#                  a local Slurm cluster and distcc (tests/slow)
#   make demo     build the SLAB and SLUB guests, run the whole catalogue on
#                 both, print the report of SLUB against SLAB and draw the
#                 charts
#   make check    checkpatch, sparse, shellcheck and gcc's static analyser
#                 (scripts/check.sh)
#   make bench    the harness's own speed: boot-to-ready and build times
#   make deps     install every Debian package slabbench and its tests need
#   make docs     the command pages, docs/commands/, from the option tables
#
# Each of test, test-slow, demo, check and bench first installs the Debian
# packages it needs and lacks (scripts/install-deps.sh: one line saying
# which, nothing when all are there), so a fresh clone needs no other step.

VERSION := 0.1
CC ?= cc
BUILD := build
WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
# The host program's layers, from the bottom: the library (options,
# formats, results, statistics, census), running guests (QEMU, kernels,
# plans, jobs, Slurm), judging (compare, noise, report, mail, plot) and
# the commands. A file includes its own layer's headers and those below
# (tests/e2e/layers.sh checks it).
CLI_LAYERS := lib run judge
CLI_INC := -Icli/lib -Icli/run -Icli/judge -Icli/commands
# Shared by the host, the guest agent and the cost-model plugin: the
# macro workloads' parameter table and the cache model.
COMMON_SRC := common/macro_table.c common/cachesim.c
SB_CFLAGS := -std=c11 $(WARN) -DSLABBENCH_VERSION='"$(VERSION)"' \
	-DSLABBENCH_DEFAULT_HOME='"$(CURDIR)"' $(CLI_INC) -Icommon -Iinclude/uapi
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LIBS := -lcjson -lgsl -lgslcblas -lm -pthread -lz

# zlib: the mail's compressed attachments (and tests/unit/png.h reads the charts).
# Every file of the layers below the commands is a library shared by the
# commands and the unit tests; so is common/: the macro workloads'
# parameter table, which the guest agent (vm/agent/) is built with too,
# and the cost model's cache levels, whose parser checks --caches before
# any boot with the plugin's own rules.
CLI_CMDS := $(wildcard cli/commands/cmd_*.c)
AGENT_SRC := $(wildcard vm/agent/*.c) common/macro_table.c
AGENT_HDRS := $(wildcard vm/agent/*.h) common/macro_table.h include/uapi/linux/slabbench.h
CLI_LIB := $(foreach l,$(CLI_LAYERS),$(wildcard cli/$(l)/*.c)) $(COMMON_SRC)
CLI_HDRS := $(wildcard cli/*/*.h) $(wildcard common/*.h) include/uapi/linux/slabbench.h
SAN_LIB := $(BUILD)/libslabbench-san.a
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))

# The cost-model plugin (tcg/) is loaded by QEMU, not linked with the
# program: its cache model and instruction classes are a library of their
# own, shared only with their unit tests.
TCG_LIB := common/cachesim.c tcg/insnclass.c
TCG_HDRS := $(wildcard tcg/*.h) common/cachesim.h
TCG_TESTS := $(BUILD)/tests/test_cachesim $(BUILD)/tests/test_insnclass
PLUGIN := $(BUILD)/tcg/slabbench-cost.so
# The plugin's bare test guest: multiboot, 32-bit, no libraries. The
# bench builds are a long loop for timing the plugin against plain TCG;
# the bad build places markers wrongly.
COSTGUESTS := $(BUILD)/tests/costguest $(BUILD)/tests/costguest-bench1 \
	$(BUILD)/tests/costguest-bench2 $(BUILD)/tests/costguest-bad
GUEST_FLAGS := -m32 -ffreestanding -nostdlib -static -no-pie -Wl,--build-id=none \
	-Wl,-z,noexecstack -Wl,-T,tests/costguest/guest.ld

all: $(BUILD)/slabbench $(BUILD)/slabbench-agent $(PLUGIN) $(COSTGUESTS)

$(BUILD)/slabbench: cli/commands/slabbench.c $(CLI_CMDS) $(CLI_LIB) $(CLI_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(CFLAGS) -o $@ cli/commands/slabbench.c $(CLI_CMDS) $(CLI_LIB) $(LIBS)

# The guest has no libraries: the agent is static.
$(BUILD)/slabbench-agent: $(AGENT_SRC) $(AGENT_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(WARN) -Icommon -Iinclude/uapi $(CFLAGS) -static -o $@ $(AGENT_SRC)

$(PLUGIN): tcg/slabbench-cost.c $(TCG_LIB) $(TCG_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) -Icommon $(CFLAGS) -fPIC -shared -fvisibility=hidden -pthread \
		-o $@ tcg/slabbench-cost.c $(TCG_LIB)

$(BUILD)/tests/costguest: tests/costguest/guest.S tests/costguest/guest.ld Makefile
	@mkdir -p $(@D)
	$(CC) $(GUEST_FLAGS) -o $@ $<

$(BUILD)/tests/costguest-bad: tests/costguest/guest.S tests/costguest/guest.ld Makefile
	@mkdir -p $(@D)
	$(CC) $(GUEST_FLAGS) -DBAD -o $@ $<

$(BUILD)/tests/costguest-bench%: tests/costguest/guest.S tests/costguest/guest.ld Makefile
	@mkdir -p $(@D)
	$(CC) $(GUEST_FLAGS) -DBENCH=$* -o $@ $<

$(TCG_TESTS): $(BUILD)/tests/%: tests/unit/%.c tests/unit/check.h $(TCG_LIB) $(TCG_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) -Itests/unit -Itcg -Icommon -O1 -g $(SAN) -o $@ $< $(TCG_LIB)

# The agent's JSON reader and the fuzzer's catalogue on it, held against
# the host's cJSON.
AGENT_JSON := vm/agent/json.c vm/agent/fuzz_gen.c
$(BUILD)/tests/test_agentjson: tests/unit/test_agentjson.c tests/unit/check.h $(AGENT_JSON) \
		$(AGENT_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(WARN) -Itests/unit -Ivm/agent -Iinclude/uapi -O1 -g $(SAN) -o $@ $< \
		$(AGENT_JSON) -lcjson -lm

# The agent's reading of a memory cgroup's offline flush in the trace.
$(BUILD)/tests/test_memflush: tests/unit/test_memflush.c tests/unit/check.h vm/agent/memflush.c \
		vm/agent/io.c $(AGENT_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(WARN) -Itests/unit -Ivm/agent -Iinclude/uapi -O1 -g $(SAN) -o $@ $< \
		vm/agent/memflush.c vm/agent/io.c

# The library is compiled under the sanitizers once, not once per test:
# a fresh `make test` spent minutes recompiling it for each.
$(SAN_LIB): $(patsubst %.c,$(BUILD)/san/%.o,$(CLI_LIB))
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/san/%.o: %.c $(CLI_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) -O1 -g $(SAN) -c -o $@ $<

# A test is rebuilt when a fixture header it may include changes.
$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(SAN_LIB) $(CLI_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) -Itests/unit -O1 -g $(SAN) -o $@ $< $(SAN_LIB) $(LIBS)

# The command pages are compared with what the program prints of itself.
$(BUILD)/tests/test_docs: $(BUILD)/slabbench

# The packages come before anything is compiled: the program links cJSON
# and GSL.
test: deps
	$(MAKE) all $(UNIT_TESTS)
	tests/run.sh $(UNIT_TESTS)

# The slow tests' own packages (Slurm, munge, distcc) besides make test's.
test-slow:
	scripts/install-deps.sh slow
	$(MAKE) all
	SLABBENCH_TESTS=slow tests/run.sh

deps:
	scripts/install-deps.sh

# The demo installs only what it needs: a first run is mostly downloads
# and two kernel builds.
demo:
	scripts/install-deps.sh demo
	$(MAKE) all
	scripts/demo.sh

check: deps
	scripts/check.sh

# gcc -fanalyzer over the host's C and the guest agent, each file built
# as for the program (warnings are errors): paths through a function
# that dereference NULL, leak, use what is uninitialised or freed. gcc's
# own, whatever CC is. scripts/check.sh says why this analyser.
ANALYZER := gcc -fanalyzer -c -o /dev/null
analyze:
	@for f in cli/*/*.c $(COMMON_SRC) tcg/insnclass.c tcg/slabbench-cost.c; do \
		$(ANALYZER) $(SB_CFLAGS) -pthread $$f || exit 1; done
	@for f in $(AGENT_SRC); do $(ANALYZER) -std=gnu11 $(WARN) -Icommon -Iinclude/uapi $$f || exit 1; done

docs: $(BUILD)/slabbench
	scripts/docs.sh

bench: deps
	$(MAKE) all
	$(BUILD)/slabbench bench

clean:
	rm -rf $(BUILD)

.PHONY: all test test-slow deps demo check analyze docs bench clean
