#!/usr/bin/env bash
# make bench-profile: where an allowed check spends its instructions, in a
# loop and inside ld.so's start-up of the program with 100 libraries, per
# kernel function.  Builds the TCG plugin scripts/qemu-plugin/insn-profile.c
# against the plugin API header of the QEMU the machine runs (from its
# Debian source package, fetched with apt-get source from the deb-src twin
# of the machine's apt sources), boots the kernel with the fast path under
# ACCEL=icount with the plugin, runs checkexec-profile (testlibs/bench/
# profile.c: marks around each profile), and renders the profiles against
# the guest's /proc/kallsyms into build/bench-profile.txt.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/source-stage.sh
source "$TOP/scripts/source-stage.sh"
# shellcheck source=scripts/records.sh
source "$TOP/scripts/records.sh"
# shellcheck source=scripts/bench-tables.sh
source "$TOP/scripts/bench-tables.sh"
hold_build_lock

OUT=$BUILD/bench-profile
TABLE=$BUILD/bench-profile.txt
PLUGIN_SRC=$TOP/scripts/qemu-plugin/insn-profile.c
QEMU_PACKAGE=qemu-system-x86

# plugin_header: the directory holding qemu-plugin.h of the source version
# of the QEMU installed (kept in the cache); its path is printed.
plugin_header() {
	local version dir archive
	version=$(dpkg-query -W -f '${source:Version}' "$QEMU_PACKAGE" 2>/dev/null) ||
		die "$QEMU_PACKAGE is not installed (run: make deps)"
	dir=$CACHE/qemu-plugin-api/$version
	if [ ! -s "$dir/qemu-plugin.h" ]; then
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		say "bench-profile: apt-get source --download-only qemu=$version" >&2
		apt_source "qemu=$version" "$dir.tmp" --download-only >"$LOGS/qemu-source.log" 2>&1 ||
			fail_with_log "apt-get source qemu=$version" "$LOGS/qemu-source.log"
		archive=$(find "$dir.tmp" -name 'qemu_*.orig.tar.*' | head -n 1)
		[ -n "$archive" ] || die "the source package qemu=$version has no orig tarball"
		tar -C "$dir.tmp" -xf "$archive" --wildcards --strip-components=3 '*/include/qemu/qemu-plugin.h' ||
			die "no include/qemu/qemu-plugin.h in $archive"
		mkdir -p "$dir"
		mv "$dir.tmp/qemu-plugin.h" "$dir/"
		rm -rf "$dir.tmp"
	fi
	echo "$dir"
}

# build_plugin: $OUT/libinsn-profile.so, built against the installed
# QEMU's plugin API.
build_plugin() {
	local include
	include=$(plugin_header)
	mkdir -p "$OUT"
	run_step "bench-profile: build the TCG plugin" "$LOGS/qemu-plugin.log" \
		gcc -std=c11 -Wall -Wextra -Werror -O2 -shared -fPIC -I "$include" \
		-o "$OUT/libinsn-profile.so" "$PLUGIN_SRC"
}

# run_profile: boot with the plugin, run the profiles; the plugin's output
# is $OUT/profile.out, the guest's records $OUT/profile.records.
run_profile() {
	local job=$BUILD/jobs/bench-profile
	rm -f "$OUT/profile.out"
	say "bench-profile: booting under ACCEL=icount with the plugin"
	if ! ACCEL=icount CMDLINE_EXTRA="$COUNTED_CMDLINE" PLUGIN="$OUT/libinsn-profile.so,out=$OUT/profile.out" \
		"$TOP/scripts/boot.sh" run --name bench-profile -- \
		bash -c "$SETTLE && /usr/lib/checkexec/bin/checkexec-profile && $CHECKS_COMMAND &&
			cp /proc/kallsyms \"\$CHECKEXEC_JOB/kallsyms\"" >"$OUT/profile.records"; then
		if grep -qi plugin "$job/qemu.log" 2>/dev/null; then
			die "QEMU did not take the plugin: $(grep -i plugin "$job/qemu.log" | head -n 3)"
		fi
		die "the profile run failed (see $job/output)"
	fi
	[ -s "$OUT/profile.out" ] || die "the plugin wrote no profile ($OUT/profile.out)"
	# The kernel's symbols at the addresses of this boot.
	grep -q ' [tT] do_execveat_common' "$job/kallsyms" 2>/dev/null ||
		die "the guest's /proc/kallsyms has no addresses (see $job/kallsyms)"
	cp "$job/kallsyms" "$OUT/kallsyms"
	! grep -q '^profile .* overflowed' "$OUT/profile.out" ||
		die "a profile executed more kernel blocks than the plugin holds"
}

