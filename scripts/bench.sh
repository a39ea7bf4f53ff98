#!/usr/bin/env bash
# make bench: the cost of the check.  Builds the kernel with and without the
# AT_EXECVE_CHECK fast path (0007-0009, 0027), boots the same image on each,
# runs the in-guest benchmark (testlibs/bench: one call of each kind, program
# start-up and dlopen under Debian's stock ld.so, the project's build of the
# same glibc without the patch, and the patched one with the bits clear,
# enforcing, in audit mode and enforcing in ld.so alone; mmap(PROT_EXEC) with
# the bit clear and set; two threads or processes checking at once), timed
# on each kernel, and counted in instructions on the kernel with the fast
# path (five more boots under ACCEL=icount: the same benchmark, whose clock
# then counts instructions); prints the tables, where a check's cost goes
# and the targets in instructions and in time, and writes it all to
# build/bench-table.txt (tables: scripts/bench-tables.sh).  With
# --tables-only: only the tables, of the last run's records.
# Under TCG absolute times mean little: read the ratios, measured side by
# side in one run.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/records.sh
source "$TOP/scripts/records.sh"
# shellcheck source=scripts/bench-tables.sh
source "$TOP/scripts/bench-tables.sh"
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
		lock_stage_tree
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

# The interpreters of part 5 (testlibs/bench/interpreters.c): packages of
# interpreter-patches/.
BENCH_INTERPRETERS="python3.11 dash bash perl"

# stage_interpreters: each interpreter's three builds as prefixes the
# guest unpacks from $SHARE/interpreters.tar: d, Debian's binary packages;
# u, ours without the series; p, ours (what the image installs).
stage_interpreters() {
	local name prefix deb tree=$BUILD/bench-interpreters
	rm -rf "$tree"
	mkdir -p "$tree/d" "$tree/u" "$tree/p"
	for name in $BENCH_INTERPRETERS; do
		"$TOP/scripts/build-package.sh" --unpatched "$name"
		"$TOP/scripts/build-package.sh" --debian "$name"
		for prefix in d:packages-debian u:packages-unpatched p:packages; do
			for deb in "$BUILD/${prefix#*:}/$name/debs/"*.deb; do
				dpkg-deb -x "$deb" "$tree/${prefix%%:*}" || die "cannot unpack $deb"
			done
		done
	done
	for prefix in d u p; do
		rm -rf "$tree/$prefix/usr/share/doc" "$tree/$prefix/usr/share/man"
		# Debian's site.py adds PREFIX/lib/python3/dist-packages: the
		# image's, the same for all three.
		ln -s /usr/lib/python3 "$tree/$prefix/usr/lib/python3"
		# What runs enforcing must pass the check (Debian installs its code
		# 0644; the image's fix-library-modes makes it executable): all
		# three alike.
		find "$tree/$prefix" -type f -exec chmod a+x {} +
	done
	tar -C "$tree" -cf "$SHARE/interpreters.tar" d u p ||
		die "cannot pack the interpreters' builds into $SHARE/interpreters.tar"
}

# bench_command ARGS...: the guest's command line: the benchmark with ARGS,
# its records in the job directory.
bench_command() {
	# shellcheck disable=SC2016 # $CHECKEXEC_JOB is the guest's
	printf '/usr/lib/checkexec/bin/checkexec-bench %s "$CHECKEXEC_JOB/bench.records" .' "$*"
}

# run_bench NAME KERNEL: boot KERNEL with the image, run the timed benchmark.
run_bench() {
	local name=$1 kernel=$2
	say "bench: timed run on the kernel $name"
	KERNEL=$kernel "$TOP/scripts/boot.sh" run --name "bench-$name" --dir "$SHARE" -- \
		bash -c "$(bench_command)" >/dev/null ||
		die "the benchmark failed on the kernel $name (see $BUILD/jobs/bench-$name/output)"
	[ -s "$BUILD/jobs/bench-$name/bench.records" ] ||
		die "the benchmark wrote no results (see $BUILD/jobs/bench-$name/output)"
}

# COUNTED_COMMAND: the guest's command of a counted run, once the guest
# has settled (SETTLE): parts 1-3 and 5 (part 4 needs two vCPUs) in
# COUNTED_ROUNDS rounds, each sample of the short start-ups (1 and 10
# libraries) the mean of COUNTED_BATCH of them (a timer tick is 1 M
# instructions apart under ACCEL=icount: one start-up of 1.4 M instructions
# sees one or two), and the number of checks of the start-up with 100
# libraries (CHECKS_COMMAND).
COUNTED_ROUNDS=5
COUNTED_BATCH=10
COUNTED_COMMAND="$SETTLE && $(bench_command -r "$COUNTED_ROUNDS" -k "$COUNTED_BATCH" -p call,startup,dlopen,interp) &&
	$CHECKS_COMMAND >>\"\$CHECKEXEC_JOB/bench.records\""

