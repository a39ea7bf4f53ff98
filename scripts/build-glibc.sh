#!/usr/bin/env bash
# Build glibc: Debian's glibc-source 2.36 (Debian's patches already
# applied) + glibc-patches/series, configured as Debian configures its amd64
# libc6 (debian/rules, debian/rules.d/build.mk, debian/sysdeps/), as a
# generic source stage (source-stage.sh: the source, the series and the
# tree in the cache) with the recipe below (configure, build, install).
#   build-glibc.sh               the patched library; output in build/glibc/:
#                                root/ (run-time files in the image's
#                                merged-/usr layout), build-ids, version
#   build-glibc.sh --unpatched   the same source without our patches, for the
#                                baseline of glibc's tests (no output)
#   build-glibc.sh --series DIR  the same source with the series in DIR, for
#                                glibc-each-patch.sh (no output)
# The build tree stays in the cache (see glibc-tree.sh) for those tests.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/glibc-tree.sh
source "$(dirname "$0")/glibc-tree.sh"

case ${1:-} in
"") variant=patched ;;
--unpatched) variant=unpatched ;;
--series) variant=series=${2:?build-glibc.sh --series DIR} ;;
*) die "usage: build-glibc.sh [--unpatched | --series DIR]" ;;
esac
OUT=$BUILD/glibc
MULTIARCH=x86_64-linux-gnu

hold_build_lock
# The trees of the scripts before the source stage (glibc-tree/) are of no
# use any more: free their space.
if [ -d "$CACHE/glibc-tree" ]; then
	say "glibc: removing the old build trees in $CACHE/glibc-tree"
	rm -rf "$CACHE/glibc-tree"
fi
glibc_tree "$variant"
STEP=$STAGE_NAME
LOG_PREFIX=$LOGS/$STAGE_NAME
deb_version=$(pkg_version glibc-source)

# The kernel and library headers glibc is built with, gathered into one
# directory as debian/sysdeps/linux.mk does (asm/ is in the multiarch dir).
make_include_dir() {
	local h
	rm -rf "$GINC"
	for h in arch asm asm-generic libaudit.h linux selinux sys/capability.h; do
		mkdir -p "$GINC/$(dirname "$h")"
		if [ -e "/usr/include/$h" ]; then
			ln -s "/usr/include/$h" "$GINC/$h"
		elif [ -e "/usr/include/$MULTIARCH/$h" ]; then
			ln -s "/usr/include/$MULTIARCH/$h" "$GINC/$h"
		fi
	done
	touch "$GINC/assert.h"
}

# pkg_suffix: what the version string says of the variant.
pkg_suffix() {
	case $variant in
	patched) ;;
	unpatched) echo unpatched ;;
	*) echo series ;;
	esac
}

# The configparms and configure line of debian/rules.d/build.mk for the
# amd64 "libc" pass (the i386 and x32 multilib passes are not built), but
# for -g: Debian's debug information feeds its -dbgsym packages, ours would
# be stripped at install (strip_debug_info), and gcc's code does not depend
# on -g.  Without it the build takes less time (docs/building.md).
configure() {
	make_include_dir
	mkdir -p "$GOBJ"
	cd "$GOBJ"
	cat >configparms <<-EOF
		BUILD_CC = gcc-12
		CFLAGS = -pipe -O2
		ASFLAGS = -pipe -O2
		BUILD_CFLAGS = -O2
		LDFLAGS =
		BASH := /bin/bash
		KSH := /bin/bash
		SHELL := /bin/bash
		LIBGD = no
		bindir = /usr/bin
		datadir = /usr/share
		complocaledir = /usr/lib/locale
		sysconfdir = /etc
		libexecdir = /usr/lib
		rootsbindir = /sbin
		includedir = /usr/include
		docdir = /usr/share/doc
		mandir = /usr/share/man
		sbindir = /usr/sbin
		vardbdir = /var/lib/misc
		libdir = /usr/lib/$MULTIARCH
		slibdir = /lib/$MULTIARCH
		rtlddir = /lib64
	EOF
	CC="ccache $MULTIARCH-gcc-12 -Wl,--hash-style=both" \
		CXX="ccache $MULTIARCH-g++-12 -Wl,--hash-style=both" \
		AUTOCONF=false MAKEINFO=: \
		"$GSRC/configure" \
		--host=$MULTIARCH --build=$MULTIARCH --prefix=/usr \
		--enable-add-ons= \
		--disable-crypt \
		--enable-stackguard-randomization \
		--enable-stack-protector=strong \
		--with-pkgversion="Debian GLIBC $deb_version checkexec$(pkg_suffix)" \
		--with-bugurl="http://www.debian.org/Bugs/" \
		--with-timeoutfactor=25 \
		--with-headers="$GINC" --enable-kernel=3.2 \
		--with-selinux --enable-multi-arch
}

