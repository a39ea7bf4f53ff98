#!/usr/bin/env bash
# make check: build what is missing, boot the guest and run its tests, check
# what only the host can check, run glibc's own tests of the patch, and
# print it all as one TAP stream whose parts are subtests, ending with
# "N passed, N failed" (exit status 1 when anything failed); the names of
# the results are compared with testlibs/expected-results (docs/testing.md).
#   check.sh                the whole run; its stream also in build/check.tap
#   check.sh --names [TAP]  write into testlibs/expected-results the names
#                           of the run whose stream TAP is (build/check.tap)
# CHECKEXEC_ONLY=REGEX (a POSIX extended regular expression): run only the
# parts, guest tests and matrix cases with an expected name it matches.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/kernel-tree.sh
source "$TOP/scripts/kernel-tree.sh"
# shellcheck source=scripts/tap.sh
source "$TOP/scripts/tap.sh"
# shellcheck source=scripts/results.sh
source "$TOP/scripts/results.sh"

JOB=$BUILD/jobs/check
TAP=$BUILD/check.tap
EXPECTED=$TOP/testlibs/expected-results

# host_check DESCRIPTION CMD...: a test whose verdict the host makes (one
# result of the current part), unless the filter leaves it out.
host_check() {
	local description=$1
	shift
	results_wanted "$TAP_PREFIX: $description" || return 0
	if "$@"; then
		pass "$description"
	else
		fail "$description"
	fi
}

CHECKPATCH=$BUILD/checkpatch

# fetch_checkpatch: checkpatch.pl and the data files it reads beside it,
# from Debian's kernel source, once per version of that source.
fetch_checkpatch() {
	local version file
	version=$(pkg_version "$SRC_PKG")
	[ "$(cat "$CHECKPATCH/.version" 2>/dev/null)" = "$version" ] && return 0
	rm -rf "$CHECKPATCH"
	mkdir -p "$CHECKPATCH"
	for file in checkpatch.pl spelling.txt const_structs.checkpatch; do
		echo "$SRC_PKG/scripts/$file"
	done | tar -C "$CHECKPATCH" --strip-components=2 -xf "$TARBALL" -T -
	echo "$version" >"$CHECKPATCH/.version"
}

# checkpatch_clean PATCH: the kernel's checkpatch.pl --strict finds nothing.
checkpatch_clean() {
	local out
	out=$(perl "$CHECKPATCH/checkpatch.pl" --strict --no-tree -q "$1" 2>&1) &&
		[ -z "$out" ] && return 0
	printf '%s\n' "$out" | sed 's/^/# /'
	return 1
}

# shell_scripts: the project's shell scripts (bash, or sourced by bash).
shell_scripts() {
	local f
	git -C "$TOP" ls-files | while read -r f; do
		[ -f "$TOP/$f" ] || continue
		head -n 1 "$TOP/$f" | grep -qE '^#!.*bash|^# shellcheck shell=' && echo "$f"
	done
}

