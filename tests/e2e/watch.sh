# SPDX-License-Identifier: GPL-2.0
# kernels: none
# shellcheck shell=bash
# watch without a kernel build: its state file, on a git tree that is no
# kernel (so every build of it really fails, in seconds). A tip equal to
# the baseline is nothing to test; a tip that does not build is recorded,
# not reported, and not tried again; a state is kept to its tree and
# branch, and two watches never share one. tests/slow/watch.sh has the
# whole story on a kernel tree.
. tests/e2e/lib.sh

plan 13

export SLABBENCH_CACHE=$TMP/cache
T=$TMP/tree
S=$TMP/state
G=(git -C "$T" -c user.name=slabbench -c user.email=slabbench@localhost)
git init -q -b main "$T"
git -C "$T" config gc.auto 0
echo "not a kernel" >"$T/README"
"${G[@]}" add README
"${G[@]}" commit -qm "one"
base=$("${G[@]}" rev-parse HEAD)
sbwatch() {
	"$SB" watch --tree="$T" --branch=main --baseline="$base" --state="$S" --workload=quick \
		--no-maintainers --to=list@example.org --from="W <w@example.org>"
}

sbwatch >"$TMP/1.out" 2>"$TMP/1.err"
check "tip = baseline: nothing new, exit 0" grep -q "^watch: main at ${base:0:12}: nothing new" "$TMP/1.out"
check "the state names tree, branch and the baseline as last good" \
	jqt "$S/watch.json" ".tree == \"$T\" and .branch == \"main\" and .last_good == \"$base\" and (.commits | length == 0)"
check "nothing was built" test ! -e "$SLABBENCH_CACHE/git"

echo "still not a kernel" >>"$T/README"
"${G[@]}" commit -qam "two"
tip=$("${G[@]}" rev-parse HEAD)
(cd "$T" && stat -c "%Y" .git/index && GIT_OPTIONAL_LOCKS=0 git status --porcelain) >"$TMP/before"
sbwatch >"$TMP/2.out" 2>"$TMP/2.err"
rc=$?
check "a tip that does not build: recorded, exit 0" \
	bash -c "[ $rc -eq 0 ] && grep -q '^watch: ${tip:0:12} did not build, boot or run its workload: recorded' '$TMP/2.out'"
check "the build really ran and failed" grep -q "building the watch-${tip:0:12} kernel" "$TMP/2.err"
check "the state records it as broken; the last good commit stays" \
	jqt "$S/watch.json" ".commits == [.commits[0]] and .commits[0].commit == \"$tip\" and .commits[0].verdict == \"broken\" and .last_good == \"$base\""
check "nothing reported, no mail" \
	bash -c "jq -e '.reported == []' '$S/watch.json' >/dev/null && [ ! -e '$S/outbox' ]"

sbwatch >"$TMP/3.out" 2>"$TMP/3.err"
check "the broken tip is not tried again" \
	bash -c "grep -q 'nothing new' '$TMP/3.out' && ! grep -q building '$TMP/3.err'"
(cd "$T" && stat -c "%Y" .git/index && GIT_OPTIONAL_LOCKS=0 git status --porcelain) >"$TMP/after"
check "the tree is only read" cmp -s "$TMP/before" "$TMP/after"

"$SB" watch --tree="$T" --branch=other --baseline="$base" --state="$S" >/dev/null 2>"$TMP/4.err"
rc=$?
check "a state of another branch is refused" \
	bash -c "[ $rc -ne 0 ] && grep -q 'the state of $T branch main' '$TMP/4.err'"
flock -o "$S/lock" sleep 5 &
holder=$!
sleep 0.5
sbwatch >/dev/null 2>"$TMP/5.err"
check "a second watch on the same state is refused" grep -q "another watch is running" "$TMP/5.err"
kill $holder 2>/dev/null
wait $holder 2>/dev/null
cp "$S/watch.json" "$TMP/saved.json"
echo "{" >"$S/watch.json"
sbwatch >/dev/null 2>"$TMP/6.err"
check "a malformed state is refused, not replaced" \
	bash -c "grep -q 'not a watch.s state' '$TMP/6.err' && [ \"\$(cat '$S/watch.json')\" = '{' ]"
"$SB" watch --tree="$T" --branch=main >/dev/null 2>"$TMP/7.err"
check "--baseline is needed" grep -q -- "--baseline are needed" "$TMP/7.err"
