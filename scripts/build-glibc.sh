#!/usr/bin/env bash
# Build the guest C library: Debian's glibc-source 2.36 (Debian's patches
# already applied) + glibc-patches/series, configured as Debian configures
# its amd64 libc6 (debian/rules, debian/rules.d/build.mk, debian/sysdeps/).
# Output in build/glibc/: root/ (the runtime files in the image's merged-/usr
# layout, to be copied over Debian's), build-ids, version.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
hold_build_lock

SRC_PKG=glibc-source
TARBALL=/usr/src/glibc/glibc-2.36.tar.xz
GSRC=$BUILD/glibc-2.36
GOBJ=$BUILD/glibc-obj
GINC=$BUILD/glibc-include
OUT=$BUILD/glibc
MULTIARCH=x86_64-linux-gnu

[ -f "$TARBALL" ] || die "$TARBALL is missing (run: make deps)"
deb_version=$(pkg_version "$SRC_PKG")
key=$(content_key "$SRC_PKG=$deb_version" glibc-patches \
	scripts/build-glibc.sh scripts/lib.sh)

if [ -f "$OUT/.key" ] && [ "$(cat "$OUT/.key")" = "$key" ]; then
	say "glibc: up to date ($OUT)"
	exit 0
fi
if cache_fetch glibc "$key" "$OUT"; then
	echo "$key" >"$OUT/.key"
	exit 0
fi

unpack() {
	rm -rf "$GSRC" "$GOBJ"
	mkdir -p "$BUILD"
	tar -C "$BUILD" -xf "$TARBALL"
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
		--with-pkgversion="Debian GLIBC $deb_version checkexec" \
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
	local stage=$OUT.new/stage root=$OUT.new/root dir
	rm -rf "$OUT.new"
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
	build_id "$root/usr/lib/$MULTIARCH/libc.so.6" >"$OUT.new/libc.build-id"
	build_id "$root/usr/lib/$MULTIARCH/ld-linux-x86-64.so.2" >"$OUT.new/ld.build-id"
	# libc.so.6 run as a program prints its version; run it with its own ld.so.
	"$root/usr/lib/$MULTIARCH/ld-linux-x86-64.so.2" \
		--library-path "$root/usr/lib/$MULTIARCH" \
		"$root/usr/lib/$MULTIARCH/libc.so.6" | head -n 1 >"$OUT.new/version"
	rm -rf "$stage"
}

export CCACHE_BASEDIR=$BUILD
export CPPFLAGS="-isystem $GINC"
run_step "glibc: unpack $TARBALL" "$LOGS/glibc-unpack.log" unpack
run_step "glibc: apply glibc-patches/series" "$LOGS/glibc-patch.log" \
	apply_series "$GSRC" "$TOP/glibc-patches"
run_step "glibc: configure" "$LOGS/glibc-configure.log" configure
run_step "glibc: build with $JOBS jobs (about 12-16 min on a fresh machine)" \
	"$LOGS/glibc-build.log" compile
run_step "glibc: install into a staging tree" "$LOGS/glibc-install.log" \
	install_stage
rm -rf "$OUT"
mv "$OUT.new" "$OUT"
cache_store glibc "$key" "$OUT"
echo "$key" >"$OUT/.key"
say "glibc: $(cat "$OUT/version")"
