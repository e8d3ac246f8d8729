# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A variant's .config, sourced by vm/kernel.sh: made from tinyconfig, a
# user's config or Debian's (a distro variant) with the vm/config
# fragments, every fragment line checked; split into the allocator's
# lines and the rest; a distro config's differences from Debian's
# explained; and named for results and reports. Uses kernel.sh's die,
# variant_lookup's variables and GUEST_LSMOD.
# FRAGS is one of those variables, not a misspelling of a local:
# shellcheck disable=SC2153

# Lines of .config that are the allocator's: its own options and what its
# Kconfig selects (SLUB: HAVE_ALIGNED_STRUCT_PAGE; SLUB_DEBUG: STACKDEPOT).
# The rest must agree between the variants of one tree.
ALLOC_RE='^(# )?CONFIG_(SLAB|SLAB_DEPRECATED|SLUB|SLOB|SLUB_DEBUG|SLUB_DEBUG_ON|SLUB_STATS|SLUB_CPU_PARTIAL|SLAB_MERGE_DEFAULT|SLAB_FREELIST_RANDOM|SLAB_FREELIST_HARDENED|SLUB_TINY|DEBUG_SLAB|HAVE_HARDENED_USERCOPY_ALLOCATOR|HAVE_ALIGNED_STRUCT_PAGE|STACKDEPOT)[= ]'

# Splits a .config into the allocator lines and all the others. Among the
# others only what is set counts: "# X is not set" and X hidden by the
# allocator (SLOB hides KASAN, KFENCE, HARDENED_USERCOPY) are both off.
split_config() {
	local config=$1 out=$2
	grep -E "$ALLOC_RE" "$config" | sort >"$out/slabbench.alloc.config"
	grep -vE "$ALLOC_RE" "$config" | grep '^CONFIG_' | sort >"$out/slabbench.common.config"
}

# What the harness needs of a kernel built from a user's config (base
# fragment sets them all): the console and the results port, the
# initramfs, debugfs, the module and its probes, /proc/config.gz.
HARNESS_NEEDS="PRINTK TTY SERIAL_8250_CONSOLE BLK_DEV_INITRD DEVTMPFS PROC_FS SYSFS DEBUG_FS
	MODULES MODULE_UNLOAD KALLSYMS KPROBES PCI PCI_MSI VIRTIO_PCI VIRTIO_CONSOLE IKCONFIG_PROC"

# Refuses an allocator that the tree does not have, by name, before
# Kconfig drops the fragment's line; a tree before 6.5 calls SLAB
# CONFIG_SLAB, which the fragment's line is translated to.
# Sets FRAG_FILES.
check_allocator() {
	local src=$1 f kconfig=$1/mm/Kconfig out=$2
	FRAG_FILES=()
	for f in "${FRAGS[@]}"; do
		if grep -qx 'CONFIG_SLAB_DEPRECATED=y' "$f"; then
			if ! grep -q '^config SLAB_DEPRECATED$' "$kconfig"; then
				grep -q '^config SLAB$' "$kconfig" ||
					die "$WHERE: this tree has no SLAB (removed in 6.8): $(basename "$f" .config) does not apply"
				sed 's/^CONFIG_SLAB_DEPRECATED=y$/CONFIG_SLAB=y/' "$f" >"$out/slabbench.$(basename "$f")"
				f=$out/slabbench.$(basename "$f")
			fi
		fi
		if grep -qx 'CONFIG_SLOB=y' "$f" && ! grep -q '^config SLOB$' "$kconfig"; then
			die "$WHERE: this tree has no SLOB (removed in 6.4): $(basename "$f" .config) does not apply"
		fi
		FRAG_FILES+=("$f")
	done
}

# .config in $2 for the source in $1: tinyconfig or the user's config,
# the fragments merged over it, and every fragment line checked.
configure_kernel() {
	local src=$1 out=$2 f want missing=
	check_allocator "$src" "$out"
	if [ -n "$DISTRO" ]; then
		xzcat "$USER_CONFIG" >"$out/.config"
		# Every module Debian builds becomes not built, bar those its
		# packaged kernel loads in this guest, which become built in; a
		# symbol new to Debian's config (our patches') takes its default.
		make -s -C "$src" O="$out" ARCH=x86_64 LSMOD="$GUEST_LSMOD" localyesconfig \
			</dev/null >"$out/config.log" 2>&1 || die "localyesconfig failed (log: $out/config.log)"
	elif [ -n "$USER_CONFIG" ]; then
		cp "$USER_CONFIG" "$out/.config"
	else
		make -s -C "$src" O="$out" ARCH=x86_64 tinyconfig >"$out/config.log" 2>&1 ||
			die "tinyconfig failed (log: $out/config.log)"
	fi
	if [ "${#FRAG_FILES[@]}" -gt 0 ]; then
		(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "${FRAG_FILES[@]}") \
			>>"$out/config.log" 2>&1 || die "merge_config failed (log: $out/config.log)"
	fi
	make -s -C "$src" O="$out" ARCH=x86_64 olddefconfig >>"$out/config.log" 2>&1 ||
		die "olddefconfig failed (log: $out/config.log)"
	# A fragment line that Kconfig dropped means the variant is not
	# what its name says; refuse to build it.
	for f in "${FRAG_FILES[@]}"; do
		while IFS= read -r want; do
			case $want in
			CONFIG_*=*) grep -qxF "$want" "$out/.config" ||
				die "${f##*/}: '$want' did not survive olddefconfig" ;;
			'# CONFIG_'*' is not set')
				grep -q "^${want#\# }" "$out/.config" 2>/dev/null &&
					die "${f##*/}: '$want' did not survive olddefconfig"
				want=${want#\# }; want=${want% is not set}
				grep -q "^$want=" "$out/.config" &&
					die "${f##*/}: '# $want is not set' did not survive olddefconfig" ;;
			esac
		done <"$f"
	done
	if [ -n "$USER_CONFIG" ]; then
		for f in $HARNESS_NEEDS; do
			grep -qx "CONFIG_$f=y" "$out/.config" || missing="$missing CONFIG_$f"
		done
		[ -z "$missing" ] ||
			die "$WHERE: the guest needs these built in (=y), which $USER_CONFIG lacks:$missing (or add the base fragment after it)"
	fi
}

