#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: none
#
# The host program's layers (the Makefile's CLI_LAYERS): every quoted
# include in cli/LAYER/ names a header of that layer, of a layer below
# it, or of common/ and include/; the commands sit on top. The build puts
# every folder on the include path, so only this check keeps an upward
# include out. Boots nothing.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

plan 4

layers=(lib run judge commands)

# The rank of the folder that holds header $1, or -1 for common/ and
# include/; nothing when no folder holds it.
rank_of() {
	local i
	[ -f "common/$1" ] && { echo -1; return; }
	for i in "${!layers[@]}"; do
		[ -f "cli/${layers[$i]}/$1" ] && { echo "$i"; return; }
	done
}

# Prints "FILE: HEADER (LAYER)" for each include that reaches up or
# names no header of ours.
upward() {
	local i f h r
	for i in "${!layers[@]}"; do
		for f in cli/"${layers[$i]}"/*.[ch]; do
			[ -f "$f" ] || continue
			while read -r h; do
				r=$(rank_of "$h")
				if [ -z "$r" ]; then
					echo "$f: \"$h\" is no header of cli/ or common/"
				elif [ "$r" -gt "$i" ]; then
					echo "$f: \"$h\" is in cli/${layers[$r]}/, above ${layers[$i]}"
				fi
			done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
		done
	done
}

check "cli/ has only its layer folders" \
	test "$(find cli -mindepth 1 -maxdepth 1 | sort | tr '\n' ' ')" = \
	"cli/commands cli/judge cli/lib cli/run "
upward >"$TMP/up"
check "no include in cli/ reaches a layer above its own" test ! -s "$TMP/up"
cat "$TMP/up"
# The check itself can fail: an include of a command's header from the
# library is found.
mkdir -p "$TMP"/cli/{lib,run,judge,commands}
printf '#include "commands.h"\n' >"$TMP/cli/lib/bad.c"
: >"$TMP/cli/commands/commands.h"
check "an upward include is caught" \
	bash -c "cd '$TMP' && $(declare -p layers); $(declare -f rank_of upward); upward | grep -q 'bad.c: \"commands.h\" is in cli/commands/, above lib'"
check "common/ holds what the host, the agent and the plugin share" \
	test -f common/macro_table.c -a -f common/cachesim.c
