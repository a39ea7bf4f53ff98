#!/usr/bin/env bash
# Build one patched Debian package: the stage every package of
# interpreter-patches/ goes through.  A package is data there:
#   interpreter-patches/NAME/package   source=, version=, build=, install=
#   interpreter-patches/NAME/series    the patch series (glibc-patches/'s
#                                      conventions), with its patches
# The source is Debian's (apt-get source of that exact version from the
# deb-src twin of the machine's apt sources), with Debian's patches; our
# series goes on top (source-stage.sh), and the tree stays in the cache.
#   build=debian   dpkg-buildpackage -B: Debian's own rules, so Debian's
#                  configure flags and patches, without tests and
#                  documentation (DEB_BUILD_OPTIONS/PROFILES nocheck nodoc)
#   build=debian-target
#                  targets of Debian's rules (target=, with the make
#                  variables make= and the DEB_BUILD_OPTIONS options=), for
#                  a source whose whole build is far too long; Debian's
#                  binary packages of the same version are then repacked
#                  with what it changes: each replace=TREE PATH puts the
#                  tree's file TREE at PATH; TREE/ and PATH/ put every file
#                  the series changes below TREE/ at the same place below
#                  PATH/, in the install= package that has it.
# Every binary package is versioned VERSION+checkexec1 (a changelog entry
# is added, or the repacked control files say so), and the .debs of the
# binary packages install= names are the output:
# build/packages/NAME/debs/, which the image installs.
#   build-package.sh                   build every package of the list
#   build-package.sh NAME              build NAME, unless up to date
#   build-package.sh --print-key NAME  print NAME's stage key and stop
#   build-package.sh --print-source NAME
#                                      print the source tree NAME's last
#                                      build used (for its own tests)
#   build-package.sh --unpatched NAME  build NAME without our series, into
#                                      build/packages-unpatched/NAME (the
#                                      baseline of its tests, the bench)
#   build-package.sh --debian NAME     Debian's own .debs of NAME's install=
#                                      packages at version=, into
#                                      build/packages-debian/NAME (the
#                                      bench compares with them)
#   build-package.sh --list            the packages, in build order
# CHECKEXEC_PACKAGES_DIR: another directory of packages (make check's test
# of malformed data).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/source-stage.sh
source "$TOP/scripts/source-stage.sh"

PACKAGES_DIR=${CHECKEXEC_PACKAGES_DIR:-interpreter-patches}
case $PACKAGES_DIR in
/*) PACKAGES_PATH=$PACKAGES_DIR ;;
*) PACKAGES_PATH=$TOP/$PACKAGES_DIR ;;
esac
SUFFIX=+checkexec1
# The fields a package's data may have.
FIELDS="source version build install target options make replace"

usage() {
	die "usage: build-package.sh [[--print-key | --print-source | --unpatched | --debian] NAME | --list]"
}

# package_list: the names in interpreter-patches/packages, in order.
package_list() {
	[ -f "$PACKAGES_PATH/packages" ] || die "$PACKAGES_DIR/packages is missing"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PACKAGES_PATH/packages"
}

# field NAME: the value of NAME= in the package's data (empty if absent).
field() {
	fields "$1" | tail -n 1
}

# fields NAME: every value of NAME=, one per line.
fields() {
	sed -n "s/^$1=//p" "$DATA"
}

# read_package NAME: check the package's data and set DATA, SOURCE,
# VERSION, BUILD_KIND and INSTALL (an array).
read_package() {
	local name=$1 key
	package_list | grep -qxF "$name" ||
		die "$name is not a package of $PACKAGES_DIR/packages ($(package_list | tr '\n' ' '))"
	DATA=$PACKAGES_PATH/$name/package
	[ -f "$DATA" ] || die "$PACKAGES_DIR/$name/package is missing"
	# Every line is a comment, empty or one of the known fields.
	while read -r key; do
		case " $FIELDS " in
		*" $key "*) ;;
		*) die "$PACKAGES_DIR/$name/package: unknown field '$key' (fields: $FIELDS)" ;;
		esac
	done < <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' -e 's/=.*//' "$DATA")
	SOURCE=$(field source) VERSION=$(field version) BUILD_KIND=$(field build)
	read -r -a INSTALL <<<"$(field install)"
	for key in source version build; do
		[ -n "$(field "$key")" ] || die "$PACKAGES_DIR/$name/package has no $key="
	done
	[ ${#INSTALL[@]} -gt 0 ] || die "$PACKAGES_DIR/$name/package has no install= (the binary packages the image takes)"
	case $BUILD_KIND in
	debian)
		for key in target options make replace; do
			[ -z "$(field "$key")" ] ||
				die "$PACKAGES_DIR/$name/package: $key= is for build=debian-target"
		done
		;;
	debian-target)
		for key in target replace; do
			[ -n "$(field "$key")" ] ||
				die "$PACKAGES_DIR/$name/package: build=debian-target needs $key="
		done
		while read -r key; do
			[[ $key =~ ^[^[:space:]]+[[:space:]]+[^[:space:]]+$ ]] ||
				die "$PACKAGES_DIR/$name/package: replace=$key is not 'TREE PATH'"
		done < <(fields replace)
		;;
	*) die "$PACKAGES_DIR/$name/package: build=$BUILD_KIND is not a way this stage knows (debian, debian-target)" ;;
	esac
}

