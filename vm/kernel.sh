#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest kernel recipe: Debian linux-source tarball + vm/patches + vm/config
# fragments -> bzImage, built in a cache outside the repository.
#
#   vm/kernel.sh build VARIANT [AGENT]
#                                build the kernel and slabbench.ko if needed,
#                                and with AGENT (the guest agent binary) the
#                                base initramfs; prints key=value lines
#   vm/kernel.sh hash VARIANT    the inputs hash of VARIANT
#   vm/kernel.sh list            every variant with its cache state
#   vm/kernel.sh clean [VARIANT] remove cached builds
#
# A build directory is named after the hash of everything that goes into it
# (source package version, patches, fragments, this recipe, compiler), so an
# unchanged variant is never rebuilt and a changed one never reuses stale
# objects. Only a directory holding the .complete stamp counts as built.

set -euo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(dirname "$VM_DIR")
CACHE=${SLABBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/slabbench}
JOBS=${SLABBENCH_JOBS:-$(nproc)}
# Part of every kernel's inputs hash: bump it when a change to this file
# changes what a kernel build produces (editing the rest rebuilds nothing).
KERNEL_RECIPE=1

die() { echo "vm/kernel.sh: $*" >&2; exit 1; }

# Sets TREE and FRAGMENTS for variant $1 from vm/variants.
variant_lookup() {
	local name tree rest
	while read -r name tree rest; do
		case $name in ''|'#'*) continue ;; esac
		if [ "$name" = "$1" ]; then
			TREE=$tree
			read -r -a FRAGMENTS <<<"$rest"
			return 0
		fi
	done <"$VM_DIR/variants"
	die "unknown variant '$1' (known: $(variant_names | tr '\n' ' '))"
}

variant_names() {
	awk '!/^#/ && NF { print $1 }' "$VM_DIR/variants"
}

# Debian's linux-source-VERSION puts its tarball in /usr/src; the tests
# point SLABBENCH_SRC_DIR elsewhere to see a missing package refused.
source_tarball() {
	local tb=${SLABBENCH_SRC_DIR:-/usr/src}/linux-source-$1.tar.xz
	[ -f "$tb" ] || die "$tb is missing: install it with 'apt-get install linux-source-$1'"
	echo "$tb"
}

