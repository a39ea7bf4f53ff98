# shellcheck shell=bash
# A test suite run patched against the recorded results of the unpatched
# source (glibc's elf suite, python3.11's test subset): the record holds
# "depends: ..." lines (what the results depend on besides the source:
# the caller's machine_facts) and one "RESULT: NAME" line per test, and is
# valid only on a machine whose facts are the same.  The records of other
# machines are kept beside the newest (RECORD.HASH): the one of this
# machine is used.  Source after tap.sh; the caller defines machine_facts.

# cpu_fact: the "depends:" line of the host's CPU, its model and its
# feature flags (hashed: a hundred of them): tests that need a feature
# (glibc's elf/tst-avx512, elf/tst-audit10) are UNSUPPORTED without it.
cpu_fact() {
	local model flags
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	flags=$(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo | head -n 1 |
		tr ' ' '\n' | LC_ALL=C sort | sha256sum | cut -c1-16)
	echo "depends: cpu ${model:-unknown}, flags $flags"
}

# package_facts: the "depends:" lines of a package's tests (PACKAGE, a
# package of interpreter-patches/, and its tests SUBSET): its source, the
# compiler, the host kernel, the tests.
package_facts() {
	echo "depends: source $PACKAGE $(sed -n 's/^version=//p' \
		"$TOP/interpreter-patches/$PACKAGE/package")"
	echo "depends: compiler gcc-12 $(pkg_version gcc-12)"
	echo "depends: kernel $(uname -srv)"
	echo "depends: tests ${SUBSET[*]}"
}

# build_id ELF: the GNU build ID of ELF (stripping keeps it).
build_id() {
	readelf --notes "$1" 2>/dev/null | sed -n 's/^ *Build ID: //p'
}

# unpack_package NAME BINARY DIR: the .deb of the binary package BINARY
# that the stage built for NAME (build/packages/NAME/debs), unpacked into
# DIR; status 1, saying so, when there is none.
unpack_package() {
	local deb
	deb=$(find "$BUILD/packages/$1/debs" -name "$2_*.deb" -print -quit 2>/dev/null)
	[ -n "$deb" ] || { note "no $2 package in $BUILD/packages/$1/debs"; return 1; }
	dpkg-deb -x "$deb" "$3"
}

# package_has_binary BUILT ROOT PATH: whether the unpacked package ROOT has
# the build tree's binary BUILT at PATH (the same build ID); says so when
# not.
package_has_binary() {
	local id
	id=$(build_id "$1")
	[ -n "$id" ] && [ "$(build_id "$2/$3")" = "$id" ] && return 0
	note "the package's /$3 is not $1"
	return 1
}

# series_tests_ran MIN LOG: a result for each "RESULT: NAME" line on
# standard input (a test the series adds: it must pass; LOG has its
# output), and one saying whether MIN of them ran.
series_tests_ran() {
	local result name count=0
	while read -r result name; do
		count=$((count + 1))
		if [ "$result" = PASS: ]; then
			pass "$name"
		else
			note "$name: ${result%:} (log: $2)"
			fail "$name"
		fi
	done
	note "$count tests of the series ran"
	if [ "$count" -ge "$1" ]; then
		pass "the tests of the series ran"
	else
		fail "the tests of the series ran"
	fi
}

# write_record RESULTS FILE HEADER: the record of the unpatched RESULTS,
# after HEADER (comment lines).
write_record() {
	{
		printf '%s\n' "$3"
		machine_facts
		cat "$1"
	} >"$2"
}

# record_results RECORD: the result lines of RECORD.
record_results() {
	grep -E '^[A-Z]+: ' "$1"
}

# record_facts_hash FILE: 16 hex digits of the "depends:" lines of the
# record FILE: its name beside a newer record.
record_facts_hash() {
	grep '^depends: ' "$1" | sha256sum | cut -c1-16
}

# record_file RECORD: the record made on a machine like this one: RECORD
# (the newest) or one of RECORD.HASH beside it (made on other machines,
# which come back: a CPU without AVX-512 and one with it give glibc's elf
# suite different results).  Status 1 when there is none.
record_file() {
	local file
	for file in "$1" "$1".*; do
		[ -f "$file" ] || continue
		if diff -q <(grep '^depends: ' "$file") <(machine_facts) >/dev/null; then
			echo "$file"
			return 0
		fi
	done
	return 1
}

# record_is_current RECORD: RECORD, or one beside it, was made on a machine
# like this one; if not, say how the newest differs.
record_is_current() {
	local diff
	[ -f "$1" ] || { note "there is no record at $1"; return 1; }
	record_file "$1" >/dev/null && return 0
	diff=$(diff <(grep '^depends: ' "$1") <(machine_facts)) || true
	note "the record was made on another machine (< record, > this machine):"
	note "$(grep '^[<>]' <<<"$diff")"
	note "no record beside it was made on this machine either"
	return 1
}

# record_results_for RECORD: the result lines of the record of this
# machine, or (when there is none) of the newest one.
record_results_for() {
	local file
	file=$(record_file "$1") || file=$1
	record_results "$file"
}