# COUNTED_RUNS runs of the counted benchmark, each in its own boot under
# ACCEL=icount (one vCPU whose clock counts instructions) with
# COUNTED_CMDLINE, two at a time: a count does not depend on what else the
# host does.
COUNTED_RUNS=5
mapfile -t COUNTED_FILES < <(seq -f "$BUILD/jobs/bench-count-%g/bench.records" "$COUNTED_RUNS")
# run_counted KERNEL: the counted runs on KERNEL; their records are
# $BUILD/jobs/bench-count-N/bench.records.
run_counted() {
	local kernel=$1 n pid
	local -a pids=()
	say "bench: $COUNTED_RUNS counted runs (ACCEL=icount, two at a time)"
	for n in $(seq "$COUNTED_RUNS"); do
		ACCEL=icount CMDLINE_EXTRA="$COUNTED_CMDLINE" KERNEL=$kernel "$TOP/scripts/boot.sh" run --name "bench-count-$n" \
			--dir "$SHARE" -- bash -c "$COUNTED_COMMAND" >/dev/null 2>&1 &
		pids+=($!)
		if [ ${#pids[@]} -eq 2 ] || [ "$n" -eq "$COUNTED_RUNS" ]; then
			for pid in "${pids[@]}"; do
				if ! wait "$pid"; then
					kill "${pids[@]}" 2>/dev/null || true
					die "a counted run failed (see $BUILD/jobs/bench-count-*/output)"
				fi
			done
			pids=()
		fi
	done
}

# emulator_note UNIT COUNTED LIMIT [WHERE]: for a target in time, when its
# instructions (COUNTED) meet LIMIT: that they do, and the time per
# instruction of a check WHERE (a row of part 6) against in a loop.
emulator_note() {
	[ "$1" = time ] || return 0
	awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }' || return 0
	if [ -z "${4:-}" ]; then
		printf 'instructions %.3f meet it' "$2"
		return 0
	fi
	printf 'instructions %.3f; a check there %s ns/insn, in a loop %s (6.): the emulator'"'"'s' \
		"$2" "$(gap_ns_per_insn "$4")" "$(gap_ns_per_insn "in a loop, the same file")"
}

# gap_over_loop ROW UNIT: the cost of a check of ROW of part 6 over one
# in a loop, in UNIT (instructions or time).
gap_over_loop() {
	awk -F '\t' -v r="$1" -v col="$([ "$2" = time ] && echo 3 || echo 2)" '
		$1 == r { row = $col } $1 == "in a loop, the same file" { loop = $col }
		END { if (row != "" && loop > 0) printf "%.3f\n", row / loop }' "$GAP"
}

# gap_ns_per_insn ROW: the time per instruction of the check of ROW of
# part 6 ($GAP: its rows, "NAME<TAB>INSNS<TAB>NS").
gap_ns_per_insn() {
	awk -F '\t' -v r="$1" '$1 == r { printf "%.2f\n", $3 / $2 }' "$GAP"
}

without=$BUILD/jobs/bench-without-fast-path/bench.records
with=$BUILD/jobs/bench-with-fast-path/bench.records
case "${1:-}" in
"")
	"$TOP/scripts/build-all.sh"
	"$TOP/scripts/build-kernel.sh" --without-fast-path
	stage_unpatched_glibc
	stage_stock_libc
	stage_interpreters
	run_bench without-fast-path "$BUILD/kernel-without-fast-path/bzImage"
	run_bench with-fast-path "$BUILD/kernel/bzImage"
	run_counted "$BUILD/kernel/bzImage"
	;;
--tables-only)
	for f in "$without" "$with" "${COUNTED_FILES[@]}"; do
		[ -s "$f" ] || die "--tables-only renders the last run's records, and $f is missing (run: make bench)"
	done
	;;
*) die "usage: bench.sh [--tables-only]  (--tables-only: the tables of the last run's records, without booting)" ;;
esac
counted=$BUILD/jobs/bench-counted.records
fold_counted_runs "${COUNTED_FILES[@]}" >"$counted" ||
	die "the counted runs cannot be folded into one table"
