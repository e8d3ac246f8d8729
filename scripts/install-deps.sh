#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Installs the Debian packages slabbench needs, only those missing, saying
# which in one line. Runs apt-get as root, or through sudo when that is
# available.
#
#   scripts/install-deps.sh        everything make test needs: the tests,
#                                  every variant
#   scripts/install-deps.sh demo   what make demo needs (SLAB and SLUB on
#                                  6.1, report, charts): a first run
#                                  downloads a third as much
#   scripts/install-deps.sh slow   all of it and what tests/slow needs
#                                  besides (make test-slow): Slurm, munge,
#                                  distcc
#   scripts/install-deps.sh --list [demo|all|slow]
#                                  the packages, one a line, installed or not
#                                  (tests/e2e/deps.sh checks the list)
#   scripts/install-deps.sh --packages PACKAGE...
#                                  those packages (vm/kernel.sh: the debian
#                                  variant's headers of a new ABI)
set -euo pipefail

list=
case ${1:-} in
--list) list=1; shift ;;
--packages)
	shift
	[ $# -gt 0 ] || { echo "usage: scripts/install-deps.sh --packages PACKAGE..." >&2; exit 2; }
	PACKAGES=("$@")
	set -- packages ;;
esac

DEMO=(
	# building guest kernels from Debian's source package
	build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils lz4
	patch ccache rsync linux-source-6.1
	# the guests
	qemu-system-x86 busybox-static
	# the slabbench program, its report and charts; zlib for the report's
	# mail (compressed attachments) and the unit tests' reading of charts
	libcjson-dev libgsl-dev zlib1g-dev jq gnuplot-nox
)
ALL=(
	"${DEMO[@]}"
	# the slub-6.12 variant
	linux-source-6.12
	# the distro variants start from Debian's own configs
	linux-config-6.1 linux-config-6.12
	# the debian variant: the module is built against Debian's headers
	linux-headers-amd64
	# perf goes into the guests for hackbench and --profile
	linux-perf
	# user trees, bisect and their tests
	git
	# the report's mail: git send-email (tests/e2e/mail.sh dry-runs and
	# sends through it; it needs Mail::Address, a recommendation only)
	git-email libmailtools-perl
	# the mail tests read the mails and run an SMTP sink in Python;
	# runner.sh finds QEMU's process with pgrep
	python3 procps
	# make check, besides checkpatch from linux-source-6.1
	sparse shellcheck
)
SLOW=(
	"${ALL[@]}"
	# tests/slow/slurm.sh: a one-node Slurm cluster and its authentication
	slurm-wlm munge
	# tests/slow/distcc.sh: kernel builds on a distccd on 127.0.0.1
	distcc
)
case ${1:-all} in
packages) ;;
demo) PACKAGES=("${DEMO[@]}") ;;
all) PACKAGES=("${ALL[@]}") ;;
slow) PACKAGES=("${SLOW[@]}") ;;
*) echo "usage: scripts/install-deps.sh [--list] [demo|all|slow] | --packages PACKAGE..." >&2
	exit 2 ;;
esac
# Kernel sources from suites that bookworm's apt does not list (the
# slub-7.3 variants): vm/kernel.sh fetches them into its cache, leaving
# apt's own sources as they are.
sources=$(dirname "$0")/../vm/sources
fetched=()
case ${1:-all} in
all | slow) read -ra fetched <<<"$(awk '!/^#/ && NF { print $1 }' "$sources")" ;;
esac
if [ -n "$list" ]; then
	printf '%s\n' "${PACKAGES[@]}"
	for t in "${fetched[@]}"; do
		awk -v t="$t" '!/^#/ && $1 == t { for (i = 3; i <= NF; i++) print $i }' "$sources"
	done
	exit 0
fi
for t in "${fetched[@]}"; do
	"$(dirname "$0")/../vm/kernel.sh" fetch "$t" || exit
done

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	sudo=()
elif command -v sudo >/dev/null; then
	sudo=(sudo)
else
	echo "slabbench: missing packages: ${missing[*]}; run as root: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "slabbench: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
