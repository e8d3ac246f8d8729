#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl from Debian's linux-source-6.1 on kmod/ and vm/patches/.
# 0 errors and 0 warnings is the bar.
set -euo pipefail
cd "$(dirname "$0")/.."

cache=${SLABBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/slabbench}/checkpatch
if [ ! -x "$cache/scripts/checkpatch.pl" ]; then
	mkdir -p "$cache"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$cache" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi
cp=$cache/scripts/checkpatch.pl
status=0
"$cp" --no-tree --quiet --show-types -f kmod/*.c kmod/*.h || status=1
# Each patch both as a file (-f, as in the kernel's own checks of a tree)
# and as a patch, from outside this git tree: inside it checkpatch treats
# a tracked file as -f whatever the options say.
patches=$(ls vm/patches/*/*.patch 2>/dev/null || true)
if [ -n "$patches" ]; then
	"$cp" --no-tree --quiet -f $patches || status=1
	scratch=$(mktemp -d)
	cp $patches "$scratch/"
	(cd "$scratch" && "$cp" --no-tree --quiet ./*.patch) || status=1
	rm -rf "$scratch"
fi
exit $status
