# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A Debian tree's sources, sourced by vm/kernel.sh: the linux-source
# tarball, installed or fetched from a suite apt does not list
# (vm/sources); the tree patched once per hash of our patches and the
# user's series; and the one path where every kernel of the tree
# compiles. Uses kernel.sh's die, progress_note, CACHE, VM_DIR and
# variant_lookup's variables.
# SERIES and WHERE are variant_lookup's, not misspelt locals:
# shellcheck disable=SC2153

# Debian's linux-source-VERSION puts its tarball in /usr/src; a tree in
# vm/sources is fetched into the cache instead. The tests point
# SLABBENCH_SRC_DIR elsewhere to see a missing package refused.
source_tarball() {
	local tb=${SLABBENCH_SRC_DIR:-/usr/src}/linux-source-$1.tar.xz
	if [ ! -f "$tb" ] && [ -z "${SLABBENCH_SRC_DIR:-}" ] && [ -n "$(fetched_suite "$1")" ]; then
		fetch_tree "$1"
		tb=$(fetched_root "$1")/usr/src/linux-source-$1.tar.xz
	fi
	[ -f "$tb" ] || die "$tb is missing: install it with 'apt-get install linux-source-$1'"
	echo "$tb"
}

# Whether a tree's source is here without fetching or installing it.
source_present() {
	[ -f "${SLABBENCH_SRC_DIR:-/usr/src}/linux-source-$1.tar.xz" ] ||
		[ -f "$(fetched_root "$1")/.complete" ]
}

# The suite vm/sources fetches a tree from; nothing for an installed one.
fetched_suite() {
	awk -v t="$1" '!/^#/ && $1 == t { print $2 }' "$VM_DIR/sources"
}

fetched_root() {
	echo "$CACHE/debian/linux-$1"
}

# apt-get with a sources list, package lists and archive cache of its
# own in $1: what it fetches is checked against the suite's signed
# Release file as for any package, and /etc/apt and apt's lists and
# caches stay as they were.
apt_private() {
	local dir=$1
	shift
	apt-get -q -o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=/dev/null \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
		-o APT::Get::List-Cleanup=0 "$@"
}

