#!/usr/bin/env bash
# The one place that knows which stage needs which: build the stages a
# target needs, in order, each only when its inputs changed, and print the
# time of each.  Every stage script owns exactly its output directory and
# refuses to run when a stage before it has not been built.
#   build-all.sh           everything the guest needs (up to the image)
#   build-all.sh STAGE     STAGE and the stages it needs: deps, kernel,
#                          glibc, testlibs, packages or image
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
	packages) echo deps packages ;;
	image) echo deps kernel glibc testlibs packages image ;;
	*) die "usage: build-all.sh [deps | kernel | glibc | testlibs | packages | image]" ;;
	esac
}

# stage_script STAGE: the script that builds STAGE.
stage_script() {
	case $1 in
	deps) echo "$TOP/scripts/deps.sh" ;;
	packages) echo "$TOP/scripts/build-package.sh" ;;
	*) echo "$TOP/scripts/build-$1.sh" ;;
	esac
}

# Work beside the kernel.  When the image is to be built, three jobs that
# need no stage but deps run beside the kernel stage: glibc's and the
# packages' (their output comes live, each line naming its stage) and the
# bootstrap of the image's Debian base by mkosi (output in a log: it mostly
# downloads and unpacks).  Each build leaves part of the two cores idle
# (unpacking, configure scripts, linking, installing, repacking); side by
# side they fill it (docs/building.md).
declare -A BESIDE_PID=() BESIDE_OUT=() BESIDE_NAME=()

# run_stage STAGE: build STAGE and print its time.
run_stage() {
	local start=$SECONDS
	"$(stage_script "$1")"
	say "stage $1: $((SECONDS - start)) s"
}

# start_beside JOB NAME OUTPUT CMD...: run CMD in the background as JOB,
# shown as NAME, its output to OUTPUT (a file, or - for ours).
start_beside() {
	local job=$1 name=$2 out=$3
	shift 3
	if [ "$out" = - ]; then
		"$@" </dev/null &
	else
		mkdir -p "$(dirname "$out")"
		"$@" >"$out" 2>&1 </dev/null &
		say "$name: beside the other stages (output: $out)"
	fi
	BESIDE_PID[$job]=$!
	BESIDE_OUT[$job]=$out
	BESIDE_NAME[$job]=$name
}

# wait_beside JOB: wait for JOB, show its output if it went to a file; die
# if it failed.
wait_beside() {
	local job=$1 rc=0 waited=$SECONDS name out
	[ -n "${BESIDE_PID[$job]:-}" ] || return 0
	wait "${BESIDE_PID[$job]}" || rc=$?
	unset "BESIDE_PID[$job]"
	name=${BESIDE_NAME[$job]} out=${BESIDE_OUT[$job]}
	[ "$out" = - ] || cat "$out"
	[ "$rc" -eq 0 ] || die "$name failed beside the other stages (its output above)"
	say "$name: done beside the other stages; waited $((SECONDS - waited)) s for it"
}

# process_tree PID: PID and its descendants, one per line.
process_tree() {
	local child
	echo "$1"
	for child in $(pgrep -P "$1" || true); do
		process_tree "$child"
	done
}

# stop_beside JOB: end JOB and everything it started (a job in the
# background of a script ignores SIGINT, so ^C alone would not stop it).
stop_beside() {
	local pids
	[ -n "${BESIDE_PID[$1]:-}" ] || return 0
	say "stopping ${BESIDE_NAME[$1]}"
	pids=$(process_tree "${BESIDE_PID[$1]}")
	# shellcheck disable=SC2086 # one PID a word
	kill -TERM $pids 2>/dev/null || true
	wait "${BESIDE_PID[$1]}" || true
	unset "BESIDE_PID[$1]"
}

# On ^C or a TERM, the builds beside stop too; the Debian base's bootstrap
# (a few minutes) is let end, as on any early exit.
trap 'stop_beside glibc; stop_beside packages; exit 130' INT
trap 'stop_beside glibc; stop_beside packages; exit 143' TERM

# A build that stops early lets the jobs beside it end: their work is kept
# for the next run, and mkosi leaves neither a loop device nor a
# half-written cache behind.
wait_beside_on_exit() {
	local job
	for job in "${!BESIDE_PID[@]}"; do
		say "waiting for ${BESIDE_NAME[$job]} to end (its work is kept for the next run)"
		wait "${BESIDE_PID[$job]}" || true
	done
}

[ $# -le 1 ] || die "usage: build-all.sh [STAGE]"
target=${1:-image}
trap wait_beside_on_exit EXIT
for stage in $(stages_for "$target"); do
	if [ "$stage" = image ]; then
		wait_beside glibc
		wait_beside packages
		wait_beside base
	fi
	[ -z "${BESIDE_PID[$stage]:-}" ] || continue
	run_stage "$stage"
	# mkosi is one of the packages deps.sh installs.
	if [ "$stage" = deps ] && [ "$target" = image ]; then
		start_beside base "the image's Debian base" \
			"$LOGS/image-base.out" "$TOP/scripts/build-image.sh" --base
		say "kernel, glibc and the packages side by side (each says whether it is up to date; all built: $(fresh_time kernel-glibc-packages))"
		start_beside glibc "stage glibc" - run_stage glibc
		start_beside packages "stage packages" - run_stage packages
	fi
done
