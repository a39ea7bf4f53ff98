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
# Every binary package is versioned VERSION+checkexec1 (a changelog entry
# is added), and the .debs of the binary packages install= names are the
# output: build/packages/NAME/debs/, which the image installs.
#   build-package.sh                   build every package of the list
#   build-package.sh NAME              build NAME, unless up to date
#   build-package.sh --print-key NAME  print NAME's stage key and stop
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
FIELDS="source version build install"

usage() {
	die "usage: build-package.sh [[--print-key] NAME | --list]"
}

# package_list: the names in interpreter-patches/packages, in order.
package_list() {
	[ -f "$PACKAGES_PATH/packages" ] || die "$PACKAGES_DIR/packages is missing"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PACKAGES_PATH/packages"
}

# field NAME: the value of NAME= in the package's data (empty if absent).
field() {
	sed -n "s/^$1=//p" "$DATA" | tail -n 1
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
	debian) ;;
	*) die "$PACKAGES_DIR/$name/package: build=$BUILD_KIND is not a way this stage knows (debian)" ;;
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

# collect_debs: the .debs of the install= packages into $STAGE_OUT/debs.
collect_debs() {
	local binary deb
	rm -rf "$STAGE_OUT"
	mkdir -p "$STAGE_OUT/debs"
	for binary in "${INSTALL[@]}"; do
		deb=$STAGE_TREE/${binary}_${VERSION#*:}${SUFFIX}_$(dpkg --print-architecture).deb
		[ -f "$deb" ] || die "$NAME: the build made no $binary package (${deb##*/})"
		cp "$deb" "$STAGE_OUT/debs/"
	done
}

PRINT_KEY=no
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
--print-key)
	PRINT_KEY=yes
	shift
	;;
-*) usage ;;
esac
[ $# -eq 1 ] || usage
NAME=$1
read_package "$NAME"
PROFILES=nocheck,nodoc,noudeb
OUT=$BUILD/packages/$NAME
stage_init "package-$NAME" "apt:$SOURCE=$VERSION" "$PACKAGES_DIR/$NAME" \
	"$PACKAGES_DIR/$NAME" "profiles=$PROFILES" "suffix=$SUFFIX" \
	scripts/build-package.sh
if [ "$PRINT_KEY" = yes ]; then
	echo "$STAGE_KEY"
	exit 0
fi

hold_build_lock
if stage_up_to_date "$OUT"; then
	say "package $NAME: up to date ($OUT)"
	exit 0
fi
stage_begin
if [ "$STAGE_TO_BUILD" = yes ]; then
	start=$SECONDS
	say "package $NAME: the build takes $(fresh_time "package-$NAME")"
	run_step "package $NAME: build dependencies" "$LOGS/package-$NAME-deps.log" \
		install_build_deps
	add_changelog_entry
	run_step "package $NAME: build $SOURCE $VERSION$SUFFIX ($BUILD_KIND)" \
		"$LOGS/package-$NAME-build.log" "build_$BUILD_KIND"
	collect_debs
	stage_finish
	say "package $NAME: built in $((SECONDS - start)) s"
else
	say "package $NAME: reusing the built tree $STAGE_TREE"
fi
stage_copy_output "$OUT"
say "package $NAME: $(cd "$OUT/debs" && echo *.deb)"
