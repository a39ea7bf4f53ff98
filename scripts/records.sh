# shellcheck shell=bash
# Reading the results the guest writes back (make demo, make bench).
# Source after lib.sh.

# Host and guest exchange results as records: one line each of
# tab-separated NAME=VALUE fields (no value holds a tab or a newline).
# record_field RECORD NAME: the value of NAME in RECORD; status 1 if none.
record_field() {
	local item
	local -a items
	IFS=$'\t' read -ra items <<<"$1"
	for item in "${items[@]}"; do
		if [ "${item%%=*}" = "$2" ]; then
			printf '%s\n' "${item#*=}"
			return 0
		fi
	done
	return 1
}

# find_record FILE NAME=VALUE...: the first record of FILE in which every
# NAME has its VALUE; status 1 if there is none.
find_record() {
	local line want
	while IFS= read -r line; do
		for want in "${@:2}"; do
			[ "$(record_field "$line" "${want%%=*}")" = "${want#*=}" ] ||
				continue 2
		done
		printf '%s\n' "$line"
		return 0
	done <"$1"
	return 1
}
