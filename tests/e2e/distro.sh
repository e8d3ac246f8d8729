#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernels: none
# shellcheck shell=bash
# The distro variants' recipe, cheaply: their .config is generated (not
# built: make test-slow and users build them) and held to Debian's own
# config. Every line that differs must be one the recipe explains
# (vm/kernel.sh diff), the slab-relevant options must be Debian's, and the
# SLAB and SLUB variants of one tree may differ only in the allocator.
. tests/e2e/lib.sh

export SLABBENCH_VARIANTS=$TMP/no-user-variants
distros=$(vm/kernel.sh names | grep -- '-distro$')
nohard=$(vm/kernel.sh names | grep -- '-distro-nohard$')
plan $((4 + 5 * $(echo "$distros" | wc -w) + $(echo "$nohard" | wc -w)))
check "vm/variants has the distro variants" test "$(echo "$distros" | wc -w)" -ge 3

# The options issue 22 names: what changes an alloc+free's cost or what
# the caches hold. Each must be as Debian sets it.
slab_options="MEMCG MEMCG_KMEM SLAB_FREELIST_RANDOM SLAB_FREELIST_HARDENED
	INIT_ON_ALLOC_DEFAULT_ON INIT_ON_FREE_DEFAULT_ON SHUFFLE_PAGE_ALLOCATOR
	HARDENED_USERCOPY PREEMPT_VOLUNTARY PREEMPT_DYNAMIC PREEMPT_NONE HZ
	NR_CPUS NUMA RANDOMIZE_BASE KFENCE CGROUPS"

value() {
	sed -nE "s/^CONFIG_$2=(.*)/\\1/p; s/^# CONFIG_$2 is not set/n/p" "$1"
}

for v in $distros; do
	dir=$TMP/$v
	check "$v: the config is generated" \
		vm/kernel.sh config "$v" "$dir" 2>"$TMP/$v.err"
	[ -f "$dir/.config" ] || { sed 's/^/# /' "$TMP/$v.err"; continue; }
	vm/kernel.sh diff "$v" "$dir" >"$TMP/$v.diff"
	rc=$?
	check "$v: every line that differs from Debian's config is explained" test "$rc" -eq 0
	grep '^unexplained' "$TMP/$v.diff" | head -n 5 | sed 's/^/# /'
	xzcat "$(vm/kernel.sh debian-config "$v")" >"$TMP/$v.debian"
	bad=
	for o in $slab_options; do
		[ "$(value "$dir/.config" "$o")" = "$(value "$TMP/$v.debian" "$o")" ] || bad="$bad $o"
	done
	check "$v: the slab-relevant options are Debian's${bad:+ (not:$bad)}" test -z "$bad"
	check "$v: drivers are reduced (no module Debian builds is left a module)" \
		test "$(grep -c '=m$' "$dir/.config")" -le 1
	check "$v: what the harness needs is built in" \
		bash -c "grep -qx CONFIG_VIRTIO_CONSOLE=y '$dir/.config' &&
			grep -qx CONFIG_IKCONFIG_PROC=y '$dir/.config'"
done

check "slab-distro and slub-distro differ only in the allocator lines" \
	cmp -s "$TMP/slab-distro/slabbench.common.config" "$TMP/slub-distro/slabbench.common.config"

# The cost model's hardening known answer holds only if the hardening is
# all that was taken out.
for v in $nohard; do
	twin=${v%-nohard}
	vm/kernel.sh config "$v" "$TMP/$v" >/dev/null 2>"$TMP/$v.err" ||
		sed 's/^/# /' "$TMP/$v.err"
	check "$v differs from $twin in CONFIG_SLAB_FREELIST_HARDENED alone" \
		test "$(diff "$TMP/$twin/.config" "$TMP/$v/.config" | grep '^[<>]')" = \
		"$(printf '< CONFIG_SLAB_FREELIST_HARDENED=y\n> # CONFIG_SLAB_FREELIST_HARDENED is not set')"
done

# The check can fail: a config with memory cgroups off (a line the recipe
# does not make) is refused, and the line is named.
if [ -f "$TMP/slub-distro/.config" ]; then
	mkdir -p "$TMP/broken"
	sed 's/^CONFIG_MEMCG=y$/# CONFIG_MEMCG is not set/' "$TMP/slub-distro/.config" >"$TMP/broken/.config"
	vm/kernel.sh diff slub-distro "$TMP/broken" >"$TMP/broken.diff"
	rc=$?
	check "a config that turns MEMCG off is refused" test "$rc" -ne 0
	check "... naming CONFIG_MEMCG as unexplained" grep -q '^unexplained CONFIG_MEMCG ' "$TMP/broken.diff"
fi