# shell_scripts_clean: shellcheck finds nothing in any of them.
shell_scripts_clean() {
	local -a files
	mapfile -t files < <(shell_scripts)
	echo "# ${#files[@]} shell scripts"
	[ "${#files[@]}" -gt 20 ] || return 1
	(cd "$TOP" && shellcheck -x "${files[@]}") 2>&1 | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

nonce_came_back() {
	[ -s "$JOB/nonce" ] && cmp -s "$JOB/nonce" "$JOB/nonce.echo"
}

# kvm_refused_at_once: ACCEL=kvm without a usable KVM device fails within
# seconds, saying why, instead of waiting for the boot's time limit.
kvm_refused_at_once() {
	local out start=$SECONDS
	if out=$(ACCEL=kvm KVM_DEVICE=/nonexistent/kvm TIMEOUT=60 \
		"$TOP/scripts/boot.sh" run --name check-kvm -- true 2>&1); then
		echo "# boot.sh succeeded"
		return 1
	fi
	printf '%s\n' "$out" | sed 's/^/# /'
	[ $((SECONDS - start)) -le 5 ] &&
		grep -q 'ACCEL=kvm, but /nonexistent/kvm does not exist' <<<"$out"
}

# stage_keys KERNEL_OUT: the keys of the test programs and of the image
# built on the kernel stage's output KERNEL_OUT, on one line.
stage_keys() {
	echo "$(KERNEL_OUT=$1 "$TOP/scripts/build-testlibs.sh" --print-key)" \
		"$(KERNEL_OUT=$1 "$TOP/scripts/build-image.sh" --print-key)"
}

# compare_keys WHAT BEFORE AFTER TESTLIBS IMAGE: after WHAT, the keys must
# have stayed ("same") or changed ("new") as TESTLIBS and IMAGE say.
compare_keys() {
	local what=$1 before after want got
	read -ra before <<<"$2"
	read -ra after <<<"$3"
	want="$4 $5"
	got="$([ "${before[0]}" = "${after[0]}" ] && echo same || echo new)"
	got+=" $([ "${before[1]}" = "${after[1]}" ] && echo same || echo new)"
	echo "# $what: test programs and image keys: $got (expected: $want)"
	[ "$got" = "$want" ]
}

# stage_keys_follow_inputs: the test programs and the image are rebuilt
# exactly when what they are built from changes, checked on a copy of the
# kernel stage's output.  A new bzImage with a new kernel key, release and
# version (what a kernel-only patch gives) changes neither key; a changed
# selftest changes the image's alone; a changed UAPI header both.
stage_keys_follow_inputs() {
	local tmp keys0 keys1 keys2 keys3 rc=0
	tmp=$(mktemp -d "$BUILD/.stage-keys-XXXXXX")
	cp -a "$BUILD/kernel/." "$tmp/"
	keys0=$(stage_keys "$tmp")
	echo changed >>"$tmp/bzImage"
	echo 0123456789abcdef >"$tmp/.key"
	echo "#2 SMP PREEMPT_DYNAMIC changed" >"$tmp/version"
	keys1=$(stage_keys "$tmp")
	compare_keys "a bzImage-only change" "$keys0" "$keys1" same same || rc=1
	echo >>"$tmp/guest-root/usr/lib/checkexec/kselftest/exec/check-exec"
	keys2=$(stage_keys "$tmp")
	compare_keys "a selftest change" "$keys1" "$keys2" same new || rc=1
	echo '/* changed */' >>"$tmp/headers/include/linux/securebits.h"
	keys3=$(stage_keys "$tmp")
	compare_keys "a UAPI header change" "$keys2" "$keys3" new new || rc=1
	rm -rf "$tmp"
	return "$rc"
}

# image_key_of DIR: the image's key on the glibc, test program and package
# outputs copied to DIR/glibc, DIR/testlibs and DIR/packages.
image_key_of() {
	GLIBC_OUT=$1/glibc TESTLIBS=$1/testlibs PACKAGES_OUT=$1/packages \
		"$TOP/scripts/build-image.sh" --print-key
}

# image_key_follows_built_bytes: a glibc, test program or package rebuilt
# under the same stage key but with other bytes (a build need not be
# reproducible) changes the image's key, so the image holds what was just
# built.  Checked on copies of the three stages' outputs.
image_key_follows_built_bytes() {
	local tmp program deb key0 key1 key2 key3 rc=0
	tmp=$(mktemp -d "$BUILD/.image-key-XXXXXX")
	cp -a "$BUILD/glibc" "$BUILD/testlibs" "$BUILD/packages" "$tmp/"
	key0=$(image_key_of "$tmp")
	echo changed >>"$tmp/glibc/root/usr/lib/x86_64-linux-gnu/libc.so.6"
	key1=$(image_key_of "$tmp")
	echo "# libc.so.6 with other bytes, same glibc key: image key $key0 -> $key1"
	[ "$key0" != "$key1" ] || rc=1
	program=$(find "$tmp/testlibs/root" -type f -name 'test-*' -print -quit)
	echo changed >>"${program:?no test program in build/testlibs/root}"
	key2=$(image_key_of "$tmp")
	echo "# ${program##*/} with other bytes, same testlibs key: image key $key1 -> $key2"
	[ "$key1" != "$key2" ] || rc=1
	deb=$(find "$tmp/packages" -type f -name '*.deb' -print -quit)
	echo changed >>"${deb:?no .deb in build/packages}"
	key3=$(image_key_of "$tmp")
	echo "# ${deb##*/} with other bytes, same package key: image key $key2 -> $key3"
	[ "$key2" != "$key3" ] || rc=1
	rm -rf "$tmp"
	return "$rc"
}

# image_fs_has_csum_seed: the root file system of build/image has the
# metadata_csum_seed feature (ext4's incompatible feature bit 0x2000): the
# first GPT entry's first sector (bytes 32-39 of the entry at 1024), then
# that partition's superblock (1024 bytes in) and its incompatible
# features (at 0x60).
image_fs_has_csum_seed() {
	local image=$BUILD/image/checkexec.raw first incompat
	first=$(od -An -t u8 -j $((1024 + 32)) -N 8 "$image" | tr -d ' ')
	incompat=$(od -An -t u4 -j $((first * 512 + 1024 + 0x60)) -N 4 "$image" | tr -d ' ')
	echo "# root file system at sector $first, incompatible features $(printf '%#x' "$incompat")"
	[ $((incompat & 0x2000)) -ne 0 ]
}

# image_fs_takes_new_uuid: mkosi gives an image built on its cached base a
# new UUID with tune2fs -U random.  A file system made as images/mke2fs.conf
# says, then mounted a second later (its last mount after its last check),
# takes it; the built image has the feature that allows it.
image_fs_takes_new_uuid() {
	local fs rc=0 out
	fs=$(mktemp "$BUILD/.fs-XXXXXX")
	truncate -s 1G "$fs"
	MKE2FS_CONFIG=$TOP/images/mke2fs.conf mkfs.ext4 -q -I 256 -O 64bit "$fs"
	debugfs -w -R "ssv mtime 20300101000000" "$fs" >/dev/null 2>&1
	if ! dumpe2fs -h "$fs" 2>/dev/null | grep -q '^Last mount time:.* 2030$'; then
		echo "# could not give $fs a later mount time"
		rc=1
	elif out=$(tune2fs -U random "$fs" </dev/null 2>&1); then
		echo "# tune2fs -U random after a later mount: accepted"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		rc=1
	fi
	rm -f "$fs"
	image_fs_has_csum_seed || rc=1
	return "$rc"
}

# build_part: build what is missing; a failed build is one failed result.
# It runs whatever the filter selects.
build_part() {
	local description="every stage is built or up to date (scripts/build-all.sh)"
	TAP_PREFIX=build
	if "$TOP/scripts/build-all.sh"; then
		pass "$description"
	else
		fail "$description"
	fi
}

# guest_part: the main boot, testlibs/run-tests over guest-tests.list (the
# lines the filter selects), and the host's check of its result channel.
guest_part() {
	local status=0 filter=()
	TAP_PREFIX=guest
	if [ -n "$RESULTS_ONLY" ]; then
		results_filter guest >"$RESULTS_DIR/filter-guest"
		filter=(--filter "$RESULTS_DIR/filter-guest")
	fi
	# Every guest test in one boot: 10 min under TCG alone, 24 min beside
	# the background lane on a fresh machine (2026-12-07), past boot.sh's
	# default limit; the limit leaves room for a machine twice as slow.
	TIMEOUT=${TIMEOUT:-3000} "$TOP/scripts/boot.sh" run --name check "${filter[@]}" -- \
		/usr/lib/checkexec/run-tests || status=$?
	echo "# boot.sh exited with status $status"
	# The boot's own check: whatever the filter selects.
	if nonce_came_back; then
		pass "the result channel brought the host's nonce back"
	else
		fail "the result channel brought the host's nonce back"
	fi
	return "$status"
}

# own_boot NAME TEST: run the guest test TEST (as root) in a boot of its
# own, for a policy that stays until the boot ends.
own_boot() {
	local status=0
	"$TOP/scripts/boot.sh" run --name "$1" -- "/usr/lib/checkexec/tests/$2" ||
		status=$?
	echo "# boot.sh exited with status $status"
	return "$status"
}

# host_part: the checks only the host can make.
host_part() {
	local patch fetched=no
	TAP_PREFIX=host
	host_check "ACCEL=kvm without a usable /dev/kvm fails at once, saying why" \
		kvm_refused_at_once
	host_check "a bzImage-only change rebuilds neither the test programs nor the image; a selftest or header change does" \
		stage_keys_follow_inputs
	host_check "a glibc, test program or package rebuilt with other bytes under the same stage key changes the image's key" \
		image_key_follows_built_bytes
	host_check "the image's file system takes a new UUID after a later mount (mkosi's refresh of its cached base)" \
		image_fs_takes_new_uuid
	for patch in "$TOP"/linux/*.patch; do
		[ -e "$patch" ] || continue
		results_wanted "host: checkpatch --strict is clean on linux/${patch##*/}" ||
			continue
		if [ "$fetched" = no ]; then
			run_step "checkpatch: from $TARBALL" "$LOGS/checkpatch-fetch.log" \
				fetch_checkpatch
			fetched=yes
		fi
		host_check "checkpatch --strict is clean on linux/${patch##*/}" \
			checkpatch_clean "$patch"
	done
	host_check "shellcheck is clean on every shell script" shell_scripts_clean
	host_check "the image's code trees are what the rule derives from the recorded trace" \
		"$TOP/scripts/code-trees.sh" check
}

