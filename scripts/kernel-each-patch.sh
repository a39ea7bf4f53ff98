#!/usr/bin/env bash
# make kernel-each-patch: every patch of linux/series builds on its own.
# Applies the series one patch at a time to a fresh Debian linux-source-6.12
# and after each builds what the patch touches, configured as the guest's
# kernel (build-kernel.sh's configuration):
#   kernel code        bzImage (re-configured first when a Kconfig changes)
#   selftests          those selftests, against the tree's UAPI headers
#   samples/check-exec set-exec, likewise
#   Documentation/, MAINTAINERS  nothing to compile: only applied
# A step fails on a build error and on any compiler warning in its log.
# Results: build/kernel-each-patch/results (key=value, one line per patch)
# and a table.  Not part of make check: with a warm ccache it takes about
# 35 min on this project's 2-core machines (34 min on 2026-12-06).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/kernel-tree.sh
source "$TOP/scripts/kernel-tree.sh"
hold_build_lock
"$TOP/scripts/build-all.sh" deps

FRAGMENTS=("${GUEST_FRAGMENTS[@]}")
KSRC=$BUILD/$SRC_PKG-each-patch
OUT=$BUILD/kernel-each-patch
RESULTS=$OUT/results
LOG=$LOGS/kernel-each-patch
SERIES=$TOP/linux/series

[ -f "$TARBALL" ] || die "$TARBALL is missing (run: make deps)"
[ -f "$SERIES" ] || die "$SERIES is missing"

# touched PATCH: the files PATCH changes, one per line.
touched() {
	sed -n 's|^+++ b/||p' "$1"
}

# apply_one PATCH: apply PATCH to KSRC without fuzz.
apply_one() {
	patch -d "$KSRC" -p1 -F0 --forward --no-backup-if-mismatch -s <"$1"
}

configure_tree() {
	merge_config
}

# build_selftests TARGET: one selftest directory, against KSRC's headers.
build_selftests() {
	cd "$KSRC" || return
	make headers
	if [ "$1" = mm ]; then
		# Of the mm selftests the guest runs only MDWE's (build-kernel.sh).
		make -C tools/testing/selftests/mm \
			OUTPUT="$KSRC/tools/testing/selftests/mm" \
			"$KSRC/tools/testing/selftests/mm/mdwe_test"
	else
		make -C tools/testing/selftests TARGETS="$1"
	fi
}

build_set_exec() {
	cd "$KSRC" || return
	make headers_install INSTALL_HDR_PATH="$KSRC/usr-headers"
	gcc -O2 -Wall -Wextra -Werror -isystem "$KSRC/usr-headers/include" \
		-o "$KSRC/set-exec" samples/check-exec/set-exec.c
}

# no_warnings LOG: fail if the compilers warned in LOG.
no_warnings() {
	if grep -E ': warning: ' "$1"; then
		echo "the build of this step warned (above; log $1)"
		return 1
	fi
}

# what_to_build PATCH: the words of the builds PATCH needs (kconfig,
# bzImage, selftests:DIR, set-exec), "none" for documentation only.
what_to_build() {
	local file words=()
	while read -r file; do
		case $file in
		Documentation/* | MAINTAINERS) ;;
		tools/testing/selftests/*)
			file=${file#tools/testing/selftests/}
			words+=("selftests:${file%%/*}")
			;;
		samples/check-exec/*) words+=(set-exec) ;;
		*/Kconfig* | Kconfig*) words+=(kconfig bzImage) ;;
		*) words+=(bzImage) ;;
		esac
	done < <(touched "$1")
	[ "${#words[@]}" -gt 0 ] || words=(none)
	printf '%s\n' "${words[@]}" | sort -u | tr '\n' ' '
}

# step PATCH NUMBER: apply PATCH and build what it needs; appends its line
# to RESULTS.
step() {
	local patch=$1 name builds word start=$SECONDS steplog
	name=$(basename "$patch")
	builds=$(what_to_build "$patch")
	steplog=$LOG-$name.log
	run_step "each patch: apply $name" "$steplog.apply" apply_one "$patch"
	for word in $builds; do
		case $word in
		kconfig) run_step "each patch: $name: configure" "$steplog.kconfig" \
			configure_tree ;;
		bzImage) run_step "each patch: $name: bzImage" "$steplog.bzImage" \
			make_bzimage ;;
		selftests:*) run_step "each patch: $name: $word" "$steplog.$word" \
			build_selftests "${word#selftests:}" ;;
		set-exec) run_step "each patch: $name: set-exec" "$steplog.$word" \
			build_set_exec ;;
		none) ;;
		*) die "unknown build '$word'" ;;
		esac
		[ "$word" = none ] || [ "$word" = kconfig ] ||
			run_step "each patch: $name: no compiler warnings" \
				"$steplog.warnings" no_warnings "$steplog.$word"
	done
	printf 'patch=%s builds=%s seconds=%d result=ok\n' "$name" \
		"$(tr ' ' ',' <<<"${builds% }")" $((SECONDS - start)) >>"$RESULTS"
}

export CCACHE_BASEDIR=$KSRC
rm -rf "$OUT"
mkdir -p "$OUT"
: >"$RESULTS"
run_step "each patch: unpack $TARBALL" "$LOG-unpack.log" unpack_kernel
(cd "$KSRC" && make_ipe_test_key) >"$LOG-key.log" 2>&1 ||
	fail_with_log "each patch: the IPE test key" "$LOG-key.log"
# The base tree, configured: every later step builds incrementally on it.
run_step "each patch: configure the unpatched tree" "$LOG-config.log" \
	configure_tree
while read -r p; do
	case "$p" in '' | '#'*) continue ;; esac
	[ -f "$TOP/linux/$p" ] || die "$SERIES names $p, which does not exist"
	step "$TOP/linux/$p"
done <"$SERIES"
# After the last patch the configuration must be the guest's.
run_step "each patch: the final configuration holds linux/*.config" \
	"$LOG-fragments.log" check_fragments
count=$(wc -l <"$RESULTS")
say "each patch of linux/series builds on its own ($count patches):"
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	printf "  %-62s %-28s %5ss %s\n", v["patch"], v["builds"], v["seconds"], v["result"] }' "$RESULTS"
echo "$count passed, 0 failed"