# install_build_deps: install what the source's Build-Depends (for the
# binary-arch packages, without tests and documentation) lack, from the
# machine's apt sources.  Run by run_step.
install_build_deps() {
	cd "$STAGE_SRC"
	if dpkg-checkbuilddeps -B -P "$PROFILES" 2>&1; then
		return 0
	fi
	[ "$(id -u)" -eq 0 ] || die "build dependencies of $SOURCE are missing; run as root so that they are installed"
	export DEBIAN_FRONTEND=noninteractive
	apt-get build-dep -y --no-install-recommends --arch-only -P "$PROFILES" "$STAGE_SRC" || {
		apt-get update && apt-get build-dep -y --no-install-recommends --arch-only \
			-P "$PROFILES" "$STAGE_SRC"
	}
	dpkg-checkbuilddeps -B -P "$PROFILES"
}

# add_changelog_entry: the version of every binary package becomes
# VERSION+checkexec1.  The entry carries the date of Debian's entry above
# it, so that the build's timestamps (SOURCE_DATE_EPOCH) stay Debian's.
add_changelog_entry() {
	local changelog=$STAGE_SRC/debian/changelog date distribution
	date=$(dpkg-parsechangelog -l "$changelog" -S Date)
	distribution=$(dpkg-parsechangelog -l "$changelog" -S Distribution)
	[ "$(dpkg-parsechangelog -l "$changelog" -S Version)" = "$VERSION" ] ||
		die "$SOURCE's debian/changelog is not at $VERSION"
	{
		echo "$SOURCE ($VERSION$SUFFIX) $distribution; urgency=medium"
		echo
		echo "  * Apply the check-exec series ($PACKAGES_DIR/$NAME/series)."
		echo
		echo " -- checkexec <checkexec@localhost>  $date"
		echo
		cat "$changelog"
	} >"$changelog.new"
	mv "$changelog.new" "$changelog"
}

# build_debian: Debian's rules, arch-dependent packages only.  Run by
# run_step.
build_debian() {
	cd "$STAGE_SRC"
	DEB_BUILD_OPTIONS="nocheck nodoc parallel=$JOBS" \
		dpkg-buildpackage -B -uc -us -P"$PROFILES"
}

# build_debian-target: the targets of Debian's rules.  Run by run_step.
build_debian-target() {
	local -a make_vars targets
	read -r -a make_vars <<<"$(field make)"
	read -r -a targets <<<"$(field target)"
	cd "$STAGE_SRC"
	DEB_BUILD_OPTIONS="nocheck nodoc parallel=$JOBS $(field options)" \
		debian/rules "${targets[@]}" "${make_vars[@]}"
	repack_debs
}

# binary_version BINARY: the newest version of Debian's BINARY that the
# apt sources have built from our source VERSION: VERSION itself, or a
# binNMU of it (VERSION+bN, the same source rebuilt: bookworm's bash is
# 5.2.15-2+b13).  Empty if there is none.
binary_version() {
	apt-cache madison "$1" 2>/dev/null |
		awk -F' *[|] *' -v v="$VERSION" '
			$2 == v { print $2 }
			index($2, v "+b") == 1 && substr($2, length(v) + 3) ~ /^[0-9]+$/ { print $2 }' |
		sort -V | tail -n 1
}

