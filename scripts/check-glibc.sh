#!/usr/bin/env bash
# glibc's own tests of the series, run on the host from the build trees.
#   check-glibc.sh             (make check, make check-glibc)
#     - the manual text of the series is valid Texinfo;
#     - every test of the series (elf/tst-exec-check*, elf/tst-load-nonregular,
#       elf/tst-load-lease) must PASS (the host kernel must know
#       AT_EXECVE_CHECK: UNSUPPORTED is a failure here);
#     - glibc's whole elf suite, patched, against the recorded results of
#       the unpatched tree (scripts/glibc-elf-baseline): no test that passes
#       there may fail (or not run) patched.  A record made for another
#       glibc source, compiler, binutils, host kernel or CPU is a failure
#       that names the target making a new one.
#   check-glibc.sh --baseline  (make check-glibc-baseline, not in make check)
#     builds the unpatched tree, runs its elf suite and writes the record
#     (or, when the record is for this machine already, compares the run
#     with it and fails on a difference; BASELINE_WRITE=1 writes it anyway).
# Prints one TAP line per result ("ok - glibc: ..."); exit status 1 on any
# failure.  The patched suite's results are kept in the patched tree (whose
# key is the patched glibc's) for the machine they ran on: a change of
# anything else does not run the suite again.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/glibc-tree.sh
source "$(dirname "$0")/glibc-tree.sh"
hold_build_lock

# The tests the series adds (a sed and grep basic regular expression).
SERIES_TESTS='elf/tst-exec-check.*\|elf/tst-load-nonregular\|elf/tst-load-lease'
TAP_PREFIX=glibc
# shellcheck source=scripts/tap.sh
source "$TOP/scripts/tap.sh"
# shellcheck source=scripts/test-record.sh
source "$TOP/scripts/test-record.sh"

# run_elf_suite: build and run the elf tests of the current tree (the
# results of an earlier run are removed first) and write their results,
# "PASS: elf/NAME" lines sorted, to $TREE/elf-results.  Run by run_step.
# shellcheck disable=SC2317
run_elf_suite() {
	find "$GOBJ/elf" -maxdepth 1 \( -name '*.out' -o -name '*.test-result' \) \
		-delete
	# A failing test makes "make check" fail: the results say which.
	make -C "$GOBJ" -j"$JOBS" subdirs=elf check || true
	find "$GOBJ/elf" -maxdepth 1 -name '*.test-result' -print0 |
		xargs -0 -r sed -n 's/^\([A-Z]*: elf\/.*\)$/\1/p' |
		LC_ALL=C sort >"$TREE/elf-results"
}

BASELINE=$TOP/scripts/glibc-elf-baseline
RECORD_HEADER="# glibc's elf test suite on Debian's glibc-source without our
# patches: the baseline scripts/check-glibc.sh compares the patched
# suite with.  Written by 'make check-glibc-baseline' (do not edit);
# valid while every 'depends:' line is true of the machine."

# machine_facts: what the elf suite's results depend on besides the tree,
# one "depends: ..." line each: the record is valid on this machine only
# while they are the same.
machine_facts() {
	echo "depends: source glibc-source $(pkg_version glibc-source)"
	echo "depends: compiler gcc-12 $(pkg_version gcc-12)"
	echo "depends: binutils binutils $(pkg_version binutils)"
	echo "depends: kernel $(uname -srv)"
	cpu_fact
}

# elf_suite VARIANT: make $TREE/elf-results of the VARIANT's tree current.
# The results are kept in the tree (whose key holds everything the tree
# is built from) with the machine's facts and the code that ran them, and
# reused while those are the same.
elf_suite() {
	local stamp
	glibc_tree "$1"
	lock_stage_tree
	stamp=$( (machine_facts && declare -f run_elf_suite) | sha256sum |
		cut -c1-16)
	if [ -s "$TREE/elf-results" ] &&
		[ "$(cat "$TREE/elf-results.stamp" 2>/dev/null)" = "$stamp" ]; then
		say "glibc ($1): reusing the elf results of $TREE for this machine"
		return 0
	fi
	rm -f "$TREE/elf-results.stamp"
	export CCACHE_BASEDIR=$TREE CPPFLAGS="-isystem $GINC"
	say "glibc ($1): the elf test suite takes $(fresh_time glibc-elf-suite)"
	run_step "glibc ($1): build and run the elf test suite" \
		"$LOGS/glibc-$1-elf-check.log" run_elf_suite
	echo "$stamp" >"$TREE/elf-results.stamp"
}

