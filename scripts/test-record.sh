# shellcheck shell=bash
# A test suite run patched against the recorded results of the unpatched
# source (glibc's elf suite, python3.11's test subset): the record holds
# "depends: ..." lines (what the results depend on besides the source:
# the caller's machine_facts) and one "RESULT: NAME" line per test, and is
# valid only on a machine whose facts are the same.  Source after tap.sh;
# the caller defines machine_facts.

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

# record_is_current RECORD: RECORD exists and was made on a machine like
# this one; if not, say how it differs.
record_is_current() {
	local diff
	[ -f "$1" ] || { note "there is no record at $1"; return 1; }
	diff=$(diff <(grep '^depends: ' "$1") <(machine_facts)) && return 0
	note "the record was made on another machine (< record, > this machine):"
	note "$(grep '^[<>]' <<<"$diff")"
	return 1
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
# unpatched record NEW with RECORD made on this machine (a difference is a
# failure), or write it when there is none for this machine (or
# BASELINE_WRITE=1).
keep_or_write_record() {
	local new=$1 record=$2 results=$3 what=$4 target=$5
	if [ "${BASELINE_WRITE:-0}" != 1 ] && record_is_current "$record"; then
		if diff -u <(record_results "$record") <(record_results "$new") |
			sed 's/^/# /'; then
			pass "the unpatched $what gives the recorded results ($(summarize "$results"))"
		else
			fail "the unpatched $what differs from $record (above); BASELINE_WRITE=1 $target records this run"
		fi
	else
		cp "$new" "$record"
		pass "recorded the unpatched $what in $record ($(summarize "$results")); commit it"
	fi
}