# debian_debs DIR: Debian's .debs of the install= packages, built from
# our source VERSION, into DIR (apt-get download from the machine's apt
# sources; apt-get update first if they know of none and we are root).
debian_debs() {
	local dir=$1 binary version
	mkdir -p "$dir"
	for binary in "${INSTALL[@]}"; do
		[ -n "$(find "$dir" -name "${binary}_*.deb")" ] && continue
		version=$(binary_version "$binary")
		if [ -z "$version" ] && [ "$(id -u)" -eq 0 ]; then
			apt-get update || die "apt-get update failed"
			version=$(binary_version "$binary")
		fi
		[ -n "$version" ] || die "the machine's apt sources have no $binary built from $NAME $VERSION" \
			"(nor a binNMU of it) to repack$([ "$(id -u)" -eq 0 ] || echo '; run as root so that apt-get update runs')"
		(cd "$dir" && apt-get -o "APT::Sandbox::User=$(id -un)" download "$binary=$version") ||
			die "Debian's $binary=$version cannot be downloaded from the machine's apt sources"
	done
}

# copy_debian_debs: Debian's .debs of the install= packages (kept in the
# cache) into build/packages-debian/NAME/debs.
copy_debian_debs() {
	local binary dir=$CACHE/debs/$NAME-${VERSION//:/%3a} out=$BUILD/packages-debian/$NAME/debs
	debian_debs "$dir"
	rm -rf "$out"
	mkdir -p "$out"
	for binary in "${INSTALL[@]}"; do
		cp "$dir/${binary}_"*.deb "$out/"
	done
	say "package $NAME: Debian's $VERSION in $out"
}

# series_changes PREFIX: the files below PREFIX (a path in the source)
# that the series changes, relative to PREFIX.
series_changes() {
	local patch
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PACKAGES_PATH/$NAME/series" |
		while read -r patch; do
			sed -n 's,^+++ b/,,p' "$PACKAGES_PATH/$NAME/$patch"
		done | sed -n "s,^${1%/}/,,p" | sort -u
}

# replace_in_packages TREE PATH ROOTS...: put the tree's file TREE at PATH
# (keeping its mode) in each unpacked package (ROOTS) that has PATH; an
# ELF file without its debugging sections, as Debian's dh_strip ships it;
# compressed when PATH ends in .gz and TREE does not (a manual page, as
# dh_compress ships it).  Prints how many did.
replace_in_packages() {
	local tree=$1 path=$2 root n=0
	shift 2
	for root in "$@"; do
		[ -f "$root/$path" ] || continue
		if [ "${path%.gz}" != "$path" ] && [ "${tree%.gz}" = "$tree" ]; then
			gzip -9n <"$STAGE_SRC/$tree" >"$root/$path"
		else
			install -m "$(stat -c %a "$root/$path")" "$STAGE_SRC/$tree" "$root/$path"
		fi
		if [ "$(head -c 4 "$root/$path" | od -An -c | tr -d ' ')" = 177ELF ]; then
			strip --strip-debug --remove-section=.comment --remove-section=.note \
				"$root/$path"
		fi
		n=$((n + 1))
	done
	echo "$n"
}

# repack_debs: Debian's binary packages of VERSION with the replace= files
# of the build, as VERSION+checkexec1, into $STAGE_TREE.
repack_debs() {
	local work=$STAGE_TREE/repack binary rule tree path file placed
	local -a roots=()
	debian_debs "$STAGE_TREE/debian-debs"
	rm -rf "$work"
	mkdir -p "$work"
	for binary in "${INSTALL[@]}"; do
		dpkg-deb -R "$STAGE_TREE/debian-debs/${binary}_"*.deb "$work/$binary"
		roots+=("$work/$binary")
	done
	while read -r rule; do
		read -r tree path <<<"$rule"
		if [ "${tree%/}" = "$tree" ]; then
			[ "$(replace_in_packages "$tree" "${path#/}" "${roots[@]}")" -gt 0 ] ||
				die "replace=$rule: no package of install= has $path"
			say "package $NAME: $path replaced"
			continue
		fi
		# The unpatched build changes nothing below a tree.
		[ "$UNPATCHED" = no ] || continue
		placed=0
		for file in $(series_changes "$tree"); do
			if [ "$(replace_in_packages "$tree$file" "${path#/}$file" "${roots[@]}")" -gt 0 ]; then
				placed=$((placed + 1))
			else
				say "package $NAME: $tree$file is in no package of install= (not installed)"
			fi
		done
		[ "$placed" -gt 0 ] || die "replace=$rule: no changed file is in a package of install="
		say "package $NAME: $placed changed files below $path replaced"
	done < <(fields replace)
	for binary in "${INSTALL[@]}"; do
		# The checksums dpkg --verify compares the installed files with.
		(cd "$work/$binary" && cut -c 35- DEBIAN/md5sums | xargs -r -d '\n' md5sum) \
			>"$work/md5sums" && mv "$work/md5sums" "$work/$binary/DEBIAN/md5sums"
		# Our version, also where one package of the source needs another
		# at exactly its version.
		sed -i -e "s/^Version: .*/Version: $VERSION$SUFFIX/" \
			-e "s/(= $VERSION)/(= $VERSION$SUFFIX)/g" "$work/$binary/DEBIAN/control"
		dpkg-deb --root-owner-group -b "$work/$binary" \
			"$STAGE_TREE/${binary}_${VERSION#*:}${SUFFIX}_$(dpkg-deb -f "$STAGE_TREE/debian-debs/${binary}_"*.deb Architecture).deb" >/dev/null
	done
}

# collect_debs: the .debs of the install= packages into $STAGE_OUT/debs.
collect_debs() {
	local binary deb
	rm -rf "$STAGE_OUT"
	mkdir -p "$STAGE_OUT/debs"
	for binary in "${INSTALL[@]}"; do
		deb=$(find "$STAGE_TREE" -maxdepth 1 -name "${binary}_${VERSION#*:}${SUFFIX}_*.deb")
		[ -f "$deb" ] ||
			die "$NAME: the build made no $binary package (${binary}_${VERSION#*:}${SUFFIX}_ARCH.deb)"
		cp "$deb" "$STAGE_OUT/debs/"
	done
}

PRINT=no UNPATCHED=no DEBIAN=no
case ${1:-} in
"")
	hold_build_lock
	for name in $(package_list); do
		"$TOP/scripts/build-package.sh" "$name"
	done
	exit 0
	;;
--list)
	package_list
	exit 0
	;;
esac
while [ $# -gt 1 ]; do
	case $1 in
	--print-key | --print-source) PRINT=${1#--print-} ;;
	--unpatched) UNPATCHED=yes ;;
	--debian) DEBIAN=yes ;;
	*) usage ;;
	esac
	shift
done
if [ $# -ne 1 ] || [ "${1#-}" != "$1" ]; then
	usage
fi
NAME=$1
read_package "$NAME"
if [ "$DEBIAN" = yes ]; then
	hold_build_lock
	copy_debian_debs
	exit 0
fi
PROFILES=nocheck,nodoc,noudeb
# The unpatched build depends on the package's data, not on its series.
if [ "$UNPATCHED" = yes ]; then
	STAGE=package-$NAME-unpatched OUT=$BUILD/packages-unpatched/$NAME
	PATCHES=- INPUTS=$PACKAGES_DIR/$NAME/package
else
	STAGE=package-$NAME OUT=$BUILD/packages/$NAME PATCHES=$PACKAGES_DIR/$NAME
	INPUTS=$PACKAGES_DIR/$NAME
fi
stage_init "$STAGE" "apt:$SOURCE=$VERSION" "$PATCHES" "$INPUTS" \
	"profiles=$PROFILES" "suffix=$SUFFIX" scripts/build-package.sh
case $PRINT in
key)
	echo "$STAGE_KEY"
	exit 0
	;;
source)
	[ -f "$STAGE_TREE/.complete" ] || die "package $NAME is not built (make packages)"
	stage_source_dir
	exit 0
	;;
esac

hold_build_lock
if stage_up_to_date "$OUT"; then
	say "package $NAME: up to date ($OUT)"
	exit 0
fi
stage_begin
if [ "$STAGE_TO_BUILD" = yes ]; then
	start=$SECONDS
	say "package $NAME: the build takes $(fresh_time "package-$NAME")"
	run_step "package $NAME: build dependencies" "$LOGS/$STAGE-deps.log" \
		install_build_deps
	[ "$BUILD_KIND" != debian ] || add_changelog_entry
	run_step "package $NAME: build $SOURCE $VERSION$SUFFIX ($BUILD_KIND)" \
		"$LOGS/$STAGE-build.log" "build_$BUILD_KIND"
	collect_debs
	stage_finish
	say "package $NAME: built in $((SECONDS - start)) s"
else
	say "package $NAME: reusing the built tree $STAGE_TREE"
fi
stage_copy_output "$OUT"
say "package $NAME: $(cd "$OUT/debs" && echo *.deb)"
