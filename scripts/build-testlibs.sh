#!/usr/bin/env bash
# Build the guest's test programs (testlibs/) against the kernel stage's
# UAPI headers.  Output: build/testlibs/root, the tree build-image.sh lays
# over the image.  The stage is keyed by exactly what the programs are built
# from: testlibs/ (but its list of expected results), the headers' content
# and the compiler; a kernel change that leaves the headers alone (a
# bzImage-only change) rebuilds nothing.
#   build-testlibs.sh              build, unless build/testlibs is up to date
#   build-testlibs.sh --print-key  print the stage's key and stop
# KERNEL_OUT (default build/kernel): the kernel stage's output to build on
# (make check's key test points it at a changed copy).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

OUT=$BUILD/testlibs
KERNEL_OUT=${KERNEL_OUT:-$BUILD/kernel}
HEADERS=$KERNEL_OUT/headers

case ${1:-} in
"" | --print-key) ;;
*) die "usage: build-testlibs.sh [--print-key]" ;;
esac
[ -d "$HEADERS/include" ] ||
	die "no UAPI headers in $HEADERS (run: make kernel)"

# Everything in testlibs/ but the list of expected results, which nothing
# is built from (scripts/check.sh reads it): a new list rebuilds nothing.
mapfile -t inputs < <(cd "$TOP" && find testlibs -mindepth 1 -maxdepth 1 \
	! -name expected-results | LC_ALL=C sort)
key=$(content_key "gcc=$(gcc -dumpfullversion)" "${inputs[@]}" \
	scripts/build-testlibs.sh scripts/lib.sh \
	"headers=$(tree_hash "$HEADERS")")
if [ "${1:-}" = --print-key ]; then
	echo "$key"
	exit 0
fi

hold_build_lock
if [ -f "$OUT/.key" ] && [ "$(cat "$OUT/.key")" = "$key" ]; then
	say "testlibs: up to date ($OUT)"
	exit 0
fi
# The image gets exactly what testlibs/Makefile installs: nothing an earlier
# build (an older layout) installed may linger, and no object built against
# other headers may be reused.
rm -rf "$OUT"
run_step "testlibs: build the test programs" "$LOGS/testlibs.log" \
	make -C "$TOP/testlibs" -j"$JOBS" O="$OUT" KHDR="$HEADERS/include"
echo "$key" >"$OUT/.key"
say "testlibs: $OUT/root"
