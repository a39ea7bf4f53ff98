#!/usr/bin/env bash
# perl's own tests of the series, run on the host in the build tree of
# interpreter-patches/perl (its static flavour: /usr/bin/perl of the image).
#   check-perl.sh             (make check, make check-perl)
#     - every test the series adds (t/run/exec_check.t) must pass: the host
#       kernel must have the exec securebits (Linux 6.14 or later), a
#       skipped test is a failure here;
#     - perl's tests of what the series touches (require, use, do, @INC
#       hooks, the switches, PERL5OPT, the debugger, AutoLoader), patched,
#       against the recorded results of the unpatched build
#       (scripts/perl-test-baseline): no test that passes there may fail
#       (or not run) patched.  A record made for another source, compiler
#       or host kernel is a failure that names the target making a new one.
#   check-perl.sh --baseline  (make check-perl-baseline, not in make check)
#     builds the unpatched package, runs the same tests and writes the
#     record (or compares with the one of this machine).
# One TAP line per result ("ok - perl: ..."); exit status 1 on any failure.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
TAP_PREFIX=perl
# shellcheck source=scripts/tap.sh
source "$TOP/scripts/tap.sh"
# shellcheck source=scripts/test-record.sh
source "$TOP/scripts/test-record.sh"
hold_build_lock

PACKAGE=perl
# The tests the series adds (89 in all: fewer is a failure), and perl's
# tests of the code it touches, relative to t/.
SERIES_TESTS=(run/exec_check.t ../dist/Term-ReadLine/t/PERL_RL.t)
SERIES_COUNT=89
# The series tests' names in a result line ("RESULT: FILE N"), as an
# extended regular expression.
SERIES_NAMES="($(IFS='|' && echo "${SERIES_TESTS[*]//./\\.}")) "
SUBSET=(op/require_errors.t comp/require.t op/do.t op/inccode.t
	op/inccode-tie.t run/switches.t run/switchx.t run/switchd.t run/switchM.t
	run/switchF.t run/switchF1.t run/switchF2.t run/switcha.t run/switchI.t
	run/runenv.t run/script.t run/noswitch.t ../cpan/AutoLoader/t/01AutoLoader.t
	../lib/perl5db.t)
BASELINE=$TOP/scripts/perl-test-baseline
RECORD_HEADER="# perl's tests that cover the check-exec series, on Debian's source without
# the series: the baseline scripts/check-perl.sh compares the patched run
# with.  Written by 'make check-perl-baseline' (do not edit); valid while
# every 'depends:' line is true of the machine."

# machine_facts: what the results depend on besides the source.
machine_facts() {
	package_facts
}

# tap_results FILE: "RESULT: FILE N" for each test of FILE's TAP on stdin
# (PASS, FAIL, SKIP, TODO).  Run by run_tests.
# shellcheck disable=SC2317
tap_results() {
	awk -v file="$1" '
		/^(not )?ok [0-9]+/ {
			n = $1 == "not" ? $3 : $2
			result = $1 == "not" ? "FAIL" : "PASS"
			if ($0 ~ /# *[Ss][Kk][Ii][Pp]/)
				result = "SKIP"
			else if ($0 ~ /# *TODO/)
				result = "TODO"
			print result ": " file " " n
		}'
}

# run_tests SOURCE RESULTS TEST...: run each test file with the perl of
# the static build tree of SOURCE (from its t/, as perl's harness does)
# and write the sorted results to RESULTS; each file's output is in the
# step's log.  Run by package_tests.
# shellcheck disable=SC2317
run_tests() {
	local build=$1/build-static results=$2 test
	shift 2
	[ -x "$build/perl" ] || { echo "no perl in $build"; return 1; }
	# perl's tests run t/perl; Debian's build (without its tests) made no
	# link.
	ln -sfn ../perl "$build/t/perl"
	: >"$results.all"
	for test; do
		echo "== $test"
		(cd "$build/t" && ./perl -I../lib "$test" 2>&1) >"$results.one" || true
		cat "$results.one"
		tap_results "$test" <"$results.one" >>"$results.all"
	done
	LC_ALL=C sort "$results.all" >"$results"
	rm -f "$results.one" "$results.all"
	echo "$(wc -l <"$results") results"
}


check_series() {
	check_record_current "$BASELINE" "perl test results" \
		"make check-perl-baseline"
	package_tests patched run_tests "${SUBSET[@]}" "${SERIES_TESTS[@]}"
	series_tests_ran "$SERIES_COUNT" "$LOGS/perl-patched-tests.log" \
		< <(grep -E "^[A-Z]+: $SERIES_NAMES" "$RESULTS" | sort -t' ' -k2,2 -k3,3n)
	compare_package_tests "test files" "$SERIES_NAMES"
}

make_baseline() {
	package_tests unpatched run_tests "${SUBSET[@]}"
	record_package_tests "perl test files" "make check-perl-baseline"
}

case ${1:-} in
"") check_series ;;
--baseline) make_baseline ;;
*) die "usage: check-perl.sh [--baseline]" ;;
esac
exit "$TAP_FAILED"
