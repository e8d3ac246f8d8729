#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest kernel recipe: Debian linux-source tarball + vm/patches + vm/config
# fragments -> bzImage, built in a cache outside the repository. Users'
# variants (docs/user-kernels.md) add their own trees, patch series and
# configs, from a variants file outside the repository.
#
#   vm/kernel.sh build VARIANT [AGENT]
#                                build the kernel and slabbench.ko if needed,
#                                and with AGENT (the guest agent binary) the
#                                base initramfs; prints key=value lines
#   vm/kernel.sh hash VARIANT    the inputs hash of VARIANT
#   vm/kernel.sh list            every variant with its cache state
#   vm/kernel.sh names           every variant's name, built-in and the user's
#   vm/kernel.sh describe VARIANT
#                                its line of the variants files, as
#                                key=value lines (variant, where, tree,
#                                fragments, line)
#   vm/kernel.sh packages VARIANT
#                                the Debian packages its build reads
#   vm/kernel.sh config VARIANT DIR
#                                only the .config, written into DIR
#   vm/kernel.sh diff VARIANT [DIR]
#                                how DIR/.config (a distro variant's; by
#                                default its build's, else one configured
#                                for the purpose) differs from Debian's own
#                                config, line by line
#   vm/kernel.sh fetch TREE      fetch a tree's packages named in vm/sources
#   vm/kernel.sh debian-config VARIANT
#                                the path of Debian's config a distro
#                                variant starts from (fetched if need be)
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

# Kernel and module builds compile on the distcc hosts in
# SLABBENCH_DISTCC_HOSTS (distcc's own DISTCC_HOSTS syntax) when it is
# set, with ccache in front: ccache answers what it has, and hands the
# rest to distcc (CCACHE_PREFIX). Preprocessing and linking stay here,
# so the hosts need only the same gcc (docs/scale.md). A few files cannot
# compile anywhere but here: kernel/configs.c assembles the build's
# kernel/config_data.gz with .incbin, a path only this host has. distcc
# compiles those locally (its fallback) and keeps the host in its list
# (no backoff: that failure says nothing of the host).
if [ -n "${SLABBENCH_DISTCC_HOSTS:-}" ]; then
	command -v distcc >/dev/null ||
		{ echo "vm/kernel.sh: SLABBENCH_DISTCC_HOSTS is set but distcc is not installed" >&2; exit 1; }
	export DISTCC_HOSTS=$SLABBENCH_DISTCC_HOSTS
	export DISTCC_FALLBACK=${DISTCC_FALLBACK:-1}
	export DISTCC_BACKOFF_PERIOD=${DISTCC_BACKOFF_PERIOD:-0}
	export CCACHE_PREFIX=distcc
fi
# A kernel is compiled in its build directory, one per variant and hash:
# with debug info ccache would otherwise key every object on that
# directory, and a distro kernel's patch change would miss on every file.
# What that costs: an object from the cache may name another build
# directory as its DW_AT_comp_dir; the sources it names are the same.
export CCACHE_NOHASHDIR=1
# The compiler kernels and modules are built with.
kernel_cc() {
	if command -v ccache >/dev/null; then
		echo "ccache gcc"
	elif [ -n "${SLABBENCH_DISTCC_HOSTS:-}" ]; then
		echo "distcc gcc"
	else
		echo gcc
	fi
}
# make -j: the hosts' compile slots with distcc (distcc -j), else our CPUs.
if [ -n "${SLABBENCH_DISTCC_HOSTS:-}" ]; then
	JOBS=${SLABBENCH_JOBS:-$(distcc -j)}
else
	JOBS=${SLABBENCH_JOBS:-$(nproc)}
fi
# A kernel's bytes depend on its inputs alone, wherever and whenever it
# is built: the version string would otherwise carry the date, the user,
# the host and a count of links in that directory. Kernels cached before
# this differ from a rebuild in that string only (uname -v).
export KBUILD_BUILD_TIMESTAMP="1970-01-01 00:00:00 UTC"
export KBUILD_BUILD_USER=slabbench KBUILD_BUILD_HOST=slabbench KBUILD_BUILD_VERSION=1
# Part of every kernel's inputs hash: bump it when a change to this file
# or to vm/lib/ changes what a kernel build produces (editing the rest
# rebuilds nothing).
KERNEL_RECIPE=2