# summarize RESULTS: "N PASS, N FAIL, ..." for the kinds of result seen.
summarize() {
	cut -d: -f1 "$1" | sort | uniq -c | awk '{printf "%s%d %s", sep, $1, $2; sep=", "}'
}

# compare_suites SUITE BASELINE PATCHED: no test of SUITE that passed
# unpatched fails (or does not run) patched.
compare_suites() {
	local regressions
	regressions=$(LC_ALL=C comm -23 <(sed -n 's/^PASS: //p' "$2" | LC_ALL=C sort) \
		<(sed -n 's/^PASS: //p' "$3" | LC_ALL=C sort))
	note "unpatched (recorded): $(summarize "$2"); patched: $(summarize "$3")"
	if [ -z "$regressions" ]; then
		pass "$1: no test that passes unpatched fails patched"
	else
		note "passes unpatched, not patched: $(echo "$regressions" | tr '\n' ' ')"
		fail "$1: no test that passes unpatched fails patched"
	fi
}

# check_record_current RECORD WHAT TARGET: a result saying whether RECORD
# (the recorded unpatched WHAT) was made on this machine; TARGET makes a
# new one.
check_record_current() {
	if record_is_current "$1"; then
		pass "the recorded unpatched $2 are for this machine"
	else
		note "make a new record on this machine: $3"
		fail "the recorded unpatched $2 are for this machine"
	fi
}

# keep_or_write_record NEW RECORD RESULTS WHAT TARGET: compare the new
# unpatched record NEW with the record of this machine (a difference is a
# failure), or write it when there is none for this machine (or
# BASELINE_WRITE=1).  A new record becomes RECORD; the one it replaces,
# made on another machine, is kept beside it as RECORD.HASH.
keep_or_write_record() {
	local new=$1 record=$2 results=$3 what=$4 target=$5 current kept
	if current=$(record_file "$record"); then
		if [ "${BASELINE_WRITE:-0}" = 1 ]; then
			cp "$new" "$current"
			pass "recorded the unpatched $what in $current ($(summarize "$results")); commit it"
		elif diff -u <(record_results "$current") <(record_results "$new") |
			sed 's/^/# /'; then
			pass "the unpatched $what gives the recorded results ($(summarize "$results"))"
		else
			fail "the unpatched $what differs from $current (above); BASELINE_WRITE=1 $target records this run"
		fi
		return 0
	fi
	if [ -f "$record" ]; then
		kept=$record.$(record_facts_hash "$record")
		mv "$record" "$kept"
		note "kept the record of the other machine as $kept"
	fi
	cp "$new" "$record"
	pass "recorded the unpatched $what in $record ($(summarize "$results")); commit it"
}

# The run of a patched Debian package's own tests against the record of its
# unpatched build (check-perl.sh, check-bash.sh): the caller sets PACKAGE
# (a package of interpreter-patches/), BASELINE (the record), RECORD_HEADER
# and TAP_PREFIX, and gives a runner: RUNNER SOURCE RESULTS TEST... runs
# the tests in the package's built source tree SOURCE and writes sorted
# "RESULT: TEST" lines (PASS, FAIL, SKIP, TODO) to RESULTS.

# package_tests VARIANT RUNNER TEST...: build the package's VARIANT
# (patched, or unpatched: without the series) unless it is up to date, and
# run the tests with RUNNER in its source tree; RESULTS is their file.
package_tests() {
	local variant=$1 runner=$2 flag=() src
	shift 2
	[ "$variant" = patched ] || flag=(--unpatched)
	"$TOP/scripts/build-package.sh" "${flag[@]}" "$PACKAGE"
	src=$("$TOP/scripts/build-package.sh" --print-source "${flag[@]}" "$PACKAGE")
	mkdir -p "$BUILD/$TAP_PREFIX-tests"
	RESULTS=$BUILD/$TAP_PREFIX-tests/$variant.results
	run_step "$TAP_PREFIX ($variant): run $# tests" \
		"$LOGS/$TAP_PREFIX-$variant-tests.log" "$runner" "$src" "$RESULTS" "$@"
}

# compare_package_tests WHAT [SERIES]: the patched RESULTS, but for the
# tests whose names begin with SERIES (an extended regular expression: the
# series' own), against the record: no test that passes there fails or is
# missing here.
compare_package_tests() {
	local recorded patched
	recorded=$(mktemp) patched=$(mktemp)
	record_results_for "$BASELINE" >"$recorded" 2>/dev/null || true
	if [ -n "${2:-}" ]; then
		grep -Ev "^[A-Z]+: ($2)" "$RESULTS" >"$patched" || true
	else
		cp "$RESULTS" "$patched"
	fi
	compare_suites "$1" "$recorded" "$patched"
	rm -f "$recorded" "$patched"
}

# record_package_tests WHAT TARGET: record the unpatched RESULTS in
# BASELINE (or compare with the record of this machine); TARGET makes it.
record_package_tests() {
	local new=$BUILD/$TAP_PREFIX-test-baseline.new
	write_record "$RESULTS" "$new" "$RECORD_HEADER"
	keep_or_write_record "$new" "$BASELINE" "$RESULTS" "$1" "$2"
}
