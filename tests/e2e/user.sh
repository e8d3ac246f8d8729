# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub
# shellcheck shell=bash
# Users' variants without a kernel build: the variants file's forms and
# its errors, what the inputs hash covers, and that a user's git tree is
# only read (tests/slow/bisect.sh builds and boots such variants).
. tests/e2e/lib.sh

# With 8 refusals by bad() and 6 by bis() below.
plan 31

export SLABBENCH_VARIANTS=$TMP/variants
K=vm/kernel.sh
git init -q "$TMP/tree"
(cd "$TMP/tree" && echo one >file && git add file &&
	git -c user.name=t -c user.email=t@t commit -qm one)
mkdir "$TMP/series"
printf 'CONFIG_SLUB=y\n' >"$TMP/my.config"
cat >"$SLABBENCH_VARIANTS" <<EOF
# a comment
at-rev    $TMP/tree@HEAD          base alloc-slub
dirty     $TMP/tree               base alloc-slub
series    6.1+$TMP/series         base alloc-slub
own       $TMP/tree@HEAD          $TMP/my.config alloc-slub
EOF

# What git keeps of the tree, which reading it must leave as it was.
state() {
	(cd "$TMP/tree" && stat -c '%Y %s' .git/index && sha256sum .git/index &&
		git rev-parse HEAD && GIT_OPTIONAL_LOCKS=0 git status --porcelain && ls .git)
}
state >"$TMP/before"

hashes() { $K hash "$1" >/dev/null; }
check "a user's variant has a hash" hashes at-rev
h1=$($K hash at-rev)
d1=$($K hash dirty)
echo two >>"$TMP/tree/file"
check "an uncommitted change changes the hash of DIR" test "$($K hash dirty)" != "$d1"
check "... but not of DIR@HEAD" test "$($K hash at-rev)" = "$h1"
d2=$($K hash dirty)
touch "$TMP/tree/file"
check "touching a file without changing it keeps the hash" test "$($K hash dirty)" = "$d2"
(cd "$TMP/tree" && git stash -q)
(cd "$TMP/tree" && echo three >file && git -c user.name=t -c user.email=t@t commit -qam three)
check "a new commit changes the hash of DIR@HEAD" test "$($K hash at-rev)" != "$h1"
state >"$TMP/before"
$K hash dirty >/dev/null
$K hash at-rev >/dev/null
"$SB" kernel list >"$TMP/list.out" 2>&1
state >"$TMP/after"
check "the user's tree is only read (index, HEAD, status, .git)" cmp -s "$TMP/before" "$TMP/after"
check "kernel list shows the user's variants" grep -q "^at-rev .*$TMP/tree@HEAD" "$TMP/list.out"
check "a config file is part of the hash" \
	bash -c "h=\$($K hash own); echo CONFIG_SMP=y >>'$TMP/my.config'; test \"\$($K hash own)\" != \"\$h\""
s1=$($K hash series)
printf 'diff --git a/x b/x\n' >"$TMP/series/0001-x.patch"
check "a patch in the series changes the hash" test "$($K hash series)" != "$s1"
s2=$($K hash series)
printf -- '--- a/y\n+++ b/y\n@@ -1 +1 @@\n-1\n+2\n' >"$TMP/series/0002-y.patch"
s3=$($K hash series)
printf -- '--- a/y\n+++ b/y\n@@ -1 +1 @@\n-1\n+3\n' >"$TMP/series/0002-y.patch"
check "a plain diff -u (no 'diff' line) is part of the hash, and its content" \
	test "$s3" != "$s2" -a "$($K hash series)" != "$s3"

