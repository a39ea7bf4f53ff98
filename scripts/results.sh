# shellcheck shell=bash
# The result stream of make check (docs/testing.md): one TAP 14 stream
# whose parts (a boot, a host script, ...) are nested subtests, each with
# its results numbered and its plan; one count of the innermost results
# for the closing line "N passed, N failed"; and the names of the results
# ("PART: description") compared with the checked-in list of expected
# names.  Source after lib.sh and tap.sh.
#
#   results_begin TAP EXPECTED ONLY   start; ONLY: a POSIX ERE or empty
#   results_part [--plan] [--always] PART CMD...  run CMD as the part PART
#   results_start PART CMD...         start CMD now, in the background lane
#   results_part [--plan] PART results_started PART  its output, in place
#   results_stop_lane                 stop the lane's parts (an EXIT trap)
#   results_end                       compare the names, close the stream
#   results_close                     close the stream without comparing
#   results_new_list TAP EXPECTED     the list as the run of TAP says

# The part of the comparison, whose results are not in the list, and the
# start of the description of a failure check.sh adds to a part that
# failed without saying so: neither is a result's name.
RESULTS_COMPARISON="expected results"
RESULTS_PART_FAILED="part failed: "

# results_emit LINE...: top-level lines of the stream, also kept in TAP.
results_emit() {
	printf '%s\n' "$@" | tee -a "$RESULTS_TAP"
}

# results_list FILE: the names of a list of expected results (no comment,
# no blank line), in its order.
results_list() {
	[ -f "$1" ] || return 0
	grep -v -e '^#' -e '^[[:space:]]*$' "$1" || true
}

# results_matching ONLY FILE: the lines of FILE that the POSIX ERE ONLY
# matches (all when ONLY is empty).
results_matching() {
	if [ -z "$1" ]; then
		cat "$2"
	else
		grep -E -e "$1" "$2" || true
	fi
}

# results_check_only ONLY: die unless ONLY is one valid POSIX extended
# regular expression (grep -E's; the guest compiles it with regcomp).
results_check_only() {
	local err status=0
	case "$1" in *$'\n'*) die "CHECKEXEC_ONLY must be one line, not '$1'" ;; esac
	# A warning is refused too.
	err=$(grep -E -e "$1" </dev/null 2>&1) || status=$?
	if [ "$status" -gt 1 ] || [ -n "$err" ]; then
		die "CHECKEXEC_ONLY='$1' is not a valid POSIX extended regular expression: $err"
	fi
}

# results_begin TAP EXPECTED ONLY: start the stream, copied to the file
# TAP (its work files in TAP.d), to be compared with the list EXPECTED;
# ONLY (a POSIX ERE, or empty) selects the results by name.  Dies, before
# anything runs, on a bad expression or one that selects no expected name.
results_begin() {
	RESULTS_TAP=$1 RESULTS_EXPECTED=$2 RESULTS_ONLY=$3
	RESULTS_DIR=$RESULTS_TAP.d RESULTS_PARTS=0 RESULTS_PASSED=0 RESULTS_FAILED=0
	[ -f "$RESULTS_EXPECTED" ] ||
		die "no list of expected results at $RESULTS_EXPECTED (docs/testing.md)"
	rm -rf "$RESULTS_DIR"
	mkdir -p "$RESULTS_DIR"
	results_list "$RESULTS_EXPECTED" >"$RESULTS_DIR/expected"
	: >"$RESULTS_DIR/names"
	if [ -n "$RESULTS_ONLY" ]; then
		results_check_only "$RESULTS_ONLY"
		results_matching "$RESULTS_ONLY" "$RESULTS_DIR/expected" >"$RESULTS_DIR/selected"
		[ -s "$RESULTS_DIR/selected" ] ||
			die "CHECKEXEC_ONLY='$RESULTS_ONLY' matches none of the $(wc -l <"$RESULTS_DIR/expected") names of $RESULTS_EXPECTED (a name is \"PART: description\"; a new test needs one of its names there first; docs/testing.md)"
	else
		cp "$RESULTS_DIR/expected" "$RESULTS_DIR/selected"
	fi
	: >"$RESULTS_TAP"
	results_emit "TAP version 14"
	if [ -n "$RESULTS_ONLY" ]; then
		results_emit "# CHECKEXEC_ONLY=$RESULTS_ONLY" \
			"# expected results it selects: $(wc -l <"$RESULTS_DIR/selected")"
	fi
}

# results_wanted NAME: whether the filter lets the result NAME run.
results_wanted() {
	[ -z "$RESULTS_ONLY" ] || grep -qE -e "$RESULTS_ONLY" <<<"$1"
}

# results_part_selected PART: whether an expected name the filter selects
# is of PART (without a filter, every expected name is selected).
results_part_selected() {
	PART="$1: " awk 'index($0, ENVIRON["PART"]) == 1 { found = 1; exit }
		END { exit !found }' "$RESULTS_DIR/selected"
}

