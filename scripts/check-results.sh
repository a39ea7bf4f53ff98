#!/usr/bin/env bash
# make check's result stream (scripts/results.sh) on runs made here, with
# parts made here and the guest's testlibs/run-tests on a list and
# programs made here: the numbering, the count and the closing line, the
# failures of a part that does not say it failed, the comparison by name
# (missing, unexpected and repeated names), CHECKEXEC_ONLY (the
# expressions it refuses, the parts and guest lines it runs, the names it
# compares) and the list made again from a stream.  Run by make check;
# prints one TAP line per check ("ok - result stream: ..."); exit status 1
# on any failure.
# shellcheck disable=SC2317 # the parts and checks are called by name
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
TAP_PREFIX="result stream"
# shellcheck source=scripts/tap.sh
source "$TOP/scripts/tap.sh"
# shellcheck source=scripts/results.sh
source "$TOP/scripts/results.sh"
DIR=$(mktemp -d /tmp/checkexec-results-XXXXXX)
trap 'rm -rf "$DIR"' EXIT
# The runs here have their own filters.
unset CHECKEXEC_ONLY

# fake_run NAME LIST ONLY PARTS: a run of the stream (in a subshell, as
# check.sh makes one) with the expected names LIST and the filter ONLY,
# whose parts the function PARTS runs; its stream in $DIR/NAME.tap, what
# it printed in NAME.out, its errors in NAME.err, its status in STATUS.
fake_run() {
	set +e
	(
		set -e
		results_begin "$DIR/$1.tap" "$2" "$3"
		"$4"
	) >"$DIR/$1.out" 2>"$DIR/$1.err"
	STATUS=$?
	set -e
}

# has NAME LINE...: the output of the run NAME has each LINE (whole).
has() {
	local line
	for line in "${@:2}"; do
		grep -qxF -- "$line" "$DIR/$1.out" || {
			note "the run $1 has no line '$line'"
			return 1
		}
	done
}

# lacks NAME TEXT: no line of the output of the run NAME contains TEXT.
lacks() {
	! grep -qF -- "$2" "$DIR/$1.out" || {
		note "the run $1 has '$2'"
		return 1
	}
}

# ended NAME STATUS LINE: the run NAME exited with STATUS, printed only
# what its stream has and ended with LINE.
ended() {
	[ "$STATUS" -eq "$2" ] && cmp -s "$DIR/$1.out" "$DIR/$1.tap" &&
		[ "$(tail -n 1 "$DIR/$1.out")" = "$3" ] && return 0
	note "the run $1: status $STATUS (expected $2), last line '$(tail -n 1 "$DIR/$1.out")' (expected '$3')"
	return 1
}

# died NAME TEXT: the run NAME exited 1 before its stream began, saying
# TEXT.
died() {
	[ "$STATUS" -eq 1 ] && [ ! -s "$DIR/$1.out" ] && grep -qF -- "$2" "$DIR/$1.err" &&
		return 0
	note "the run $1: status $STATUS, output $(wc -l <"$DIR/$1.out") lines, errors: $(cat "$DIR/$1.err")"
	return 1
}

# stream_is NAME STATUS LINE: the run NAME printed exactly NAME.want (made
# here), exited with STATUS and ended with LINE.
stream_is() {
	cmp -s "$DIR/$1.want" "$DIR/$1.out" && ended "$1" "$2" "$3" && return 0
	note "$(diff "$DIR/$1.want" "$DIR/$1.out")"
	return 1
}

# list FILE NAME...: a list of expected names with the header.
list() {
	{
		results_list_header
		printf '%s\n' "${@:2}"
	} >"$1"
}

# The parts of the first runs.
build_ok() { echo "ok - build: built"; }
guest_ok() {
	printf '%s\n' "TAP version 13" "ok 1 - a [root]" "# a diagnostic line" \
		"ok 2 - m: x" "ok 3 - m: y" "1..3"
}
host_ok() {
	echo "==> a progress line"
	echo "ok - host: checked"
}
build_skipped() { echo "ok 1 - built # SKIP no compiler"; }
guest_bad() {
	printf '%s\n' "ok 1 - a [root]" "not ok 2 - m: x" "ok 3 - m: x" \
		"ok 4 - new one" "1..6"
	return 1
}
host_crashes() {
	echo "ok - host: checked"
	return 3
}
# run_good: every part passes; run_bad: each fails in its own way.
run_good() {
	results_part --always build build_ok
	results_part --plan guest guest_ok
	results_part host host_ok
	results_end
}
run_bad() {
	results_part --always build build_skipped
	results_part --plan guest guest_bad
	results_part host host_crashes
	results_end
}

