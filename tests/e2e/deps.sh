#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's two commands are the whole setup: what make demo and make
# test install (scripts/install-deps.sh --list) must bring every package a
# variant's build reads (vm/kernel.sh packages) and every program the
# harness and its tests run. A package counts as brought when it is in the
# list or in the list's dependency closure. Boots nothing: this is the
# check that would have caught issue 21 (the slub-6.12 and debian variants'
# packages missing after make demo, because make test installed nothing).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# Only the built-in variants: a user's own tree is theirs to provide.
export SLABBENCH_VARIANTS=$TMP/no-user-variants

closure() {
	# shellcheck disable=SC2046
	apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances $(scripts/install-deps.sh --list "$1") \
		2>/dev/null | grep -v '^ ' | tr -d '<>' | sort -u
}
closure all >"$TMP/all"
closure demo >"$TMP/demo"
check "the install lists resolve to packages (apt-get update done)" \
	test "$(wc -l <"$TMP/demo")" -gt "$(scripts/install-deps.sh --list demo | wc -l)"

# brought MODE WHAT PACKAGE...: every PACKAGE is in MODE's closure.
brought() {
	local mode=$1 what=$2 p miss=
	shift 2
	for p in "$@"; do
		grep -qxF "$p" "$TMP/$mode" || miss="$miss $p"
	done
	[ -z "$miss" ] || echo "# $mode does not install$miss ($what)"
	[ -z "$miss" ]
}

for v in $(vm/kernel.sh names); do
	# shellcheck disable=SC2046
	check "make test installs what variant $v builds from" \
		brought all "$v" $(vm/kernel.sh packages "$v")
done
# The variants the demo runs, as scripts/demo.sh names them.
for v in $(sed -n 's/.*--alloc=\([^ ]*\).*/\1/p' scripts/demo.sh | tr ',' '\n' | sort -u); do
	# shellcheck disable=SC2046
	check "make demo installs what variant $v builds from" \
		brought demo "$v" $(vm/kernel.sh packages "$v")
done

# The programs by the path the code runs them from, and the package that
# ships that path (dpkg -S, trying the /usr-merged twin of a /bin path and
# the file an alternatives link ends at).
owner() {
	local path=$1 alt
	case $path in
	/usr/bin/*) alt=/bin/${path#/usr/bin/} ;;
	/bin/*) alt=/usr${path} ;;
	*) alt=$path ;;
	esac
	{ dpkg -S "$path" || dpkg -S "$alt" || dpkg -S "$(realpath "$path")"; } 2>/dev/null |
		grep -v '^diversion' | head -n 1 | cut -d: -f1
}
# Kernel builds (vm/kernel.sh), guests (cli/run/vm.c, cli/run/guest.c: busybox and
# perf go into the guest), charts, the tests' jq and git, make check.
demo_progs="/usr/bin/gcc /usr/bin/make /usr/bin/bc /usr/bin/bison /usr/bin/flex
	/usr/bin/patch /usr/bin/xz /usr/bin/ccache /bin/cpio /usr/bin/qemu-system-x86_64
	/bin/busybox /usr/bin/gnuplot /usr/bin/jq"
test_progs="$demo_progs /usr/bin/perf /usr/bin/git /usr/bin/sparse /usr/bin/shellcheck"
for path in $test_progs; do
	pkg=$(owner "$path")
	check "make test installs the package of $path (${pkg:-none})" \
		brought all "$path" "${pkg:-$path}"
done
for path in $demo_progs; do
	pkg=$(owner "$path")
	check "make demo installs the package of $path (${pkg:-none})" \
		brought demo "$path" "${pkg:-$path}"
done

# The targets install before anything else, and CI runs the README's
# test command and nothing besides.
for target in test test-slow bench check; do
	check "make $target installs what is missing first" \
		test "$(make -n --no-print-directory "$target" 2>/dev/null | head -n 1)" = scripts/install-deps.sh
done
check "make demo installs what is missing first" \
	test "$(make -n --no-print-directory demo 2>/dev/null | head -n 1)" = "scripts/install-deps.sh demo"
check ".ci/run runs the README's test command alone" \
	test "$(grep -vE '^(#|set |cd |$)' .ci/run)" = "make test"
check "the README's first screen gives make demo and make test" \
	bash -c 'head -n 40 README.md | grep -q "^make demo" && head -n 40 README.md | grep -q "^make test"'
check "the README asks for no third command before make test" \
	bash -c '! grep -qiE "make test.{0,20}expects|run .?make deps.? first" README.md'