# results_filter PART: the filter file of a boot of PART (boot.sh --filter,
# read by the guest's run-tests): the part, the expression and the
# expected names of PART it selects.
results_filter() {
	echo "# CHECKEXEC_ONLY of scripts/check.sh (docs/testing.md)"
	echo "part $1"
	echo "only $RESULTS_ONLY"
	PART="$1: " awk 'index($0, ENVIRON["PART"]) == 1 { print "name " $0 }' \
		"$RESULTS_DIR/selected"
}

# results_body PART NAMES STATE: a part's output as the body of its
# subtest: each result line numbered and indented, "PART: " taken off its
# description, its name ("PART: description") appended to NAMES; "# " lines
# kept, other lines made "# " lines, plans and version lines taken out.  A
# result with a SKIP or TODO directive fails: nothing may be skipped.
# STATE gets "RESULTS FAILED PLAN COVERED": PLAN is the first plan seen
# ("-": none), COVERED the number of results it covers: all of them for a
# plan that comes first, those before it for one that comes last (a part
# may add its own results after a program's output: the host's check of a
# boot).
results_body() {
	PART=$1 NAMES=$2 STATE=$3 awk '
		function out(line) { print "    " line; fflush() }
		BEGIN { part = ENVIRON["PART"]; names = ENVIRON["NAMES"]
			state = ENVIRON["STATE"]; n = 0; failed = 0; plan = "-"; at = -1 }
		{ sub(/\r$/, "") }
		/^TAP version / { next }
		/^1\.\.[0-9]+/ {
			if (plan == "-") {
				plan = $0; sub(/^1\.\./, "", plan); sub(/[^0-9].*$/, "", plan)
				at = n
			}
			next
		}
		/^(not )?ok([ \t]|$)/ {
			ok = ($0 !~ /^not /)
			d = $0
			sub(/^(not )?ok[ \t]*/, "", d)
			sub(/^[0-9]+([ \t]+|$)/, "", d)
			sub(/^-([ \t]+|$)/, "", d)
			if (match(tolower(d), /[ \t]#[ \t]*(skip|todo)([^a-z]|$)/)) {
				out(substr(d, RSTART + 1) " (a skipped result fails here)")
				d = substr(d, 1, RSTART - 1)
				ok = 0
			}
			sub(/[ \t]+$/, "", d)
			if (index(d, part ": ") == 1) d = substr(d, length(part) + 3)
			n++
			if (!ok) failed++
			out((ok ? "ok " : "not ok ") n " - " d)
			print part ": " d >> names
			next
		}
		/^#/ { out($0); next }
		/^[ \t]*$/ { next }
		{ out("# " $0) }
		END { print n, failed, plan, (at > 0 ? at : n) > state }'
}

# results_run PART NAMES PLAN CMD...: run CMD (errexit on, standard error
# with standard output, no input) as the subtest PART of the stream, its
# names appended to NAMES.  The part fails once more when it ended with a
# non-zero status and no failed result, when fewer or more results came
# than its plan covers (results_body), when PLAN is "yes" and it printed
# none, and when no result came at all.  Sets RESULTS_PART_OK to yes or
# no.
results_run() {
	local part=$1 names=$2 plan=$3 status n failed planned covered errexit=$-
	shift 3
	RESULTS_PARTS=$((RESULTS_PARTS + 1))
	results_emit "# Subtest: $part"
	rm -f "$RESULTS_DIR/state"
	set +e
	(
		set -e
		"$@"
	) 2>&1 </dev/null | results_body "$part" "$names" "$RESULTS_DIR/state" |
		tee -a "$RESULTS_TAP"
	status=${PIPESTATUS[0]}
	[[ $errexit != *e* ]] || set -e
	n=0 failed=0 planned=- covered=0
	[ ! -f "$RESULTS_DIR/state" ] ||
		read -r n failed planned covered <"$RESULTS_DIR/state"
	if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
		results_part_failure "ended with status $status and no failed result"
	fi
	if [ "$planned" != - ] && [ "$covered" -ne "$planned" ]; then
		results_part_failure "$covered results came, its plan announced $planned"
	elif [ "$planned" = - ] && [ "$plan" = yes ]; then
		results_part_failure "it printed no plan (it did not finish)"
	fi
	[ "$n" -gt 0 ] || results_part_failure "no result came"
	results_emit "    1..$n"
	RESULTS_PASSED=$((RESULTS_PASSED + n - failed))
	RESULTS_FAILED=$((RESULTS_FAILED + failed))
	if [ "$failed" -eq 0 ]; then
		RESULTS_PART_OK=yes
		results_emit "ok $RESULTS_PARTS - $part"
	else
		RESULTS_PART_OK=no
		results_emit "not ok $RESULTS_PARTS - $part"
	fi
}

# results_part_failure TEXT: in results_run, one more failed result.
results_part_failure() {
	n=$((n + 1)) failed=$((failed + 1))
	results_emit "    not ok $n - $RESULTS_PART_FAILED$1"
}

# results_part [--plan] [--always] PART CMD...: run CMD as the part PART
# (--plan: it must print a plan) if the filter selects an expected name of
# PART, or whatever it selects (--always).
results_part() {
	local plan=no always=no
	while :; do
		case "$1" in
		--plan) plan=yes ;;
		--always) always=yes ;;
		*) break ;;
		esac
		shift
	done
	# shellcheck disable=SC2034 # read by the scripts that source this
	RESULTS_PART_OK=yes
	if [ "$always" = no ] && ! results_part_selected "$1"; then
		results_emit "# $1: not run, CHECKEXEC_ONLY selects none of its results"
		return 0
	fi
	results_run "$1" "$RESULTS_DIR/names" "$plan" "${@:2}"
}

