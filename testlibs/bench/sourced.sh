# shellcheck shell=dash
# make bench: one of the 20 files source-20.sh sources, a shell library of
# the size and kind of Debian's /lib/lsb/init-functions or a profile.d
# script: defaults, then functions (only builtins run while it is sourced).

: "${BENCH_LOG_LEVEL:=info}"
: "${BENCH_RUN_DIR:=/run/bench}"
: "${BENCH_CONF_DIR:=/etc/bench}"
: "${BENCH_VERBOSE:=no}"
BENCH_SOURCED=$((${BENCH_SOURCED:-0} + 1))

bench_level_number() {
	case "$1" in
	debug) echo 0 ;;
	info) echo 1 ;;
	notice) echo 2 ;;
	warning | warn) echo 3 ;;
	err | error) echo 4 ;;
	*) echo 1 ;;
	esac
}

bench_log() {
	local level="$1" wanted
	shift
	wanted=$(bench_level_number "$BENCH_LOG_LEVEL")
	if [ "$(bench_level_number "$level")" -ge "$wanted" ]; then
		printf '%s: %s\n' "$level" "$*" >&2
	fi
}

bench_log_begin_msg() {
	[ -z "${1:-}" ] && return 1
	printf '%s' "$*"
}

bench_log_end_msg() {
	local status="$1"
	if [ "$status" -eq 0 ]; then
		printf '.\n'
	elif [ "$status" -eq 255 ]; then
		printf ' (warning).\n'
	else
		printf ' failed!\n'
	fi
	return "$status"
}

bench_is_yes() {
	case "$1" in
	[Yy] | [Yy][Ee][Ss] | [Tt][Rr][Uu][Ee] | [Oo][Nn] | 1) return 0 ;;
	[Nn] | [Nn][Oo] | [Ff][Aa][Ll][Ss][Ee] | [Oo][Ff][Ff] | 0) return 1 ;;
	*) bench_log warning "not a boolean: $1"; return 2 ;;
	esac
}

bench_pidfile() {
	printf '%s/%s.pid\n' "$BENCH_RUN_DIR" "${1:-bench}"
}

bench_read_pidfile() {
	local file pid
	file=$(bench_pidfile "$1")
	[ -r "$file" ] || return 4
	read -r pid <"$file" || return 1
	case "$pid" in
	'' | *[!0-9]*) return 1 ;;
	esac
	echo "$pid"
}

bench_status_of_proc() {
	local name="$1" pid
	if pid=$(bench_read_pidfile "$name"); then
		if [ -d "/proc/$pid" ]; then
			bench_log info "$name is running ($pid)"
			return 0
		fi
		bench_log notice "$name is not running but its pid file exists"
		return 1
	fi
	bench_log info "$name is not running"
	return 3
}

bench_config_value() {
	local file="$BENCH_CONF_DIR/$1" key="$2" line name value
	[ -r "$file" ] || return 1
	while IFS= read -r line; do
		case "$line" in
		'#'* | '') continue ;;
		*=*)
			name=${line%%=*}
			value=${line#*=}
			name=${name%"${name##*[![:space:]]}"}
			if [ "$name" = "$key" ]; then
				value=${value#\"}
				value=${value%\"}
				echo "$value"
				return 0
			fi
			;;
		esac
	done <"$file"
	return 1
}

bench_path_prepend() {
	case ":$PATH:" in
	*":$1:"*) ;;
	*) PATH="$1${PATH:+:$PATH}" ;;
	esac
}

bench_path_append() {
	case ":$PATH:" in
	*":$1:"*) ;;
	*) PATH="${PATH:+$PATH:}$1" ;;
	esac
}

bench_split_words() {
	local IFS="$1"
	shift
	# shellcheck disable=SC2048,SC2086 # word splitting is the point
	set -- $*
	echo "$#"
}

bench_join() {
	local separator="$1" result="" word
	shift
	for word in "$@"; do
		result="${result:+$result$separator}$word"
	done
	echo "$result"
}

bench_version_ge() {
	local a="$1" b="$2" x y
	while [ -n "$a$b" ]; do
		x=${a%%.*}
		y=${b%%.*}
		[ "${x:-0}" -gt "${y:-0}" ] && return 0
		[ "${x:-0}" -lt "${y:-0}" ] && return 1
		case "$a" in *.*) a=${a#*.} ;; *) a= ;; esac
		case "$b" in *.*) b=${b#*.} ;; *) b= ;; esac
	done
	return 0
}

bench_trim() {
	local text="$1"
	text=${text#"${text%%[![:space:]]*}"}
	text=${text%"${text##*[![:space:]]}"}
	echo "$text"
}

if bench_is_yes "$BENCH_VERBOSE"; then
	bench_log debug "library $BENCH_SOURCED loaded"
fi
bench_path_append /usr/local/sbin
