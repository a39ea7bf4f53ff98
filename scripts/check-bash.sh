#!/usr/bin/env bash
# bash's own tests of what the series touches, run on the host in the build
# tree of interpreter-patches/bash (Debian's build-bash: the image's
# /bin/bash), against the recorded results of the unpatched build
# (scripts/bash-test-baseline): no test that passes there may fail patched.
# bash's tests are scripts whose output is compared with a recorded one
# (tests/run-NAME): one result each.  The series' own tests are the script
# matrix (make check's guest part) and scripts/bash-series-tests.sh, run
# here on the patched build with the host's securebits (what bash prints
# under them); bash's tests show that nothing else changed.
#   check-bash.sh             (make check, make check-bash)
#   check-bash.sh --baseline  (make check-bash-baseline, not in make check)
#     builds the unpatched package, runs the same tests and writes the
#     record (or compares with the one of this machine).  A record made for
#     another source, compiler or host kernel is a failure that names it.
# One TAP line per result ("ok - bash: ..."); exit status 1 on any failure.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
TAP_PREFIX=bash
# shellcheck source=scripts/tap.sh
source "$TOP/scripts/tap.sh"
# shellcheck source=scripts/test-record.sh
source "$TOP/scripts/test-record.sh"
hold_build_lock

PACKAGE=bash
# bash's tests of the code the series touches: scripts and sourced files
# (builtins, execscript, func, errors), exported functions, PS4 and xtrace,
# fc and the history, commands from standard input, the debugger's start
# file, the environment, POSIX mode and the restricted shell.
SUBSET=(builtins execscript exportfunc set-x history input-test dbg-support
	dbg-support2 varenv posix2 rsh func errors)
# The cases of bash-series-tests.sh (fewer is a failure).
SERIES_COUNT=5
BASELINE=$TOP/scripts/bash-test-baseline
RECORD_HEADER="# bash's tests that cover the check-exec series, on Debian's source without
# the series: the baseline scripts/check-bash.sh compares the patched run
# with.  Written by 'make check-bash-baseline' (do not edit); valid while
# every 'depends:' line is true of the machine."

# machine_facts: what the results depend on besides the source (root or
# not: execscript's scripts say so).
machine_facts() {
	package_facts
	echo "depends: user $(id -u)"
}

# run_tests SOURCE RESULTS TEST...: run each test (tests/run-TEST) with the
# bash of SOURCE's build-bash, as bash's make tests does, and write sorted
# "PASS: TEST" or "FAIL: TEST" lines (no difference from the recorded
# output, or some) to RESULTS; each test's output is in the step's log.
# Run by package_tests.
# shellcheck disable=SC2317
run_tests() {
	local src=$1 results=$2 build=$1/build-bash test out result
	shift 2
	[ -x "$build/bash" ] || { echo "no bash in $build"; return 1; }
	# The helpers the tests run, as make tests builds them.
	make -C "$build" recho zecho printenv xcase
	mkdir -p "$build/tests"
	cp "$build/recho" "$build/zecho" "$build/printenv" "$build/xcase" "$build/tests/"
	out=$(mktemp -d)
	for test; do
		echo "== run-$test"
		result=PASS
		(cd "$src/tests" && BASH_TSTOUT=$out/output BUILD_DIR=$build \
			PATH=$build/tests:$PATH THIS_SH=$build/bash \
			timeout 300 sh "./run-$test") >"$out/run" 2>&1 || result=FAIL
		cat "$out/run"
		echo "$result: $test" >>"$out/results"
	done
	LC_ALL=C sort "$out/results" >"$results"
	rm -rf "$out"
	echo "$(wc -l <"$results") results"
}

# package_has_build: the image's bash package (build/packages/bash)
# has the tree's build-bash/bash at /bin/bash (the same build ID) and its
# doc/bash.1, with the series' paragraphs, compressed as the manual page.
# Run by check.
# shellcheck disable=SC2317
package_has_build() {
	local src tmp rc=0
	src=$("$TOP/scripts/build-package.sh" --print-source bash)
	tmp=$(mktemp -d)
	unpack_package bash bash "$tmp/root" || { rm -rf "$tmp"; return 1; }
	package_has_binary "$src/build-bash/bash" "$tmp/root" bin/bash || rc=1
	zcat "$tmp/root/usr/share/man/man1/bash.1.gz" 2>/dev/null | cmp -s - "$src/doc/bash.1" ||
		{ note "the package's bash.1.gz is not $src/doc/bash.1, compressed"; rc=1; }
	grep -q BASH_EXEC_CHECK "$src/doc/bash.1" ||
		{ note "$src/doc/bash.1 does not document BASH_EXEC_CHECK"; rc=1; }
	rm -rf "$tmp"
	return "$rc"
}

case ${1:-} in
"")
	check "the package has build-bash/bash as /bin/bash and the series' bash.1 as its manual page" \
		package_has_build
	check_record_current "$BASELINE" "bash test results" "make check-bash-baseline"
	package_tests patched run_tests "${SUBSET[@]}"
	compare_package_tests "tests"
	series_tests_ran "$SERIES_COUNT" "$LOGS/bash-series-tests.log" < <(
		"$TOP/scripts/bash-series-tests.sh" \
			"$("$TOP/scripts/build-package.sh" --print-source bash)/build-bash/bash" \
			2>"$LOGS/bash-series-tests.log")
	;;
--baseline)
	package_tests unpatched run_tests "${SUBSET[@]}"
	record_package_tests "bash tests" "make check-bash-baseline"
	;;
*) die "usage: check-bash.sh [--baseline]" ;;
esac
exit "$TAP_FAILED"