# Hash of what determines the patched source tree.
source_hash() {
	local tb p
	tb=$(source_tarball "$1")
	{
		echo "tree $1"
		dpkg-query -W -f='${Version}\n' "linux-source-$1" 2>/dev/null || stat -c '%s %Y' "$tb"
		# Only the diffs build the kernel: a reworded commit message
		# rebuilds nothing.
		for p in "$VM_DIR"/patches/"$1"/*.patch; do
			[ -e "$p" ] && sed -n '/^diff /,$p' "$p"
		done
	} | sha256sum | cut -c1-12
}

# Hash of everything that goes into a variant's kernel.
variant_hash() {
	variant_lookup "$1"
	# Here, not in the pipeline: a die there ends only its subshell, and
	# the hash of what came before would pass for the variant's.
	[ "$TREE" = debian ] || source_tarball "$TREE" >/dev/null
	{
		echo "variant $1"
		if [ "$TREE" = debian ]; then
			debian_abi
		else
			source_hash "$TREE"
			for f in "${FRAGMENTS[@]}"; do cat "$VM_DIR/config/$f.config"; done
		fi
		echo "recipe $KERNEL_RECIPE"
		gcc --version | head -n 1
	} | sha256sum | cut -c1-12
}

# The ABI of Debian's current packaged kernel, e.g. 6.1.0-57-amd64.
debian_abi() {
	local abi
	abi=$(apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\(.*\)$/\1/p' | head -n 1)
	[ -n "$abi" ] || die "no linux-image-amd64 in the package lists: run 'apt-get update'"
	echo "$abi"
}

# gen_init_cpio from the kernel source package: it writes device nodes and
# root-owned files into an archive without root or fakeroot.
gen_init_cpio_tool() {
	local tool=$CACHE/tools/gen_init_cpio tb
	if [ ! -x "$tool" ]; then
		tb=$(source_tarball 6.1)
		mkdir -p "$CACHE/tools"
		tar -xJOf "$tb" linux-source-6.1/usr/gen_init_cpio.c >"$tool.c"
		gcc -O2 -o "$tool.tmp" "$tool.c" || die "cannot build gen_init_cpio"
		mv "$tool.tmp" "$tool"
	fi
	echo "$tool"
}

# Extracts and patches the tree once per source hash; prints its path.
prepare_source() {
	local tree=$1 hash src tb tmp p
	hash=$(source_hash "$tree")
	src=$CACHE/src/linux-$tree-$hash
	mkdir -p "$CACHE/src"
	# Concurrent runs share one tree: the second waits for the first.
	exec 8>"$src.lock"
	flock 8
	if [ ! -f "$src/.complete" ]; then
		tb=$(source_tarball "$tree")
		tmp=$src.tmp.$$
		rm -rf "$tmp"
		mkdir -p "$tmp"
		progress_note "extracting $tb"
		tar -xJf "$tb" -C "$tmp" --strip-components=1
		for p in "$VM_DIR"/patches/"$tree"/*.patch; do
			[ -e "$p" ] || continue
			patch -d "$tmp" -p1 -s -N --no-backup-if-mismatch <"$p" >/dev/null ||
				die "patch $(basename "$p") does not apply to linux-source-$tree"
		done
		touch "$tmp/.complete"
		rm -rf "$src"
		mv "$tmp" "$src"
	fi
	exec 8>&-
	echo "$src"
}

progress_note() {
	[ -n "${SLABBENCH_QUIET:-}" ] || echo "slabbench: $*" >&2
}

# Runs make with its output in a log; on a terminal (and outside CI) a
# status line counts compiled files, elsewhere the log stays silent.
run_make() {
	local what=$1 log=$2 pid start n
	shift 2
	start=$SECONDS
	if [ -t 2 ] && [ -z "${CI:-}" ]; then
		"$@" >"$log" 2>&1 &
		pid=$!
		while kill -0 "$pid" 2>/dev/null; do
			n=$(grep -c '^  CC' "$log" 2>/dev/null || true)
			printf '\r\033[Kslabbench: %s: %s files compiled, %ds' "$what" "$n" $((SECONDS - start)) >&2
			sleep 1
		done
		printf '\r\033[K' >&2
		wait "$pid" || { tail -n 30 "$log" >&2; die "$what failed (log: $log)"; }
	else
		"$@" >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "$what failed (log: $log)"; }
	fi
	progress_note "$what: done in $((SECONDS - start))s"
}

# Lines of .config that are the allocator's: its own options and what its
# Kconfig selects (SLUB: HAVE_ALIGNED_STRUCT_PAGE; SLUB_DEBUG: STACKDEPOT).
# The rest must agree between the variants of one tree.
ALLOC_RE='^(# )?CONFIG_(SLAB|SLAB_DEPRECATED|SLUB|SLOB|SLUB_DEBUG|SLUB_DEBUG_ON|SLUB_STATS|SLUB_CPU_PARTIAL|SLAB_MERGE_DEFAULT|SLAB_FREELIST_RANDOM|SLAB_FREELIST_HARDENED|SLUB_TINY|DEBUG_SLAB|HAVE_HARDENED_USERCOPY_ALLOCATOR|HAVE_ALIGNED_STRUCT_PAGE|STACKDEPOT)[= ]'

# slabbench.ko for the kernel in $1, in a directory named after the hash
# of the module's sources; sets KMOD.
build_module() {
	local out=$1 khash dir cc=gcc kdir uapi=include/uapi/linux/slabbench.h
	kdir=$(cat "$out/slabbench.kdir" 2>/dev/null || echo "$out")
	khash=$(cat "$REPO_DIR"/kmod/Kbuild "$REPO_DIR"/kmod/*.[ch] "$REPO_DIR/$uapi" |
		sha256sum | cut -c1-12)
	dir=$out/kmod-$khash
	KMOD=$dir/slabbench.ko
	[ -f "$dir/.complete" ] && return 0
	rm -rf "$dir"
	mkdir -p "$dir/$(dirname "$uapi")"
	cp "$REPO_DIR"/kmod/Kbuild "$REPO_DIR"/kmod/*.[ch] "$dir/"
	# Where kmod/Kbuild's -I looks first for <linux/slabbench.h>.
	cp "$REPO_DIR/$uapi" "$dir/$uapi"
	command -v ccache >/dev/null && cc="ccache gcc"
	# 6.12's bzImage target no longer writes the kernel's Module.symvers;
	# its modpost pass (no modules to build here) does.
	[ -f "$kdir/Module.symvers" ] ||
		run_make "writing Module.symvers for $(basename "$out")" "$dir/symvers.log" \
			make -C "$kdir" ARCH=x86_64 CC="$cc" -j"$JOBS" modules
	# W=1 and -Werror: the module must build warning-free on every tree.
	run_make "building slabbench.ko for $(basename "$out")" "$dir/build.log" \
		make -C "$kdir" M="$dir" ARCH=x86_64 CC="$cc" W=1 KCFLAGS=-Werror modules
	touch "$dir/.complete"
}

# The base initramfs: the agent as /init, busybox-static, the module.
# Per-run inputs are a second archive that the runner appends.
build_initramfs() {
	local out=$1 agent=$2 ihash list dir applet
	[ -x "$agent" ] || die "guest agent '$agent' is not an executable"
	[ -x /bin/busybox ] || die "/bin/busybox is missing: install it with 'apt-get install busybox-static'"
	! ldd /bin/busybox >/dev/null 2>&1 ||
		die "/bin/busybox is not static: install busybox-static"
	ihash=$({ cat "$agent" "$KMOD" /bin/busybox; cat "$out/slabbench.preload" 2>/dev/null
		declare -f build_initramfs; } | sha256sum | cut -c1-12)
	INITRAMFS=$out/initramfs-$ihash.cpio
	[ -f "$INITRAMFS" ] && return 0
	list=$out/initramfs-$ihash.list
	{
		for dir in /dev /proc /sys /tmp /bin /sbin /usr /usr/bin /usr/sbin \
			/lib /lib/modules /slabbench /root; do
			echo "dir $dir 0755 0 0"
		done
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "file /init $agent 0755 0 0"
		echo "file /bin/busybox /bin/busybox 0755 0 0"
		echo "file /lib/modules/slabbench.ko $KMOD 0644 0 0"
		# Drivers the kernel has as modules (Debian's virtio), loaded
		# by the agent in this order before anything else.
		if [ -f "$out/slabbench.preload" ]; then
			echo "dir /lib/modules/pre 0755 0 0"
			local i=10 ko
			while read -r ko; do
				echo "file /lib/modules/pre/$i-$(basename "$ko") $ko 0644 0 0"
				i=$((i + 1))
			done <"$out/slabbench.preload"
		fi
		for applet in $(/bin/busybox --list-full); do
			[ "/$applet" = /bin/busybox ] || echo "slink /$applet /bin/busybox 0777 0 0"
		done
	} >"$list"
	"$(gen_init_cpio_tool)" "$list" >"$INITRAMFS.tmp" || die "gen_init_cpio failed on $list"
	mv "$INITRAMFS.tmp" "$INITRAMFS"
}

# Splits a .config into the allocator lines and all the others. Among the
# others only what is set counts: "# X is not set" and X hidden by the
# allocator (SLOB hides KASAN, KFENCE, HARDENED_USERCOPY) are both off.
split_config() {
	local config=$1 out=$2
	grep -E "$ALLOC_RE" "$config" | sort >"$out/slabbench.alloc.config"
	grep -vE "$ALLOC_RE" "$config" | grep '^CONFIG_' | sort >"$out/slabbench.common.config"
}

# Debian's packaged kernel: the image package is downloaded and unpacked
# into the cache (never installed on this machine); the module is built
# against the matching linux-headers package, which scripts/install-deps.sh
# installs. Its config is Debian's, so it is a reference point, not a
# fair comparison.
fetch_debian() {
	local out=$1 abi deb debs mod
	abi=$(debian_abi)
	[ -d "/usr/src/linux-headers-$abi" ] ||
		die "/usr/src/linux-headers-$abi is missing: install it with 'apt-get install linux-headers-$abi'"
	progress_note "fetching Debian's linux-image-$abi"
	mkdir -p "$out/deb"
	(cd "$out/deb" && apt-get download -qq "linux-image-$abi" >/dev/null 2>&1) ||
		die "cannot download linux-image-$abi (apt-get download; run 'apt-get update'?)"
	debs=("$out"/deb/linux-image-*.deb)
	deb=${debs[0]}
	dpkg-deb -x "$deb" "$out/image" || die "cannot unpack $deb"
	rm -rf "$out/deb"
	echo "$out/image/boot/vmlinuz-$abi" >"$out/slabbench.bzimage"
	echo "$abi" >"$out/slabbench.release"
	echo "/usr/src/linux-headers-$abi" >"$out/slabbench.kdir"
	echo "-" >"$out/slabbench.source"
	cp "$out/image/boot/config-$abi" "$out/.config"
	: >"$out/slabbench.preload"
	# In dependency order: the image package has no modules.dep.
	for mod in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev \
		virtio_pci virtio_console; do
		find "$out/image/lib/modules/$abi/kernel/drivers" -name "$mod.ko" |
			head -n 1 >>"$out/slabbench.preload"
	done
}

build_variant() {
	local variant=$1 hash out src f want
	hash=$(variant_hash "$variant")
	variant_lookup "$variant"
	out=$CACHE/kernels/$variant-$hash
	if [ ! -f "$out/.complete" ] && [ "$TREE" = debian ]; then
		mkdir -p "$out"
		exec 9>"$out/.lock"
		flock 9
		if [ ! -f "$out/.complete" ]; then
			fetch_debian "$out"
			split_config "$out/.config" "$out"
			echo "$TREE" >"$out/slabbench.tree"
			touch "$out/.complete"
		fi
		exec 9>&-
	elif [ ! -f "$out/.complete" ]; then
		src=$(prepare_source "$TREE")
		mkdir -p "$out"
		exec 9>"$out/.lock"
		flock 9
		if [ ! -f "$out/.complete" ]; then
			progress_note "building the $variant kernel (linux-source-$TREE, $hash)"
			make -s -C "$src" O="$out" ARCH=x86_64 tinyconfig >"$out/config.log" 2>&1 ||
				die "tinyconfig failed (log: $out/config.log)"
			local frags=()
			for f in "${FRAGMENTS[@]}"; do frags+=("$VM_DIR/config/$f.config"); done
			(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "${frags[@]}") \
				>>"$out/config.log" 2>&1 || die "merge_config failed (log: $out/config.log)"
			make -s -C "$src" O="$out" ARCH=x86_64 olddefconfig >>"$out/config.log" 2>&1 ||
				die "olddefconfig failed (log: $out/config.log)"
			# A fragment line that Kconfig dropped means the variant is not
			# what its name says; refuse to build it.
			for f in "${frags[@]}"; do
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
			local cc=gcc
			command -v ccache >/dev/null && cc="ccache gcc"
			local start=$SECONDS
			run_make "building the $variant kernel" "$out/build.log" \
				make -C "$src" O="$out" ARCH=x86_64 CC="$cc" -j"$JOBS" bzImage modules_prepare
			echo $((SECONDS - start)) >"$out/slabbench.build_seconds"
			split_config "$out/.config" "$out"
			echo "$TREE" >"$out/slabbench.tree"
			echo "$src" >"$out/slabbench.source"
			touch "$out/.complete"
		fi
		exec 9>&-
	fi
	# Two runs of one variant at once (a test and a user) must not build
	# its module or initramfs over each other.
	exec 9>"$out/.lock"
	flock 9
	build_module "$out"
	[ -z "${2:-}" ] || build_initramfs "$out" "$2"
	exec 9>&-
	echo "variant=$variant"
	echo "hash=$hash"
	echo "tree=$(cat "$out/slabbench.tree")"
	echo "dir=$out"
	echo "source=$(cat "$out/slabbench.source")"
	echo "bzimage=$(cat "$out/slabbench.bzimage" 2>/dev/null || echo "$out/arch/x86/boot/bzImage")"
	echo "release=$(cat "$out/slabbench.release" 2>/dev/null || cat "$out/include/config/kernel.release")"
	echo "module=$KMOD"
	[ -z "${2:-}" ] || echo "initramfs=$INITRAMFS"
	echo "gen_init_cpio=$(gen_init_cpio_tool)"
	echo "alloc_config=$out/slabbench.alloc.config"
	echo "common_config=$out/slabbench.common.config"
	echo "common_sha256=$(sha256sum <"$out/slabbench.common.config" | cut -d' ' -f1)"
	echo "build_seconds=$(cat "$out/slabbench.build_seconds" 2>/dev/null || echo -1)"
	echo "cmdline=$(default_cmdline)"
}

# Kernel parameters a variant always boots with: those of its fragments'
# NAME.cmdline files. Read at boot, not built in: they are not hashed.
default_cmdline() {
	local f line words=()

	for f in "${FRAGMENTS[@]}"; do
		[ -f "$VM_DIR/config/$f.cmdline" ] || continue
		read -ra line <<<"$(sed 's/#.*//' "$VM_DIR/config/$f.cmdline" | tr '\n' ' ')"
		words+=("${line[@]}")
	done
	echo "${words[*]}"
}

list_variants() {
	local v hash state
	printf '%-10s %-6s %-12s %s\n' VARIANT TREE HASH STATE
	for v in $(variant_names); do
		variant_lookup "$v"
		if hash=$(variant_hash "$v" 2>/dev/null); then
			state="not built"
			[ -f "$CACHE/kernels/$v-$hash/.complete" ] && state="built ($CACHE/kernels/$v-$hash)"
		else
			hash=-
			state="linux-source-$TREE not installed"
		fi
		printf '%-10s %-6s %-12s %s\n' "$v" "$TREE" "$hash" "$state"
	done
}

clean() {
	if [ $# -eq 0 ]; then
		rm -rf "$CACHE/kernels" "$CACHE/src"
	else
		variant_lookup "$1"
		rm -rf "$CACHE/kernels/$1-"*
	fi
}

case ${1:-} in
build) (($# >= 2 && $# <= 3)) || die "usage: kernel.sh build VARIANT [AGENT]"
	build_variant "$2" "${3:-}" ;;
hash) [ $# -eq 2 ] || die "usage: kernel.sh hash VARIANT"; variant_hash "$2" ;;
list) list_variants ;;
clean) shift; clean "$@" ;;
*) die "usage: kernel.sh build VARIANT [AGENT] | hash VARIANT | list | clean [VARIANT]" ;;
esac
