# SPDX-License-Identifier: GPL-2.0
# kernels: slab
# shellcheck shell=bash
# Faults of the host rather than the guest: a disk that fills up under a
# results file, a Debian source package that is not installed. Boots no
# guest and builds nothing: it takes seconds.
. tests/e2e/lib.sh

plan 16

base=tests/data/compare-base.json
other=tests/data/compare-other.json

# A full disk: 8 kB of tmpfs (two pages), unmounted before lib.sh's
# cleanup removes $TMP.
disk=$TMP/disk
mkdir "$disk"
trap 'umount "$disk" 2>/dev/null; rm -rf "$TMP"' EXIT
if mount -t tmpfs -o size=8k tmpfs "$disk"; then
	# Filled to the last page: the write itself fails, not the open.
	dd if=/dev/zero of="$disk/filler" bs=4k 2>/dev/null
	"$SB" compare --json -o "$disk/out.json" "$base" "$other" 2>"$TMP/full.err"
	rc=$?
	check "compare -o on a full disk exits 2" test "$rc" -eq 2
	check "the message names the file and ENOSPC: $(head -n 1 "$TMP/full.err")" \
		grep -q "writing $disk/out.json: No space left on device" "$TMP/full.err"
	check "no results file on the full disk" test ! -e "$disk/out.json"
	check "no temporary file left on the full disk" \
		bash -c "! ls '$disk'/out.json.tmp.* 2>/dev/null"

	# One page left and an older result there: the new one is written
	# in part, then the disk is full. The old file must survive whole.
	rm -f "$disk/filler"
	echo '{ "old": true }' >"$disk/out.json"
	"$SB" compare --json "$base" "$other" "$other" >"$TMP/big.json"
	check "the output of three runs is larger than the page left" \
		test "$(stat -c %s "$TMP/big.json")" -gt 4096
	"$SB" compare --json -o "$disk/out.json" "$base" "$other" "$other" 2>"$TMP/half.err"
	rc=$?
	check "compare -o that fits only in part exits 2" test "$rc" -eq 2
	check "the message names the file and ENOSPC" \
		grep -q "writing $disk/out.json: No space left on device" "$TMP/half.err"
	check "the older results file is kept whole" \
		test "$(cat "$disk/out.json")" = '{ "old": true }'
	check "no temporary file left after a partial write" \
		bash -c "! ls '$disk'/out.json.tmp.* 2>/dev/null"
else
	echo "not ok - mount a tmpfs for the full disk (needs root)"
fi

# No linux-source-6.1: SLABBENCH_SRC_DIR is an empty directory, as
# /usr/src is before the package is installed. The cache is empty too, so
# that nothing can come from an earlier build.
src=$TMP/usr-src
mkdir "$src"
export SLABBENCH_SRC_DIR=$src SLABBENCH_CACHE=$TMP/cache
vm/kernel.sh hash slab >"$TMP/hash.out" 2>"$TMP/hash.err"
rc=$?
check "kernel.sh hash without the source package fails" test "$rc" -ne 0
check "and names the package to install: $(head -n 1 "$TMP/hash.err")" \
	grep -q "apt-get install linux-source-6.1'" "$TMP/hash.err"
check "and prints no hash" test ! -s "$TMP/hash.out"
# Were the tarball found after all, the build would take minutes.
if [ "$rc" -ne 0 ]; then
	timeout 60 "$SB" kernel build slab >/dev/null 2>"$TMP/build.err"
	rc=$?
	check "kernel build without the source package exits 1" test "$rc" -eq 1
	check "and names the package to install" \
		grep -q "apt-get install linux-source-6.1'" "$TMP/build.err"
	check "and stops before extracting anything" \
		bash -c "! grep -q extracting '$TMP/build.err' && test ! -e '$TMP/cache/src'"
	"$SB" kernel list >"$TMP/list.out" 2>&1
	check "kernel list says the package is missing" \
		grep -qE '^slab +6\.1 +- +linux-source-6\.1 not installed' "$TMP/list.out"
else
	echo "not ok - kernel build without the source package (not tried: SLABBENCH_SRC_DIR is ignored)"
fi
