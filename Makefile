# SPDX-License-Identifier: GPL-2.0
#
#   make          the slabbench program and the guest agent (build/)
#   make test     host unit tests (ASan + UBSan) and end-to-end tests in QEMU
#   make test-slow the slow guests: debug kernels (KASAN, kmemleak, lockdep)
#   make demo     install what is missing, build the SLAB and SLUB guests,
#                 run the quick workload on both and print the key figures
#   make deps     install the Debian packages slabbench needs
#   make check    checkpatch on kmod/ and vm/patches/
#   make bench    the harness's own speed: boot-to-ready and build times

VERSION := 0.1
CC ?= cc
BUILD := build
WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
SB_CFLAGS := -std=c11 $(WARN) -DSLABBENCH_VERSION='"$(VERSION)"' \
	-DSLABBENCH_DEFAULT_HOME='"$(CURDIR)"' -Icli -Iinclude/uapi
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LIBS := -lcjson -lgsl -lgslcblas -lm

# Unit tests also link zlib: tests/unit/png.h checks the charts.
# Every cli/*.c is a library shared by the commands and the unit tests,
# except the program's entry, the commands and the guest agent's parts.
CLI_CMDS := $(wildcard cli/cmd_*.c)
AGENT_SRC := cli/agent.c $(wildcard cli/agent_*.c)
CLI_LIB := $(filter-out cli/slabbench.c $(AGENT_SRC) $(CLI_CMDS),$(wildcard cli/*.c))
CLI_HDRS := $(wildcard cli/*.h)
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))

all: $(BUILD)/slabbench $(BUILD)/slabbench-agent

$(BUILD)/slabbench: cli/slabbench.c $(CLI_CMDS) $(CLI_LIB) $(CLI_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(CFLAGS) -o $@ cli/slabbench.c $(CLI_CMDS) $(CLI_LIB) $(LIBS)

# The guest has no libraries: the agent is static.
$(BUILD)/slabbench-agent: $(AGENT_SRC) cli/agent.h Makefile
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(WARN) $(CFLAGS) -static -o $@ $(AGENT_SRC)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/check.h $(CLI_LIB) $(CLI_HDRS) Makefile
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) -Itests/unit -O1 -g $(SAN) -o $@ $< $(CLI_LIB) $(LIBS) -lz

test: all $(UNIT_TESTS)
	tests/run.sh $(UNIT_TESTS)

test-slow: all
	SLABBENCH_TESTS=slow tests/run.sh

deps:
	scripts/install-deps.sh

demo: deps
	$(MAKE) all
	scripts/demo.sh

check:
	scripts/check.sh

bench: all
	$(BUILD)/slabbench bench

clean:
	rm -rf $(BUILD)

.PHONY: all test test-slow deps demo check bench clean
