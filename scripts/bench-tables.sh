# shellcheck shell=bash
# make bench's tables: reading the guest's records (testlibs/bench/bench.h:
# tab-separated NAME=VALUE fields, the first "part=NAME"), folding the
# counted runs into one set of records, rendering the tables, the gap
# between a check in a loop and in a start-up, and the targets.  Source
# after lib.sh and records.sh.

# RECORDS_AWK: awk functions over the records: parse() fills F with the
# fields of a line, first() keeps the order in which items are first seen.
# shellcheck disable=SC2016 # awk's own $fields
RECORDS_AWK='
function parse(line,   n, i, items, eq) {
	delete F
	delete NAMES
	n = split(line, items, "\t")
	for (i = 1; i <= n; i++) {
		eq = index(items[i], "=")
		NAMES[i] = substr(items[i], 1, eq - 1)
		F[NAMES[i]] = substr(items[i], eq + 1)
	}
	return n
}
function first(list, item) {
	if (!((list, item) in SEEN)) {
		SEEN[list, item] = 1
		ORDER[list, ++COUNT[list]] = item
	}
}
function sort_values(v, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
}
function median(v, n) {
	sort_values(v, n)
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}'

# SETTLE: a guest command that lets the boot's last services settle before
# instructions are counted (the vCPU counts other processes too; systemd
# still reads the mount table after the job's mounts).  Under ACCEL=icount
# an idle guest's clock jumps ahead: the wait costs no real time.
# shellcheck disable=SC2034 # used by bench.sh and bench-profile.sh
SETTLE="sleep 10"

# COUNTED_CMDLINE: the kernel parameters of a boot that counts
# instructions.  They put the kernel at one place (nokaslr) and every
# process's mappings too (norandmaps): how many pages a fault maps around
# it and how many page tables a process needs depend on where its
# mappings fall.  With random places one start-up of 1.4 M instructions
# counted up to 3 % more or less than the next, and the counts of the
# short start-ups spread by up to 1.2 % over five boots; without them,
# by 0.5 % or less.
# shellcheck disable=SC2034 # used by bench.sh and bench-profile.sh
COUNTED_CMDLINE="nokaslr norandmaps"

# CHECKS_COMMAND: a guest command that prints the record "part=checks
# program=100 libraries checks=N": the number of objects the patched ld.so
# checks when it starts the program with 100 libraries as the benchmark
# does (ld.so PROGRAM; in audit mode, which checks them all, and
# LD_DEBUG=execcheck names each).
LDSO=/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
# shellcheck disable=SC2034 # used by bench.sh and bench-profile.sh
CHECKS_COMMAND="checks=\$(GLIBC_TUNABLES=glibc.rtld.exec_check=1 LD_DEBUG=execcheck \
	$LDSO --library-path ${LDSO%/*} /usr/lib/checkexec/bench/need-100 2>&1 |
	grep -c 'exec check: file=') &&
	printf 'part=checks\tprogram=100 libraries\tchecks=%s\n' \"\$checks\""

# fold_counted_runs FILE...: the records of the counted runs (one file per
# run, the same records in the same order) folded into one set, printed:
# each measure (ns, ms, us) and each ratio is the median over the runs,
# "spread" is (largest - smallest) / median of the measure over the runs,
# and "ratio_spread" the same of the ratio; runs=N is added.  Fails if the
# runs do not line up.
fold_counted_runs() {
	awk -F '\t' "$RECORDS_AWK"'
	FNR == 1 { run++ }
	FNR == 1 && run > 1 && last != lines { bad = lines + 1; exit 1 }
	{
		last = FNR
		n = parse($0)
		if (run == 1) { fields[FNR] = n; lines = FNR }
		else if (n != fields[FNR]) { bad = FNR; exit 1 }
		for (i = 1; i <= n; i++) {
			name[FNR, i] = NAMES[i]
			if (run == 1) text[FNR, i] = F[NAMES[i]]
			else if (NAMES[i] !~ /^(ns|ms|us|ratio|spread|clear_over_ours|bit_over_ldso_only|enforcing_over_clear)$/ &&
				 text[FNR, i] != F[NAMES[i]]) { bad = FNR; exit 1 }
			v[FNR, i, run] = F[NAMES[i]]
		}
	}
	END {
		if (!bad && run > 1 && last != lines) bad = (last < lines ? last : lines) + 1
		if (bad) { printf "line %d of the counted runs differs between runs (or one run ends before it)\n", bad > "/dev/stderr"; exit 1 }
		for (l = 1; l <= lines; l++) {
			out = ""; measure = 0; ratio_spread = ""
			for (i = 1; i <= fields[l]; i++) {
				nm = name[l, i]
				if (nm ~ /^(ns|ms|us|ratio|clear_over_ours|bit_over_ldso_only|enforcing_over_clear)$/) {
					for (r = 1; r <= run; r++) w[r] = v[l, i, r]
					value = median(w, run)
					if (nm ~ /^(ns|ms|us)$/) { measure = value; low = w[1]; high = w[run] }
					if (nm == "ratio")
						ratio_spread = sprintf("\tratio_spread=%.4f", value > 0 ? (w[run] - w[1]) / value : 0)
					text[l, i] = sprintf(nm ~ /^(ns|ms|us)$/ ? "%.3f" : "%.4f", value)
				}
			}
			for (i = 1; i <= fields[l]; i++) {
				nm = name[l, i]
				if (nm == "spread")
					text[l, i] = sprintf("%.4f", measure > 0 ? (high - low) / measure : 0)
				out = out (i > 1 ? "\t" : "") nm "=" text[l, i]
			}
			print out ratio_spread (l > 1 ? "\truns=" run : "")
		}
	}' "$@"
}