# Errors name the file and line, or the option.
bad() {
	local name=$1 line=$2 want=$3
	printf '%s\n' "$line" >"$TMP/bad"
	SLABBENCH_VARIANTS=$TMP/bad $K hash "$name" >/dev/null 2>"$TMP/bad.err"
	check "refused: $want" grep -q "$want" "$TMP/bad.err"
}
bad rel "rel  tree/linux@v6.1 base alloc-slub" "bad:1: 'tree/linux' is not an absolute path"
bad nogit "nogit  $TMP/series@v6.1 base alloc-slub" "bad:1: '$TMP/series' is not a git tree"
bad norev "norev  $TMP/tree@nosuchrev base alloc-slub" "bad:1: $TMP/tree has no revision 'nosuchrev'"
bad frag "frag  6.1 base alloc-nosuch" "bad:1: no fragment 'alloc-nosuch'"
bad noconf "noconf  6.1" "bad:1: no config"
bad order "order  6.1 base $TMP/my.config" "must come before the fragments"
bad noseries "noseries  6.1+$TMP/nothing base alloc-slub" "patch series '$TMP/nothing' does not exist"
bad tree "tree  linux base alloc-slub" "bad:1: tree 'linux' is none of"
printf 'slub  6.1  base alloc-slub\n' >"$TMP/shadow"
SLABBENCH_VARIANTS=$TMP/shadow "$SB" kernel list >/dev/null 2>"$TMP/shadow.err"
check "refused: a user's variant that takes a built-in name" \
	grep -q "variant 'slub' is defined twice" "$TMP/shadow.err"
# shellcheck disable=SC2016
printf 'x/$(touch %s) 6.1 base alloc-slub\n' "$TMP/ran" >"$TMP/unsafe"
SLABBENCH_VARIANTS=$TMP/unsafe "$SB" kernel list >/dev/null 2>"$TMP/unsafe.err"
check "refused: a variant name outside the safe alphabet, by file and line" \
	grep -q "unsafe:1: variant name 'x/\$(touch" "$TMP/unsafe.err"
check "... and nothing in it was run" test ! -e "$TMP/ran"
# A name with blanks splits into more fields: refused by its line, not
# taken by its first word when another variant is asked for.
printf 'ok 6.1 base alloc-slub\nmy own slub 6.1 base alloc-slub\n' >"$TMP/fields"
SLABBENCH_VARIANTS=$TMP/fields "$SB" run --alloc=ok >/dev/null 2>"$TMP/fields.err"
check "refused: a line with more fields than its form, by file and line" \
	grep -q "fields:2: tree 'own' is none of" "$TMP/fields.err"
"$SB" run --alloc=nosuch >/dev/null 2>"$TMP/run.err"
check "run names the user's variants among the known ones" grep -q "at-rev, dirty" "$TMP/run.err"

# bisect refuses what it cannot use before building anything.
bis() {
	local want=$1
	shift
	"$SB" bisect "$@" >/dev/null 2>"$TMP/bisect.err"
	check "bisect refuses: $want" grep -q "$want" "$TMP/bisect.err"
}
bis "needed" --tree="$TMP/tree"
bis "is not TEST.METRIC" --tree="$TMP/tree" --good=HEAD~1 --bad=HEAD --metric=fastpath \
	--threshold=5
bis "has no revision 'nosuch'" --tree="$TMP/tree" --good=nosuch --bad=HEAD \
	--metric=fastpath.ns_per_op --threshold=5
bis "the same commit" --tree="$TMP/tree" --good=HEAD --bad=HEAD \
	--metric=fastpath.ns_per_op --threshold=5
bis "is not a git tree" --tree="$TMP/series" --good=HEAD --bad=HEAD \
	--metric=fastpath.ns_per_op --threshold=5
bis "judged across 3 boots" --tree="$TMP/tree" --good=HEAD~1 --bad=HEAD --boots=1 \
	--metric=fastpath.ns_per_op --threshold=5

# A tree without the allocator asked for is refused by name, before any
# compiling (a stand-in tree: mm/Kconfig as from 6.8 on).
mkdir -p "$TMP/new/mm"
printf 'config SLUB\n\tbool "SLUB"\n' >"$TMP/new/mm/Kconfig"
git init -q "$TMP/new"
(cd "$TMP/new" && git add -A && git -c user.name=t -c user.email=t@t commit -qm new)
cat >"$TMP/new.variants" <<EOV
new-slab  $TMP/new@HEAD  base alloc-slab
new-slob  $TMP/new@HEAD  base alloc-slob
EOV
for a in slab slob; do
	SLABBENCH_CACHE=$TMP/cache SLABBENCH_VARIANTS=$TMP/new.variants \
		$K build new-$a >/dev/null 2>"$TMP/new-$a.err"
	check "refused: alloc-$a on a tree without ${a^^}" \
		grep -q "new.variants:[0-9]: this tree has no ${a^^} (removed in" "$TMP/new-$a.err"
done
