#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test runner: host unit tests (the programs given as arguments, built
# with ASan and UBSan), then every tests/e2e/*.sh, which boot guests.
# Each test file prints a plan, "1..N" (first, or for the unit tests last,
# as TAP allows), and N results, "ok - ...", "not ok - ..." or
# "ok - ... # SKIP why"; the runner adds how long each program took
# ("# NAME: N s"); the last line counts them. A file without a plan, or
# with other than N results, fails by name: a check that never ran is no
# pass.
#
#   SLABBENCH_TESTS=unit   only the unit tests
#   SLABBENCH_TESTS=e2e    only the end-to-end tests
#   SLABBENCH_TESTS=slow   only tests/slow (make test-slow)
#   SLABBENCH_SLOW=1       everything, tests/slow included (CI)
#   SLABBENCH_JOBS=N       end-to-end tests at once (2)
set -u
cd "$(dirname "$0")/.." || exit 1

passed=0
failed=0
skipped=0
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# Echoes the lines of test NAME, which exited with RC after SECS seconds
# and printed LOG, and counts them. A program that dies without saying
# "not ok" (a sanitizer report, a crash), or whose results are not its
# plan's, counts as one failure of its own.
tally() {
	local name=$1 rc=$2 secs=$3 log=$4 p f s n plan
	echo "# $name: $secs s"
	grep -E '^(not )?ok - ' "$log" | sed "s|^|$name: |"
	s=$(grep -cE '^ok - .*# SKIP' "$log")
	p=$(($(grep -c '^ok - ' "$log") - s))
	f=$(grep -c '^not ok - ' "$log")
	n=$((p + f + s))
	plan=$(grep -cE '^1\.\.[0-9]+$' "$log")
	if [ "$plan" -ne 1 ]; then
		echo "not ok - $name: printed $plan plan lines (1..N), not one"
		f=$((f + 1))
	else
		plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log")
		if [ "$n" -ne "$plan" ]; then
			echo "not ok - $name: planned $plan results, printed $n"
			f=$((f + 1))
		fi
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name: exited with status $rc"
		f=1
	fi
	if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then
		echo "--- output of $name ---"
		grep -vE '^(not )?ok - ' "$log" | tail -n 40
		echo "---"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}

# The end-to-end tests run SLABBENCH_JOBS at a time, each tallied as it
# ends: a guest under TCG keeps one core busy, and on a fresh machine the
# tests that need the last kernels would otherwise run one by one on one
# core while the other idles. No check rests on emulated time, and each
# test has its own scratch directory; kernels and modules build under
# vm/kernel.sh's locks.
declare -A running=()

# start NAME COMMAND...: runs it in the background into $logs/NAME.
start() {
	local name=$1
	shift
	(
		s=$SECONDS
		"$@" >"$logs/$name" 2>&1
		echo "$? $((SECONDS - s))" >"$logs/$name.rc"
	) &
	running[$!]=$name
}

# reap: waits for one started test to end and tallies it.
reap() {
	local pid name rc secs

	while :; do
		pid=
		wait -n -p pid
		if [ -z "$pid" ]; then
			echo "not ok - run.sh: no test left to wait for, but ${running[*]} not tallied"
			failed=$((failed + 1))
			running=()
			return
		fi
		[ -n "${running[$pid]+x}" ] && break
	done
	name=${running[$pid]}
	unset "running[$pid]"
	read -r rc secs <"$logs/$name.rc"
	tally "$name" "$rc" "$secs" "$logs/$name"
}

# run NAME COMMAND...: runs a test program to its end and tallies it.
run() {
	start "$@"
	reap
}

# Guest kernels are built beside the tests, in this order: a guest under
# TCG keeps about one of the two cores busy, so on a fresh machine the
# next kernel compiles on the other while a test boots the last one. Each
# end-to-end test names the kernels it boots ("# kernels: ..." at its
# top), and the tests run in the order their last kernel is built: those
# that need none first, while slub compiles. A test that reaches a kernel
# still building waits on its lock in vm/kernel.sh rather than building it
# twice; a build that fails here fails again, with its message, in the
# test that needs it. Niced, so that the guests being timed come first.
# SLOB (tests/slow/slob.sh) and the debug guests are test-slow's.
KERNELS=(slub slab slub-7.3 slub-6.12 debian slub-stats slub-7.3-stats)

prebuild() {
	local v variants=("${KERNELS[@]}")

	[[ $1 == *slow* ]] && read -ra v <<<"${SLABBENCH_DEBUG_VARIANTS:-slub-debug slab-debug}" &&
		variants+=(slob "${v[@]}")
	for v in "${variants[@]}"; do
		nice -n 10 build/slabbench kernel build "$v" >/dev/null 2>&1 </dev/null
	done
}

# "RANK NAME" for test file $1: the place in KERNELS of the last kernel
# it needs (0 for none); 99, last, without the header (tests/slow) or
# with a kernel the list lacks.
kernel_rank() {
	local k i rank=0 line
	line=$(sed -n 's/^# kernels: //p' "$1" | head -n 1)
	[ -n "$line" ] || { echo "99 $1"; return; }
	for k in $line; do
		[ "$k" = none ] && continue
		for i in "${!KERNELS[@]}"; do
			[ "${KERNELS[$i]}" = "$k" ] && break
		done
		[ "${KERNELS[$i]}" = "$k" ] || { echo "99 $1"; return; }
		((i + 1 > rank)) && rank=$((i + 1))
	done
	echo "$rank $1"
}

what=${SLABBENCH_TESTS:-all}
dirs=
[ "$what" = all ] || [ "$what" = e2e ] && dirs=tests/e2e
[ "$what" = slow ] && dirs=tests/slow
[ -n "${SLABBENCH_SLOW:-}" ] && [ "$what" = all ] && dirs="tests/e2e tests/slow"
if [ -n "$dirs" ]; then
	# A process group of its own, so that the trap ends its make too.
	set -m
	prebuild "$dirs" &
	builder=$!
	set +m
	trap 'kill -- -$builder 2>/dev/null; kill $(jobs -p) 2>/dev/null; rm -rf "$logs"' EXIT
fi
if [ "$what" = all ] || [ "$what" = unit ]; then
	for t in "$@"; do
		run "$(basename "$t")" "$t"
	done
fi
if [ -n "$dirs" ]; then
	for t in $(for d in $dirs; do for f in "$d"/*.sh; do
			[ -e "$f" ] && [ "$(basename "$f")" != lib.sh ] && kernel_rank "$f"
		done; done | sort -s -n -k1,1 | cut -d' ' -f2); do
		[ -e "$t" ] || continue
		[ "$(basename "$t")" = lib.sh ] && continue
		((${#running[@]} < ${SLABBENCH_JOBS:-2})) || reap
		start "$(basename "$t" .sh)" bash "$t"
	done
	while ((${#running[@]})); do
		reap
	done
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
