#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: none
#
# The README's two commands are the whole setup: what make demo, make test
# and make test-slow install (scripts/install-deps.sh --list) must bring
# every package a variant's build reads (vm/kernel.sh packages) and every
# program the harness and its tests run. A package counts as brought when
# it is in the list or in the list's dependency closure; and since make
# test installed its list before this runs, every package of it must be
# installed, and so must the headers of the debian variant's ABI: apt's
# candidate may have moved past what is installed. Boots nothing.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# Only the built-in variants: a user's own tree is theirs to provide.
export SLABBENCH_VARIANTS=$TMP/no-user-variants

# The cases: the variants, those the demo runs (as scripts/demo.sh names
# them), and the programs by the path the code runs them from. Kernel
# builds (vm/kernel.sh), guests (cli/vm.c, cli/guest.c: busybox and perf
# go into the guest), charts, the tests' jq and git, make check; the mail
# tests' Python, runner.sh's pgrep; tests/slow's own, with the package
# that ships each where it is not installed yet (dpkg -S knows only what
# is).
variants=$(vm/kernel.sh names)
demo_variants=$(sed -n 's/.*--alloc=\([^ ]*\).*/\1/p' scripts/demo.sh | tr ',' '\n' | sort -u)
demo_progs="/usr/bin/gcc /usr/bin/make /usr/bin/bc /usr/bin/bison /usr/bin/flex
	/usr/bin/patch /usr/bin/xz /usr/bin/ccache /usr/bin/rsync /bin/cpio /usr/bin/qemu-system-x86_64
	/bin/busybox /usr/bin/gnuplot /usr/bin/jq"
test_progs="$demo_progs /usr/bin/perf /usr/bin/git /usr/bin/sparse /usr/bin/shellcheck
	/usr/bin/python3 /usr/bin/pgrep"
slow_progs="/usr/sbin/slurmctld:slurmctld /usr/sbin/slurmd:slurmd /usr/bin/sbatch:slurm-client
	/usr/sbin/munged:munge /usr/bin/distccd:distcc"
count() {
	echo "$1" | wc -w
}
plan $((16 + $(count "$variants") + $(count "$demo_variants") + $(count "$test_progs") +
	$(count "$slow_progs") + $(count "$demo_progs")))

# The packages vm/kernel.sh fetches into its cache from suites apt does
# not list (vm/sources).
fetched() {
	awk '!/^#/ && NF { for (i = 3; i <= NF; i++) print $i }' vm/sources
}
# A list's closure: apt's, and the fetched packages the list names.
closure() {
	# shellcheck disable=SC2046
	{
		apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
			--no-breaks --no-replaces --no-enhances $(scripts/install-deps.sh --list "$1") \
			2>/dev/null | grep -v '^ ' | tr -d '<>'
		scripts/install-deps.sh --list "$1" |
			grep -xFf <(fetched)
	} | sort -u
}
closure all >"$TMP/all"
closure demo >"$TMP/demo"
closure slow >"$TMP/slow"
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

# What make test installed, by dpkg's word, not apt's; what it fetched,
# by kernel list's.
installed() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -qx 'install ok installed'
}
missing=
for p in $(scripts/install-deps.sh --list all | grep -vxFf <(fetched)); do
	installed "$p" || missing="$missing $p"
done
check "every package make test installs is installed${missing:+ (missing:$missing)}" test -z "$missing"
vm/kernel.sh list >"$TMP/list" 2>&1
check "every variant's source is installed or fetched (kernel list)" \
	bash -c "! grep -E 'not (installed|fetched)' '$TMP/list'"
abi=$(vm/kernel.sh debian-abi 2>"$TMP/abi.err")
check "the debian variant's ABI ($abi) has its headers installed" \
	bash -c "[ -n '$abi' ] && [ -d '/usr/src/linux-headers-$abi' ] &&
		dpkg-query -W -f='\${Status}' 'linux-headers-$abi' | grep -qx 'install ok installed'"
headers=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	sed -n 's/.*linux-headers-\([^ ,]*\).*/\1/p')
check "... and it is that of the installed linux-headers-amd64 ($headers), or its image is gone" \
	bash -c "[ '$abi' = '$headers' ] || ! apt-cache show 'linux-image-$headers' >/dev/null 2>&1"

for v in $variants; do
	# shellcheck disable=SC2046
	check "make test installs what variant $v builds from" \
		brought all "$v" $(vm/kernel.sh packages "$v")
done
for v in $demo_variants; do
	# shellcheck disable=SC2046
	check "make demo installs what variant $v builds from" \
		brought demo "$v" $(vm/kernel.sh packages "$v")
done

# The package that ships a program's path (dpkg -S, trying the /usr-merged
# twin of a /bin path and the file an alternatives link ends at).
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
for path in $test_progs; do
	pkg=$(owner "$path")
	check "make test installs the package of $path (${pkg:-none})" \
		brought all "$path" "${pkg:-$path}"
done
missing=
for path in $test_progs; do
	[ -x "$path" ] || missing="$missing $path"
done
check "every program make test runs is installed${missing:+ (missing:$missing)}" test -z "$missing"
for prog in $slow_progs; do
	path=${prog%%:*}
	pkg=$(owner "$path")
	check "make test-slow installs the package of $path (${pkg:-${prog#*:}})" \
		brought slow "$path" "${pkg:-${prog#*:}}"
done
check "make test-slow installs everything make test does" \
	bash -c "scripts/install-deps.sh --list all | grep -vxFf <(scripts/install-deps.sh --list slow) | grep -q . && exit 1 || exit 0"
for path in $demo_progs; do
	pkg=$(owner "$path")
	check "make demo installs the package of $path (${pkg:-none})" \
		brought demo "$path" "${pkg:-$path}"
done

# The targets install before anything else, and CI runs the README's
# test command and nothing besides.
for target in test bench check; do
	check "make $target installs what is missing first" \
		test "$(make -n --no-print-directory "$target" 2>/dev/null | head -n 1)" = scripts/install-deps.sh
done
check "make demo installs what is missing first" \
	test "$(make -n --no-print-directory demo 2>/dev/null | head -n 1)" = "scripts/install-deps.sh demo"
check "make test-slow installs what is missing first, the slow set" \
	test "$(make -n --no-print-directory test-slow 2>/dev/null | head -n 1)" = "scripts/install-deps.sh slow"
check "no test installs a package of its own: scripts/install-deps.sh does" \
	bash -c '! grep -lE "^[[:space:]]*([A-Z_]+=[^ ]+ +)*(sudo +)?apt(-get)? .*install" \
		tests/e2e/*.sh tests/slow/*.sh'
check ".ci/run runs the README's test command alone" \
	test "$(grep -vE '^(#|set |cd |$)' .ci/run)" = "make test"
check "the README's first screen gives make demo and make test" \
	bash -c 'head -n 40 README.md | grep -q "^make demo" && head -n 40 README.md | grep -q "^make test"'
check "the README asks for no third command before make test" \
	bash -c '! grep -qiE "make test.{0,20}expects|run .?make deps.? first" README.md'
