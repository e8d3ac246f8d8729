# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Debian's 6.12 source as a user's git tree, without slabbench's patches:
# the module builds and runs on it, SLAB is refused by name (gone in
# 6.8), and what the tree lacks (the census) is said before the boot,
# recorded in the results and absent from them rather than estimated.
. tests/e2e/lib.sh

plan 12

export SLABBENCH_VARIANTS=$TMP/variants
L=$TMP/linux-6.12
mkdir -p "$L"
tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$L" --strip-components=1
git init -q "$L"
# No gc in the background after the commits below: it would change .git
# while the test checks that slabbench leaves it alone.
git -C "$L" config gc.auto 0
git -C "$L" add -A -f
git -C "$L" -c user.name=slabbench -c user.email=slabbench@localhost commit -qm \
	"Debian's linux-source-6.12"
cat >"$SLABBENCH_VARIANTS" <<EOF
mine-6.12  $L@HEAD  base alloc-slub-6.12
slab-6.12  $L@HEAD  base alloc-slab
own-6.12   $L@HEAD  $TMP/own.config alloc-slub-6.12
EOF
"$SB" run --boots=1 --alloc=mine-6.12 --workload=quick -o "$TMP/mine.json" \
	>/dev/null 2>"$TMP/mine.err"
check "mine-6.12: quick runs on an unpatched 6.12 tree" jqt "$TMP/mine.json" '.status == "complete"'
[ -f "$TMP/mine.json" ] || tail -n 20 "$TMP/mine.err"
check "mine-6.12: the lack of a census is said before the boot" \
	grep -q "mine-6.12: no slab census" "$TMP/mine.err"
check "mine-6.12: and recorded in the results" \
	jqt "$TMP/mine.json" '.kernel.lacks | any(test("no slab census"))'
check "mine-6.12: SLAB_NO_MERGE is there (6.5+), so not said to lack" \
	jqt "$TMP/mine.json" '(.kernel.lacks | any(test("SLAB_NO_MERGE")) | not) and .guest.info.slab_no_merge'
check "mine-6.12: no census figures, none estimated" \
	jqt "$TMP/mine.json" '[.. | objects | .census? // empty] | length == 0'
"$SB" kernel build slab-6.12 >/dev/null 2>"$TMP/slab.err"
check "slab-6.12: refused, the tree has no SLAB" grep -q "this tree has no SLAB (removed in 6.8)" "$TMP/slab.err"
check "the tree is untouched" bash -c "test -z \"\$(GIT_OPTIONAL_LOCKS=0 git -C '$L' status --porcelain)\""

# A user's config with only the allocator lines replaced: mine-6.12's
# own .config with two serial ports instead of four (a change few files
# see), which the report must list as the configs' difference.
sed 's/^CONFIG_SERIAL_8250_NR_UARTS=.*/CONFIG_SERIAL_8250_NR_UARTS=2/; s/^CONFIG_SERIAL_8250_RUNTIME_UARTS=.*/CONFIG_SERIAL_8250_RUNTIME_UARTS=2/' \
	"$(jq -r '.kernel.build_hash as $h | "'"${SLABBENCH_CACHE:-$HOME/.cache/slabbench}"'/kernels/mine-6.12-\($h)/.config"' "$TMP/mine.json")" \
	>"$TMP/own.config"
check "own-6.12: its config differs from mine-6.12's" grep -qx "CONFIG_SERIAL_8250_NR_UARTS=2" "$TMP/own.config"
"$SB" run --boots=1 --alloc=own-6.12 --workload=quick -o "$TMP/own.json" >/dev/null 2>"$TMP/own.err"
check "own-6.12: quick runs on a user's config" jqt "$TMP/own.json" '.status == "complete"'
[ -f "$TMP/own.json" ] || tail -n 20 "$TMP/own.err"
check "own-6.12: the results name the config file" \
	jqt "$TMP/own.json" ".kernel.config_base | startswith(\"$TMP/own.config\")"
"$SB" report "$TMP/mine.json" "$TMP/own.json" >"$TMP/report.txt" 2>&1
check "report: every config line that differs, each side's" \
	bash -c "grep -q -- '-CONFIG_SERIAL_8250_NR_UARTS=4' '$TMP/report.txt' &&
		grep -q -- '+CONFIG_SERIAL_8250_NR_UARTS=2' '$TMP/report.txt'"
check "report: both name the census as lacking" bash -c "grep -c 'lacks .*no slab census' '$TMP/report.txt' | grep -qx 2"
