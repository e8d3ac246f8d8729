# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by the end-to-end tests: a plan, ok/not ok lines and a scratch
# directory.
SB=${SB:-$PWD/build/slabbench}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# compare and report read the user's noise floor: tests start with none.
export SLABBENCH_NOISE=$TMP/noise.json

# The plan, before any check: how many results this script prints, from
# its checks and the lists its loops go over, never from a count of what
# ran. tests/run.sh fails a script whose results fall short of it.
plan() {
	echo "1..$1"
}

check() {
	local name=$1
	shift
	if "$@"; then
		echo "ok - $name"
	else
		echo "not ok - $name"
	fi
}

# jq -e on a file: the expression must be true.
jqt() {
	jq -e "$2" "$1" >/dev/null
}

# run_complete NAME WHAT RUN-OPTION...: slabbench run into $TMP/NAME.json
# (its stderr in $TMP/NAME.err), checked complete; where no results came,
# the end of what it said.
run_complete() {
	local name=$1 what=$2

	shift 2
	"$SB" run "$@" -o "$TMP/$name.json" >/dev/null 2>"$TMP/$name.err"
	check "$what" jqt "$TMP/$name.json" '.status == "complete"'
	[ -f "$TMP/$name.json" ] || tail -n 20 "$TMP/$name.err"
}

# In the 6.1 git tree $L (committed to with "${G[@]}"): a commit whose
# kmem_cache_alloc() spins 64 times, the regression the slow bisect and
# watch tests must find, then a harmless one on top. Prints the first.
commit_slowdown() {
	sed -i '/^void \*kmem_cache_alloc(struct kmem_cache \*s, gfp_t gfpflags)$/,/^}$/{
		s/^{$/{\n\tint i;\n\n\tfor (i = 0; i < 64; i++)\n\t\tbarrier();/
	}' "$L/mm/slub.c"
	"${G[@]}" commit -qam "mm/slub: spin a little in kmem_cache_alloc()"
	"${G[@]}" rev-parse HEAD
	echo "/* A comment that changes no code. */" >>"$L/mm/slab.c"
	"${G[@]}" commit -qam "mm/slab: a harmless change"
}
