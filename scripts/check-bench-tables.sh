#!/usr/bin/env bash
# make bench's folding and verdicts (scripts/bench-tables.sh) on records
# made here: the counted runs' medians and spread, the refusal of runs that
# do not line up, the units of the counted tables, and the targets'
# verdicts.  Run by make check; prints one TAP line per check ("ok - bench
# tables: ...", the same words whether it passes or fails, what varies on
# "# " lines); exit status 1 on any failure.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/records.sh
source "$TOP/scripts/records.sh"
# shellcheck source=scripts/bench-tables.sh
source "$TOP/scripts/bench-tables.sh"
TAP_PREFIX="bench tables"
# shellcheck source=scripts/tap.sh
source "$TOP/scripts/tap.sh"
DIR=$(mktemp -d /tmp/checkexec-bench-tables-XXXXXX)
trap 'rm -rf "$DIR"' EXIT

# run_records FILE CHECK_NS CLEAR_MS ENFORCING_OVER_CLEAR: the records of
# one counted run.
run_records() {
	{
		printf 'part=kernel\trelease=r\tversion=#1 v\n'
		printf 'part=call\trounds=5\tcall=AT_EXECVE_CHECK, allowed\tns=%s\tratio=1.500\tspread=0.0100\n' "$2"
		printf 'part=call\trounds=5\tcall=faccessat(X_OK)\tns=3000\tratio=1.000\tspread=0.0000\n'
		printf 'part=startup\tprogram=1 library\trounds=5\tbatch=10\tconfig=patched, clear\tms=%s\tratio=1.000\tspread=0.0200\n' "$3"
		printf 'part=startup-pairs\tprogram=1 library\tclear_over_ours=1.010\tbit_over_ldso_only=1.000\n'
		printf 'part=interp\tprogram=dash, 20 sourced files\trounds=5\tbatch=10\tconfig=ours, clear\tms=%s\tratio=1.000\tspread=0.0100\n' "$3"
		printf 'part=interp-pairs\tprogram=dash, 20 sourced files\tclear_over_ours=1.000\tenforcing_over_clear=%s\n' "$4"
		printf 'part=interp-checks\tprogram=dash, 20 sourced files\tchecks=22\n'
	} >"$1"
}

run_records "$DIR/run1" 5000 1.400 1.020
run_records "$DIR/run2" 5100 1.410 1.040
run_records "$DIR/run3" 4900 1.405 1.030
if fold_counted_runs "$DIR"/run{1,2,3} >"$DIR/folded" 2>"$DIR/err"; then
	record=$(find_record "$DIR/folded" part=call "call=AT_EXECVE_CHECK, allowed")
	if [ "$(record_field "$record" ns)" = 5000.000 ] &&
		[ "$(record_field "$record" spread)" = 0.0400 ] &&
		[ "$(record_field "$record" runs)" = 3 ]; then
		pass "three runs fold into their median (5000) and spread ((5100 - 4900) / 5000)"
	else
		note "three runs folded into: $record"
		fail "three runs fold into their median (5000) and spread ((5100 - 4900) / 5000)"
	fi
	record=$(find_record "$DIR/folded" part=startup "program=1 library")
	if [ "$(record_field "$record" ms)" = 1.405 ] && [ "$(record_field "$record" batch)" = 10 ]; then
		pass "a start-up folds into its median and keeps its batch"
	else
		note "the start-up folded into: $record"
		fail "a start-up folds into its median and keeps its batch"
	fi
	record=$(find_record "$DIR/folded" part=interp-pairs "program=dash, 20 sourced files")
	if [ "$(record_field "$record" enforcing_over_clear)" = 1.0300 ]; then
		pass "an interpreter's enforcing / clear folds into its median"
	else
		note "the interpreter's pair folded into: $record"
		fail "an interpreter's enforcing / clear folds into its median"
	fi
else
	note "three runs that line up were refused: $(cat "$DIR/err")"
	fail "three runs fold into their median (5000) and spread ((5100 - 4900) / 5000)"
	fail "a start-up folds into its median and keeps its batch"
	fail "an interpreter's enforcing / clear folds into its median"
fi

sed 's/call=faccessat(X_OK)/call=open+close/' "$DIR/run1" >"$DIR/run4"
if fold_counted_runs "$DIR/run2" "$DIR/run4" >/dev/null 2>"$DIR/err"; then
	note "runs whose records differ were folded"
	fail "runs whose records differ are refused, saying which line"
elif grep -q "differs between runs" "$DIR/err"; then
	pass "runs whose records differ are refused, saying which line"
else
	note "runs whose records differ failed without saying why: $(cat "$DIR/err")"
	fail "runs whose records differ are refused, saying which line"
fi

head -n 3 "$DIR/run3" >"$DIR/run5"
for order in "run1 run5" "run5 run1"; do
	# shellcheck disable=SC2086 # two file names
	if (cd "$DIR" && fold_counted_runs $order) >/dev/null 2>"$DIR/err"; then
		note "a run that ends early was folded ($order)"
		fail "a run that ends early is refused ($order)"
	elif grep -q "ends before it" "$DIR/err"; then
		pass "a run that ends early is refused ($order)"
	else
		note "a run that ends early failed without saying why ($order): $(cat "$DIR/err")"
		fail "a run that ends early is refused ($order)"
	fi
done

if render_results "$DIR/folded" count | grep -q 'insns/call' &&
	render_results "$DIR/folded" time | grep -q 'ns/call'; then
	pass "counted tables are in instructions, timed ones in ns"
else
	note "the tables do not name their unit"
	fail "counted tables are in instructions, timed ones in ns"
fi

if render_results "$DIR/folded" count |
	grep -Eq '^   dash, 20 sourced files +1\.405 \( 1\.00x\) +1\.000x +1\.030x +22 '; then
	pass "the interpreters' table gives each program's count, ratios and checks"
else
	note "the interpreters' table: $(render_results "$DIR/folded" count | grep -A3 Interpreters)"
	fail "the interpreters' table gives each program's count, ratios and checks"
fi

verdicts=$(target "a" 2.0 2.0; target "b" 2.001 2.0 "why"; target "c" 1.0 2.0 "why")
if grep -q ' 2.000 (target <= 2.0): met$' <<<"$verdicts" &&
	grep -q ' 2.001 (target <= 2.0): MISSED (why)$' <<<"$verdicts" &&
	grep -q ' 1.000 (target <= 2.0): met$' <<<"$verdicts"; then
	pass "a target is met up to its limit and missed above it, with the note only then"
else
	note "the verdicts were: $verdicts"
	fail "a target is met up to its limit and missed above it, with the note only then"
fi
exit "$TAP_FAILED"