list "$DIR/list1" "build: built" "guest: a [root]" "guest: m: x" "guest: m: y" \
	"host: checked"
fake_run good "$DIR/list1" "" run_good
cat >"$DIR/good.want" <<EOF
TAP version 14
# Subtest: build
    ok 1 - built
    1..1
ok 1 - build
# Subtest: guest
    ok 1 - a [root]
    # a diagnostic line
    ok 2 - m: x
    ok 3 - m: y
    1..3
ok 2 - guest
# Subtest: host
    # ==> a progress line
    ok 1 - checked
    1..1
ok 3 - host
# Subtest: expected results
    # 5 expected names selected, 5 of the results that came
    ok 1 - $DIR/list1 is sorted (LC_ALL=C) and names each result once
    ok 2 - no result name came more than once
    ok 3 - every expected result came
    ok 4 - every result is in $DIR/list1
    1..4
ok 4 - expected results
1..4
9 passed, 0 failed
EOF
check "a run whose parts pass: each part a subtest, numbered, indented, with its plan; 9 passed, 0 failed, status 0" \
	stream_is good 0 "9 passed, 0 failed"

fake_run bad "$DIR/list1" "" run_bad
check "a skipped result fails" \
	has bad "    # SKIP no compiler (a skipped result fails here)" "    not ok 1 - built"
check "a part that gives fewer results than its plan fails once more" \
	has bad "    not ok 5 - part failed: 4 results came, its plan announced 6" "not ok 2 - guest"
check "a part that ends with an error and no failed result fails once" \
	has bad "    not ok 2 - part failed: ended with status 3 and no failed result" "not ok 3 - host"
check "a name that comes twice in a part fails" \
	has bad "    not ok 2 - a result name came more than once: guest: m: x"
check "an expected name that does not come fails" \
	has bad "    not ok 3 - expected result did not come: guest: m: y"
check "a name that is not in the list fails, saying how to add it" \
	has bad "    # a new result's name goes into $DIR/list1: make check-names writes the names of the last run there (docs/testing.md)" \
	"    not ok 4 - not in $DIR/list1: guest: new one"
check "a run with failures: 5 passed, 7 failed, status 1" ended bad 1 "5 passed, 7 failed"

# A plan that comes first covers every result; a boot that stops prints
# none.
leading_plan() { printf '%s\n' "1..3" "ok 1 - a" "ok 2 - b"; }
no_plan() {
	echo "ok 1 - a"
	return 1
}
run_plans() {
	results_part --always a leading_plan
	results_part --always --plan b no_plan
	results_close
}
fake_run plans "$DIR/list1" "" run_plans
check "a plan that comes first covers every result: fewer fail once more" \
	has plans "    not ok 3 - part failed: 2 results came, its plan announced 3"
check "a boot that prints no plan fails once more" \
	has plans "    not ok 2 - part failed: ended with status 1 and no failed result" \
	"    not ok 3 - part failed: it printed no plan (it did not finish)"

list "$DIR/list2" "b: two" "a: one"
one_part() {
	results_part a eval 'echo "ok - a: one"'
	results_part b eval 'echo "ok - b: two"'
	results_end
}
fake_run unsorted "$DIR/list2" "" one_part
check "a list that is not sorted fails" \
	has unsorted "    not ok 1 - $DIR/list2 is sorted (LC_ALL=C) and names each result once"

fake_run bad-regex "$DIR/list1" "(" run_good
check "CHECKEXEC_ONLY that is not a POSIX ERE stops the run before any part" \
	died bad-regex "is not a valid POSIX extended regular expression"
fake_run no-match "$DIR/list1" "^nothing" run_good
check "CHECKEXEC_ONLY that selects no expected name stops the run" \
	died no-match "matches none of the 5 names of $DIR/list1"

# The guest part: run-tests on a list and programs made here.
LIB=$DIR/lib
mkdir -p "$LIB/tests" "$LIB/kselftest/suite"
cat >"$LIB/guest-tests.list" <<'EOF'
# test USER PROGRAM DESCRIPTION, ktap USER SUITE PROGRAM ARGS, tap USER PROGRAM DESCRIPTION
test root t-one a
ktap root suite k-prog -v
tap root t-m m
tap root t-other other
EOF
printf '%s\n' '#!/bin/sh' 'echo "t-one ran"' >"$LIB/tests/t-one"
printf '%s\n' '#!/bin/sh' 'printf "%s\n" "TAP version 13" "1..2" "ok 1 first" "ok 2 second"' \
	>"$LIB/kselftest/suite/k-prog"
