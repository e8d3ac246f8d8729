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