checks=$(value "$counted" checks part=checks "program=100 libraries")
[ "$checks" -gt 100 ] || die "ld.so checked $checks objects starting the program with 100 libraries"
GAP=$BUILD/jobs/bench-gap.tsv
paste <(check_costs "$counted" "$checks") <(check_costs "$with" "$checks" | cut -f2) >"$GAP"
{
	echo "== timed, kernel series without the fast path (linux/series without 0007-0009, 0027)"
	render_results "$without" time
	echo
	echo "== timed, kernel series with the fast path (linux/series)"
	render_results "$with" time
	echo
	echo "== instructions counted, kernel series with the fast path ($COUNTED_RUNS runs under ACCEL=icount)"
	render_results "$counted" count
	echo
	render_gap "$GAP" "$checks"
	echo
	echo "== targets (kernel with the fast path; instructions: the counted runs, time: the timed run)"
	echo "  allowed check / faccessat(X_OK), time, without the fast path:" \
		"$(value "$without" ratio part=call "call=AT_EXECVE_CHECK, allowed")"
	for unit in instructions time; do
		f=$with
		[ "$unit" = time ] || f=$counted
		# A miss in time says when the instructions meet the target; for
		# the start-up and dlopen also the time per instruction of a check
		# there against in a loop (6.).
		target "allowed check / faccessat(X_OK), $unit" \
			"$(value "$f" ratio part=call "call=AT_EXECVE_CHECK, allowed")" 2.0 \
			"$(emulator_note "$unit" "$(value "$counted" ratio part=call "call=AT_EXECVE_CHECK, allowed")" 2.0)"
		target "start-up, 100 libraries, enforcing / stock, $unit" \
			"$(value "$f" ratio part=startup "program=100 libraries" "config=patched, enforcing")" 1.05 \
			"$(emulator_note "$unit" \
				"$(value "$counted" ratio part=startup "program=100 libraries" "config=patched, enforcing")" 1.05 \
				"in the 100-library start-up, enforcing")"
		target "dlopen + dlclose, enforcing / stock, $unit" \
			"$(value "$f" ratio part=dlopen "config=patched, enforcing")" 1.10 \
			"$(emulator_note "$unit" "$(value "$counted" ratio part=dlopen "config=patched, enforcing")" 1.10 \
				"in a dlopen + dlclose, enforcing")"
		# The bits clear against the project's own build without the
		# patch: the patch alone.
		for program in "1 library" "10 libraries" "100 libraries" "python3 -c pass"; do
			target "start-up, $program, bits clear / ours unpatched, $unit" \
				"$(value "$f" clear_over_ours part=startup-pairs "program=$program")" 1.02 \
				"$(emulator_note "$unit" "$(value "$counted" clear_over_ours part=startup-pairs "program=$program")" 1.02)"
		done
		target "dlopen + dlclose, bits clear / ours unpatched, $unit" \
			"$(value "$f" clear_over_ours part=dlopen-pairs)" 1.02 \
			"$(emulator_note "$unit" "$(value "$counted" clear_over_ours part=dlopen-pairs)" 1.02)"
		# The kernel's mapping check (Exec Restrict) alone: the same
		# enforcing ld.so with the bit set and with the bit clear (the
		# tunable enforcing).
		target "start-up, 100 libraries, enforcing: bit / ld.so-only, $unit" \
			"$(value "$f" bit_over_ldso_only part=startup-pairs "program=100 libraries")" 1.02 \
			"$(emulator_note "$unit" "$(value "$counted" bit_over_ldso_only part=startup-pairs "program=100 libraries")" 1.02)"
		# The interpreters (part 5): the series alone with the bits clear;
		# a checked file against a check in a loop; the start-up enforcing.
		for program in "${INTERP_PROGRAMS[@]}"; do
			target "$program, ours clear / ours unpatched, $unit" \
				"$(value "$f" clear_over_ours part=interp-pairs "program=$program")" 1.01 \
				"$(emulator_note "$unit" "$(value "$counted" clear_over_ours part=interp-pairs "program=$program")" 1.01)"
			target "$program, one checked file / one check in a loop, $unit" \
				"$(gap_over_loop "in $program, enforcing" "$unit")" 1.2 \
				"$(emulator_note "$unit" "$(gap_over_loop "in $program, enforcing" instructions)" 1.2)"
		done
		# The start-up of a program that loads modules, enforcing.
		for program in "python3, 50 modules" "perl, 30 modules"; do
			target "$program, ours enforcing / ours clear, $unit" \
				"$(value "$f" enforcing_over_clear part=interp-pairs "program=$program")" 1.05 \
				"$(emulator_note "$unit" "$(value "$counted" enforcing_over_clear part=interp-pairs "program=$program")" 1.05 \
					"in $program, enforcing")"
		done
	done
	# Debian builds python3.11 with PGO and LTO, ours without (docs/bench.md).
	for program in "${INTERP_PROGRAMS[@]}"; do
		echo "  $program, ours clear / Debian's:" \
			"$(value "$counted" ratio part=interp "program=$program" "config=ours, clear") in instructions," \
			"$(value "$with" ratio part=interp "program=$program" "config=ours, clear") in time"
	done
	echo "  one mmap(PROT_EXEC) of an allowed file, bit set / bit clear, time:" \
		"$(calc "$(value "$with" ns part=call "call=mmap(PROT_EXEC), bit set") / $(value "$with" ns part=call "call=mmap(PROT_EXEC), bit clear")")"
	# A check holds its process's cred_guard_mutex, as execve does.
	echo "  allowed checks of two workers, speed-up over one: two threads of one" \
		"process $(value "$with" checks_speed_up part=workers "workers=2 threads of one process")x," \
		"two processes $(value "$with" checks_speed_up part=workers "workers=2 processes")x"
} | tee "$TABLE"
grep -q MISSED "$TABLE" && say "targets missed: see MISSED in $TABLE"
say "the table is also in $TABLE"