# A tree's packages from vm/sources, fetched once from the mirror that
# apt's sources use for this release (SLABBENCH_DEBIAN_MIRROR overrides)
# and unpacked under the cache. Later builds use that copy without the
# network; its package version is part of every build key, and
# `vm/kernel.sh clean` lets the next build fetch the suite's current one.
# Exit 2 when it cannot be had: the other variants do not need it.
fetch_tree() {
	local tree=$1 suite root dir mirror codename deb pkgs=()
	suite=$(fetched_suite "$tree")
	root=$(fetched_root "$tree")
	[ -n "$suite" ] || die "linux-source-$tree is not one that vm/sources fetches"
	[ -f "$root/.complete" ] && return 0
	mkdir -p "$CACHE/debian"
	exec 5>"$root.lock"
	flock 5
	if [ ! -f "$root/.complete" ]; then
		read -r -a pkgs <<<"$(awk -v t="$tree" '!/^#/ && $1 == t { $1 = $2 = ""; print }' "$VM_DIR/sources")"
		codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
		# apt's own format variables, not the shell's:
		# shellcheck disable=SC2016
		mirror=${SLABBENCH_DEBIAN_MIRROR:-$(apt-get indextargets --format '$(BASE_URI) $(RELEASE)' 2>/dev/null |
			awk -v c="$codename" '$2 == c { sub("/dists/.*", "", $1); print $1; exit }')}
		[ -n "$mirror" ] || fetch_fails "apt's sources name no Debian mirror for '$codename'"
		dir=$CACHE/apt/$suite
		rm -rf "$dir/debs"
		mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/debs"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
			>"$dir/sources.list"
		progress_note "fetching ${pkgs[*]} from $mirror $suite into $root (apt's own sources untouched)"
		rm -rf "$dir/lists"
		mkdir -p "$dir/lists/partial"
		# apt-get update warns and exits 0 when a suite cannot be had.
		if ! apt_private "$dir" update >"$dir/apt.log" 2>&1 ||
			! compgen -G "$dir/lists/*_Packages*" >/dev/null; then
			fetch_fails "no signed package index from $mirror (log: $dir/apt.log)"
		fi
		(cd "$dir/debs" && apt_private "$dir" download "${pkgs[@]}") >>"$dir/apt.log" 2>&1 ||
			fetch_fails "not in the suite at $mirror (log: $dir/apt.log)"
		rm -rf "$root.tmp"
		mkdir -p "$root.tmp"
		for deb in "$dir"/debs/*.deb; do
			dpkg-deb -x "$deb" "$root.tmp" || fetch_fails "cannot unpack $deb"
		done
		dpkg-deb -f "$dir/debs/linux-source-${tree}_"*.deb Version >"$root.tmp/version"
		touch "$root.tmp/.complete"
		rm -rf "$root" "$dir/debs"
		mv "$root.tmp" "$root"
	fi
	exec 5>&-
}

fetch_fails() {
	echo "vm/kernel.sh: $(awk -v t="$tree" '!/^#/ && $1 == t { $1 = ""; print }' "$VM_DIR/sources" |
		sed 's/^ *\([^ ]*\) *\(.*\)/\2 (Debian suite \1)/'): cannot be fetched: $*" >&2
	exit 2
}

# The user's series as files in order: a directory's *.patch and *.diff
# (git format-patch), or an mbox split into its messages into $1.
series_files() {
	local into=$1
	if [ -d "$SERIES" ]; then
		find "$SERIES" -maxdepth 1 \( -name '*.patch' -o -name '*.diff' \) | sort
	else
		mkdir -p "$into"
		git mailsplit -o"$into" "$SERIES" >/dev/null || die "$SERIES: not an mbox"
		find "$into" -type f | sort
	fi
}

# The package's version (installed, else fetched), else the tarball's
# size and time.
source_version() {
	dpkg-query -W -f='${Version}\n' "linux-source-$1" 2>/dev/null ||
		cat "$(fetched_root "$1")/version" 2>/dev/null ||
		stat -c '%s %Y' "$(source_tarball "$1")"
}

# Hash of what determines the patched source tree.
source_hash() {
	local tb p tmp
	tb=$(source_tarball "$1")
	{
		echo "tree $1"
		source_version "$1"
		# Only the diffs build the kernel: a reworded commit message
		# rebuilds nothing. A diff starts at git's "diff" line, or at the
		# "--- " of a plain diff -u, which has none.
		for p in "$VM_DIR"/patches/"$1"/*.patch; do
			[ -e "$p" ] && sed -n '/^\(diff \|--- \)/,$p' "$p"
		done
		if [ -n "$SERIES" ]; then
			echo "series"
			tmp=$(mktemp -d)
			for p in $(series_files "$tmp"); do sed -n '/^\(diff \|--- \)/,$p' "$p"; done
			rm -rf "$tmp"
		fi
	} | sha256sum | cut -c1-12
}

# Extracts and patches the tree once per source hash (ours, then the
# user's series); prints its path. The tarball is unpacked once per
# package version; each hash's tree is hard links to that copy, and
# patch and git apply write a patched file anew, leaving it untouched.
prepare_source() {
	local tree=$1 hash src tb tmp p pristine
	hash=$(source_hash "$tree")
	src=$CACHE/src/linux-$tree-$hash
	mkdir -p "$CACHE/src"
	# Concurrent runs share one tree: the second waits for the first.
	exec 8>"$src.lock"
	flock 8
	if [ ! -f "$src/.complete" ]; then
		tb=$(source_tarball "$tree")
		pristine=$CACHE/src/linux-$tree-$(source_version "$tree" | sha256sum | cut -c1-12).orig
		if [ ! -f "$pristine/.complete" ]; then
			rm -rf "$pristine.tmp.$$"
			mkdir -p "$pristine.tmp.$$"
			progress_note "extracting $tb"
			tar -xJf "$tb" -C "$pristine.tmp.$$" --strip-components=1
			touch "$pristine.tmp.$$/.complete"
			rm -rf "$pristine"
			mv "$pristine.tmp.$$" "$pristine"
		fi
		tmp=$src.tmp.$$
		rm -rf "$tmp"
		cp -al "$pristine" "$tmp"
		rm "$tmp/.complete"
		for p in "$VM_DIR"/patches/"$tree"/*.patch; do
			[ -e "$p" ] || continue
			patch -d "$tmp" -p1 -s -N --no-backup-if-mismatch <"$p" >/dev/null ||
				die "patch $(basename "$p") does not apply to linux-source-$tree"
		done
		if [ -n "$SERIES" ]; then
			for p in $(series_files "$tmp.series"); do
				git -C "$tmp" apply "$p" 2>/dev/null ||
					die "$WHERE: $(series_name "$p") does not apply to linux-source-$tree with slabbench's patches"
			done
			rm -rf "$tmp.series"
		fi
		touch "$tmp/.complete"
		rm -rf "$src"
		mv "$tmp" "$src"
	fi
	exec 8>&-
	echo "$src"
}

# Every kernel of one Debian tree compiles from one path: ccache keys on
# the paths a compiler is given, so a tree per patch hash made a one-line
# change to any patch a cold build. $CACHE/build-src/linux-TREE holds one
# hash's sources at a time (rsync moves the files that differ); a build
# holds it shared for as long as it reads it, and a switch to another
# hash waits for those. Sets BUILD_SRC; the lock is fd 6 until exit.
use_build_tree() {
	local tree=$1 want stamp
	want=$(basename "$2")
	BUILD_SRC=$CACHE/build-src/linux-$tree
	stamp=$BUILD_SRC/.slabbench-source
	mkdir -p "$CACHE/build-src"
	exec 6>"$BUILD_SRC.lock"
	while :; do
		flock -s 6
		[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && return 0
		flock -u 6
		flock -x 6
		if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
			progress_note "moving $BUILD_SRC to $want"
			rm -f "$stamp"
			mkdir -p "$BUILD_SRC"
			rsync -a --delete --exclude=/.slabbench-source "$2/" "$BUILD_SRC/" ||
				die "cannot copy $2 to $BUILD_SRC"
			echo "$want" >"$stamp"
		fi
		flock -u 6
	done
}

# A patch of a series by its subject, else its file name.
series_name() {
	local subject
	subject=$(sed -n 's/^Subject: *//p' "$1" | head -n 1)
	echo "patch '${subject:-$(basename "$1")}'"
}