# write_names TAP: testlibs/expected-results from the run whose stream is
# TAP, saying what changed.
write_names() {
	local new old
	new=$(results_new_list "$1" "$EXPECTED")
	old=$(results_list "$EXPECTED" | LC_ALL=C sort -u)
	{
		results_list_header
		printf '%s\n' "$new"
	} >"$EXPECTED.new"
	mv "$EXPECTED.new" "$EXPECTED"
	say "$(grep -c . <<<"$new") names from $1;" \
		"$(LC_ALL=C comm -13 <(printf '%s\n' "$old") <(printf '%s\n' "$new") | grep -c .) added," \
		"$(LC_ALL=C comm -23 <(printf '%s\n' "$old") <(printf '%s\n' "$new") | grep -c .) removed" \
		"(review: git diff ${EXPECTED#"$TOP"/})"
}

case "${1:-}" in
--names)
	write_names "${2:-$TAP}"
	exit 0
	;;
"") ;;
*) die "usage: check.sh [--names [TAP]]" ;;
esac

hold_build_lock
results_begin "$TAP" "$EXPECTED" "${CHECKEXEC_ONLY:-}"
results_part --always build build_part
if [ "$RESULTS_PART_OK" = no ]; then
	results_close
	exit 1
fi
# The background lane: every part but the main boot, one at a time beside
# it; together they end sooner than one after the other, though each slows
# the other (docs/building.md).  IMA takes its policy once per boot, IPE
# keeps its active policy and AppArmor its profiles: each of these has a
# boot of its own.
LANE=(test-ima-appraise test-ipe-policy test-apparmor-profiles host
	"result stream" "source stage" "bench tables" "test records" glibc python3
	perl bash)