die() { echo "vm/kernel.sh: $*" >&2; exit 1; }

# Run from git (git bisect run, a hook), git's own variables would point
# every git command here at that repository instead of the one named.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
	GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_COMMON_DIR GIT_NAMESPACE GIT_PREFIX

# The modules Debian's packaged kernel loads in our guest (the debian
# variant, in the order it loads them), in lsmod's format: what a distro
# variant builds in while every other module of Debian's goes.
GUEST_LSMOD=$VM_DIR/config/guest.lsmod

# A variant's .config: made, checked, split, explained and named.
# shellcheck source=vm/lib/config.sh
. "$VM_DIR/lib/config.sh"
# A Debian tree's sources: installed or fetched, patched, and placed
# where its kernels compile.
# shellcheck source=vm/lib/source.sh
. "$VM_DIR/lib/source.sh"

# The user's variants, in the format of vm/variants (docs/user-kernels.md).
USER_VARIANTS=${SLABBENCH_VARIANTS:-${XDG_CONFIG_HOME:-$HOME/.config}/slabbench/variants}

# The one reader of the variants files: sets TREE, FRAGMENTS and WHERE
# (file:line) for variant $1, as written, nothing checked.
variant_find() {
	local name tree rest file n
	for file in "$VM_DIR/variants" "$USER_VARIANTS"; do
		[ -f "$file" ] || continue
		n=0
		while read -r name tree rest; do
			n=$((n + 1))
			case $name in ''|'#'*) continue ;; esac
			if [ "$name" = "$1" ]; then
				TREE=$tree
				WHERE=$file:$n
				read -r -a FRAGMENTS <<<"$rest"
				return 0
			fi
		done <"$file"
	done
	die "unknown variant '$1' (known: $(variant_names | tr '\n' ' '))"
}

# variant_find, then the source's parts: KIND (deb, git or debian), DEB
# (the linux-source version), SERIES (a user's patches on top), GITDIR
# and REV (empty: the working tree with its uncommitted changes),
# USER_CONFIG (a config file to start from instead of tinyconfig), DISTRO
# (the Debian flavour whose config USER_CONFIG is, from
# linux-config-VERSION) and FRAGS (fragment files).
variant_lookup() {
	variant_find "$1"
	variant_parse
}

# A variant's line as key=value lines, for the host program (a mail's
# reproducer carries the line): as written, so that a line whose series
# or tree has gone since its run is still described.
variant_describe() {
	variant_find "$1"
	echo "variant=$1"
	echo "where=$WHERE"
	echo "tree=$TREE"
	echo "fragments=${FRAGMENTS[*]}"
	echo "line=$1 $TREE${FRAGMENTS[*]:+ ${FRAGMENTS[*]}}"
}

