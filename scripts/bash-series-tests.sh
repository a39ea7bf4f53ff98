#!/usr/bin/env bash
# Tests of interpreter-patches/bash that the script matrix cannot make: what
# bash prints, not only what it runs.  Each case runs a copy of BASH as
# nobody with exec securebits set (the host kernel's, 6.14 or later: perl's
# syscall() sets them, prctl being 157 on x86_64) and looks at its output.
#   bash-series-tests.sh BASH
# One line per case on standard output, "PASS: series: NAME" or
# "FAIL: series: NAME"; each case's output goes to standard error.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: bash-series-tests.sh BASH (an executable bash)" >&2
	exit 2
fi
RESTRICT_FILE=256 DENY_INTERACTIVE=1024
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# nobody runs the copy: the build tree may be in root's home.
chmod 0755 "$work"
cp "$1" "$work/bash"
printf 'true\n' >"$work/true.sh"
printf 'set -o history\nhistory -s "echo ran"\nfc -s\n' >"$work/fc-s.sh"
chmod 0755 "$work/true.sh" "$work/fc-s.sh"

# as_nobody BITS COMMAND...: COMMAND as nobody, with the securebits BITS.
as_nobody() {
	local bits=$1
	shift
	# shellcheck disable=SC2016 # perl's code
	setpriv --reuid=65534 --regid=65534 --clear-groups -- /usr/bin/perl -e '
		syscall(157, 28, $ARGV[0] + 0, 0, 0, 0) == 0
			or die "PR_SET_SECUREBITS $ARGV[0]: $!\n";
		shift;
		exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\n";' "$bits" "$@"
}

# case NAME WANTED UNWANTED BITS COMMAND...: a PASS line if COMMAND's output
# (both streams) has a line matching the extended regular expression WANTED
# and none matching UNWANTED.
case_() {
	local name=$1 wanted=$2 unwanted=$3 out
	shift 3
	out=$(cd "$work" && as_nobody "$@" 2>&1) || true
	printf '== %s\n%s\n' "$name" "$out" >&2
	if grep -Eq -- "$wanted" <<<"$out" && ! grep -Eq -- "$unwanted" <<<"$out"; then
		echo "PASS: series: $name"
	else
		echo "FAIL: series: $name"
	fi
}

case_ "a PS4 that runs nothing is taken from the environment, unreported" \
	'^\+\+ true$' 'system policy' \
	"$DENY_INTERACTIVE" env 'PS4=++ ' ./bash -x true.sh
case_ "a PS4 whose prompt escape makes a \$( is refused" \
	"cannot run the environment's PS4: not allowed by the system policy" '^ran$' \
	"$DENY_INTERACTIVE" env 'PS4=\044(echo ran >&2)+ ' ./bash -x true.sh
# shellcheck disable=SC2016 # the code bash must not run
case_ "a PS4 with a command substitution is refused" \
	"cannot run the environment's PS4: not allowed by the system policy" '^ran$' \
	"$DENY_INTERACTIVE" env 'PS4=$(echo ran >&2)+ ' ./bash -x true.sh
case_ "fc -s under SECBIT_EXEC_DENY_INTERACTIVE is refused" \
	'cannot run commands from the history: not allowed by the system policy' '^ran$' \
	"$DENY_INTERACTIVE" ./bash fc-s.sh
case_ "fc -s under SECBIT_EXEC_RESTRICT_FILE alone runs what was typed" \
	'^ran$' 'system policy' \
	"$RESTRICT_FILE" ./bash fc-s.sh
