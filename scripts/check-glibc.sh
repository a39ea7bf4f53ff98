#!/usr/bin/env bash
# glibc's own tests of the series, run on the host from the build trees
# (make check runs this; so does make check-glibc):
# - the manual text of the series is valid Texinfo;
# - every test of the series (elf/tst-exec-check*, elf/tst-load-nonregular,
#   elf/tst-load-lease) must PASS (the host kernel must know
#   AT_EXECVE_CHECK: UNSUPPORTED is a failure here);
# - glibc's whole elf suite, patched and unpatched: no test that passes
#   unpatched may fail (or not run) patched.
# Prints one TAP line per result ("ok - glibc: ..."); exit status 1 on any
# failure.  The unpatched results are kept per host kernel in their tree.
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

# elf_suite VARIANT: make $TREE/elf-results of the VARIANT's tree current.
# The unpatched results are reused while the host kernel, the tree and this
# script are the same; the patched suite runs every time.
elf_suite() {
	local stamp
	glibc_tree "$1"
	lock_stage_tree
	stamp=$( (uname -srv && sha256sum <"$TOP/scripts/check-glibc.sh") |
		sha256sum | cut -c1-16)
	if [ "$1" = unpatched ] && [ -s "$TREE/elf-results" ] &&
		[ "$(cat "$TREE/elf-results.stamp" 2>/dev/null)" = "$stamp" ]; then
		say "glibc (unpatched): reusing the elf results for this kernel"
		return 0
	fi
	rm -f "$TREE/elf-results.stamp"
	export CCACHE_BASEDIR=$TREE CPPFLAGS="-isystem $GINC"
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
			fail "the manual text of ${patch##*/} is not valid Texinfo: $(head -n 3 <<<"$out" | tr "\n" " ")"
		fi
		grep -q 'Tunable: glibc.rtld.exec_check' <<<"$out" && documented=yes
	done
	if [ "$documented" = yes ]; then
		pass "manual/tunables.texi documents glibc.rtld.exec_check"
	else
		fail "no patch documents glibc.rtld.exec_check in manual/tunables.texi"
	fi
}

# summarize RESULTS: "N PASS, N FAIL, ..." for the kinds of result seen.
summarize() {
	cut -d: -f1 "$1" | sort | uniq -c | awk '{printf "%s%d %s", sep, $1, $2; sep=", "}'
}

# check_new_tests RESULTS: each test of the patch passed.
check_new_tests() {
	local name result
	while read -r result name; do
		if [ "$result" = PASS ]; then
			pass "$name"
		else
			fail "$name: $result (see $GOBJ/$name.out)"
			sed 's/^/# /' "$GOBJ/$name.out" | tail -n 20
		fi
	done < <(sed -n "s#^\([A-Z]*\): \($SERIES_TESTS\)\$#\1 \2#p" "$1")
}

# compare_suites BASELINE PATCHED: no test that passed unpatched fails.
compare_suites() {
	local regressions
	regressions=$(sed -n 's/^PASS: //p' "$1" | while read -r name; do
		grep -qx "PASS: $name" "$2" || echo "$name"
	done)
	local summary
	summary="unpatched: $(summarize "$1"); patched: $(summarize "$2")"
	if [ -z "$regressions" ]; then
		pass "elf suite: no test that passes unpatched fails patched ($summary)"
	else
		fail "elf suite: passes unpatched, not patched: $(echo "$regressions" |
			tr '\n' ' ')($summary)"
	fi
}

check_manual
"$TOP/scripts/build-all.sh" glibc
"$TOP/scripts/build-glibc.sh" --unpatched
elf_suite unpatched
baseline=$TREE/elf-results
elf_suite patched
patched=$TREE/elf-results
new_tests=$(grep -c "^[A-Z]*: \($SERIES_TESTS\)$" "$patched" || true)
if [ "$new_tests" -lt 5 ]; then
	fail "only $new_tests of the patch's tests ran (log: $LOGS/glibc-patched-elf-check.log)"
fi
check_new_tests "$patched"
compare_suites "$baseline" "$patched"
exit "$TAP_FAILED"
