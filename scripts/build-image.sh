#!/usr/bin/env bash
# Build the guest disk image with mkosi (images/): Debian bookworm from the
# build machine's own apt mirror, with the project's glibc (build/glibc/root)
# over Debian's, the kernel stage's user-space outputs (build/kernel/guest-root:
# selftests, set-exec, the IPE test key), the test programs
# (build/testlibs/root) and the patched Debian packages
# (build/packages/*/debs, installed with dpkg over Debian's by
# mkosi.postinst).  Output: build/image/checkexec.raw.  mkosi's incremental
# cache lives in the cache directory, so a rebuild after a glibc or testlibs
# change skips the bootstrap.  The image's key has the content of the trees
# and packages it packs, not the keys of the stages that made them: a
# stage rebuilt from the same inputs need not give the same bytes (the glibc
# tree rebuilt under its key did not), and the image must hold what was just
# built.  The image holds no kernel, so a change of the bzImage alone does
# not rebuild it.
#   build-image.sh              build, unless build/image is up to date
#   build-image.sh --print-key  print the image's key and stop
#   build-image.sh --base       bootstrap mkosi's cached Debian base only,
#                               unless it is there (build-all.sh runs this
#                               beside the other stages: it needs none)
# KERNEL_OUT (default build/kernel), GLIBC_OUT (default build/glibc),
# TESTLIBS (default build/testlibs), PACKAGES_OUT (default build/packages):
# the stage outputs to build on (make check's key test points them at
# changed copies).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

OUT=$BUILD/image
GLIBC_OUT=${GLIBC_OUT:-$BUILD/glibc}
GLIBC_ROOT=$GLIBC_OUT/root
KERNEL_OUT=${KERNEL_OUT:-$BUILD/kernel}
TESTLIBS=${TESTLIBS:-$BUILD/testlibs}
SKELETON=$BUILD/image-skeleton
PACKAGES_OUT=${PACKAGES_OUT:-$BUILD/packages}
# The .debs, where mkosi.postinst finds them in the image.
PACKAGE_TREE=$BUILD/image-packages
PACKAGE_DIR=var/cache/checkexec/packages

case ${1:-} in
"" | --print-key | --base) ;;
*) die "usage: build-image.sh [--print-key | --base]" ;;
esac

# apt_repo SUITE: the URI the build machine's apt takes SUITE from.
apt_repo() {
	# shellcheck disable=SC2016 # apt's own $(...) fields, not the shell's
	apt-get indextargets --format '$(RELEASE) $(REPO_URI)' 2>/dev/null |
		awk -v suite="$1" '$1 == suite { print $2; exit }'
}

mirror=$(apt_repo bookworm)
[ -n "$mirror" ] || die "the apt configuration of this machine has no bookworm repository (apt-get update?)"
security=$(apt_repo bookworm-security)

base_key=$(content_key "mkosi=$(pkg_version mkosi)" "mirror=$mirror" \
	"security=$security" images/mkosi.default images/mke2fs.conf)
workdir=$CACHE/mkosi/$base_key

# base_ready: whether mkosi's cached Debian base is in the workdir.
base_ready() {
	[ -n "$(find "$workdir" -name 'checkexec.cache-pre-inst' 2>/dev/null)" ]
}

# mkosi writes the security repository into the image itself; the skeleton
# replaces it with this machine's, which is the one the build can reach.
make_skeleton() {
	rm -rf "$SKELETON"
	mkdir -p "$SKELETON/etc/apt/sources.list.d"
	if [ -n "$security" ]; then
		echo "deb $security bookworm-security main"
	else
		echo "# this build machine has no bookworm-security repository"
	fi >"$SKELETON/etc/apt/sources.list.d/bookworm-security.list"
}

# run_mkosi ARG...: mkosi's build in the workdir, with ARGs.  mkosi builds
# the cached base (incremental) without the extra trees and the postinst.
run_mkosi() {
	mkdir -p "$workdir" "$CACHE/mkosi-packages"
	cd "$TOP/images"
	MKE2FS_CONFIG=$TOP/images/mke2fs.conf mkosi --mirror="$mirror" \
		--skeleton-tree="$SKELETON" \
		--output-dir="$workdir" \
		--cache="$CACHE/mkosi-packages" \
		--incremental --force "$@" build
}

# bootstrap_base: mkosi's first phase only.  mkosi 14 then fails: having
# moved the base into its cache, it goes on to dig holes into the image it
# no longer has.  The base is whole once it is there (one rename), so its
# presence decides.
bootstrap_base() {
	run_mkosi --skip-final-phase || base_ready
}

