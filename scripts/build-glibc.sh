#!/usr/bin/env bash
# Build glibc: Debian's glibc-source 2.36 (Debian's patches already
# applied) + glibc-patches/series, configured as Debian configures its amd64
# libc6 (debian/rules, debian/rules.d/build.mk, debian/sysdeps/).
#   build-glibc.sh               the patched library; output in build/glibc/:
#                                root/ (run-time files in the image's
#                                merged-/usr layout), build-ids, version
#   build-glibc.sh --unpatched   the same source without our patches, for the
#                                baseline of glibc's tests (no output)
# The build tree stays in the cache (see glibc-tree.sh) for those tests.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/glibc-tree.sh
source "$(dirname "$0")/glibc-tree.sh"

case ${1:-} in
"") variant=patched ;;
--unpatched) variant=unpatched ;;
*) die "usage: build-glibc.sh [--unpatched]" ;;
esac
TARBALL=/usr/src/glibc/glibc-2.36.tar.xz
OUT=$BUILD/glibc
MULTIARCH=x86_64-linux-gnu
STEP=glibc
LOG_PREFIX=$LOGS/glibc
if [ "$variant" = unpatched ]; then
	STEP="glibc (unpatched)"
	LOG_PREFIX=$LOGS/glibc-unpatched
fi

[ -f "$TARBALL" ] || die "$TARBALL is missing (run: make deps)"
hold_build_lock
glibc_tree "$variant"
deb_version=$(pkg_version glibc-source)

unpack() {
	tar -C "$TREE" -xf "$TARBALL"
}

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

# The configparms and configure line of debian/rules.d/build.mk for the
# amd64 "libc" pass (the i386 and x32 multilib passes are not built).
configure() {
	make_include_dir
	mkdir -p "$GOBJ"
	cd "$GOBJ"
	cat >configparms <<-EOF
		BUILD_CC = gcc-12
		CFLAGS = -pipe -O2 -g
		ASFLAGS = -pipe -O2 -g
		BUILD_CFLAGS = -O2 -g
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
		--with-pkgversion="Debian GLIBC $deb_version checkexec${variant#patched}" \
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
	make -C "$GOBJ" install install_root="$stage"
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

# copy_output: the patched library's run-time files into build/glibc.
copy_output() {
	[ "$variant" = patched ] || return 0
	rm -rf "$OUT"
	mkdir -p "$BUILD"
	cp -a "$GOUT" "$OUT"
	echo "$GLIBC_KEY" >"$OUT/.key"
	say "glibc: $(cat "$OUT/version")"
}

if [ "$variant" = patched ] && [ -f "$OUT/.key" ] &&
	[ "$(cat "$OUT/.key")" = "$GLIBC_KEY" ] && [ -f "$TREE/.complete" ]; then
	say "glibc: up to date ($OUT)"
	exit 0
fi
lock_glibc_tree
if [ -f "$TREE/.complete" ]; then
	say "$STEP: reusing the build tree $TREE"
	copy_output
	exit 0
fi

export CCACHE_BASEDIR=$TREE
export CPPFLAGS="-isystem $GINC"
rm -rf "$TREE"
mkdir -p "$TREE"
run_step "$STEP: unpack $TARBALL into $TREE" "$LOG_PREFIX-unpack.log" unpack
if [ "$variant" = patched ]; then
	run_step "glibc: apply glibc-patches/series" "$LOG_PREFIX-patch.log" \
		apply_series "$GSRC" "$TOP/glibc-patches"
fi
run_step "$STEP: configure" "$LOG_PREFIX-configure.log" configure
run_step "$STEP: build with $JOBS jobs (about 9-22 min on a fresh machine)" \
	"$LOG_PREFIX-build.log" compile
if [ "$variant" = patched ]; then
	run_step "glibc: install into a staging tree" "$LOG_PREFIX-install.log" \
		install_stage
fi
touch "$TREE/.complete"
drop_old_glibc_trees
copy_output
