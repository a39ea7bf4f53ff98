#!/usr/bin/env bash
# make bench: the cost of the check.  Builds the kernel with and without the
# AT_EXECVE_CHECK fast path (0007-0009, 0027), boots the same image on each,
# runs the in-guest benchmark (testlibs/bench: one call of each kind, program
# start-up and dlopen under Debian's stock ld.so, the project's build of the
# same glibc without the patch, and the patched one with the bits clear,
# enforcing, in audit mode and enforcing in ld.so alone; mmap(PROT_EXEC) with
# the bit clear and set; two threads or processes checking at once), prints
# both tables and the targets, and
# writes it all to build/bench-table.txt.
# Under TCG absolute times mean little: read the ratios, measured side by
# side in one run.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/glibc-tree.sh
source "$TOP/scripts/glibc-tree.sh"
hold_build_lock

TABLE=$BUILD/bench-table.txt
# The directory the guest gets as its working directory: the C libraries
# the benchmark compares with, which the image does not carry (an
# unpatched ld.so that passes the check would load what the patched one
# refuses); checkexec-bench copies them to the guest's disk.
SHARE=$BUILD/bench-share

# stage_unpatched_glibc: ld.so and libc.so.6 of the unpatched build tree
# (the one make check compares glibc's tests against), without debug
# information like the image's, in $SHARE/unpatched.
stage_unpatched_glibc() {
	"$TOP/scripts/build-glibc.sh" --unpatched
	glibc_tree unpatched
	rm -rf "$SHARE/unpatched"
	mkdir -p "$SHARE/unpatched"
	(
		lock_glibc_tree
		strip --strip-debug -o "$SHARE/unpatched/ld-linux-x86-64.so.2" "$GOBJ/elf/ld.so"
		strip --strip-debug -o "$SHARE/unpatched/libc.so.6" "$GOBJ/libc.so"
	) || die "cannot copy the unpatched glibc from $GOBJ"
}

# stage_stock_libc: Debian's own build of the same glibc (package libc6 of
# the glibc-source version, from the machine's apt mirror, kept in the
# cache), its libraries in $SHARE/stock.
stage_stock_libc() {
	local version deb dir=$CACHE/debs
	version=$(pkg_version glibc-source)
	deb=$dir/libc6_${version//:/%3a}_amd64.deb
	mkdir -p "$dir"
	if [ ! -s "$deb" ]; then
		(cd "$dir" && apt-get download "libc6:amd64=$version")
	fi
	[ -s "$deb" ] || die "apt-get download libc6=$version gave no $deb"
	rm -rf "$SHARE/stock" "$SHARE/stock-deb"
	dpkg-deb -x "$deb" "$SHARE/stock-deb"
	# bookworm's libc6 ships its libraries in /lib (merged-/usr links it).
	mv "$SHARE/stock-deb/lib/x86_64-linux-gnu" "$SHARE/stock"
	rm -rf "$SHARE/stock-deb"
}

# run_bench NAME KERNEL: boot KERNEL with the image, run the benchmark.
run_bench() {
	local name=$1 kernel=$2
	say "bench: booting the kernel $name"
	# shellcheck disable=SC2016 # $CHECKEXEC_JOB is the guest's
	KERNEL=$kernel "$TOP/scripts/boot.sh" run --name "bench-$name" --dir "$SHARE" -- \
		bash -c '/usr/lib/checkexec/bin/checkexec-bench "$CHECKEXEC_JOB/bench.txt" .' >/dev/null ||
		die "the benchmark failed on the kernel $name (see $BUILD/jobs/bench-$name/output)"
	[ -s "$BUILD/jobs/bench-$name/bench.txt" ] ||
		die "the benchmark wrote no table (see $BUILD/jobs/bench-$name/output)"
}

# ratio FILE LABEL COLUMN: the ratio in the line starting with LABEL (the
# COLUMN-th "(N.NNx)" for start-up lines, the last field for per-call lines).
ratio() {
	local line
	line=$(grep -m1 "^   $2" "$1") || die "no line '$2' in $1"
	if [ "$3" = last ]; then
		awk '{print $NF}' <<<"$line"
	else
		grep -o '([ 0-9.]*x)' <<<"$line" | sed -n "$3p" | tr -d '( x)'
	fi
}

# per_call_ratio FILE LABEL BASE: ns/call of LABEL over ns/call of BASE
# (the second-to-last field of a per-call line).
per_call_ratio() {
	local value base
	value=$(grep -m1 "^   $2 " "$1" | awk '{print $(NF-1)}')
	base=$(grep -m1 "^   $3 " "$1" | awk '{print $(NF-1)}')
	if [ -z "$value" ] || [ -z "$base" ]; then
		die "no lines '$2' and '$3' in $1"
	fi
	awk -v v="$value" -v b="$base" 'BEGIN { printf "%.2f\n", v / b }'
}

# check_speed_up FILE WORKERS: the speed-up of the checks of WORKERS (a
# row of table 4) over one worker's.
check_speed_up() {
	local line
	line=$(grep -m1 "^   $2  " "$1") || die "no line '$2' in $1"
	awk '{print $(NF-2)}' <<<"$line"
}

# target DESCRIPTION VALUE LIMIT: say whether VALUE <= LIMIT.
target() {
	local verdict="met"
	[ -n "$2" ] || die "the table has no value for: $1"
	awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }' || verdict="MISSED"
	printf '  %-62s %6s (target <= %s): %s\n' "$1" "$2" "$3" "$verdict"
}

"$TOP/scripts/build-all.sh"
"$TOP/scripts/build-kernel.sh" --without-fast-path
stage_unpatched_glibc
stage_stock_libc
run_bench without-fast-path "$BUILD/kernel-without-fast-path/bzImage"
run_bench with-fast-path "$BUILD/kernel/bzImage"
without=$BUILD/jobs/bench-without-fast-path/bench.txt
with=$BUILD/jobs/bench-with-fast-path/bench.txt
{
	echo "== kernel series without the fast path (linux/series without 0007-0009, 0027)"
	cat "$without"
	echo
	echo "== kernel series with the fast path (linux/series)"
	cat "$with"
	echo
	echo "== targets (with the fast path)"
	target "allowed check / faccessat(X_OK) (without the fast path: $(ratio "$without" "AT_EXECVE_CHECK, allowed" last))" \
		"$(ratio "$with" "AT_EXECVE_CHECK, allowed" last)" 2.5
	# "Equal to stock within the noise": 5 % here.
	for program in "1 library" "10 libraries" "100 libraries" "python3 -c pass"; do
		target "start-up, $program, bits clear / stock" \
			"$(ratio "$with" "$program" 3)" 1.05
	done
	target "start-up, 100 libraries, enforcing / stock" \
		"$(ratio "$with" "100 libraries" 4)" 1.10
	# The kernel's mapping check (Exec Restrict) alone: the same enforcing
	# ld.so with the bit set and with the bit clear (the tunable enforcing).
	target "start-up, 100 libraries, enforcing: bit / ld.so-only" \
		"$(ratio "$with" "100 libraries" last | tr -d x)" 1.02
	echo "  one mmap(PROT_EXEC) of an allowed file, bit set / bit clear:" \
		"$(per_call_ratio "$with" "mmap(PROT_EXEC), bit set" "mmap(PROT_EXEC), bit clear")"
	# A check holds its process's cred_guard_mutex, as execve does.
	echo "  allowed checks of two workers, speed-up over one: two threads of one" \
		"process $(check_speed_up "$with" "2 threads of one process")," \
		"two processes $(check_speed_up "$with" "2 processes")"
} | tee "$TABLE"
say "the table is also in $TABLE"