compile() {
	make -C "$GOBJ" -j"$JOBS"
}

# build_id ELF: the GNU build-id note of ELF, in hex.
build_id() {
	readelf -n "$1" | sed -n 's/^ *Build ID: *//p'
}

# strip_debug_info DIR...: drop the debug sections of every ELF file below
# the DIRs, as Debian's packages do (symbol tables and build-ids stay).
strip_debug_info() {
	local f
	find "$@" -type f -print0 | while IFS= read -r -d '' f; do
		if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ]; then
			strip --strip-debug "$f"
		fi
	done
}

# Install into a staging tree, then keep the run-time part in the layout of
# a merged-/usr Debian system (/lib, /lib64 and /sbin are links into /usr).
install_stage() {
	local stage=$GOUT/stage root=$GOUT/root dir
	rm -rf "$GOUT"
	mkdir -p "$stage" "$root/usr"
	make -C "$GOBJ" -j"$JOBS" install install_root="$stage"
	cp -a "$stage/usr/." "$root/usr/"
	for dir in lib sbin bin; do
		[ -d "$stage/$dir" ] && cp -a "$stage/$dir/." "$root/usr/$dir/"
	done
	# Debian ships ld.so in the multiarch directory and /lib64's name as a
	# link to it; the image already has that link.
	cp -a "$stage/lib64/ld-linux-x86-64.so.2" "$root/usr/lib/$MULTIARCH/"
	rm -rf "$root/usr/include" "$root/usr/share/info"
	find "$root" \( -name '*.a' -o -name '*.o' \) -delete
	strip_debug_info "$root/usr/lib" "$root/usr/bin" "$root/usr/sbin"
	build_id "$root/usr/lib/$MULTIARCH/libc.so.6" >"$GOUT/libc.build-id"
	build_id "$root/usr/lib/$MULTIARCH/ld-linux-x86-64.so.2" >"$GOUT/ld.build-id"
	# libc.so.6 run as a program prints its version; run it with its own ld.so.
	"$root/usr/lib/$MULTIARCH/ld-linux-x86-64.so.2" \
		--library-path "$root/usr/lib/$MULTIARCH" \
		"$root/usr/lib/$MULTIARCH/libc.so.6" | head -n 1 >"$GOUT/version"
	rm -rf "$stage"
}

# The patched library's run-time files go to build/glibc; the unpatched
# tree is only built (its tests and its ld.so are used from the tree).
if [ "$variant" = patched ] && stage_up_to_date "$OUT"; then
	say "glibc: up to date ($OUT)"
	exit 0
fi
stage_begin
if [ "$STAGE_TO_BUILD" = no ]; then
	say "$STEP: reusing the build tree $TREE"
else
	[ "$STAGE_SRC" = "$GSRC" ] || die "$STEP: the source unpacked as $STAGE_SRC, not $GSRC"
	export CCACHE_BASEDIR=$TREE
	export CPPFLAGS="-isystem $GINC"
	run_step "$STEP: configure" "$LOG_PREFIX-configure.log" configure
	say "$STEP: the whole stage takes $(fresh_time glibc)"
	run_step "$STEP: build with $JOBS jobs" "$LOG_PREFIX-build.log" compile
	if [ "$variant" = patched ]; then
		run_step "$STEP: install into a staging tree" "$LOG_PREFIX-install.log" \
			install_stage
	fi
	stage_finish
fi
if [ "$variant" = patched ]; then
	stage_copy_output "$OUT"
	say "glibc: $(cat "$OUT/version")"
fi
