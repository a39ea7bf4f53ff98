#!/usr/bin/env bash
# python3.11's own tests of the series, run on the host with the files the
# image installs: the repacked .debs of interpreter-patches/python3.11,
# unpacked into a directory (their code files given an execute bit, as the
# image does), with the test package of the same source tree.
#   check-python.sh             (make check, make check-python)
#     - every test the series adds (test_execpolicy) must pass: the host
#       kernel must have the exec securebits (Linux 6.14 or later), a
#       skipped test is a failure here;
#     - the test modules that cover the code the series touches, patched,
#       against the recorded results of the unpatched build
#       (scripts/python-test-baseline): no test that passes there may fail
#       (or not run) patched.  A record made for another source, compiler
#       or host kernel is a failure that names the target making a new one.
#   check-python.sh --baseline  (make check-python-baseline, not in make
#     check) builds the unpatched package, runs the same modules and
#     writes the record (or compares with the one of this machine).
# One TAP line per result ("ok - python3: ..."); exit status 1 on any
# failure.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
TAP_PREFIX=python3
# shellcheck source=scripts/tap.sh
source "$TOP/scripts/tap.sh"
# shellcheck source=scripts/test-record.sh
source "$TOP/scripts/test-record.sh"
hold_build_lock

PACKAGE=python3.11
# The test the series adds (71 tests: fewer is a failure), and the modules
# that cover what it touches
# (io.open_code, the import system, zipimport, runpy, site, the command
# line, bytecode caches, ctypes's callbacks and the runners of scripts).
SERIES_TEST=test_execpolicy
SUBSET=(test_importlib test_runpy test_site test_cmd_line test_cmd_line_script
	test_zipimport test_compileall test_py_compile test_ctypes test_pdb
	test_profile test_cprofile test_trace test_io)
BASELINE=$TOP/scripts/python-test-baseline
RECORD_HEADER="# python3.11's test modules that cover the check-exec series, on
# Debian's source without the series: the baseline scripts/check-python.sh
# compares the patched run with.  Written by 'make check-python-baseline'
# (do not edit); valid while every 'depends:' line is true of the machine."

# machine_facts: what the results depend on besides the source.
machine_facts() {
	package_facts
}

# unpack_root DEBS SOURCE ROOT: the .debs of DEBS unpacked into ROOT, their
# code files made executable (images/.../fix-library-modes does the same
# in the image), with the test packages of the source tree SOURCE (Debian
# ships them in libpython3.11-testsuite) and ctypes.macholib, which
# ctypes's tests import and Debian leaves out.
unpack_root() {
	local deb lib=$3/usr/lib/python3.11 dir
	rm -rf "$3"
	mkdir -p "$3"
	for deb in "$1"/*.deb; do
		dpkg-deb -x "$deb" "$3"
	done
	for dir in test ctypes/test ctypes/macholib; do
		rm -rf "${lib:?}/$dir"
		cp -a "$2/Lib/$dir" "$lib/$dir"
	done
	# Debian's sitecustomize is a link to /etc: to the root's own copy.
	ln -sfn ../../../etc/python3.11/sitecustomize.py "$lib/sitecustomize.py"
	find "$3/usr/lib" "$3/etc" -type f \( -name '*.py' -o -name '*.so' \) \
		-exec chmod a+x {} +
}

# run_modules ROOT RESULTS MODULE...: run the test modules with ROOT's
# interpreter and write "RESULT: test id" lines (PASS, FAIL, ERROR, SKIP),
# sorted, to RESULTS.  Run by run_step.
# shellcheck disable=SC2317
run_modules() {
	local root=$1 results=$2 xml
	shift 2
	xml=$results.xml
	rm -f "$xml"
	# Failures are in the results; regrtest's status says no more.  SIGINT
	# is reset: a make check started in the background inherits it ignored,
	# and test_pdb's doctests print the handler they find.
	(cd "$root" && PYTHONHOME=$root/usr env --default-signal=INT \
		"$root/usr/bin/python3.11" -m test \
		-j "$JOBS" --timeout 600 --junit-xml "$xml" "$@") || true
	[ -s "$xml" ] || { echo "regrtest wrote no results"; return 1; }
	python3 - "$xml" <<'PY' | LC_ALL=C sort >"$results"
import sys
import xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).iter('testcase'):
    kinds = {child.tag for child in case}
    result = ('ERROR' if 'error' in kinds else 'FAIL' if 'failure' in kinds
              else 'SKIP' if 'skipped' in kinds else 'PASS')
    # regrtest gives the whole test id as the name.
    print(f"{result}: {case.get('name')}")
PY
	echo "$(wc -l <"$results") results"
}

# suite VARIANT (patched or unpatched): build the package's variant and
# run the modules with it; RESULTS is the results file.
suite() {
	local variant=$1 flag=() debs src root
	[ "$variant" = patched ] || flag=(--unpatched)
	"$TOP/scripts/build-package.sh" "${flag[@]}" "$PACKAGE"
	if [ "$variant" = patched ]; then
		debs=$BUILD/packages/$PACKAGE/debs
	else
		debs=$BUILD/packages-unpatched/$PACKAGE/debs
	fi
	src=$("$TOP/scripts/build-package.sh" --print-source "${flag[@]}" "$PACKAGE")
	root=$BUILD/python-tests/$variant
	unpack_root "$debs" "$src" "$root"
	RESULTS=$BUILD/python-tests/$variant.results
	local modules=("${SUBSET[@]}")
	[ "$variant" = unpatched ] || modules+=("$SERIES_TEST")
	say "python3 ($variant): the test modules take $(fresh_time python-tests)"
	run_step "python3 ($variant): run ${#modules[@]} test modules" \
		"$LOGS/python-$variant-tests.log" run_modules "$root" "$RESULTS" "${modules[@]}"
}

check_series() {
	check_record_current "$BASELINE" "python3.11 test results" \
		"make check-python-baseline"
	suite patched
	series_tests_ran 71 "$LOGS/python-patched-tests.log" \
		< <(grep "^[A-Z]*: test\.$SERIES_TEST\." "$RESULTS" | sed 's/: test\./: /')
	compare_package_tests "test modules" "test\.$SERIES_TEST\."
}

make_baseline() {
	suite unpatched
	record_package_tests "python3.11 test modules" "make check-python-baseline"
}

case ${1:-} in
"") check_series ;;
--baseline) make_baseline ;;
*) die "usage: check-python.sh [--baseline]" ;;
esac
exit "$TAP_FAILED"