if [ "${1:-}" = --base ]; then
	hold_build_lock
	if base_ready; then
		say "image: the Debian base is cached ($workdir)"
		exit 0
	fi
	say "image: the bootstrap takes $(fresh_time image-bootstrap)"
	make_skeleton
	run_step "image: bootstrap the Debian base" "$LOGS/image-base.log" \
		bootstrap_base
	base_ready || die "mkosi wrote no cached base below $workdir (log: $LOGS/image-base.log)"
	exit 0
fi

[ -d "$GLIBC_ROOT" ] || die "no glibc build in $GLIBC_OUT (run: make glibc)"
[ -d "$KERNEL_OUT/guest-root" ] ||
	die "no kernel user space in $KERNEL_OUT/guest-root (run: make kernel)"
PACKAGE_NAMES=$("$TOP/scripts/build-package.sh" --list)

# packages_content: NAME=HASH of the .debs of each package of the list,
# which must be built from its current inputs.
packages_content() {
	local name
	for name in $PACKAGE_NAMES; do
		[ "$(cat "$PACKAGES_OUT/$name/.key" 2>/dev/null)" = \
			"$("$TOP/scripts/build-package.sh" --print-key "$name")" ] ||
			die "package $name in $PACKAGES_OUT is missing or not built from the current sources (run: make packages)"
		echo "$name=$(tree_hash "$PACKAGES_OUT/$name/debs")"
	done
}

# gather_packages: the .debs of every package into the package tree.
gather_packages() {
	local name
	rm -rf "$PACKAGE_TREE"
	mkdir -p "$PACKAGE_TREE/$PACKAGE_DIR"
	for name in $PACKAGE_NAMES; do
		cp "$PACKAGES_OUT/$name/debs/"*.deb "$PACKAGE_TREE/$PACKAGE_DIR/"
	done
}

packages=$(packages_content)
testlibs_key=$(KERNEL_OUT=$KERNEL_OUT "$TOP/scripts/build-testlibs.sh" --print-key)
# Before the test programs are built there is no content to hash: only
# --print-key gets that far (a build stops at the testlibs key check).
testlibs_content=none
[ -d "$TESTLIBS/root" ] && testlibs_content=$(tree_hash "$TESTLIBS/root")
key=$(content_key "$base_key" "glibc=$(tree_hash "$GLIBC_ROOT")" \
	"testlibs=$testlibs_key" "testlibs-content=$testlibs_content" \
	"kernel-user-space=$(tree_hash "$KERNEL_OUT/guest-root")" \
	"packages=$packages" images \
	scripts/build-image.sh scripts/lib.sh)
if [ "${1:-}" = --print-key ]; then
	echo "$key"
	exit 0
fi

hold_build_lock
[ "$(cat "$TESTLIBS/.key" 2>/dev/null)" = "$testlibs_key" ] ||
	die "the test programs in $TESTLIBS are not built from the current sources (run: make testlibs)"

if [ -f "$OUT/.key" ] && [ "$(cat "$OUT/.key")" = "$key" ]; then
	say "image: up to date ($OUT)"
	exit 0
fi

# find_image: the image mkosi wrote (it may use a distro~release subdirectory).
find_image() {
	[ -d "$workdir" ] || return 0
	find "$workdir" -name checkexec.raw -type f | head -n 1
}

# install_image IMAGE: copy IMAGE to build/image, marked with the key.
install_image() {
	rm -rf "$OUT"
	mkdir -p "$OUT"
	cp --sparse=always "$1" "$OUT/checkexec.raw"
	echo "$key" >"$OUT/.key"
	say "image: $OUT/checkexec.raw"
}

image=$(find_image)
if [ -n "$image" ] && [ "$(cat "$workdir/image.key" 2>/dev/null)" = "$key" ]; then
	say "image: reusing cached image for key $key"
	install_image "$image"
	exit 0
fi
if base_ready; then
	note="reusing the cached Debian base"
else
	note="first build: Debian bootstrap"
	say "image: the bootstrap takes $(fresh_time image-bootstrap)"
fi
make_skeleton
gather_packages
run_step "image: mkosi build ($note)" "$LOGS/image-mkosi.log" run_mkosi \
	--extra-tree="$TOP/images/mkosi.extra" --extra-tree="$GLIBC_ROOT" \
	--extra-tree="$KERNEL_OUT/guest-root" --extra-tree="$TESTLIBS/root" \
	--extra-tree="$PACKAGE_TREE"
image=$(find_image)
[ -n "$image" ] || die "mkosi did not write checkexec.raw below $workdir (log: $LOGS/image-mkosi.log)"
echo "$key" >"$workdir/image.key"
install_image "$image"