# lane_part PART: the command of the part PART of the lane.
lane_part() {
	case $1 in
	test-ima-appraise) own_boot check-ima "$1" ;;
	test-ipe-policy) own_boot check-ipe "$1" ;;
	test-apparmor-profiles) own_boot check-apparmor "$1" ;;
	host) host_part ;;
	"result stream") "$TOP/scripts/check-results.sh" ;;
	"source stage") "$TOP/scripts/check-source-stage.sh" ;;
	"bench tables") "$TOP/scripts/check-bench-tables.sh" ;;
	"test records") "$TOP/scripts/check-test-records.sh" ;;
	glibc) "$TOP/scripts/check-glibc.sh" ;;
	python3) "$TOP/scripts/check-python.sh" ;;
	perl) "$TOP/scripts/check-perl.sh" ;;
	bash) "$TOP/scripts/check-bash.sh" ;;
	*) die "lane_part: no part $1" ;;
	esac
}

trap results_stop_lane EXIT
for part in "${LANE[@]}"; do
	results_start "$part" lane_part "$part"
done
results_part --plan guest guest_part
for part in "${LANE[@]}"; do
	# A boot must print its plan: one that stops early has not.
	plan=()
	[[ $part != test-* ]] || plan=(--plan)
	results_part "${plan[@]}" "$part" results_started "$part"
done
results_end
