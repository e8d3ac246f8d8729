#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Installs the Debian packages slabbench needs, only those missing.
# Runs apt-get as root, or through sudo when that is available.
set -euo pipefail

PACKAGES=(
	# building guest kernels from Debian's source package
	build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils lz4
	patch ccache linux-source-6.1 linux-source-6.12
	# the debian variant: the module is built against Debian's headers
	linux-headers-amd64
	# the guests; perf goes into them for hackbench and --profile
	qemu-system-x86 busybox-static linux-perf
	# the slabbench program and its tests
	libcjson-dev libgsl-dev jq gnuplot-nox zlib1g-dev
	# make check, besides checkpatch from linux-source-6.1
	sparse shellcheck
)

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