# render_results FILE UNIT: the tables of one kernel's records; UNIT is
# time (a timed run: the rounds' median, spread over the rounds) or count
# (folded counted runs: instructions, spread over the runs).
render_results() {
	awk -F '\t' -v unit="$2" "$RECORDS_AWK"'
	{ parse($0) }
	F["part"] == "kernel" { kernel = F["release"] " " F["version"] }
	F["part"] == "call" {
		first("call", F["call"]); rounds = F["rounds"]; runs = F["runs"]
		ns[F["call"]] = F["ns"]; xr[F["call"]] = F["ratio"]; sp[F["call"]] = F["spread"]
		rsp[F["call"]] = F["ratio_spread"]
	}
	F["part"] == "startup" {
		first("program", F["program"]); first("config", F["config"])
		ms[F["program"], F["config"]] = F["ms"]
		sr[F["program"], F["config"]] = F["ratio"]
		if (F["spread"] > ssp[F["program"]]) ssp[F["program"]] = F["spread"]
		if (F["ratio_spread"] > srsp[F["program"]]) srsp[F["program"]] = F["ratio_spread"]
		srounds[F["program"]] = F["rounds"]
		if (F["batch"] > batch) batch = F["batch"]
	}
	F["part"] == "startup-pairs" {
		ours[F["program"]] = F["clear_over_ours"]
		bit[F["program"]] = F["bit_over_ldso_only"]
	}
	F["part"] == "dlopen" {
		first("dlconfig", F["config"]); dl_rounds = F["rounds"]; loops = F["loops"]
		us[F["config"]] = F["us"]; dr[F["config"]] = F["ratio"]; dsp[F["config"]] = F["spread"]
		drsp[F["config"]] = F["ratio_spread"]
	}
	F["part"] == "interp" {
		first("iprogram", F["program"]); first("iconfig", F["config"])
		ims[F["program"], F["config"]] = F["ms"]
		ir[F["program"], F["config"]] = F["ratio"]
		if (F["spread"] > isp[F["program"]]) isp[F["program"]] = F["spread"]
		if (F["ratio_spread"] > irsp[F["program"]]) irsp[F["program"]] = F["ratio_spread"]
		irounds[F["program"]] = F["rounds"]; ibatch[F["program"]] = F["batch"]
	}
	F["part"] == "interp-pairs" {
		iours[F["program"]] = F["clear_over_ours"]
		ienf[F["program"]] = F["enforcing_over_clear"]
	}
	F["part"] == "interp-checks" { ichecks[F["program"]] = F["checks"] }
	F["part"] == "workers" {
		first("workers", F["workers"]); w_rounds = F["rounds"]
		cps[F["workers"]] = F["checks_per_s"]; cup[F["workers"]] = F["checks_speed_up"]
		aps[F["workers"]] = F["faccessat_per_s"]; aup[F["workers"]] = F["faccessat_speed_up"]
	}
	function of(rounds) {
		return unit == "count" ? sprintf("median of %d runs of %s rounds; spread over the runs of the count and of the ratio", runs, rounds) \
			: sprintf("median of %s rounds; spread over the rounds", rounds)
	}
	END {
		call_unit = unit == "count" ? "insns/call" : "ns/call"
		run_unit = unit == "count" ? "M insns" : "ms"
		dl_unit = unit == "count" ? "k insns" : "us"
		printf "kernel %s\n\n", kernel
		printf "1. One call (%s)\n", of(rounds)
		printf "   %-30s %12s %12s %8s%s\n", "call", call_unit, "x faccessat", "spread", (unit == "count" ? "  ratio spread" : "")
		for (i = 1; i <= COUNT["call"]; i++) {
			c = ORDER["call", i]
			printf "   %-30s %12.0f %12.2f %7.1f%%", c, ns[c], xr[c], 100 * sp[c]
			printf "%s", (unit == "count" ? sprintf(" %12.1f%%\n", 100 * rsp[c]) : "\n")
		}
		printf "\n2. Start-up (%s, %s%s; median ratio to stock in the same round)\n", run_unit, of(srounds[ORDER["program", 1]]),
			(batch > 1 ? sprintf("; a sample of 1 or 10 libraries the mean of %d start-ups", batch) : "")
		printf "   %-18s", "program"
		for (j = 1; j <= COUNT["config"]; j++)
			printf " %20s", ORDER["config", j]
		printf " %13s %17s %7s%s\n", "clear / ours", "bit / ld.so-only", "spread", (unit == "count" ? "  ratio spread" : "")
		for (i = 1; i <= COUNT["program"]; i++) {
			p = ORDER["program", i]
			printf "   %-18s", p
			for (j = 1; j <= COUNT["config"]; j++)
				printf " %11.*f (%5.2fx)", unit == "count" ? 3 : 1, ms[p, ORDER["config", j]], sr[p, ORDER["config", j]]
			printf " %12.3fx %16.3fx %6.1f%%", ours[p], bit[p], 100 * ssp[p]
			printf "%s", (unit == "count" ? sprintf(" %12.1f%%\n", 100 * srsp[p]) : "\n")
		}
		printf "\n3. dlopen + dlclose of one library (%s per iteration, loops of %d; %s; median ratio to stock in the same round)\n", dl_unit, loops, of(dl_rounds)
		for (i = 1; i <= COUNT["dlconfig"]; i++) {
			c = ORDER["dlconfig", i]
			printf "   %-22s %10.1f %-7s (%5.3fx stock)  spread %4.1f%%", c, us[c], dl_unit, dr[c], 100 * dsp[c]
			printf "%s", (unit == "count" ? sprintf(", ratio spread %4.1f%%\n", 100 * drsp[c]) : "\n")
		}
		if (COUNT["workers"] > 0) {
			printf "\n4. Two workers at once (median of %d rounds; speed-up = calls/s of all workers over one worker\x27s)\n", w_rounds
			printf "   %-28s %14s %10s %14s %10s\n", "workers", "checks/s", "speed-up", "faccessat/s", "speed-up"
			for (i = 1; i <= COUNT["workers"]; i++) {
				w = ORDER["workers", i]
				printf "   %-28s %14s %9.2fx %14s %9.2fx\n", w, cps[w], cup[w], aps[w], aup[w]
			}
		}
		if (COUNT["iprogram"] > 0) {
			printf "\n5. Interpreters (%s, %s; median ratio to Debian\x27s in the same round)\n", run_unit, of(irounds[ORDER["iprogram", 1]])
			printf "   %-24s", "program"
			for (j = 1; j <= COUNT["iconfig"]; j++)
				printf " %20s", ORDER["iconfig", j]
			printf " %13s %18s %7s %7s%s\n", "clear / ours", "enforcing / clear", "checks", "spread", (unit == "count" ? "  ratio spread" : "")
			for (i = 1; i <= COUNT["iprogram"]; i++) {
				p = ORDER["iprogram", i]
				printf "   %-24s", p
				for (j = 1; j <= COUNT["iconfig"]; j++)
					printf " %11.*f (%5.2fx)", unit == "count" ? 3 : 1, ims[p, ORDER["iconfig", j]], ir[p, ORDER["iconfig", j]]
				printf " %12.3fx %17.3fx %7d %6.1f%%", iours[p], ienf[p], ichecks[p], 100 * isp[p]
				printf "%s", (unit == "count" ? sprintf(" %12.1f%%\n", 100 * irsp[p]) : "\n")
			}
			for (i = 1; i <= COUNT["iprogram"]; i++)
				if (ibatch[ORDER["iprogram", i]] > 1)
					printf "   (a sample of %s: the mean of %d runs)\n", ORDER["iprogram", i], ibatch[ORDER["iprogram", i]]
		}
	}' "$1"
}