# symbolize: "PROFILE<TAB>FUNCTION<TAB>INSNS" lines: each kernel block of
# each profile put to the kernel function that holds its start,
# summed; "user space" for the instructions of user space, "(total)" for
# all, and "(blocks)" for the translated blocks executed instead of
# instructions.  Addresses are 16 hex digits, so that sort and string
# comparison order them.
symbolize() {
	awk '/^profile / { split($3, t, "="); split($6, b, "=")
		print $2 "\t(total)\t" t[2]; print $2 "\t(blocks)\t" b[2] }' "$OUT/profile.out"
	{
		awk '$2 ~ /^[tTwW]$/ { print $1, "s", $3 }' "$OUT/kallsyms"
		awk '/^profile / { p = $2; split($5, u, "="); print "0000000000000000", "u", p, u[2]; next }
			/^end / { next }
			{ printf "%016s b %s %s\n", $1, p, $2 }' "$OUT/profile.out"
	} | sort -k1,1 -s | awk '
		$2 == "s" { fn = $3; next }
		$2 == "u" { sum[$3 "\t" "user space"] += $4; next }
		{ sum[$3 "\t" (fn == "" ? "?" : fn)] += $4 }
		END { for (k in sum) print k "\t" sum[k] }'
}

# profile_rows SYMBOLIZED CHECKS: per function, tab-separated: instructions
# per call of each loop (check, faccessat, open+close), and per check in
# the start-up (enforcing and ld.so-only enforcing, less the bits clear,
# over CHECKS checks); of each profile the round with the fewest
# instructions (the least of other processes); the sum of all functions
# next to last, named "all", and the translated blocks executed last,
# named "(blocks)".
profile_rows() {
	awk -v checks="$2" -F '\t' '
		FNR == 1 { pass++ }
		pass == 1 {
			if ($1 == "part=profile") {
				split($2, s, "="); split($3, w, "="); split($4, c, "=")
				what[s[2]] = w[2]; calls[s[2]] = c[2]
			}
			next
		}
		pass == 2 {
			if ($2 == "(total)" && (!(what[$1] in fewest) || $3 < fewest[what[$1]])) {
				fewest[what[$1]] = $3; kept[what[$1]] = $1
			}
			next
		}
		$2 != "(total)" && kept[what[$1]] == $1 {
			col = what[$1]
			if (sub(/^100 libraries, /, "", col))
				v[$2, col] += $3
			else
				v[$2, col] += $3 / calls[$1]
			fns[$2] = 1
		}
		END {
			for (fn in fns) {
				r[1] = v[fn, "allowed check"]; r[2] = v[fn, "faccessat(X_OK)"]; r[3] = v[fn, "open+close"]
				r[4] = (v[fn, "patched, enforcing"] - v[fn, "patched, clear"]) / checks
				r[5] = (v[fn, "ld.so-only enforcing"] - v[fn, "patched, clear"]) / checks
				line = fn
				for (i = 1; i <= 5; i++) {
					line = line "\t" r[i]
					if (fn != "(blocks)")
						all[i] += r[i]
				}
				if (fn == "(blocks)")
					blocks = line
				else
					print line
			}
			printf "all"
			for (i = 1; i <= 5; i++) printf "\t%s", all[i]
			print ""
			print blocks
		}' "$OUT/profile.records" "$1" "$1"
}

# render SYMBOLIZED CHECKS: the table, functions of at least 20
# instructions per check (in the loop or the start-up) by the loop's check,
# their sum, and the translated blocks executed per check.
render() {
	local format='%-36s %13s %13s %13s %13s %13s\n'
	# shellcheck disable=SC2059 # the format is ours
	printf "$format" function "check (loop)" faccessat open+close "check (start)" "ld.so only"
	profile_rows "$1" "$2" | sort -t $'\t' -k2,2gr | awk -F '\t' -v format="$format" '
		function row() { printf format, substr($1, 1, 36), sprintf("%.0f", $2), sprintf("%.0f", $3), sprintf("%.0f", $4), sprintf("%.0f", $5), sprintf("%.0f", $6) }
		$1 == "all" { total = $0; next }
		$1 == "(blocks)" { blocks = $0; next }
		$2 >= 20 || $5 >= 20 || $5 <= -20 { row() }
		END { $0 = total; row(); $0 = blocks; $1 = "translated blocks executed"; row() }'
}

"$TOP/scripts/build-all.sh"
build_plugin
run_profile
checks=$(value "$OUT/profile.records" checks part=checks "program=100 libraries")
symbolize >"$OUT/profile.symbols"
{
	echo "== instructions per call, per kernel function (kernel with the fast path, ACCEL=icount with insn-profile)"
	echo "   loops: $(value "$OUT/profile.records" calls part=profile seq=1) calls each; start-up: the program with 100 libraries,"
	echo "   enforcing (or ld.so-only enforcing) less the bits clear, over its $checks checks; of each, the round of"
	echo "   three with the fewest instructions;"
	echo "   functions with at least 20 instructions per check, by the loop's check"
	render "$OUT/profile.symbols" "$checks"
} | tee "$TABLE"
say "the profile is also in $TABLE (raw: $OUT/profile.out)"
