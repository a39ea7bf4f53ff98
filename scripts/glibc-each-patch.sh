#!/usr/bin/env bash
# make glibc-each-patch: every patch of glibc-patches/series builds on its
# own and passes the tests it adds or changes.  For each prefix of the
# series (the first patch, the first two, ...) builds Debian's glibc-source
# with that prefix (build-glibc.sh --series: a source stage of its own, in
# the cache), then runs, in that build tree, every glibc test that a patch
# of the prefix adds or changes: an elf/tst-*.c that is a test program (it
# includes support/test-driver.c, itself or through the test it includes)
# or an elf/tst-*.exp.  Each must PASS; UNSUPPORTED is a failure here (the
# host kernel must know AT_EXECVE_CHECK).  A test that fails after a later
# patch, though it passed after its own, fails that prefix.
# The last prefix, the whole series, is the patched glibc of make check
# (build-glibc.sh): its tree is reused, not built a second time.
# (make check's order: the test root of glibc's container tests is
# installed first when a container test is among them.)
# Results: build/glibc-each-patch/results (key=value, one line per prefix)
# and a table.  Not part of make check: a prefix whose headers differ from
# the last build costs a full glibc build (about 15 min on this project's
# 2-core machines; one that changes only a few files, 3-5 min).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/glibc-tree.sh
source "$TOP/scripts/glibc-tree.sh"
# shellcheck source=scripts/records.sh
source "$TOP/scripts/records.sh"
hold_build_lock
"$TOP/scripts/build-all.sh" deps

SERIES_DIR=$TOP/glibc-patches
OUT=$BUILD/glibc-each-patch
RESULTS=$OUT/results