# value FILE RESULT NAME=VALUE...: the RESULT field of the first record of
# FILE with those fields.
value() {
	local file=$1 result=$2 record
	shift 2
	if ! record=$(find_record "$file" "$@") ||
		! record_field "$record" "$result"; then
		die "no record with $* (for $result) in $file"
	fi
}

# calc EXPRESSION: an awk expression of numbers, printed with 3 decimals.
calc() {
	awk "BEGIN { printf \"%.3f\\n\", $1 }"
}

# INTERP_PROGRAMS: the programs of part 5 (testlibs/bench/interpreters.c).
INTERP_PROGRAMS=("python3, 50 modules" "dash, 20 sourced files"
	"bash, 20 sourced files" "perl, 30 modules")

# check_costs FILE CHECKS: the cost of one check where it is made, in the
# unit of FILE's records (ns or instructions): in a loop (the same file;
# 100 files in turn; after a mapping change), in the start-up of the
# program with 100 libraries (enforcing, and ld.so-only enforcing, less the
# bits clear, over its CHECKS checks), in a dlopen (enforcing less clear)
# and in each interpreter's program (ours enforcing less ours clear, over
# the checks it makes: ld.so's and the interpreter's); one "NAME<TAB>COST"
# line each.
check_costs() {
	local f=$1 checks=$2 start clear
	printf 'in a loop, the same file\t%s\n' "$(value "$f" ns part=call "call=AT_EXECVE_CHECK, allowed")"
	printf 'in a loop, 100 files in turn\t%s\n' "$(value "$f" ns part=call "call=allowed, 100 files in turn")"
	printf 'in a loop, after mmap+write+munmap\t%s\n' "$(calc "$(value "$f" ns part=call "call=mmap+write+munmap, check") - $(value "$f" ns part=call "call=mmap+write+munmap")")"
	clear=$(value "$f" ms part=startup "program=100 libraries" "config=patched, clear")
	start=$(value "$f" ms part=startup "program=100 libraries" "config=patched, enforcing")
	printf 'in the 100-library start-up, enforcing\t%s\n' "$(calc "($start - $clear) * 1e6 / $checks")"
	start=$(value "$f" ms part=startup "program=100 libraries" "config=ld.so-only enforcing")
	printf 'in the 100-library start-up, ld.so only\t%s\n' "$(calc "($start - $clear) * 1e6 / $checks")"
	printf 'in a dlopen + dlclose, enforcing\t%s\n' "$(calc "($(value "$f" us part=dlopen "config=patched, enforcing") - $(value "$f" us part=dlopen "config=patched, clear")) * 1e3")"
	for program in "${INTERP_PROGRAMS[@]}"; do
		clear=$(value "$f" ms part=interp "program=$program" "config=ours, clear")
		start=$(value "$f" ms part=interp "program=$program" "config=ours, enforcing")
		printf 'in %s, enforcing\t%s\n' "$program" \
			"$(calc "($start - $clear) * 1e6 / $(value "$f" checks part=interp-checks "program=$program")")"
	done
}

