#!/usr/bin/env bash
# The one place that knows which stage needs which: build the stages a
# target needs, in order, each only when its inputs changed, and print the
# time of each.  Every stage script owns exactly its output directory and
# refuses to run when a stage before it has not been built.
#   build-all.sh           everything the guest needs (up to the image)
#   build-all.sh STAGE     STAGE and the stages it needs: deps, kernel,
#                          glibc, testlibs or image
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
hold_build_lock

# stages_for STAGE: the stages STAGE is built from, and STAGE, in order.
stages_for() {
	case $1 in
	deps) echo deps ;;
	kernel) echo deps kernel ;;
	glibc) echo deps glibc ;;
	testlibs) echo deps kernel testlibs ;;
	image) echo deps kernel glibc testlibs image ;;
	*) die "usage: build-all.sh [deps | kernel | glibc | testlibs | image]" ;;
	esac
}

# stage_script STAGE: the script that builds STAGE.
stage_script() {
	case $1 in
	deps) echo "$TOP/scripts/deps.sh" ;;
	*) echo "$TOP/scripts/build-$1.sh" ;;
	esac
}

# The image's Debian base needs no other stage: when the image is to be
# built, mkosi bootstraps its base (if it is not cached) beside the other
# stages.  It mostly downloads and unpacks, so it slows them by less than
# it takes (docs/building.md).
BASE_PID=
BASE_OUT=$LOGS/image-base.out
start_base() {
	mkdir -p "$LOGS"
	"$TOP/scripts/build-image.sh" --base >"$BASE_OUT" 2>&1 </dev/null &
	BASE_PID=$!
	say "image: the Debian base beside the other stages (output: $BASE_OUT)"
}

# wait_base: wait for the base, show its output; die if it failed.
wait_base() {
	local rc=0 start=$SECONDS
	[ -n "$BASE_PID" ] || return 0
	wait "$BASE_PID" || rc=$?
	BASE_PID=
	cat "$BASE_OUT"
	[ "$rc" -eq 0 ] || die "image: the Debian base failed (output above)"
	say "image: waited $((SECONDS - start)) s for the Debian base"
}

# A build that stops early lets a running bootstrap end, so that mkosi
# leaves neither a loop device nor a half-written cache behind.
wait_base_on_exit() {
	[ -n "$BASE_PID" ] || return 0
	say "image: waiting for the Debian base to end (output: $BASE_OUT)"
	wait "$BASE_PID" || true
}

[ $# -le 1 ] || die "usage: build-all.sh [STAGE]"
trap wait_base_on_exit EXIT
for stage in $(stages_for "${1:-image}"); do
	[ "$stage" != image ] || wait_base
	start=$SECONDS
	"$(stage_script "$stage")"
	say "stage $stage: $((SECONDS - start)) s"
	# mkosi is one of the packages deps.sh installs.
	if [ "$stage" = deps ] && [ "${1:-image}" = image ]; then
		start_base
	fi
done
