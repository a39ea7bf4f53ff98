# shellcheck shell=bash
# The "ok - PREFIX: ..." / "not ok - PREFIX: ..." lines of a host test
# script, which check.sh counts.  Set TAP_PREFIX before the first line;
# TAP_FAILED is 1 once anything failed (the script's exit status).
# shellcheck disable=SC2034 # TAP_FAILED is read by the scripts that source this
TAP_PREFIX=${TAP_PREFIX:-host} TAP_FAILED=0
pass() { echo "ok - $TAP_PREFIX: $*"; }
fail() {
	echo "not ok - $TAP_PREFIX: $*"
	# shellcheck disable=SC2034
	TAP_FAILED=1
}