# ~/x is the user's x; anything else must be absolute, so that a variant
# means the same from every directory.
user_path() {
	case $1 in
	\~/*) echo "$HOME/${1:2}" ;;
	/*) echo "$1" ;;
	*) die "$WHERE: '$1' is not an absolute path" ;;
	esac
}

variant_parse() {
	local f
	KIND='' DEB='' SERIES='' GITDIR='' REV='' USER_CONFIG='' DISTRO=
	FRAGS=()
	[ -n "$TREE" ] || die "$WHERE: no tree"
	case $TREE in
	debian) KIND=debian ;;
	[0-9]*.[0-9]*+*) KIND=deb DEB=${TREE%%+*} SERIES=$(user_path "${TREE#*+}")
		[ -e "$SERIES" ] || die "$WHERE: patch series '$SERIES' does not exist" ;;
	[0-9]*.[0-9]*) KIND=deb DEB=$TREE ;;
	*/*) KIND=git GITDIR=$(user_path "${TREE%@*}")
		case $TREE in *@*) REV=${TREE##*@} ;; esac
		git -C "$GITDIR" rev-parse --git-dir >/dev/null 2>&1 ||
			die "$WHERE: '$GITDIR' is not a git tree" ;;
	*) die "$WHERE: tree '$TREE' is none of debian, VERSION, VERSION+SERIES, DIR, DIR@REV" ;;
	esac
	for f in "${FRAGMENTS[@]}"; do
		case $f in
		debian:*) if [ -n "$USER_CONFIG" ] || [ "${#FRAGS[@]}" -gt 0 ]; then
				die "$WHERE: Debian's config '$f' must come first"
			fi
			[ "$KIND" = deb ] || die "$WHERE: Debian's config needs a Debian source tree"
			DISTRO=${f#debian:}
			USER_CONFIG=/usr/src/linux-config-$DEB/config.amd64_none_$DISTRO.xz
			# A fetched tree's config comes with its source.
			[ -z "$(fetched_suite "$DEB")" ] ||
				USER_CONFIG=$(fetched_root "$DEB")$USER_CONFIG
			[ -f "$USER_CONFIG" ] || [ -n "$(fetched_suite "$DEB")" ] ||
				die "$USER_CONFIG is missing: install it with 'apt-get install linux-config-$DEB' (flavours: amd64, cloud-amd64)" ;;
		*/*) [ -z "$USER_CONFIG" ] || die "$WHERE: more than one config file"
			[ "${#FRAGS[@]}" -eq 0 ] || die "$WHERE: the config file '$f' must come before the fragments"
			USER_CONFIG=$(user_path "$f")
			[ -f "$USER_CONFIG" ] || die "$WHERE: config file '$USER_CONFIG' does not exist" ;;
		*) [ -f "$VM_DIR/config/$f.config" ] ||
			die "$WHERE: no fragment '$f' (vm/config/$f.config)"
			FRAGS+=("$VM_DIR/config/$f.config") ;;
		esac
	done
	[ "$KIND" = debian ] || [ -n "$USER_CONFIG" ] || [ "${#FRAGS[@]}" -gt 0 ] ||
		die "$WHERE: no config: name fragments, or a config file and an alloc-* fragment"
}

variant_names() {
	local file
	for file in "$VM_DIR/variants" "$USER_VARIANTS"; do
		[ -f "$file" ] && awk '!/^#/ && NF { print $1 }' "$file"
	done
	return 0
}

# What scripts/install-deps.sh must install for a variant to build
# (tests/e2e/deps.sh holds the list to it); a user's git tree needs none.
variant_packages() {
	variant_lookup "$1"
	case $KIND in
	deb) echo "linux-source-$DEB"
		[ -z "$DISTRO" ] || echo "linux-config-$DEB" ;;
	debian) echo linux-headers-amd64 ;;
	esac
}

# A user's variant may not take a built-in name: results would not say
# which of the two they came from.
# A name becomes a directory of the cache and a results file's name: one
# safe alphabet, checked where the name enters.
check_user_variants() {
	local dup bad name
	[ -f "$USER_VARIANTS" ] || return 0
	bad=$(awk '!/^#/ && NF && $1 !~ /^[A-Za-z0-9][A-Za-z0-9._+-]*$/ { print NR ": " $1; exit }' "$USER_VARIANTS")
	[ -z "$bad" ] ||
		die "$USER_VARIANTS:${bad%%:*}: variant name '${bad#*: }' is not letters, digits and . _ + - (starting with a letter or digit)"
	dup=$(variant_names | sort | uniq -d | head -n 1)
	[ -z "$dup" ] || die "$USER_VARIANTS: variant '$dup' is defined twice (or takes a built-in name)"
	# Every line whole, not only the one a run names: a name with a blank
	# in it splits into more fields, whose second would pass for the tree.
	while read -r name; do
		variant_lookup "$name"
	done < <(awk '!/^#/ && NF { print $1 }' "$USER_VARIANTS")
}

# The commit of a git variant, and its uncommitted changes when it names
# no revision. GIT_OPTIONAL_LOCKS=0: reading the user's tree must not
# refresh its index.
git_commit() {
	GIT_OPTIONAL_LOCKS=0 git -C "$GITDIR" rev-parse --verify -q "${REV:-HEAD}^{commit}" ||
		die "$WHERE: $GITDIR has no revision '${REV:-HEAD}'"
}

git_dirty_diff() {
	[ -n "$REV" ] || GIT_OPTIONAL_LOCKS=0 git -C "$GITDIR" diff --no-ext-diff --no-color \
		--no-textconv --binary HEAD
}

# Hash of everything that goes into a variant's kernel.
variant_hash() {
	local commit
	variant_lookup "$1"
	# Here, not in the pipeline: a die there ends only its subshell, and
	# the hash of what came before would pass for the variant's.
	[ "$KIND" != deb ] || source_tarball "$DEB" >/dev/null
	[ "$KIND" != git ] || commit=$(git_commit)
	{
		echo "variant $1"
		case $KIND in
		debian) debian_abi ;;
		deb) source_hash "$DEB" ;;
		git) echo "git $commit"; git_dirty_diff ;;
		esac
		[ -z "$USER_CONFIG" ] || { echo "config file"; cat "$USER_CONFIG"; }
		[ -z "$DISTRO" ] || { echo "guest modules"; cat "$GUEST_LSMOD"; }
		for f in "${FRAGS[@]}"; do cat "$f"; done
		echo "recipe $KERNEL_RECIPE"
		gcc --version | head -n 1
		# Kconfig reads these from the host too (PAHOLE_VERSION, 6.12's
		# RUSTC_VERSION): a kernel configured before one was installed is
		# not the one configured after.
		pahole --version 2>/dev/null || echo "no pahole"
		rustc --version 2>/dev/null || echo "no rustc"
	} | sha256sum | cut -c1-12
}

# The ABI of Debian's packaged kernel, e.g. 6.1.0-57-amd64: that of the
# headers installed (linux-headers-amd64's dependency), while apt can still
# download its image; else apt's candidate, whose headers fetch_debian
# installs. apt's candidate alone would move on when Debian publishes a
# new ABI and fail on a machine whose packages are a week old.
debian_abi() {
	local abi
	abi=$(dpkg-query -W -f='${Status}|${Depends}\n' linux-headers-amd64 2>/dev/null |
		sed -n 's/^install ok installed|.*linux-headers-\([^ ,]*\).*$/\1/p' | head -n 1)
	if [ -n "$abi" ] && [ -d "/usr/src/linux-headers-$abi" ] &&
		apt-cache show "linux-image-$abi" >/dev/null 2>&1; then
		echo "$abi"
		return
	fi
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

# A git variant's tree, checked out at its commit (with its uncommitted
# changes) in a clone of the user's tree that shares its objects: the
# user's checkout, index and refs are only read. One clone per user tree,
# kept, so that the next revision changes only the files that differ and
# make rebuilds only what depends on them. Prints the clone's path.
git_checkout() {
	local commit=$1 src=$2
	if [ ! -d "$src/.git" ]; then
		rm -rf "$src"
		progress_note "cloning $GITDIR (sharing its objects) into $src"
		GIT_OPTIONAL_LOCKS=0 git clone -q --shared --no-checkout "$GITDIR" "$src" ||
			die "cannot clone $GITDIR"
	fi
	git -C "$src" -c advice.detachedHead=false checkout -q -f --detach "$commit" ||
		die "$WHERE: cannot check out $commit"
	git -C "$src" clean -q -f -d -x
	if [ -z "$REV" ]; then
		git_dirty_diff | git -C "$src" apply --allow-empty ||
			die "$WHERE: the uncommitted changes of $GITDIR do not apply to $commit"
	fi
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

# slabbench.ko for the kernel in $1, in a directory named after the hash
# of the module's sources; sets KMOD.
kmod_hash() {
	cat "$REPO_DIR"/kmod/Kbuild "$REPO_DIR"/kmod/*.[ch] "$REPO_DIR/include/uapi/linux/slabbench.h" |
		sha256sum | cut -c1-12
}

build_module() {
	local out=$1 dir cc kdir uapi=include/uapi/linux/slabbench.h
	kdir=$(cat "$out/slabbench.kdir" 2>/dev/null || echo "$out")
	dir=$out/kmod-$(kmod_hash)
	KMOD=$dir/slabbench.ko
	[ -f "$dir/.complete" ] && return 0
	rm -rf "$dir"
	mkdir -p "$dir/$(dirname "$uapi")"
	cp "$REPO_DIR"/kmod/Kbuild "$REPO_DIR"/kmod/*.[ch] "$dir/"
	# Where kmod/Kbuild's -I looks first for <linux/slabbench.h>.
	cp "$REPO_DIR/$uapi" "$dir/$uapi"
	cc=$(kernel_cc)
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

# Debian's packaged kernel: the image package is downloaded and unpacked
# into the cache (never installed on this machine); the module is built
# against the matching linux-headers package: those installed, or the
# candidate's, installed here with scripts/install-deps.sh's one line (or
# named, when this user cannot install). Its config is Debian's, so it is
# a reference point, not a fair comparison.
fetch_debian() {
	local out=$1 abi deb debs mod
	abi=$(debian_abi)
	[ -d "/usr/src/linux-headers-$abi" ] ||
		"$REPO_DIR/scripts/install-deps.sh" --packages "linux-headers-$abi" || exit 1
	[ -d "/usr/src/linux-headers-$abi" ] || die "linux-headers-$abi installed no /usr/src/linux-headers-$abi"
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
	sed 1d "$GUEST_LSMOD" | while read -r mod; do
		find "$out/image/lib/modules/$abi/kernel/drivers" -name "$mod.ko" |
			head -n 1 >>"$out/slabbench.preload"
	done
}

# What slabbench cannot measure on this tree, one line each.
tree_lacks() {
	local src=$1
	grep -qs 'slab_census' "$src/mm/slab_common.c" ||
		echo "no slab census (slabbench's mm patch): memory by location is absent"
	grep -qs 'define SLAB_NO_MERGE' "$src/include/linux/slab.h" ||
		echo "no SLAB_NO_MERGE (6.5+, or slabbench's 6.1 patch): private caches are kept apart by their usersize"
	return 0
}

# A git variant: the kernel and the module built in one kept build
# directory per user tree and config (incremental), then copied out: the
# next revision moves that directory on.
build_git() {
	local variant=$1 hash=$2 out=$3 commit base src build start fhash cc
	commit=$(git_commit)
	base=$CACHE/git/$(realpath "$GITDIR" | sha256sum | cut -c1-12)
	fhash=$({ cat "${FRAGS[@]}" /dev/null; cat "${USER_CONFIG:-/dev/null}"; } | sha256sum | cut -c1-12)
	src=$base/src build=$base/build-$fhash
	mkdir -p "$build"
	exec 7>"$base.lock"
	flock 7
	git_checkout "$commit" "$src"
	progress_note "building the $variant kernel ($GITDIR at ${commit:0:12}, $hash)"
	configure_kernel "$src" "$build"
	cc=$(kernel_cc)
	start=$SECONDS
	# Paths relative to $base: every tree's objects are the same to ccache
	# (another clone, the same commits: no compiling).
	CCACHE_BASEDIR=$base run_make "building the $variant kernel" "$build/build.log" \
		make -C "$src" O="$build" ARCH=x86_64 CC="$cc" -j"$JOBS" bzImage modules_prepare
	echo $((SECONDS - start)) >"$out/slabbench.build_seconds"
	echo "$build" >"$out/slabbench.kdir"
	build_module "$out"
	cp "$build/arch/x86/boot/bzImage" "$out/bzImage"
	echo "$out/bzImage" >"$out/slabbench.bzimage"
	cp "$build/include/config/kernel.release" "$out/slabbench.release"
	cp "$build/.config" "$out/.config"
	echo "$commit" >"$out/slabbench.commit"
	tree_lacks "$src" >"$out/slabbench.lacks"
	split_config "$out/.config" "$out"
	echo "$GITDIR@${commit:0:12}$([ -n "$REV" ] || echo +uncommitted)" >"$out/slabbench.tree"
	echo "$src" >"$out/slabbench.source"
	# The kernel directory no longer stands for this build: a later
	# module is built after a new checkout.
	rm -f "$out/slabbench.kdir"
	exec 7>&-
}

build_variant() {
	local variant=$1 hash out src abi
	check_user_variants
	hash=$(variant_hash "$variant")
	variant_lookup "$variant"
	out=$CACHE/kernels/$variant-$hash
	mkdir -p "$out"
	exec 9>"$out/.lock"
	flock 9
	if [ ! -f "$out/.complete" ] && [ "$KIND" = debian ]; then
		fetch_debian "$out"
		split_config "$out/.config" "$out"
		abi=$(cat "$out/slabbench.release")
		tree_lacks "/usr/src/linux-headers-${abi%-*}-common" >"$out/slabbench.lacks"
		echo "$TREE" >"$out/slabbench.tree"
		touch "$out/.complete"
	elif [ "$KIND" = git ] && [ ! -f "$out/kmod-$(kmod_hash)/.complete" ]; then
		build_git "$variant" "$hash" "$out"
		touch "$out/.complete"
	elif [ ! -f "$out/.complete" ]; then
		src=$(prepare_source "$DEB")
		use_build_tree "$DEB" "$src"
		if [ ! -f "$out/.complete" ]; then
			progress_note "building the $variant kernel (linux-source-$TREE, $hash)"
			configure_kernel "$BUILD_SRC" "$out"
			local cc
			cc=$(kernel_cc)
			local start=$SECONDS
			run_make "building the $variant kernel" "$out/build.log" \
				make -C "$BUILD_SRC" O="$out" ARCH=x86_64 CC="$cc" -j"$JOBS" bzImage modules_prepare
			echo $((SECONDS - start)) >"$out/slabbench.build_seconds"
			split_config "$out/.config" "$out"
			tree_lacks "$src" >"$out/slabbench.lacks"
			echo "$TREE" >"$out/slabbench.tree"
			echo "$src" >"$out/slabbench.source"
			touch "$out/.complete"
		fi
	fi
	# Two runs of one variant at once (a test and a user) must not build
	# its module or initramfs over each other. A module compiles against
	# the tree its kernel was built from (the build directory's Makefile
	# names the shared path).
	if [ "$KIND" = deb ] && [ ! -f "$out/kmod-$(kmod_hash)/.complete" ]; then
		use_build_tree "$DEB" "$(cat "$out/slabbench.source")"
	fi
	build_module "$out"
	exec 6>&-
	[ -z "${2:-}" ] || build_initramfs "$out" "$2"
	exec 9>&-
	echo "variant=$variant"
	echo "hash=$hash"
	# A build is keyed by what builds it, so it can serve a variant whose
	# series or tree sits elsewhere than the one it was built for: the
	# results name this variant's.
	if [ "$KIND" = git ]; then
		local built
		built=$(cat "$out/slabbench.tree")
		echo "tree=$GITDIR@${built#*@}"
	else
		echo "tree=$TREE"
	fi
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
	echo "config_base=$(config_base "$out")"
	echo "config_family=$(config_family)"
	lacks "$out" | sed 's/^/lacks=/'
}

# Kernels built before slabbench.lacks existed are asked their source.
lacks() {
	local out=$1 src
	if [ -f "$out/slabbench.lacks" ]; then
		cat "$out/slabbench.lacks"
	else
		src=$(cat "$out/slabbench.source")
		tree_lacks "$src"
	fi
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

# How a distro variant's .config differs from Debian's: its build's, or
# one configured for the purpose when it is not built.
diff_variant() {
	local hash dir tmp=
	hash=$(variant_hash "$1")
	variant_lookup "$1"
	[ -n "$DISTRO" ] || die "$WHERE: $1 is not built from Debian's config (only distro variants are)"
	dir=$CACHE/kernels/$1-$hash
	if [ ! -f "$dir/.complete" ]; then
		tmp=$(mktemp -d)
		dir=$tmp
		progress_note "configuring $1 (not built) to compare its .config with Debian's"
		use_build_tree "$DEB" "$(prepare_source "$DEB")"
		configure_kernel "$BUILD_SRC" "$dir"
		exec 6>&-
	fi
	config_diff "$dir" || { [ -z "$tmp" ] || rm -rf "$tmp"; die "$1: unexplained lines above"; }
	[ -z "$tmp" ] || rm -rf "$tmp"
}

list_variants() {
	local v hash state err
	check_user_variants
	err=$(mktemp)
	printf '%-17s %-6s %-12s %s\n' VARIANT TREE HASH STATE
	for v in $(variant_names); do
		variant_lookup "$v"
		if [ "$KIND" = deb ] && ! source_present "$DEB"; then
			hash=-
			state="linux-source-$DEB not installed"
			[ -z "$(fetched_suite "$DEB")" ] ||
				state="linux-source-$DEB not fetched yet ($(fetched_suite "$DEB"); the first build fetches it)"
		elif hash=$(variant_hash "$v" 2>"$err"); then
			state="not built"
			[ -f "$CACHE/kernels/$v-$hash/.complete" ] && state="built ($CACHE/kernels/$v-$hash)"
		else
			hash=-
			state=$(sed 's/^vm\/kernel.sh: //' "$err")
		fi
		printf '%-17s %-6s %-12s %s\n' "$v" "$TREE" "$hash" "$state"
	done
	rm -f "$err"
}

clean() {
	if [ $# -eq 0 ]; then
		rm -rf "$CACHE/kernels" "$CACHE/src" "$CACHE/git" "$CACHE/build-src" "$CACHE/debian" "$CACHE/apt"
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
names) check_user_variants; variant_names ;;
describe) [ $# -eq 2 ] || die "usage: kernel.sh describe VARIANT"; variant_describe "$2" ;;
packages) [ $# -eq 2 ] || die "usage: kernel.sh packages VARIANT"; variant_packages "$2" ;;
debian-abi) [ $# -eq 1 ] || die "usage: kernel.sh debian-abi"; debian_abi ;;
config) [ $# -eq 3 ] || die "usage: kernel.sh config VARIANT DIR"
	variant_lookup "$2"
	[ "$KIND" = deb ] || die "$WHERE: config is for variants of a Debian source tree"
	mkdir -p "$3"
	use_build_tree "$DEB" "$(prepare_source "$DEB")"
	configure_kernel "$BUILD_SRC" "$3"
	split_config "$3/.config" "$3" ;;
diff) (($# >= 2 && $# <= 3)) || die "usage: kernel.sh diff VARIANT [DIR]"
	if [ $# -eq 3 ]; then
		variant_lookup "$2"
		config_diff "$3"
	else
		diff_variant "$2"
	fi ;;
fetch) [ $# -eq 2 ] || die "usage: kernel.sh fetch TREE"; fetch_tree "$2" ;;
debian-config) [ $# -eq 2 ] || die "usage: kernel.sh debian-config VARIANT"
	variant_lookup "$2"
	[ -n "$DISTRO" ] || die "$WHERE: $2 is not built from Debian's config"
	source_tarball "$DEB" >/dev/null
	echo "$USER_CONFIG" ;;
clean) shift; clean "$@" ;;
*) die "usage: kernel.sh build VARIANT [AGENT] | hash VARIANT | list | names | describe VARIANT | packages VARIANT | debian-abi | config VARIANT DIR | diff VARIANT [DIR] | fetch TREE | debian-config VARIANT | clean [VARIANT]" ;;
esac