# manual_hunks PATCH: the lines the patch adds to manual/*.texi (Debian's
# source has no manual: these hunks are for upstream, see
# glibc-patches/upstream-only).
manual_hunks() {
	awk '/^diff --git / { in_manual = ($3 ~ /^a\/manual\/.*\.texi$/) }
		in_manual && /^\+[^+]/ { print substr($0, 2) }
		in_manual && /^\+$/ { print "" }' "$1"
}

# check_manual: each patch's manual text is valid Texinfo that makeinfo
# renders, and the tunable the series adds is documented.
check_manual() {
	local patch text out documented=no
	for patch in "$TOP"/glibc-patches/*.patch; do
		text=$(manual_hunks "$patch")
		[ -n "$text" ] || continue
		if out=$(printf '\\input texinfo\n@setfilename check.info\n@settitle check\n@node Top\n@top check\n%s\n@bye\n' \
			"$text" | makeinfo --plaintext -o - - 2>&1); then
			pass "the manual text of ${patch##*/} is valid Texinfo"
		else
			note "makeinfo: $(head -n 3 <<<"$out")"
			fail "the manual text of ${patch##*/} is valid Texinfo"
		fi
		grep -q 'Tunable: glibc.rtld.exec_check' <<<"$out" && documented=yes
	done
	if [ "$documented" = yes ]; then
		pass "manual/tunables.texi documents glibc.rtld.exec_check"
	else
		note "no patch documents glibc.rtld.exec_check in manual/tunables.texi"
		fail "manual/tunables.texi documents glibc.rtld.exec_check"
	fi
}

# check_new_tests RESULTS: each test of the patch passed.
check_new_tests() {
	local name result
	while read -r result name; do
		if [ "$result" = PASS ]; then
			pass "$name"
		else
			note "$name: $result (see $GOBJ/$name.out)"
			note "$(tail -n 20 "$GOBJ/$name.out")"
			fail "$name"
		fi
	done < <(sed -n "s#^\([A-Z]*\): \($SERIES_TESTS\)\$#\1 \2#p" "$1")
}

# make_baseline: build the unpatched tree, run its suite and write the
# record, or compare with the record already made on this machine.
make_baseline() {
	local new
	say "the unpatched glibc and its elf suite take $(fresh_time glibc-baseline)"
	"$TOP/scripts/build-all.sh" deps
	"$TOP/scripts/build-glibc.sh" --unpatched
	elf_suite unpatched
	new=$BUILD/glibc-elf-baseline.new
	write_record "$TREE/elf-results" "$new" "$RECORD_HEADER"
	keep_or_write_record "$new" "$BASELINE" "$TREE/elf-results" "elf suite" \
		"make check-glibc-baseline"
}

# check_series: the series' tests and the patched suite against the record.
check_series() {
	local patched new_tests results
	check_manual
	check_record_current "$BASELINE" "elf results" "make check-glibc-baseline"
	"$TOP/scripts/build-all.sh" glibc
	elf_suite patched
	patched=$TREE/elf-results
	new_tests=$(grep -c "^[A-Z]*: \($SERIES_TESTS\)$" "$patched" || true)
	note "$new_tests of the series' tests ran (log: $LOGS/glibc-patched-elf-check.log)"
	if [ "$new_tests" -ge 5 ]; then
		pass "the tests of the series ran"
	else
		fail "the tests of the series ran"
	fi
	check_new_tests "$patched"
	results=$(mktemp)
	record_results_for "$BASELINE" >"$results" 2>/dev/null || true
	compare_suites "elf suite" "$results" "$patched"
	rm -f "$results"
}

case ${1:-} in
"") check_series ;;
--baseline) make_baseline ;;
*) die "usage: check-glibc.sh [--baseline]" ;;
esac
exit "$TAP_FAILED"