# render_gap GAP CHECKS: the cost of a check where it is made, in
# instructions and in time side by side, and the time per instruction; GAP
# holds "NAME<TAB>INSNS<TAB>NS" rows (check_costs of the counted and the
# timed records).
render_gap() {
	echo "6. One allowed check where it is made (kernel with the fast path): its instructions"
	echo "   (counted runs), its time (timed run) and the time per instruction"
	printf '   %-42s %10s %10s %12s\n' "check" "insns" "ns" "ns / insn"
	awk -F '\t' '{ printf "   %-42s %10.0f %10.0f %12.2f\n", $1, $2, $3, ($2 > 0 ? $3 / $2 : 0) }' "$1"
	echo "   (start-up: the difference to the bits clear over the $2 objects ld.so checks;"
	echo "    after mmap+write+munmap: the pair less the mapping change alone;"
	echo "    interpreters: the difference to ours with the bits clear over the checks of 5.)"
}

# target DESCRIPTION VALUE LIMIT [NOTE]: say whether VALUE <= LIMIT, with
# NOTE after a miss.
target() {
	local verdict="met"
	[ -n "$2" ] || die "the table has no value for: $1"
	awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }' || verdict="MISSED${4:+ ($4)}"
	printf '  %-66s %6.3f (target <= %s): %s\n' "$1" "$2" "$3" "$verdict"
}
