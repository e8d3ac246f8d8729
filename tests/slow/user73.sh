# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Debian's 7.3 source as a user's git tree, without slabbench's patches:
# quick runs on it (SLUB with sheaves), what the tree lacks (the census)
# is said before the boot and recorded, SLAB is refused by name. A
# second commit adds one PAUSE (cpu_relax()) to slab_alloc_node():
# `run --accel=cost` of both commits and `compare` show one instruction
# more per allocation, bisect names that commit, and the mail goes to
# whom 7.3's own MAINTAINERS names for mm/slub.c. The commits have fixed
# dates, so their ids and kernels are the same on every run: a second
# run finds its kernels built.
. tests/e2e/lib.sh

plan 18

export SLABBENCH_VARIANTS=$TMP/variants
L=$TMP/linux-7.3
G=(git -C "$L" -c user.name=slabbench -c user.email=slabbench@localhost)
export GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z
# Debian's linux-source-7.3, fetched into the cache as slub-7.3's build
# fetches it (vm/sources); unpacked from there, the cache only read.
vm/kernel.sh fetch 7.3
mkdir -p "$L"
tar -xJf "${SLABBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/slabbench}/debian/linux-7.3/usr/src/linux-source-7.3.tar.xz" \
	-C "$L" --strip-components=1
git init -q "$L"
# No gc in the background after the commits below: it would change .git
# while the test checks that slabbench leaves it alone.
git -C "$L" config gc.auto 0
"${G[@]}" add -A -f
"${G[@]}" commit -qm "Debian's linux-source-7.3"
base=$("${G[@]}" rev-parse HEAD)
cat >"$SLABBENCH_VARIANTS" <<EOF
mine-7.3  $L@HEAD  base alloc-slub-6.12
slab-7.3  $L@HEAD  base alloc-slab
EOF
start=$SECONDS
"$SB" run --boots=1 --alloc=mine-7.3 --workload=quick -o "$TMP/mine.json" \
	>/dev/null 2>"$TMP/mine.err"
echo "# mine-7.3: build and quick, $((SECONDS - start)) s"
check "mine-7.3: quick runs on an unpatched 7.3 tree" jqt "$TMP/mine.json" '.status == "complete"'
[ -f "$TMP/mine.json" ] || tail -n 20 "$TMP/mine.err"
check "mine-7.3: the guest ran 7.3's SLUB" \
	jqt "$TMP/mine.json" '.guest.info.allocator == "SLUB" and (.kernel.release | startswith("7.3"))'
check "mine-7.3: the lack of a census is said before the boot" \
	grep -q "mine-7.3: no slab census" "$TMP/mine.err"
check "mine-7.3: and recorded in the results" \
	jqt "$TMP/mine.json" '.kernel.lacks | any(test("no slab census"))'
check "mine-7.3: SLAB_NO_MERGE is there, so not said to lack" \
	jqt "$TMP/mine.json" '(.kernel.lacks | any(test("SLAB_NO_MERGE")) | not) and .guest.info.slab_no_merge'
check "mine-7.3: no census figures, none estimated" \
	jqt "$TMP/mine.json" '[.. | objects | .census? // empty] | length == 0'
"$SB" kernel build slab-7.3 >/dev/null 2>"$TMP/slab.err"
check "slab-7.3: refused, the tree has no SLAB" grep -q "this tree has no SLAB (removed in 6.8)" "$TMP/slab.err"

# The second commit: one line, a PAUSE before anything else that
# slab_alloc_node() does, so that every allocation runs one instruction
# more and nothing else changes.
sed -i '/^static __fastpath_inline void \*slab_alloc_node(/,/^}$/{
	s/^\ts = slab_pre_alloc_hook(s, gfpflags);$/\tcpu_relax();\n&/
}' "$L/mm/slub.c"
"${G[@]}" commit -qam "mm/slub: pause once in slab_alloc_node()"
edit=$("${G[@]}" rev-parse HEAD)
check "the second commit adds one line to mm/slub.c" \
	test "$("${G[@]}" diff --numstat "$base" "$edit")" = "$(printf '1\t0\tmm/slub.c')"
tree_state() {
	(cd "$L" && stat -c '%Y' .git/index && git rev-parse HEAD &&
		GIT_OPTIONAL_LOCKS=0 git status --porcelain | head -n 5 && ls .git)
}
tree_state >"$TMP/before"

cat >"$SLABBENCH_VARIANTS" <<EOF
mine-7.3        $L@$base  base alloc-slub-6.12
mine-7.3-pause  $L@$edit  base alloc-slub-6.12
EOF
cat >"$TMP/fast.json" <<'JSON'
{ "name": "fast", "tests": [
  { "test": "fastpath", "params": { "api": "cache", "size": 64, "iters": 5000, "repeats": 3 } } ] }
