#!/usr/bin/env bash
# Install every Debian package the project needs, from the machine's own apt
# configuration.  Does nothing when they are all installed already.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

PACKAGES=(
	# sources of the kernel and of the C library
	linux-source-6.12 glibc-source
	# toolchain and kernel build
	build-essential gcc-12 g++-12 bc bison flex libssl-dev libelf-dev cpio
	kmod rsync xz-utils python3 perl ccache
	# Debian packages of interpreter-patches/ (each source's own
	# Build-Depends are installed by build-package.sh)
	dpkg-dev fakeroot
	# the IPE test key that the guest kernel trusts
	openssl
	# glibc build (debian/control Build-Depends that apply to amd64)
	gawk gettext texinfo libselinux1-dev libaudit-dev libcap-dev
	# image and boot
	mkosi debootstrap systemd-container e2fsprogs fdisk
	qemu-system-x86 qemu-utils
	# script checks
	shellcheck
)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	say "deps: all packages are installed"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || die "packages missing (${missing[*]}); run make deps as root"
say "deps: installing ${missing[*]}"
run_step "deps: apt-get update" "$LOGS/deps-update.log" apt-get update
run_step "deps: apt-get install" "$LOGS/deps-install.log" \
	env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
