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
for p in vm/patches/*/*.patch; do
	"$cp" --no-tree --quiet "$p" || status=1
done
exit $status
