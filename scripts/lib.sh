# shellcheck shell=bash
# Helpers shared by every script in scripts/: paths, messages, long-running
# steps with logs, and the content-keyed artifact cache.  Source, do not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# shellcheck disable=SC2034 # used by the scripts that source this file
LOGS=$BUILD/logs
# Caches live outside the checkout so that a fresh clone reuses them.
CACHE=${CHECKEXEC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/checkexec}
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# The checkout may live anywhere: hash paths relative to the build tree.
export CCACHE_NOHASHDIR=true
# Depend mode: on a miss, ccache takes the headers from the compiler's -MD
# output instead of running the preprocessor once more; on an empty cache
# (a fresh machine) that extra pass made a kernel compile 1.5x and a glibc
# compile 1.7x as costly as no ccache (docs/building.md).  A compile
# without -MD falls back to the preprocessor mode.
export CCACHE_DEPEND=${CCACHE_DEPEND:-true}

say() { printf '==> %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# hold_build_lock: one build at a time in a build directory.  The lock is
# held until the process that took it exits; the scripts it runs inherit it.
hold_build_lock() {
	[ -n "${CHECKEXEC_LOCK_HELD:-}" ] && return 0
	mkdir -p "$BUILD"
	exec 9>"$BUILD/.lock"
	flock -n 9 || die "another build is running in $BUILD; wait for it to finish"
	export CHECKEXEC_LOCK_HELD=1
}

# fail_with_log STEP LOG: report a failed step, show the end of its log, exit.
fail_with_log() {
	printf 'error: step "%s" failed; its log is %s\n' "$1" "$2" >&2
	printf -- '---- last lines of %s ----\n' "$2" >&2
	tail -n 40 "$2" >&2
	printf -- '---- end of %s ----\n' "$2" >&2
	exit 1
}

# run_step NAME LOG CMD...: run CMD with its output in LOG, print a progress
# line every minute, and on failure show where and why it failed.
run_step() {
	local name=$1 log=$2 start=$SECONDS pid rc=0 tick=0
	shift 2
	mkdir -p "$(dirname "$log")"
	say "$name (log: $log)"
	"$@" >"$log" 2>&1 </dev/null &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2
		tick=$((tick + 2))
		if [ $((tick % 60)) -eq 0 ] && kill -0 "$pid" 2>/dev/null; then
			printf '    ... %s: %d s, %s\n' "$name" $((SECONDS - start)) \
				"$(tail -n 1 "$log" | cut -c1-100)"
		fi
	done
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] || fail_with_log "$name" "$log"
	say "$name: done in $((SECONDS - start)) s"
}

# fresh_time STEP: "about N min on a fresh machine (measured DATE)", the
# time STEP took in the last measured fresh run (scripts/stage-times), for
# a line of its own before the step (the step's name comes back in each
# progress line).
fresh_time() {
	local step minutes date
	while read -r step minutes date; do
		case $step in '' | '#'*) continue ;; esac
		[ "$step" = "$1" ] || continue
		if [ "$minutes" = - ]; then
			echo "not yet timed on a fresh machine"
		else
			echo "about $minutes min on a fresh machine (measured $date)"
		fi
		return 0
	done <"$TOP/scripts/stage-times"
	warn "scripts/stage-times has no step $1"
	echo "time unknown"
}

# content_key WORD|PATH...: a short hash of the words given and of the
# content (and relative names) of every file below the paths given.  Paths
# are taken relative to the top of the checkout.
content_key() {
	local item
	(
		cd "$TOP" || exit
		for item in "$@"; do
			if [ -e "$item" ]; then
				find "$item" -type f -print0 | LC_ALL=C sort -z |
					xargs -0 -r sha256sum
			else
				printf 'word %s\n' "$item"
			fi
		done
	) | sha256sum | cut -c1-16
}

# tree_hash DIR: a short hash of the names (relative to DIR), modes and
# content of every file and symbolic link below DIR, wherever DIR is: the
# key of a stage's output as the next stage sees it.
tree_hash() {
	[ -d "$1" ] || die "tree_hash: $1 is not a directory"
	(
		cd "$1" || exit
		find . \( -type f -o -type l \) -printf '%m %p %l\n' | LC_ALL=C sort
		find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
	) | sha256sum | cut -c1-16
}

# pkg_version PACKAGE: the installed version of a Debian package.
pkg_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null ||
		die "package $1 is not installed (run: make deps)"
}

# cache_fetch NAME KEY DEST: copy a cached artifact directory to DEST.
# Returns 1 when there is none.
cache_fetch() {
	local entry=$CACHE/artifacts/$1-$2
	[ -f "$entry/.complete" ] || return 1
	rm -rf "$3"
	mkdir -p "$3"
	cp -a --sparse=always "$entry/." "$3/"
	rm -f "$3/.complete"
	say "$1: reusing cached build $1-$2"
}

# cache_store NAME KEY SRC: save SRC as the artifact for KEY.  The entry is
# written under a temporary name and renamed, so a crash leaves no half entry.
cache_store() {
	local entry=$CACHE/artifacts/$1-$2 tmp
	mkdir -p "$CACHE/artifacts"
	tmp=$(mktemp -d "$CACHE/artifacts/.tmp-$1-XXXXXX")
	cp -a --sparse=always "$3/." "$tmp/"
	touch "$tmp/.complete"
	rm -rf "$entry"
	mv "$tmp" "$entry"
	# Keep the three newest entries of each artifact.
	find "$CACHE/artifacts" -maxdepth 1 -name "$1-*" -printf '%T@ %p\n' |
		sort -rn | tail -n +4 | cut -d' ' -f2- | xargs -r rm -rf
}

# apply_series SRCDIR PATCHDIR: apply PATCHDIR/series in order, no fuzz.
apply_series() {
	local src=$1 dir=$2 p
	[ -f "$dir/series" ] || die "$dir/series is missing"
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		[ -f "$dir/$p" ] || die "$dir/series names $p, which does not exist"
		say "applying $dir/$p"
		patch -d "$src" -p1 -F0 --forward --no-backup-if-mismatch -s \
			<"$dir/$p" || die "patch $dir/$p does not apply cleanly to $src"
	done <"$dir/series"
}
