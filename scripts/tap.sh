# shellcheck shell=bash
# The "ok - PREFIX: ..." / "not ok - PREFIX: ..." lines of a host test
# script; make check numbers them into its stream (scripts/results.sh).
# Set TAP_PREFIX before the first line; TAP_FAILED is 1 once anything
# failed (the script's exit status).  A description is a result's name: it
# must be the same whether the result passes or fails, and from run to run;
# what varies goes to a "# " line (note) before it.
# shellcheck disable=SC2034 # TAP_FAILED is read by the scripts that source this
TAP_PREFIX=${TAP_PREFIX:-host} TAP_FAILED=0
pass() { echo "ok - $TAP_PREFIX: $*"; }
fail() {
	echo "not ok - $TAP_PREFIX: $*"
	# shellcheck disable=SC2034
	TAP_FAILED=1
}
# note TEXT: TEXT as diagnostic lines ("# ..."), one per line of TEXT.
note() { printf '%s\n' "$*" | sed 's/^/# /'; }
# check DESCRIPTION CMD...: one result, CMD's verdict.
check() {
	local description=$1
	shift
	if "$@"; then
		pass "$description"
	else
		fail "$description"
	fi
}