# Like test-load-matrix: its cases x and y, those the filter selects.
cat >"$LIB/tests/t-m" <<'EOF'
#!/bin/sh
cases=""
for c in x y; do
	if [ -z "${CHECKEXEC_ONLY:-}" ] ||
		printf '%s\n' "${CHECKEXEC_ONLY_PREFIX:-}$c" | grep -qE -e "$CHECKEXEC_ONLY"; then
		cases="$cases $c"
	fi
done
# shellcheck disable=SC2086
set -- $cases
echo "1..$#"
n=0
for c; do
	n=$((n + 1))
	echo "ok $n - $c"
done
EOF
printf '%s\n' '#!/bin/sh' 'printf "%s\n" "1..1" "ok 1 - z"' >"$LIB/tests/t-other"
chmod 0755 "$LIB/tests/"* "$LIB/kselftest/suite/k-prog"

# guest_run_tests: the guest part as check.sh's: run-tests in a job
# directory made here, with the filter check.sh would give the guest, then
# the host's own result after run-tests' plan.
guest_run_tests() {
	local status=0
	rm -rf "$DIR/job"
	mkdir -p "$DIR/job/expected"
	echo 0123456789abcdef >"$DIR/job/nonce"
	[ -z "$RESULTS_ONLY" ] || results_filter guest >"$DIR/job/filter"
	CHECKEXEC_LIB=$LIB "$TOP/testlibs/run-tests" "$DIR/job" || status=$?
	TAP_PREFIX=guest
	if cmp -s "$DIR/job/nonce" "$DIR/job/nonce.echo"; then
		pass "the result channel brought the host's nonce back"
	else
		fail "the result channel brought the host's nonce back"
	fi
	return "$status"
}
run_guest() {
	results_part --always build build_ok
	results_part --plan guest guest_run_tests
	results_part host host_ok
	results_end
}
GUEST_NAMES=("guest: a [root]" "guest: kselftest suite/k-prog [root]: first"
	"guest: kselftest suite/k-prog [root]: ran to the end"
	"guest: kselftest suite/k-prog [root]: second" "guest: m: ran to the end"
	"guest: m: x" "guest: m: y" "guest: other: ran to the end" "guest: other: z"
	"guest: result channel: the host's nonce was written back"
	"guest: the result channel brought the host's nonce back")
list "$DIR/list3" "build: built" "${GUEST_NAMES[@]}" "host: checked"
fake_run guest "$DIR/list3" "" run_guest
check "run-tests without a filter runs every line; each result named by its line" \
	ended guest 0 "17 passed, 0 failed"

fake_run only-y "$DIR/list3" '^guest: m: y$' run_guest
check "CHECKEXEC_ONLY runs the build, skips the parts it selects nothing of" \
	has only-y "ok 1 - build" "# host: not run, CHECKEXEC_ONLY selects none of its results"
check "CHECKEXEC_ONLY runs only the guest lines it selects a name of" \
	has only-y "    # not selected: test root t-one a" \
	"    # not selected: ktap root suite k-prog -v" "    # not selected: tap root t-other other"
check "CHECKEXEC_ONLY reaches the program of the line, which runs only its matching cases" \
	has only-y "    ok 1 - m: y" "    ok 2 - m: ran to the end"
check "CHECKEXEC_ONLY: only the expected names it selects are compared" \
	has only-y "    # 1 expected names selected, 1 of the results that came"
check "a run with CHECKEXEC_ONLY whose selected results pass: status 0" \
	ended only-y 0 "9 passed, 0 failed"
check "no case of a line runs that CHECKEXEC_ONLY does not select" lacks only-y "m: x"

fake_run only-k "$DIR/list3" 'k-prog' run_guest
check "CHECKEXEC_ONLY selecting a kselftest runs its line whole" \
	has only-k "    ok 1 - kselftest suite/k-prog [root]: first" \
	"    ok 2 - kselftest suite/k-prog [root]: second" "    # not selected: tap root t-m m"

# The background lane (results_start): its parts come into the stream
# where results_part names them, whenever they ended; one at a time; each
# with its status; one that dies without its status fails.
lane_first() {
	sleep 2
	echo "ok - first: done"
	touch "$DIR/lane-first-ended"
}
lane_second() {
	if [ -f "$DIR/lane-first-ended" ]; then
		echo "ok - second: after first"
	else
		echo "not ok - second: after first"
	fi
	return 3
}
# lane_dies: the lane's process of this part is killed before it can write
# the part's status.
lane_dies() {
	local self=$BASHPID
	kill -9 "$(ps -o ppid= -p "$self")"
}
run_lane() {
	results_part --always build build_ok
	results_start first lane_first
	results_start second lane_second
	results_start dies lane_dies
	results_part fg eval 'echo "ok - fg: ran"'
	results_part first results_started first
	results_part second results_started second
	results_part dies results_started dies
	results_close
}
list "$DIR/list5" "build: built" "dies: never" "fg: ran" "first: done" \
	"second: after first"
