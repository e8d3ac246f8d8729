# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub slub-6.12 slub-stats debian
# shellcheck shell=bash
# The guest kernels: the three 6.1 allocators differ only in the allocator
# lines, the backports behave as upstream, every variant boots and keeps
# its benchmark caches unmerged. SLOB is configured here, not built:
# tests/slow/slob.sh boots it.
. tests/e2e/lib.sh

plan 33

AGENT=$PWD/build/slabbench-agent
declare -A sha
for v in slab slub slub-6.12 slub-stats; do
	vm/kernel.sh build "$v" "$AGENT" >"$TMP/$v.kv" 2>"$TMP/$v.build.err"
	check "$v kernel builds" test $? -eq 0
	sha[$v]=$(sed -n 's/^common_sha256=//p' "$TMP/$v.kv")
done
vm/kernel.sh config slob "$TMP/slob" >/dev/null 2>"$TMP/slob.config.err"
check "slob configures" test $? -eq 0
sha[slob]=$(sha256sum <"$TMP/slob/slabbench.common.config" | cut -d' ' -f1)
printf 'common_config=%s\n' "$TMP/slob/slabbench.common.config" >"$TMP/slob.kv"
kv() { sed -n "s/^$2=//p" "$TMP/$1.kv"; }

# Fairness: everything but the allocator lines is the same .config.
check "slab and slub differ only in allocator lines" test "${sha[slab]}" = "${sha[slub]}"
check "slab and slob differ only in allocator lines" test "${sha[slab]}" = "${sha[slob]}"
if [ "${sha[slab]}" != "${sha[slub]}" ] || [ "${sha[slab]}" != "${sha[slob]}" ]; then
	diff "$(kv slab common_config)" "$(kv slub common_config)" | head -20
	diff "$(kv slab common_config)" "$(kv slob common_config)" | head -20
fi
check "the allocator lines do differ" bash -c "! cmp -s '$(kv slab alloc_config)' '$(kv slub alloc_config)'"

# The CONFIG_SLAB_DEPRECATED backport: an old CONFIG_SLAB=y config ends on
# SLUB under olddefconfig and gets the new prompt under oldconfig.
src=$(kv slab source)
o=$TMP/olddefconfig
make -s -C "$src" O="$o" ARCH=x86_64 tinyconfig >/dev/null 2>&1
sed -i '/^CONFIG_SLOB=y/d; /CONFIG_SLUB[ =]/d; /CONFIG_SLAB[ =]/d' "$o/.config"
echo "CONFIG_SLAB=y" >>"$o/.config"
cp "$o/.config" "$o/old.config"
make -s -C "$src" O="$o" ARCH=x86_64 olddefconfig >/dev/null 2>&1
check "olddefconfig moves CONFIG_SLAB=y to SLUB" grep -qx 'CONFIG_SLUB=y' "$o/.config"
check "olddefconfig leaves no SLAB" bash -c "! grep -q '^CONFIG_SLAB=y' '$o/.config'"
cp "$o/old.config" "$o/.config"
yes '' | make -C "$src" O="$o" ARCH=x86_64 oldconfig >"$TMP/oldconfig.out" 2>&1
check "oldconfig asks for the allocator again" grep -q '^Choose SLAB allocator' "$TMP/oldconfig.out"
check "oldconfig offers SLAB (DEPRECATED)" grep -q 'SLAB (DEPRECATED) (SLAB_DEPRECATED)' "$TMP/oldconfig.out"

# SLAB_NO_MERGE, booted: identical mergeable caches alias, ours never do.
for v in slab slub slub-6.12; do
	merge_runs $v
done
for v in slab slub slub-6.12; do
	check "$v: identical mergeable caches are aliased" \
		jqt "$TMP/merge-$v.json" '[.tests[].extra.mergeable_aliased[0]] | all'
done
check "slub-6.12 guest runs SLUB on 6.12" \
	jqt "$TMP/merge-slub-6.12.json" '.guest.info.allocator == "SLUB" and (.guest.info.release | startswith("6.12"))'
check "slub-6.12 is not SLUB_TINY" \
	jqt "$TMP/merge-slub-6.12.json" '.guest.allocator_config | index("# CONFIG_SLUB_TINY is not set") != null'

"$SB" run --boots=1 --alloc=slub-stats --workload="$TMP/merge.json" -o "$TMP/stats.json" >/dev/null
check "slub-stats boots with CONFIG_SLUB_STATS=y" \
	jqt "$TMP/stats.json" '.status == "complete" and (.guest.allocator_config | index("CONFIG_SLUB_STATS=y") != null)'

"$SB" kernel list >"$TMP/list.out"
check "kernel list shows built variants with their hash" \
	grep -qE "^slub +6\.1 +[0-9a-f]{12} +built" "$TMP/list.out"
check "kernel list names the on-demand debug variants" grep -q "^slub-debug" "$TMP/list.out"

# Debian's packaged kernel, as a reference point.
"$SB" run --boots=1 --alloc=debian --workload="$TMP/merge.json" -o "$TMP/debian.json" >/dev/null
check "debian: Debian's kernel boots with the module" \
	jqt "$TMP/debian.json" '.status == "complete" and .guest.info.allocator == "SLUB"'
check "debian: the release is Debian's ABI" \
	jqt "$TMP/debian.json" ".guest.info.release == \"$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: linux-image-//p' | head -n 1)\""
check "debian: its caches stay distinct (usersize method, no SLAB_NO_MERGE)" \
	jqt "$TMP/debian.json" '[.tests[].extra.no_merge_distinct[0]] | all'
check "debian: its config differs from the slabbench kernels" \
	bash -c "test \"\$(jq -r .kernel.common_config_sha256 '$TMP/debian.json')\" != '${sha[slub]}'"
