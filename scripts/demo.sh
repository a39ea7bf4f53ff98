#!/usr/bin/env bash
# make demo: boot the guest, run the catalogue of bypass attempts
# (testlibs/run-demo) in the open, audit, enforced and service sessions,
# render its results as a table (also kept in build/demo-table.txt) and
# judge them: every attempt that is a matrix case ended as the matrix's
# oracle says, every legitimate program runs in every session, no payload
# runs or is mapped executable in a session that must keep it out (the
# enforced and service sessions; for code that comes from no file, such as
# sh -c, only the service session).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/records.sh
source "$TOP/scripts/records.sh"

RESULTS=$BUILD/jobs/demo/demo-results
TABLE=$BUILD/demo-table.txt
SESSIONS=(open audit enforced service)

# load_results: the records into CELL, MESSAGE, MATCHED, WHY, LEGITIMATE
# and ORDER (the attempts in the guest's order); dies on a truncated or
# malformed file.
declare -A CELL=() MESSAGE=() MATCHED=() WHY=() LEGITIMATE=() GUARDED=() ORACLE=()
ORDER=()
load_results() {
	local line attempt session expected header
	header=$(head -n 1 "$RESULTS")
	expected=$(record_field "$header" attempts) ||
		die "$RESULTS does not start with the number of attempts"
	[ "$(record_field "$header" sessions)" = "${SESSIONS[*]}" ] ||
		die "$RESULTS has other sessions than ${SESSIONS[*]}"
	while IFS= read -r line; do
		if ! attempt=$(record_field "$line" attempt) ||
			! session=$(record_field "$line" session); then
			die "a malformed record in $RESULTS: $line"
		fi
		[ -n "${LEGITIMATE[$attempt]:-}" ] || ORDER+=("$attempt")
		LEGITIMATE[$attempt]=$(record_field "$line" legitimate)
		ORACLE[$attempt]=$(record_field "$line" oracle)
		GUARDED[$attempt]=$(record_field "$line" guarded) ||
			die "a record without guarded= in $RESULTS: $line"
		CELL[$attempt/$session]=$(record_field "$line" verdict)
		MATCHED[$attempt/$session]=$(record_field "$line" matched) ||
			die "a record without matched= in $RESULTS: $line"
		WHY[$attempt/$session]=$(record_field "$line" why || true)
		MESSAGE[$attempt/$session]=$(record_field "$line" message || true)
	done < <(tail -n +2 "$RESULTS")
	[ "${#ORDER[@]}" -eq "$expected" ] ||
		die "the guest reported ${#ORDER[@]} of $expected attempts ($RESULTS)"
	for attempt in "${ORDER[@]}"; do
		for session in "${SESSIONS[@]}"; do
			[ -n "${CELL[$attempt/$session]:-}" ] ||
				die "no result for '$attempt' in the $session session ($RESULTS)"
		done
	done
}

# cell ATTEMPT SESSION: the table's cell; "(!)" marks a run that did not
# end as the oracle says.
cell() {
	printf '%s%s' "${CELL[$1/$2]}" "$([ "${MATCHED[$1/$2]}" = yes ] || echo ' (!)')"
}

render_table() {
	local attempt session
	printf '%-44s | %-26s | %-26s | %-26s | %s\n' attempt "${SESSIONS[@]}"
	printf '%.0s-' {1..158}
	echo
	for attempt in "${ORDER[@]}"; do
		printf '%-44s | %-26s | %-26s | %-26s | %s\n' "$attempt" \
			"$(cell "$attempt" open)" "$(cell "$attempt" audit)" \
			"$(cell "$attempt" enforced)" "$(cell "$attempt" service)"
	done
	for session in enforced service; do
		echo
		echo "What ld.so or the interpreter said when it refused, or the kernel when it refused a mapping ($session session):"
		for attempt in "${ORDER[@]}"; do
			[ -n "${MESSAGE[$attempt/$session]}" ] &&
				printf '  %s:\n    %s\n' "$attempt" "${MESSAGE[$attempt/$session]}"
		done
	done
	return 0
}

# judge: print what must not be and count it in FAILURES.
FAILURES=0
judge() {
	local attempt session cell
	for attempt in "${ORDER[@]}"; do
		for session in "${SESSIONS[@]}"; do
			cell=${CELL[$attempt/$session]}
			if [ "${MATCHED[$attempt/$session]}" != yes ]; then
				warn "not what the matrix's oracle expects in the $session session: $attempt ($cell: ${WHY[$attempt/$session]})"
				FAILURES=$((FAILURES + 1))
			fi
			if [ "${LEGITIMATE[$attempt]}" = yes ] && [ "$cell" != ran ]; then
				warn "legitimate, but not run in the $session session: $attempt ($cell)"
				FAILURES=$((FAILURES + 1))
			fi
			# A command attempt whose payload does not run with no bit
			# set shows nothing when it is refused with them.
			if [ "${ORACLE[$attempt]}" = no ] && [ "$session" = open ] &&
				[[ $cell == *"not loaded"* ]]; then
				warn "the payload did not run in the open session: $attempt ($cell)"
				FAILURES=$((FAILURES + 1))
			fi
			case ,${GUARDED[$attempt]},/$cell in
			*,$session,*/RAN* | *,$session,*/MAPPED | *,$session,*/loaded)
				warn "the payload got through the $session session: $attempt ($cell)"
				FAILURES=$((FAILURES + 1))
				;;
			esac
		done
	done
}

"$TOP/scripts/build-all.sh"
status=0
"$TOP/scripts/boot.sh" run --name demo -- /usr/lib/checkexec/run-demo || status=$?
if [ "$status" -ne 0 ] || [ ! -s "$RESULTS" ]; then
	die "the demonstration did not finish (status $status; output: $BUILD/jobs/demo/output)"
fi
load_results
render_table | tee "$TABLE"
say "the table is also in $TABLE"
judge
[ "$FAILURES" -eq 0 ] ||
	die "$FAILURES results are wrong: an oracle's verdict not met, a legitimate program failed, a payload got through or did not run with no bit set (see the table)"