# results_start PART CMD...: start CMD (errexit on, standard error with
# standard output, no input) in the background lane, if the filter
# selects an expected name of PART: a part started so waits for the one
# started before it, so that the lane runs one part at a time beside the
# parts of the foreground.  Its output goes into the stream where
# "results_part [--plan] PART results_started PART" stands.
results_start() {
	local part=$1 dir=$RESULTS_DIR/started after=${RESULTS_LANE_LAST:-}
	shift
	results_part_selected "$part" || return 0
	mkdir -p "$dir"
	(
		set +e
		[ -z "$after" ] || results_wait_for "$after"
		# Not in a || list: errexit would be off in it.
		(
			set -e
			"$@"
		) >"$dir/$part.out" 2>&1 </dev/null
		echo "$?" >"$dir/$part.status.new"
		mv "$dir/$part.status.new" "$dir/$part.status"
	) </dev/null >/dev/null 2>&1 &
	echo "$!" >"$dir/$part.pid"
	RESULTS_LANE_LAST=$part
}

# results_stop_lane: stop every part of the lane that has not ended, with
# what it started (for an EXIT trap: a run that stops early, or Ctrl-C,
# leaves no boot behind).
results_stop_lane() {
	local file
	for file in "$RESULTS_DIR"/started/*.pid; do
		[ -f "$file" ] || continue
		[ -f "${file%.pid}.status" ] || results_kill_tree "$(cat "$file")"
	done
}

# results_kill_tree PID: stop PID and every process below it (each one
# is held first, so that it starts nothing new meanwhile).
results_kill_tree() {
	local child
	kill -STOP "$1" 2>/dev/null || return 0
	for child in $(ps -o pid= --ppid "$1"); do
		results_kill_tree "$child"
	done
	kill -TERM "$1" 2>/dev/null || true
	kill -CONT "$1" 2>/dev/null || true
}

# results_wait_for PART: wait until the part PART, started with
# results_start, has ended.  Status 1 when it died without its status.
results_wait_for() {
	local dir=$RESULTS_DIR/started
	[ -f "$dir/$1.pid" ] || return 1
	while [ ! -f "$dir/$1.status" ]; do
		if ! kill -0 "$(cat "$dir/$1.pid")" 2>/dev/null; then
			# It may have written its status just before it ended.
			[ -f "$dir/$1.status" ] && break
			return 1
		fi
		sleep 1
	done
}

# results_started PART: as a part's command, the output of the part PART
# started with results_start, as it comes (a long part shows its
# progress), then its status.
results_started() {
	local dir=$RESULTS_DIR/started pid
	pid=$(cat "$dir/$1.pid" 2>/dev/null) || {
		echo "# the part $1 was not started"
		return 1
	}
	# The part begins when the one before it in the lane has ended.
	while [ ! -f "$dir/$1.out" ] && kill -0 "$pid" 2>/dev/null; do
		sleep 1
	done
	[ ! -f "$dir/$1.out" ] || tail -n +1 -s 1 -f --pid="$pid" "$dir/$1.out"
	if [ ! -f "$dir/$1.status" ]; then
		echo "# the part $1 ended without a status"
		return 1
	fi
	return "$(cat "$dir/$1.status")"
}

# results_compare: the comparison's results: the names that came against
# the expected names (those the filter selects): each one missing, each
# one not in the list and each one that came twice fails, and so does a
# list that is not sorted (LC_ALL=C) or names a result twice.
results_compare() {
	# shellcheck disable=SC2034 # tap.sh's pass and fail read TAP_PREFIX
	local TAP_PREFIX=$RESULTS_COMPARISON list=${RESULTS_EXPECTED#"$TOP"/}
	local dir=$RESULTS_DIR
	LC_ALL=C sort "$dir/names" >"$dir/came-all"
	LC_ALL=C uniq -d "$dir/came-all" >"$dir/twice"
	results_matching "$RESULTS_ONLY" "$dir/came-all" | LC_ALL=C sort -u >"$dir/came"
	LC_ALL=C sort -u "$dir/selected" >"$dir/want"
	note "$(wc -l <"$dir/want") expected names selected, $(wc -l <"$dir/came") of the results that came"
	if LC_ALL=C sort -c -u "$dir/expected" 2>"$dir/unsorted"; then
		pass "$list is sorted (LC_ALL=C) and names each result once"
	else
		note "$(cat "$dir/unsorted")"
		fail "$list is sorted (LC_ALL=C) and names each result once"
	fi
	results_each_fails "$dir/twice" "no result name came more than once" \
		"a result name came more than once: "
	LC_ALL=C comm -23 "$dir/want" "$dir/came" >"$dir/missing"
	results_each_fails "$dir/missing" "every expected result came" \
		"expected result did not come: "
	LC_ALL=C comm -13 "$dir/want" "$dir/came" >"$dir/unexpected"
	[ ! -s "$dir/unexpected" ] ||
		note "a new result's name goes into $list: make check-names writes the names of the last run there (docs/testing.md)"
	results_each_fails "$dir/unexpected" "every result is in $list" \
		"not in $list: "
}

# results_each_fails FILE PASS PREFIX: one failed result "PREFIX NAME" for
# each name in FILE, or, when FILE is empty, the passed result PASS.
results_each_fails() {
	local name
	if [ ! -s "$1" ]; then
		pass "$2"
		return 0
	fi
	while IFS= read -r name; do
		fail "$3$name"
	done <"$1"
}

# results_close: the plan of the parts and the closing line; status 1 if
# any result failed.
results_close() {
	results_emit "1..$RESULTS_PARTS" "$RESULTS_PASSED passed, $RESULTS_FAILED failed"
	[ "$RESULTS_FAILED" -eq 0 ]
}

# results_end: the comparison part, then the closing line; status 1 if any
# result failed.
results_end() {
	results_run "$RESULTS_COMPARISON" /dev/null no results_compare
	results_close
}

# results_new_list TAP EXPECTED: the sorted names of the run whose stream
# is TAP, as the list EXPECTED should have them (without its comments):
# after a run filtered by CHECKEXEC_ONLY, the names of EXPECTED that the
# filter does not select stay and the run's selected names replace the
# others.  Dies on a stream that is not complete, that did not compare its
# names (a failed build), or that has a part which failed without its
# results.
results_new_list() {
	local tap=$1 expected=$2 only tmp
	[ -f "$tap" ] || die "no stream at $tap: run make check first"
	tail -n 1 "$tap" | grep -qE '^[0-9]+ passed, [0-9]+ failed$' ||
		die "$tap does not end with 'N passed, N failed': not a whole run of make check"
	grep -qxF "# Subtest: $RESULTS_COMPARISON" "$tap" ||
		die "the run of $tap stopped before it compared the names (did the build fail?)"
	if grep -q "^    not ok [0-9]* - $RESULTS_PART_FAILED" "$tap"; then
		die "in $tap a part failed without its results (\"$RESULTS_PART_FAILED...\"): its names would be lost; fix it and run again"
	fi
	only=$(sed -n 's/^# CHECKEXEC_ONLY=//p' "$tap" | head -n 1)
	tmp=$(mktemp)
	SKIP_PART=$RESULTS_COMPARISON FAILED=$RESULTS_PART_FAILED awk '
		/^# Subtest: / { part = substr($0, 12); next }
		/^    (not )?ok [0-9]+ - / {
			d = $0
			sub(/^    (not )?ok [0-9]+ - /, "", d)
			if (part != "" && part != ENVIRON["SKIP_PART"] &&
			    index(d, ENVIRON["FAILED"]) != 1)
				print part ": " d
		}' "$tap" >"$tmp"
	if [ -n "$only" ]; then
		{
			results_list "$expected" | grep -v -E -e "$only" || true
			results_matching "$only" "$tmp"
		} | LC_ALL=C sort -u
	else
		LC_ALL=C sort -u "$tmp"
	fi
	rm -f "$tmp"
}

# results_list_header: the comment lines at the top of the list.
results_list_header() {
	cat <<-'EOF'
		# Every result make check must report, by name: "PART: description" as
		# the stream of scripts/check.sh has it (docs/testing.md), one a line,
		# sorted (LC_ALL=C sort).  make check fails on a name here that does not
		# come and on a result whose name is not here.  Made from a run: after
		# make check, make check-names (scripts/check.sh --names) writes the
		# names of build/check.tap here; after a run with CHECKEXEC_ONLY it
		# replaces only the names that filter selects.  Review with git diff.
	EOF
}
