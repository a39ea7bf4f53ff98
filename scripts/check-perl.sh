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

# library_interface LIB: the SONAME and NEEDED entries of the shared
# library LIB, then its exported symbols ("symbol TYPE NAME@VERSION"),
# sorted.  Run by libperl_is_the_build.
# shellcheck disable=SC2317
library_interface() {
	readelf --dynamic --wide "$1" |
		sed -n 's/.*(\(SONAME\|NEEDED\)).*\[\(.*\)\]$/\1 \2/p'
	nm --dynamic --defined-only --with-symbol-versions "$1" |
		awk '{ print "symbol", $2, $3 }' | LC_ALL=C sort
}

# series_functions: "symbol T Perl_NAME" for each function the series adds
# to embed.fnc with the flag p (a Perl_ function libperl exports).  Run by
# libperl_is_the_build.
# shellcheck disable=SC2317
series_functions() {
	local patch
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/interpreter-patches/perl/series" |
		while read -r patch; do
			awk '/^diff --git / { in_embed = ($3 == "a/embed.fnc") }
				in_embed && /^\+[^+]/ {
					split(substr($0, 2), field, "|")
					gsub(/[[:space:]]/, "", field[1])
					gsub(/[[:space:]]/, "", field[3])
					if (field[1] ~ /^[A-Za-z]*p[A-Za-z]*$/)
						print "symbol T Perl_" field[3]
				}' "$TOP/interpreter-patches/perl/$patch"
		done | LC_ALL=C sort
}

# libperl_is_the_build: the image's libperl5.36 has the shared flavour's
# libperl.so.5.36.0 (the same build ID), and that library has the SONAME,
# the NEEDED entries and the exported symbols of Debian's, and the series'
# functions besides: Debian's rules build only the library of that flavour
# here (the series' debian/rules, make=shared_goals=), which must be the
# library Debian's whole build makes.  Run by check.
# shellcheck disable=SC2317
libperl_is_the_build() {
	local src debian tmp built lib rc=0
	# Where the package data puts the flavour's library.
	read -r built lib < <(sed -n 's,^replace=\(build-shared/libperl\.so\.[0-9.]*\) ,\1 ,p' \
		"$TOP/interpreter-patches/perl/package")
	[ -n "$lib" ] || { note "interpreter-patches/perl/package has no replace= of build-shared/libperl.so"; return 1; }
	src=$("$TOP/scripts/build-package.sh" --print-source perl)
	built=$src/$built
	tmp=$(mktemp -d)
	unpack_package perl libperl5.36 "$tmp/ours" || { rm -rf "$tmp"; return 1; }
	"$TOP/scripts/build-package.sh" --debian perl >/dev/null || {
		note "Debian's perl packages could not be fetched (build-package.sh --debian perl)"
		rm -rf "$tmp"
		return 1
	}
	debian=$(find "$BUILD/packages-debian/perl/debs" -name 'libperl5.36_*.deb' -print -quit)
	dpkg-deb -x "$debian" "$tmp/debian"
	package_has_binary "$built" "$tmp/ours" "$lib" || rc=1
	library_interface "$tmp/debian/$lib" >"$tmp/debian.interface"
	series_functions >"$tmp/series.functions"
	library_interface "$tmp/ours/$lib" >"$tmp/ours.interface"
	if ! LC_ALL=C sort "$tmp/debian.interface" "$tmp/series.functions" |
		diff - <(LC_ALL=C sort "$tmp/ours.interface") >"$tmp/diff"; then
		note "the package's /$lib differs from Debian's and the series' functions (< expected, > ours):"
		note "$(cat "$tmp/diff")"
		rc=1
	fi
	rm -rf "$tmp"
	return "$rc"
}

check_series() {
	check "the package has the shared flavour's libperl.so.5.36.0, with Debian's SONAME, NEEDED and symbols and the series' functions" \
		libperl_is_the_build
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