# A distro variant's .config against Debian's own, one line per symbol
# that differs: CLASS SYMBOL debian=VALUE ours=VALUE ("n": not set or
# absent). Every class but "unexplained" is a difference the recipe makes
# on purpose or one that follows from it:
#   allocator    the allocator's lines, as between the small variants
#   guest        a line of the variant's fragments: what the harness needs
#   module-in    was a module, now built in: the guest's (guest.lsmod) and
#                what Kconfig builds in with them
#   module-off   a module the guest never loads, not built
#   follows      absent from our .config: its dependencies are off (an
#                option of a module not built, or a symbol only such
#                modules select); no line of ours chose it
#   toolchain    what Kconfig reads from the build host's compiler
#   default      Kconfig's default, for a symbol Debian's file leaves out
#                (its packaging sets signing keys and salts elsewhere)
# Fails when any line is unexplained.
config_diff() {
	local out=$1 f frag_syms
	[ -n "$DISTRO" ] || die "$WHERE: not built from Debian's config"
	frag_syms=$(for f in "${FRAGS[@]}"; do
		sed -nE 's/^(# )?(CONFIG_[A-Za-z0-9_]+)[= ].*/\2/p' "$f"; done | sort -u)
	join -t= -a1 -a2 -e n -o 0,1.2,2.2 \
		<(xzcat "$USER_CONFIG" | config_values) <(config_values <"$out/.config") |
		awk -F= -v frag="$frag_syms" -v alloc="$ALLOC_RE" -v cfg="$out/.config" -v deb="$USER_CONFIG" '
		BEGIN { n = split(frag, f, "\n"); for (i = 1; i <= n; i++) isfrag[f[i]] = 1
			while ((getline line < cfg) > 0)
				if (match(line, /CONFIG_[A-Za-z0-9_]+/))
					present[substr(line, RSTART, RLENGTH)] = 1
			while ((("xzcat " deb) | getline line) > 0)
				if (match(line, /CONFIG_[A-Za-z0-9_]+/))
					indeb[substr(line, RSTART, RLENGTH)] = 1 }
		$2 == $3 { next }
		{ c = "unexplained"
		  if (("CONFIG_" substr($1, 8) "=") ~ alloc) c = "allocator"
		  else if ($1 in isfrag) c = "guest"
		  else if ($2 == "m" && $3 == "y") c = "module-in"
		  else if ($2 == "m" && $3 == "n") c = "module-off"
		  else if ($1 ~ /^CONFIG_(CC|GCC|AS|LD|PAHOLE|RUSTC|CLANG)_/) c = "toolchain"
		  else if (!($1 in indeb)) c = "default"
		  else if (!($1 in present)) c = "follows"
		  printf "%-11s %s debian=%s ours=%s\n", c, $1, $2, $3
		  if (c == "unexplained") bad = 1 }
		END { exit bad }'
}

# NAME=VALUE for every symbol a .config on stdin mentions, "is not set" as
# n, sorted for join.
config_values() {
	sed -nE '/^CONFIG_/p; s/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1=n/p' |
		sed 's/=""$/=n/' | sort -t= -k1,1
}

# Where the config came from, as results and reports name it.
config_base() {
	local from frags=() f commit ver
	for f in "${FRAGMENTS[@]}"; do case $f in */*) ;; *) frags+=("$f") ;; esac; done
	case $KIND in
	debian) echo "Debian's packaged kernel config"; return ;;
	deb) from="linux-source-$DEB${SERIES:+ + the series $SERIES}" ;;
	git) commit=$(cat "$1/slabbench.commit")
		from="git $GITDIR at ${commit:0:12}"
		# A revision by name is worth naming; a commit id is said already.
		case $commit in "$REV"*) ;; *) from="$from${REV:+ ($REV)}" ;; esac
		[ -n "$REV" ] || from="$from + uncommitted changes" ;;
	esac
	if [ -n "$DISTRO" ]; then
		# A fetched tree's config is the one fetched with its source (one
		# source package, one version), else the installed package's.
		if [ -n "$(fetched_suite "$DEB")" ]; then
			ver=$(cat "$(fetched_root "$DEB")/version")
		else
			ver=$(dpkg-query -W -f='${Version}' "linux-config-$DEB" 2>/dev/null)
		fi
		echo "Debian's $DISTRO config (linux-config-$DEB $ver), modules reduced to the guest's, + vm/config fragments ${frags[*]} ($from)"
	elif [ -n "$USER_CONFIG" ]; then
		echo "$USER_CONFIG${frags[*]:+ + vm/config fragments ${frags[*]}} ($from)"
	else
		echo "make tinyconfig + vm/config fragments ($from)"
	fi
}

# Which kind of config a result's kernel has, as reports name it: small
# (tinyconfig and our fragments), distro (Debian's config, modules
# reduced), debian (Debian's packaged kernel) or user (a user's config).
config_family() {
	if [ "$KIND" = debian ]; then echo debian
	elif [ -n "$DISTRO" ]; then echo distro
	elif [ -n "$USER_CONFIG" ]; then echo user
	else echo small
	fi
}
