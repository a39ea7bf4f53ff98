#!/usr/bin/env bash
# The generic source stage (source-stage.sh) on a package of the other
# origin than glibc's: Debian's dash, fetched with apt-get source from the
# deb-src twin of the machine's apt sources, with a series of test patches
# made here; and build-package.sh's refusal of malformed package data.  Run by make check; prints one TAP line per check ("ok -
# source stage: ...", the same words whether it passes or fails, what
# varies on "# " lines); exit status 1 on any failure.  Works in a cache of
# its own (a temporary directory), so the project's cache is not touched.
set -euo pipefail
STAGE_TEST_DIR=$(mktemp -d /tmp/checkexec-source-stage-XXXXXX)
trap 'rm -rf "$STAGE_TEST_DIR"' EXIT
export CHECKEXEC_CACHE=$STAGE_TEST_DIR/cache
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/source-stage.sh
source "$TOP/scripts/source-stage.sh"
BUILD=$STAGE_TEST_DIR/build LOGS=$STAGE_TEST_DIR/build/logs
PATCHES=$STAGE_TEST_DIR/patches
PACKAGE=dash

TAP_PREFIX="source stage"
# shellcheck source=scripts/tap.sh
source "$TOP/scripts/tap.sh"

# write_patch NAME FILE LINE: a patch that creates FILE with LINE in it.
write_patch() {
	cat >"$PATCHES/$1" <<-EOF
		Subject: [PATCH] test: add $2

		---
		diff --git a/$2 b/$2
		new file mode 100644
		--- /dev/null
		+++ b/$2
		@@ -0,0 +1 @@
		+$3
	EOF
}

# stage_run: init and begin the test stage in a subshell (a failure exits
# it); prints its messages; the tree is completed when it was made.
stage_run() {
	(
		stage_init stage-test "apt:$PACKAGE=$VERSION" "$PATCHES" \
			scripts/check-source-stage.sh
		stage_begin
		echo "key=$STAGE_KEY to-build=$STAGE_TO_BUILD src=$STAGE_SRC"
		[ "$STAGE_TO_BUILD" = no ] || stage_finish
	) 2>&1
}

# expect_refusal WHAT HOW MESSAGE: the stage fails on WHAT and says MESSAGE.
expect_refusal() {
	local out
	if out=$(stage_run); then
		note "$1 was accepted"
		fail "$1 $2"
	elif grep -qF "$3" <<<"$out"; then
		pass "$1 $2"
	else
		note "$1 failed without saying why: $out"
		fail "$1 $2"
	fi
}

