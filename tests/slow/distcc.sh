# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Kernel builds on distcc (SLABBENCH_DISTCC_HOSTS, with ccache in front):
# a distccd on 127.0.0.1 started here compiles the slub kernel, and what
# is built is byte for byte the local build of the same inputs. Both
# builds are cold, in one scratch cache path (the source's path is one
# of the inputs), each with an empty ccache of its own, so that the
# second really compiles on distccd. distcc comes from make test-slow
# (scripts/install-deps.sh slow); about two cold builds.
. tests/e2e/lib.sh

plan 9

check "distcc is installed (scripts/install-deps.sh slow)" bash -c "command -v distccd >/dev/null"

V=slub
export SLABBENCH_CACHE=$TMP/cache
build() {
	vm/kernel.sh build "$V" >"$TMP/$1.out" 2>"$TMP/$1.err"
}
dir_of() {
	sed -n 's/^dir=//p' "$TMP/$1.out"
}

# The local build.
CCACHE_DIR=$TMP/ccache-local build local
check "the local build of $V completes" test -f "$(dir_of local)/vmlinux"
mv "$(dir_of local)/vmlinux" "$TMP/vmlinux.local"
mv "$(dir_of local)/arch/x86/boot/bzImage" "$TMP/bzImage.local"
rm -rf "$TMP/cache/kernels"

# distccd runs as its own user: its log and pid files sit where it can write.
D=$(mktemp -d)
stop_distccd() {
	[ -s "$D/distccd.pid" ] && kill "$(cat "$D/distccd.pid")" 2>/dev/null
	for _ in $(seq 50); do
		pgrep -F "$D/distccd.pid" >/dev/null 2>&1 || break
		sleep 0.1
	done
}
trap 'stop_distccd; rm -rf "$TMP" "$D"' EXIT
chmod 755 "$D"
chown distccd "$D"
port=$((20000 + RANDOM % 20000))
distccd --daemon --allow 127.0.0.1 --listen 127.0.0.1 --port "$port" --jobs 2 \
	--log-file "$D/distccd.log" --log-level info --pid-file "$D/distccd.pid"
for _ in $(seq 50); do
	[ -s "$D/distccd.pid" ] && break
	sleep 0.1
done
check "distccd is up on 127.0.0.1:$port" test -s "$D/distccd.pid"

CCACHE_DIR=$TMP/ccache-distcc SLABBENCH_DISTCC_HOSTS="127.0.0.1:$port/2" build distcc
remote=$(grep -c 'COMPILE_OK' "$D/distccd.log" || true)
echo "# $remote compiles on distccd; the distcc build took $(cat "$(dir_of distcc)/slabbench.build_seconds" 2>/dev/null) s"
check "the distcc build of $V completes" test -f "$(dir_of distcc)/vmlinux"
if [ ! -f "$(dir_of distcc)/vmlinux" ]; then
	tail -n 20 "$TMP/distcc.err" | sed 's/^/# /'
	grep -v COMPILE_OK "$D/distccd.log" | tail -n 10 | sed 's/^/# distccd: /'
fi
check "distccd compiled the kernel's files (more than 300: $remote)" test "$remote" -gt 300
check "vmlinux of the distcc build is the local build's, byte for byte" \
	cmp -s "$TMP/vmlinux.local" "$(dir_of distcc)/vmlinux"
check "so is bzImage" cmp -s "$TMP/bzImage.local" "$(dir_of distcc)/arch/x86/boot/bzImage"
check "the kernel says no build date, host or user" \
	grep -qa 'slabbench@slabbench' "$TMP/vmlinux.local"

stop_distccd
check "distccd and its workers are stopped" \
	bash -c "! pgrep -F '$D/distccd.pid' >/dev/null 2>&1 && ! pgrep -f '[d]istccd .*--port $port' >/dev/null"