JSON
for v in mine-7.3 mine-7.3-pause; do
	start=$SECONDS
	"$SB" run --boots=1 --alloc=$v --accel=cost --workload="$TMP/fast.json" \
		-o "$TMP/$v.cost.json" >/dev/null 2>"$TMP/$v.cost.err"
	echo "# $v: build and run --accel=cost, $((SECONDS - start)) s"
	check "$v: run --accel=cost completes" jqt "$TMP/$v.cost.json" '.status == "complete"'
	[ -f "$TMP/$v.cost.json" ] || tail -n 20 "$TMP/$v.cost.err"
done
insns() { jq '.tests[0].metrics.instructions_per_op.summary.mean' "$1"; }
a=$(insns "$TMP/mine-7.3.cost.json") b=$(insns "$TMP/mine-7.3-pause.cost.json")
check "the pause costs exactly one instruction per alloc+free pair ($a, then $b)" \
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && b - a > 0.9995 && b - a < 1.0005) }'
"$SB" compare "$TMP/mine-7.3.cost.json" "$TMP/mine-7.3-pause.cost.json" >"$TMP/compare.out" 2>&1
grep -A1 "^instructions_per_op " "$TMP/compare.out" | sed 's/^/# /'
# Its row: kind, base value, wIQR, new value, change, ..., mark.
read -r -a row <<<"$(grep -A1 '^instructions_per_op ' "$TMP/compare.out" | tail -n 1)"
check "compare: exact counts, each side's, one more, worse" \
	test "${row[0]} ${row[1]} ${row[3]} ${row[4]} ${row[-1]}" = \
	"exact $(printf %.2f "$a") $(printf %.2f "$b") +1 *worse"

start=$SECONDS
"$SB" bisect --tree="$L" --good="$base" --bad="$edit" --alloc-config="base alloc-slub-6.12" \
	--workload="$TMP/fast.json" --metric=fastpath.instructions_per_op --threshold=0.5 \
	--accel=cost -o "$TMP/bisect" >"$TMP/bisect.out" 2>"$TMP/bisect.err"
echo "# bisect: $((SECONDS - start)) s"
check "bisect names the second commit" grep -qx "$edit is the first bad commit" "$TMP/bisect.out"
[ -f "$TMP/bisect/report.txt" ] || tail -n 30 "$TMP/bisect.err"
check "the report's subject names the commit" \
	grep -q "^Subject: \[slabbench\] .*${edit:0:12}: .* regression$" "$TMP/bisect/report.txt"
tree_state >"$TMP/after"
check "the user's tree is only read" cmp -s "$TMP/before" "$TMP/after"

# The mails' addressees against what the tree's own get_maintainer.pl
# says of mm/slub.c (7.3's SLAB ALLOCATOR entry): every list in To,
# every person in Cc (with the commit's author, for a bisection).
(cd "$L" && perl scripts/get_maintainer.pl --no-git -f mm/slub.c) >"$TMP/maintainers"
"$SB" report --mbox="$TMP/bisect.mbox" --bisect="$TMP/bisect" >/dev/null 2>"$TMP/bmail.err"
"$SB" report --mbox="$TMP/compare.mbox" "$TMP/mine-7.3.cost.json" \
	"$TMP/mine-7.3-pause.cost.json" >/dev/null 2>"$TMP/cmail.err"
for m in bisect compare; do
	[ -s "$TMP/$m.mbox" ] || cat "$TMP/${m:0:1}mail.err"
	check "$m mail: To the lists, Cc the people of 7.3's MAINTAINERS for mm/slub.c" \
		python3 - "$TMP/$m.mbox" "$TMP/maintainers" <<'PY'
import email.policy, mailbox, re, sys
m = email.message_from_bytes(list(mailbox.mbox(sys.argv[1]))[0].as_bytes(),
                             policy=email.policy.default)
to = {a.addr_spec for a in m["To"].addresses}
cc = {a.addr_spec for a in m["Cc"].addresses} - {"slabbench@localhost"}
lists, people = set(), set()
for line in open(sys.argv[2]):
    addr = re.search(r"([^<\s]+@[^>\s]+)", line).group(1)
    (lists if "list" in line.split("(")[-1] else people).add(addr)
sys.exit(not (lists and people and to == lists and cc == people))
PY
done
# 6.1's MAINTAINERS had other addresses for the same people.
check "the mail names 7.3's slab maintainers" \
	bash -c "sed '/^\$/q' '$TMP/compare.mbox' | grep -q 'Vlastimil Babka <vbabka@kernel.org>'"