# field NAME OUTPUT: the value of NAME=... in the last line of OUTPUT.
field() {
	tail -n 1 <<<"$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

VERSION=$(apt_source_versions "$PACKAGE" | head -n 1)
if [ -z "$VERSION" ]; then
	fail "the machine's apt sources have the source package $PACKAGE"
	exit 1
fi
pass "the machine's apt sources have the source package $PACKAGE"
echo "# $PACKAGE $VERSION from the machine's apt sources"
mkdir -p "$PATCHES"
write_patch 0001-add.patch checkexec-stage-test "first"
# A hunk for a file upstream has and the source does not: not applied.
cat >>"$PATCHES/0001-add.patch" <<'EOF'
diff --git a/upstream-doc/extra.texi b/upstream-doc/extra.texi
new file mode 100644
--- /dev/null
+++ b/upstream-doc/extra.texi
@@ -0,0 +1 @@
+@c only upstream
EOF
echo upstream-doc/ >"$PATCHES/upstream-only"
echo 0001-add.patch >"$PATCHES/series"

out=$(stage_run) || true
printf '%s\n' "$out" | sed 's/^/# /'
key1=$(field key "$out")
src=$(field src "$out")
if [ "$(field to-build "$out")" = yes ] &&
	[ "$(cat "$src/checkexec-stage-test" 2>/dev/null)" = first ] &&
	[ -f "$src/debian/changelog" ] && [ ! -e "$src/upstream-doc" ] &&
	grep -q "not applying the hunk of upstream-doc/extra.texi" "$LOGS/stage-test-patch.log"; then
	pass "apt-get source $PACKAGE, the series applied, the upstream-only hunk left out"
else
	note "the first tree of $PACKAGE=$VERSION is not the source with the series"
	fail "apt-get source $PACKAGE, the series applied, the upstream-only hunk left out"
fi

out=$(stage_run) || true
if [ "$(field key "$out")" = "$key1" ] && [ "$(field to-build "$out")" = no ]; then
	pass "the same inputs reuse the complete tree"
else
	note "the same inputs did not reuse the tree: $(tail -n 1 <<<"$out")"
	fail "the same inputs reuse the complete tree"
fi

write_patch 0001-add.patch checkexec-stage-test "second"
out=$(stage_run) || true
src=$(field src "$out")
if [ -n "$(field key "$out")" ] && [ "$(field key "$out")" != "$key1" ] &&
	[ "$(cat "$src/checkexec-stage-test" 2>/dev/null)" = second ]; then
	pass "a changed patch gives a new key and a new tree"
else
	note "a changed patch did not give a new tree: $(tail -n 1 <<<"$out")"
	fail "a changed patch gives a new key and a new tree"
fi

# A patch whose context is not in the source.
cat >"$PATCHES/0002-bad.patch" <<'EOF'
--- a/debian/changelog
+++ b/debian/changelog
@@ -1,1 +1,1 @@
-this line is not in the changelog
+nor is this one
EOF
echo 0002-bad.patch >>"$PATCHES/series"
expect_refusal "a patch that does not apply" "stops the stage, naming the patch" \
	"0002-bad.patch does not apply cleanly"
sed -i '/0002-bad.patch/d' "$PATCHES/series"

# A hunk whose header counts more lines than it has, in an upstream-only
# file: not applied here, but a corrupt patch all the same.
cp "$PATCHES/0001-add.patch" "$PATCHES/0001-add.patch.good"
sed -i 's/^@@ -0,0 +1 @@$/@@ -0,0 +1,2 @@/' "$PATCHES/0001-add.patch"
expect_refusal "a patch with a wrong hunk header" "stops the stage, naming the patch" \
	"0001-add.patch is not a well-formed patch: error: corrupt patch"
mv "$PATCHES/0001-add.patch.good" "$PATCHES/0001-add.patch"

# upstream-only must not hide a hunk of a file the source has.
echo debian/ >>"$PATCHES/upstream-only"
cat >"$PATCHES/0003-debian.patch" <<'EOF'
diff --git a/debian/changelog b/debian/changelog
--- a/debian/changelog
+++ b/debian/changelog
@@ -1 +1 @@
-x
+y
EOF
echo 0003-debian.patch >>"$PATCHES/series"
expect_refusal "upstream-only naming a file the source has" "is refused" \
	"debian/changelog is listed in upstream-only, but the Debian source has it"

VERSION=0.0-not-a-version
expect_refusal "a version the machine's apt sources do not have" \
	"stops the stage, saying so" "have no source package $PACKAGE=0.0-not-a-version"

# The data of a package (interpreter-patches/NAME/package), malformed:
# build-package.sh refuses it before it fetches anything, saying why.
DATA_DIR=$STAGE_TEST_DIR/packages
mkdir -p "$DATA_DIR/pkg"
echo pkg >"$DATA_DIR/packages"

# package_data_refused WHAT MESSAGE NAME [LINE...]: data of LINEs for
# package NAME is refused with MESSAGE.
package_data_refused() {
	local what=$1 message=$2 name=$3 out
	shift 3
	printf '%s\n' "$@" >"$DATA_DIR/pkg/package"
	if out=$(CHECKEXEC_PACKAGES_DIR=$DATA_DIR "$TOP/scripts/build-package.sh" \
		--print-key "$name" 2>&1); then
		note "$what was accepted: $out"
		fail "package data: $what is refused, saying why"
	elif grep -qF "$message" <<<"$out"; then
		pass "package data: $what is refused, saying why"
	else
		note "$what failed without saying why: $out"
		fail "package data: $what is refused, saying why"
	fi
}

GOOD=("source=dash" "version=0.5.12-2" "build=debian" "install=dash")
package_data_refused "a package without a series" "pkg/series is missing" \
	pkg "${GOOD[@]}"
echo "# no patches" >"$DATA_DIR/pkg/series"
printf '%s\n' "# a comment" "${GOOD[@]}" >"$DATA_DIR/pkg/package"
if key=$(CHECKEXEC_PACKAGES_DIR=$DATA_DIR "$TOP/scripts/build-package.sh" \
	--print-key pkg 2>&1) && [[ $key =~ ^[0-9a-f]{16}$ ]]; then
	pass "package data: well-formed data gives the stage's key"
else
	note "well-formed data: $key"
	fail "package data: well-formed data gives the stage's key"
fi
package_data_refused "a package not in the list" "other is not a package of" \
	other "${GOOD[@]}"
package_data_refused "an unknown field" "unknown field 'configure'" pkg \
	"${GOOD[@]}" "configure=--with-x"
package_data_refused "a missing version" "has no version=" pkg \
	source=dash build=debian install=dash
package_data_refused "an unknown way to build" "build=make is not a way this stage knows" \
	pkg source=dash version=0.5.12-2 build=make install=dash
package_data_refused "no binary package to install" "has no install=" pkg \
	source=dash version=0.5.12-2 build=debian
package_data_refused "a field of build=debian-target with build=debian" \
	"target= is for build=debian-target" pkg "${GOOD[@]}" target=build
package_data_refused "build=debian-target without replace=" \
	"build=debian-target needs replace=" pkg source=dash version=0.5.12-2 \
	build=debian-target target=build install=dash
package_data_refused "a replace= that is not TREE PATH" "is not 'TREE PATH'" pkg \
	source=dash version=0.5.12-2 build=debian-target target=build \
	"replace=src/dash" install=dash
exit "$TAP_FAILED"
