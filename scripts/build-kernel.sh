#!/usr/bin/env bash
# Build the guest kernel: Debian's linux-source-6.12 + linux/series, configured
# from allnoconfig + linux/guest.config + linux/checkexec.config.
#   build-kernel.sh          output in build/kernel/: bzImage, headers/ (UAPI),
#                            config, release, version, guest-root/ (selftests,
#                            set-exec and the IPE test key, for the image)
#   build-kernel.sh --without-fast-path
#                            the series without the AT_EXECVE_CHECK fast path
#                            (0007-0009, 0027), for make bench: build/kernel-without-fast-path/
#   build-kernel.sh --debug  the series with KASAN, lockdep and kmemleak
#                            (linux/debug/debug.config on top), for
#                            scripts/kernel-debug.sh: build/kernel-debug/
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/kernel-tree.sh
source "$TOP/scripts/kernel-tree.sh"
hold_build_lock

case ${1:-} in
"") variant="" ;;
--without-fast-path) variant=-without-fast-path ;;
--debug) variant=-debug ;;
*) die "usage: build-kernel.sh [--without-fast-path | --debug]" ;;
esac
# The fragments merged on top of allnoconfig: the guest's, and for the
# debug variant the debugging options.
FRAGMENTS=("${GUEST_FRAGMENTS[@]}")
[ "$variant" != -debug ] || FRAGMENTS+=("$TOP/linux/debug/debug.config")
# The AT_EXECVE_CHECK fast path: what --without-fast-path leaves out (0027
# changes what 0009 added, so it goes with it).
FAST_PATH_PATCHES=(
	0007-exec-Skip-the-new-mm-for-AT_EXECVE_CHECK.patch
	0008-exec-Release-the-creds-and-file-of-AT_EXECVE_CHECK-a.patch
	0009-exec-Build-the-dev-fd-N-name-without-kasprintf.patch
	0027-exec-Keep-the-dev-fd-N-name-of-AT_EMPTY_PATH-in-the-.patch
)
KSRC=$BUILD/$SRC_PKG$variant
OUT=$BUILD/kernel$variant
SERIES_DIR=$TOP/linux
KSELFTESTS="exec landlock"
STEP=kernel${variant:+ (${variant#-})}
LOG=$LOGS/kernel$variant

[ -f "$TARBALL" ] || die "$TARBALL is missing (run: make deps)"
# What the kernel is made of: linux/ but for the debug options, which only
# the debug variant reads (a change to them keeps make check's kernel).
mapfile -t inputs < <(cd "$TOP" &&
	find linux -path linux/debug -prune -o -type f -print | LC_ALL=C sort)
[ -f "$TOP/${inputs[0]:-none}" ] || die "no files found in $TOP/linux"
[ "$variant" != -debug ] || inputs+=(linux/debug)
key=$(content_key "$SRC_PKG=$(pkg_version "$SRC_PKG")" "${inputs[@]}" \
	scripts/build-kernel.sh scripts/kernel-tree.sh scripts/lib.sh \
	"variant$variant")

if [ -f "$OUT/.key" ] && [ "$(cat "$OUT/.key")" = "$key" ]; then
	say "$STEP: up to date ($OUT)"
	exit 0
fi
if cache_fetch "kernel$variant" "$key" "$OUT"; then
	echo "$key" >"$OUT/.key"
	exit 0
fi

# series_without_fast_path: linux/series without the fast-path patches, in a
# directory of its own.
series_without_fast_path() {
	local p
	SERIES_DIR=$BUILD/kernel-series$variant
	rm -rf "$SERIES_DIR"
	mkdir -p "$SERIES_DIR"
	cp "$TOP/linux/series" "$SERIES_DIR/series"
	for p in "${FAST_PATH_PATCHES[@]}"; do
		grep -q "^$p\$" "$SERIES_DIR/series" ||
			die "linux/series does not list $p"
		sed -i "/^$p\$/d" "$SERIES_DIR/series"
	done
	for p in "$TOP"/linux/*.patch; do
		ln -s "$p" "$SERIES_DIR/"
	done
}

# configure: the tree's .config; the kernels make check and make bench
# run must differ from the reference only as linux/guest-differences says
# (the debug kernel differs by design: linux/debug/debug.config).
configure() {
	cd "$KSRC"
	make_ipe_test_key
	merge_config
	check_fragments
	[ "$variant" = -debug ] || check_reference_settings
}

compile() {
	make_bzimage
	rm -rf "$OUT.new"
	mkdir -p "$OUT.new"
	make headers_install INSTALL_HDR_PATH="$OUT.new/headers"
	cp arch/x86/boot/bzImage .config "$OUT.new/"
	mv "$OUT.new/.config" "$OUT.new/config"
	cat include/config/kernel.release >"$OUT.new/release"
	# uname -v of the guest: unique to this build (it has the build time).
	sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' \
		include/generated/utsversion.h >"$OUT.new/version"
	[ -s "$OUT.new/version" ] || {
		echo "no UTS_VERSION in include/generated/utsversion.h"
		return 1
	}
}

# The user-space side of the series, built against its UAPI headers and
# installed into guest-root/ for the image: the exec and landlock kselftests
# (with their run_kselftest.sh), mm's mdwe_test and the set-exec sample.
build_user_space() {
	local root=$OUT.new/guest-root
	cd "$KSRC"
	make headers
	make -C tools/testing/selftests TARGETS="$KSELFTESTS" \
		INSTALL_PATH="$root/usr/lib/checkexec/kselftest" install
	# Of the mm selftests only MDWE's (linux/0017): the suite as a whole
	# needs more than the guest has.  OUTPUT must be given: lib.mk sets it
	# only when make is not run from another make (make check).
	make -C tools/testing/selftests/mm \
		OUTPUT="$KSRC/tools/testing/selftests/mm" \
		"$KSRC/tools/testing/selftests/mm/mdwe_test"
	install -D -m 0755 tools/testing/selftests/mm/mdwe_test \
		"$root/usr/lib/checkexec/kselftest/mm/mdwe_test"
	# The IPE test signs its policy in the guest (root only).
	install -D -m 0600 certs/checkexec-ipe-test.key \
		"$root/usr/lib/checkexec/ipe/test-key.pem"
	install -D -m 0644 certs/checkexec-ipe-test.pem \
		"$root/usr/lib/checkexec/ipe/test-cert.pem"
	mkdir -p "$root/usr/bin"
	gcc -O2 -Wall -Wextra -Werror -isystem "$OUT.new/headers/include" \
		-o "$root/usr/bin/set-exec" samples/check-exec/set-exec.c
}

export CCACHE_BASEDIR=$KSRC
[ "$variant" != -without-fast-path ] || series_without_fast_path
run_step "$STEP: unpack $TARBALL" "$LOG-unpack.log" unpack_kernel
run_step "$STEP: apply $SERIES_DIR/series" "$LOG-patch.log" \
	apply_series "$KSRC" "$SERIES_DIR"
run_step "$STEP: configure" "$LOG-config.log" configure
say "$STEP: the whole stage takes $(fresh_time "kernel$variant")"
run_step "$STEP: build bzImage with $JOBS jobs" "$LOG-build.log" compile
if [ -z "$variant" ]; then
	run_step "kernel: build the $KSELFTESTS selftests, mdwe_test and set-exec" \
		"$LOG-user-space.log" build_user_space
fi
rm -rf "$OUT"
mv "$OUT.new" "$OUT"
cache_store "kernel$variant" "$key" "$OUT"
echo "$key" >"$OUT/.key"
say "$STEP: $(cat "$OUT/release") in $OUT"