fake_run lane "$DIR/list5" "" run_lane
cat >"$DIR/lane.want" <<EOF
TAP version 14
# Subtest: build
    ok 1 - built
    1..1
ok 1 - build
# Subtest: fg
    ok 1 - ran
    1..1
ok 2 - fg
# Subtest: first
    ok 1 - done
    1..1
ok 3 - first
# Subtest: second
    ok 1 - after first
    not ok 2 - part failed: ended with status 3 and no failed result
    1..2
not ok 4 - second
# Subtest: dies
    # the part dies ended without a status
    not ok 1 - part failed: ended with status 1 and no failed result
    1..1
not ok 5 - dies
1..5
4 passed, 2 failed
EOF
check "parts started in the background lane: in the stream in order, one at a time, each with its status; one that dies without a status fails" \
	stream_is lane 1 "4 passed, 2 failed"
rm -f "$DIR/lane-first-ended"
fake_run lane-only "$DIR/list5" "^fg: " run_lane
# A run that stops early stops the parts of its lane, with what they
# started.
lane_slow() {
	sleep 60 &
	echo "$!" >"$DIR/lane-slow.pid"
	wait
}
run_lane_stops() {
	trap results_stop_lane EXIT
	results_part --always build build_ok
	results_start first lane_slow
	while [ ! -s "$DIR/lane-slow.pid" ]; do sleep 0.1; done
	exit 1
}
# lane_stopped: what the part of the lane started has ended (within 10 s:
# a loaded machine may take a while).
lane_stopped() {
	local pid tries=0
	pid=$(cat "$DIR/lane-slow.pid") || return 1
	while kill -0 "$pid" 2>/dev/null; do
		tries=$((tries + 1))
		if [ "$tries" -gt 100 ]; then
			note "the process $pid the part started is still there"
			kill -KILL "$pid"
			return 1
		fi
		sleep 0.1
	done
}
fake_run lane-stops "$DIR/list5" "" run_lane_stops
check "a run that stops early stops the parts of its lane and what they started" \
	lane_stopped

# not_started RUN PART: the run RUN did not start the lane's part PART.
not_started() {
	[ ! -e "$DIR/$1.tap.d/started/$2.pid" ] &&
		has "$1" "# $2: not run, CHECKEXEC_ONLY selects none of its results"
}
check "CHECKEXEC_ONLY: a part of the lane it selects nothing of is not started" \
	not_started lane-only first

# The list made again from a stream.
results_new_list "$DIR/guest.tap" "$DIR/list3" >"$DIR/new3"
if results_list "$DIR/list3" | LC_ALL=C sort | cmp -s - "$DIR/new3"; then
	pass "the list made from a run's stream has exactly the run's names"
else
	note "$(results_list "$DIR/list3" | LC_ALL=C sort | diff - "$DIR/new3")"
	fail "the list made from a run's stream has exactly the run's names"
fi
# A stale list: a run with CHECKEXEC_ONLY replaces the names it selects.
list "$DIR/list4" "build: built" "guest: a [root]" "guest: m: gone" \
	"guest: result channel: the host's nonce was written back" "host: checked"
fake_run stale "$DIR/list4" '^guest: m: ' run_guest
results_new_list "$DIR/stale.tap" "$DIR/list4" >"$DIR/new4"
printf '%s\n' "build: built" "guest: a [root]" "guest: m: ran to the end" "guest: m: x" \
	"guest: m: y" "guest: result channel: the host's nonce was written back" \
	"host: checked" >"$DIR/want4"
if [ "$STATUS" -eq 1 ] && cmp -s "$DIR/want4" "$DIR/new4"; then
	pass "after a run with CHECKEXEC_ONLY, the list keeps the names it does not select and takes the run's for the others"
else
	note "status $STATUS; $(diff "$DIR/want4" "$DIR/new4")"
	fail "after a run with CHECKEXEC_ONLY, the list keeps the names it does not select and takes the run's for the others"
fi
# refused NAME TAP TEXT: results_new_list refuses TAP, saying TEXT.
refused() {
	local out
	if out=$( (results_new_list "$2" "$DIR/list1") 2>&1); then
		note "$1: accepted"
		return 1
	fi
	grep -qF -- "$3" <<<"$out" || {
		note "$1: $out"
		return 1
	}
}
head -n 5 "$DIR/good.tap" >"$DIR/cut.tap"
check "the list is not made from a stream that did not end" \
	refused cut "$DIR/cut.tap" "not a whole run of make check"
check "the list is not made from a run with a part that failed without its results" \
	refused bad "$DIR/bad.tap" "a part failed without its results"
exit "$TAP_FAILED"
