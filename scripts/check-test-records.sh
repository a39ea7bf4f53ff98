#!/usr/bin/env bash
# The records of unpatched test results (scripts/test-record.sh) on
# records made here for two made-up machines: the record of this machine
# is the one used, whether it is the newest or kept beside it; with none,
# the newest is compared with and the check says so; a new record keeps
# the other machine's beside it, unchanged; a record of this machine is
# compared with, not replaced.  Run by make check; prints one TAP line per
# check ("ok - test records: ..."); exit status 1 on any failure.
# shellcheck disable=SC2317 # the checks are called by name
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
TAP_PREFIX="test records"
# shellcheck source=scripts/tap.sh
source "$TOP/scripts/tap.sh"
# shellcheck source=scripts/test-record.sh
source "$TOP/scripts/test-record.sh"
DIR=$(mktemp -d /tmp/checkexec-test-records-XXXXXX)
trap 'rm -rf "$DIR"' EXIT

# The machine the functions take this one for.
MACHINE=a
machine_facts() { echo "depends: machine $MACHINE"; }

# record FILE MACHINE RESULT...: a record made on MACHINE.
record() {
	local file=$1 machine=$2
	shift 2
	{
		echo "# a record"
		echo "depends: machine $machine"
		printf '%s\n' "$@"
	} >"$file"
}

# results_are RECORD LINE...: record_results_for RECORD gives the LINEs.
results_are() {
	local got
	got=$(record_results_for "$1")
	[ "$got" = "$(printf '%s\n' "${@:2}")" ] || {
		note "record_results_for $1: $got"
		return 1
	}
}

# on MACHINE CMD...: CMD with this machine taken for MACHINE.
on() {
	local MACHINE=$1
	"${@:2}"
}

# no_current_record RECORD: record_is_current refuses RECORD.
no_current_record() {
	! record_is_current "$1" >/dev/null
}

# kept_beside: the record of machine b was replaced by a's and is kept
# beside it, unchanged.
kept_beside() {
	local kept
	kept=$(find "$DIR" -name 'write.*' | head -n 1)
	[ -n "$kept" ] && cmp -s "$kept" "$DIR/b-record" &&
		grep -qx 'depends: machine a' "$DIR/write"
}

# verdict NAME CMD...: CMD's TAP lines (a subshell: its results are not
# this script's) in $DIR/NAME.
verdict() {
	local name=$1
	shift
	("$@") >"$DIR/$name" 2>&1 || true
}

record "$DIR/two" b "PASS: one" "FAIL: two"
record "$DIR/two.0123456789abcdef" a "PASS: one" "PASS: two"
check "the record of this machine kept beside the newest is the one used" \
	on a results_are "$DIR/two" "PASS: one" "PASS: two"
check "the newest record is used on its own machine" \
	on b results_are "$DIR/two" "PASS: one" "FAIL: two"
check "with no record of this machine, the check says so" \
	on c no_current_record "$DIR/two"
check "with no record of this machine, the newest is compared with" \
	on c results_are "$DIR/two" "PASS: one" "FAIL: two"

record "$DIR/write" b "PASS: one"
cp "$DIR/write" "$DIR/b-record"
record "$DIR/new" a "PASS: one" "PASS: two"
verdict written on a keep_or_write_record "$DIR/new" "$DIR/write" \
	"$DIR/new" "suite" "make x"
check "a new record keeps the other machine's beside it, unchanged" \
	kept_beside
check "a new record is said to be written" \
	grep -q "^ok - test records: recorded the unpatched suite in $DIR/write" \
	"$DIR/written"

record "$DIR/new" a "PASS: one" "FAIL: two"
verdict compared on a keep_or_write_record "$DIR/new" "$DIR/write" \
	"$DIR/new" "suite" "make x"
check "a record of this machine is compared with, and a difference fails" \
	grep -q "^not ok - test records: the unpatched suite differs" \
	"$DIR/compared"
check "a record of this machine is not replaced by a run that differs" \
	grep -qx "PASS: two" "$DIR/write"
exit "$TAP_FAILED"
