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

# selftest_each VARIANT...: the module's self-test on each, as KTAP in
# $TMP/selftest.ktap; every case of every variant passes.
selftest_each() {
	local v

	"$SB" selftest "$@" >"$TMP/selftest.ktap" 2>"$TMP/selftest.err"
	check "selftest passes on $*" test $? -eq 0
	for v in "$@"; do
		check "$v: 12 self-test, 5 unload, 4 fuzz and the kmemleak cases ok" \
			grep -qx "# $v: 22 ok, 0 not ok" "$TMP/selftest.ktap"
	done
}

# crosscheck VARIANT WORKLOAD: a run of (a part of) tests/data/crosscheck.json
# into $TMP/VARIANT.json, and what every allocator must show of it: it
# completes, its held cache is gone before the next test, and caches
# counts its objects exactly and releases its caches.
crosscheck() {
	"$SB" run --boots=1 --alloc="$1" --workload="$2" -o "$TMP/$1.json" >/dev/null 2>"$TMP/$1.err"
	check "$1: the cross-check workload runs" jqt "$TMP/$1.json" '.status == "complete"'
	[ -f "$TMP/$1.json" ] || tail -n 20 "$TMP/$1.err"
	check "$1: the held cache is released before the next test" \
		jqt "$TMP/$1.json" '.boots[0].snapshots.after.slabinfo // "" | test("slabbench-held") | not'
	# 40 caches x 8 objects x 2 CPUs, half of each CPU's freed on the other.
	check "$1: caches counts its objects exactly and releases its caches" \
		jqt "$TMP/$1.json" '(.tests[] | select(.spec | startswith("test=caches")) | .metrics |
			[.objects_allocated, .objects_freed, .live_objects] | map(.samples[0])) == [640, 320, 320]
			and (.boots[0].snapshots.after.slabinfo // "" | test("sb-cache-") | not)'
}

# slabinfo_agrees VARIANT: crosscheck()'s overhead tests against /proc/slabinfo.
slabinfo_agrees() {
	check "$1: overhead figures agree with /proc/slabinfo within one slab" \
		jqt "$TMP/$1.json" '[.tests[0,1].extra.slabinfo_check[0].agrees] | all'
	check "$1: slabinfo was really read (objects per slab from the kernel)" \
		jqt "$TMP/$1.json" '[.tests[0,1].extra.slabinfo_check[0].proc.objperslab > 0] | all'
}

# The caches test's live bytes in $TMP/VARIANT.json, for each VARIANT given.
caches_live() {
	local v

	for v in "$@"; do
		jq '.tests[] | select(.spec | startswith("test=caches")) | .metrics.live_bytes.samples[0]' \
			"$TMP/$v.json"
	done
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