mapfile -t PATCHES < <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$SERIES_DIR/series")
[ ${#PATCHES[@]} -gt 0 ] || die "$SERIES_DIR/series names no patch"

# prefix_dir N: a patch directory with the first N patches of the series.
prefix_dir() {
	local dir=$OUT/series-$1 i
	rm -rf "$dir"
	mkdir -p "$dir"
	for ((i = 0; i < $1; i++)); do
		cp "$SERIES_DIR/${PATCHES[i]}" "$dir/"
		echo "${PATCHES[i]}"
	done >"$dir/series"
	[ ! -f "$SERIES_DIR/upstream-only" ] || cp "$SERIES_DIR/upstream-only" "$dir/"
	echo "$dir"
}

# is_test SRC FILE: FILE (elf/NAME.c in the source SRC) is a test program.
is_test() {
	local file=$2 included
	grep -q '#include <support/test-driver.c>' "$1/$file" && return 0
	included=$(sed -n 's/^#include "\(tst-[^"]*\.c\)"$/\1/p' "$1/$file")
	[ -n "$included" ] && is_test "$1" "elf/$included"
}

# exp_test SRC FILE: the test that compares its output with FILE
# (elf/NAME.exp): the elf/Makefile target $(objpfx)TEST.out whose recipe
# names FILE.
exp_test() {
	awk -v expected="${2#elf/}" '
		/^\$\(objpfx\)[^:]*\.out:/ { target = $1; sub(/^\$\(objpfx\)/, "", target); sub(/\.out:$/, "", target) }
		index($0, expected) && target != "" { print "elf/" target; exit }' "$1/elf/Makefile"
}

# linux_elf_test SRC FILE: whether FILE (sysdeps/unix/sysv/linux/NAME.c)
# is a test of the elf subdirectory: NAME is listed in an "ifeq
# ($(subdir),elf)" block of sysdeps/unix/sysv/linux/Makefile.
linux_elf_test() {
	local name
	name=$(basename "$2" .c)
	awk -v name="$name" '
		/^ifeq \(\$\(subdir\),elf\)/ { elf = 1; next }
		/^endif/ { elf = 0 }
		elf && ($1 == name || $3 == name) { found = 1 }
		END { exit !found }' "$1/sysdeps/unix/sysv/linux/Makefile"
}

# tests_of SRC PATCH: the tests PATCH adds or changes, elf/NAME per line:
# elf/tst-*.c test programs, elf/tst-*.exp outputs, and the Linux tests
# of the elf subdirectory (sysdeps/unix/sysv/linux/tst-*.c).
tests_of() {
	local file
	sed -n 's#^+++ b/\(\(elf\|sysdeps/unix/sysv/linux\)/tst-[^ /]*\.\(c\|exp\)\)$#\1#p' "$2" |
		while read -r file; do
			case $file in
			elf/*.exp) exp_test "$1" "$file" ;;
			elf/*) if is_test "$1" "$file"; then echo "${file%.c}"; fi ;;
			*.c) if is_test "$1" "$file" && linux_elf_test "$1" "$file"; then
				echo "elf/$(basename "$file" .c)"
			fi ;;
			esac
		done
}

# container_tests SRC: the elf tests that run in glibc's test container.
# shellcheck disable=SC2317 # called by run_tests
container_tests() {
	awk '/^tests-container [+:]?= \\$/ { on = 1; next }
		on && /^  # tests-container/ { on = 0 }
		on { print "elf/" $1 }' "$1/elf/Makefile"
}

# run_tests SRC OBJ TEST...: run each test in the build tree OBJ; print
# "RESULT elf/NAME" for each (make's output goes to OBJ/elf/NAME.make.log).
# A container test needs the test root that make check installs first.
# Run by run_step.
# shellcheck disable=SC2317
run_tests() {
	local src=$1 obj=$2 t
	shift 2
	if printf '%s\n' "$@" | grep -qxFf <(container_tests "$src"); then
		make -C "$obj" "$obj/testroot.pristine/install.stamp" >"$obj/testroot.make.log" 2>&1 ||
			echo "FAIL the test root (see $obj/testroot.make.log)"
	fi
	for t in "$@"; do
		rm -f "$obj/$t.out" "$obj/$t.test-result"
		make -C "$obj" test t="$t" >"$obj/$t.make.log" 2>&1 || true
		echo "$(sed -n 's/^\([A-Z]*\): .*/\1/p' "$obj/$t.test-result" 2>/dev/null || echo MISSING) $t"
	done
}

mkdir -p "$OUT"
: >"$RESULTS"
failed=0
for ((n = 1; n <= ${#PATCHES[@]}; n++)); do
	patch=${PATCHES[n - 1]}
	dir=$(prefix_dir "$n")
	start=$SECONDS
	build=ok
	# The whole series is the image's glibc: its stage, not a second tree.
	variant=(--series "$dir") tree="series=$dir"
	[ "$n" -lt ${#PATCHES[@]} ] || variant=() tree=patched
	if ! "$TOP/scripts/build-glibc.sh" "${variant[@]}"; then
		build=failed
	fi
	glibc_tree "$tree"
	tests=()
	results=""
	if [ "$build" = ok ]; then
		for ((i = 0; i < n; i++)); do
			mapfile -t -O "${#tests[@]}" tests < <(tests_of "$GSRC" "$dir/${PATCHES[i]}")
		done
		mapfile -t tests < <(printf '%s\n' "${tests[@]}" | sed '/^$/d' | sort -u)
		lock_stage_tree
		export CCACHE_BASEDIR=$TREE CPPFLAGS="-isystem $GINC"
		run_step "glibc-each-patch: $n/${#PATCHES[@]}: ${#tests[@]} tests" \
			"$LOGS/glibc-each-patch-$n-tests.log" run_tests "$GSRC" "$GOBJ" "${tests[@]}"
		results=$(cat "$LOGS/glibc-each-patch-$n-tests.log")
		exec 8>&-
	fi
	passed=$(grep -c '^PASS ' <<<"$results" || true)
	not_passed=$(grep -v '^PASS ' <<<"$results" | grep -c . || true)
	verdict=ok
	[ "$build" = ok ] && [ "$not_passed" -eq 0 ] && [ "$passed" -gt 0 ] || verdict=FAIL
	[ "$verdict" = ok ] || failed=1
	printf 'patch=%s\tbuild=%s\ttests=%d\tpassed=%d\tseconds=%d\tverdict=%s\tfailing=%s\n' \
		"$patch" "$build" "${#tests[@]}" "$passed" $((SECONDS - start)) "$verdict" \
		"$(grep -v '^PASS ' <<<"$results" | awk 'NF { printf "%s%s:%s", sep, $2, $1; sep = "," }')" \
		>>"$RESULTS"
done

printf '\n%-66s %-6s %5s %6s %6s %7s\n' patch build tests passed time verdict
while IFS= read -r line; do
	printf '%-66s %-6s %5s %6s %5ss %7s\n' "$(record_field "$line" patch)" \
		"$(record_field "$line" build)" "$(record_field "$line" tests)" \
		"$(record_field "$line" passed)" "$(record_field "$line" seconds)" \
		"$(record_field "$line" verdict)"
	failing=$(record_field "$line" failing)
	[ -z "$failing" ] || echo "    not passing: $failing"
done <"$RESULTS"
echo "results: $RESULTS"
exit "$failed"
