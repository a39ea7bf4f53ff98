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

[ $# -le 1 ] || die "usage: build-all.sh [STAGE]"
for stage in $(stages_for "${1:-image}"); do
	start=$SECONDS
	"$(stage_script "$stage")"
	say "stage $stage: $((SECONDS - start)) s"
done
