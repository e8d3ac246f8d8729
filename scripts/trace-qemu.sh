#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# QEMU with every translation block in a range of guest addresses logged
# as it runs: what scripts/tb-path.py reads to count, call by call, the
# instructions a kernel function executed (docs/measured.md, "Freelist
# hardening, the known answer"). Given to slabbench as SLABBENCH_QEMU:
#
#   SLABBENCH_QEMU=scripts/trace-qemu.sh TRACE_RANGE=0xffffffff81313700..0xffffffff81315100 \
#   TRACE_LOG=/tmp/tb.log slabbench run --alloc=slub-distro --accel=tcg \
#     --cmdline=nokaslr --workload=FILE --boots=1 -o /tmp/r.json
#
# nokaslr: the range is read from the build's System.map.
set -euo pipefail
: "${TRACE_RANGE:?the guest addresses to trace, START..END}" "${TRACE_LOG:?the log file}"
exec qemu-system-x86_64 "$@" -d in_asm,exec,nochain -dfilter "$TRACE_RANGE" -D "$TRACE_LOG"
