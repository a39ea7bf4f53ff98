#!/usr/bin/env bash
# make check: build what is missing, boot the guest, run the in-guest test
# runner, check what only the host can check, run glibc's own tests of the
# patch from the glibc build trees, and print the summary line
# "N passed, N failed" (exit status 1 when anything failed).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/kernel-tree.sh
source "$TOP/scripts/kernel-tree.sh"
hold_build_lock

JOB=$BUILD/jobs/check
passed=0
failed=0

# count_guest_results OUTPUT: add the guest's TAP results to the totals; a
# test the plan announced but that never reported counts as failed.
count_guest_results() {
	local out=$1 planned ok not_ok
	[ -f "$out" ] || : >"$out"
	planned=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$out" | head -n 1)
	ok=$(grep -c '^ok ' "$out" || true)
	not_ok=$(grep -c '^not ok ' "$out" || true)
	passed=$((passed + ok))
	failed=$((failed + not_ok))
	if [ -z "$planned" ]; then
		echo "not ok - the guest test runner printed no plan"
		failed=$((failed + 1))
	elif [ $((ok + not_ok)) -lt "$planned" ]; then
		echo "not ok - $((planned - ok - not_ok)) guest tests never reported"
		failed=$((failed + planned - ok - not_ok))
	fi
}

# count_host_results OUTPUT STATUS: add the "ok -"/"not ok -" lines of a
# host test script to the totals; a failing script that reported no
# failure counts as one.
count_host_results() {
	local ok not_ok
	ok=$(grep -c '^ok ' "$1" || true)
	not_ok=$(grep -c '^not ok ' "$1" || true)
	passed=$((passed + ok))
	failed=$((failed + not_ok))
	if [ "$2" -ne 0 ] && [ "$not_ok" -eq 0 ]; then
		echo "not ok - $3 failed with status $2 (see the error above)"
		failed=$((failed + 1))
	fi
}

# host_check DESCRIPTION CMD...: a test whose verdict the host makes.
host_check() {
	local description=$1
	shift
	if "$@"; then
		echo "ok - host: $description"
		passed=$((passed + 1))
	else
		echo "not ok - host: $description"
		failed=$((failed + 1))
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

if ! "$TOP/scripts/build-all.sh"; then
	echo "not ok - build (see the error above)"
	echo "0 passed, 1 failed"
	exit 1
fi
status=0
"$TOP/scripts/boot.sh" run --name check -- /usr/lib/checkexec/run-tests || status=$?
count_guest_results "$JOB/output"
host_check "the guest test runner exited with status 0 (it was $status)" \
	test "$status" -eq 0
host_check "the result channel brought the host's nonce back" nonce_came_back
host_check "ACCEL=kvm without a usable /dev/kvm fails at once, saying why" \
	kvm_refused_at_once
# own_boot NAME TEST: run the guest test TEST (as root) in a boot of its
# own, for a policy that stays until the boot ends.
own_boot() {
	local name=$1 test=$2 status=0
	"$TOP/scripts/boot.sh" run --name "$name" -- \
		"/usr/lib/checkexec/tests/$test" || status=$?
	count_guest_results "$BUILD/jobs/$name/output"
	host_check "$test exited with status 0 (it was $status)" \
		test "$status" -eq 0
}
# IMA takes its policy once per boot, IPE keeps its active policy and
# AppArmor its profiles.
own_boot check-ima test-ima-appraise
own_boot check-ipe test-ipe-policy
own_boot check-apparmor test-apparmor-profiles
host_check "a bzImage-only change rebuilds neither the test programs nor the image; a selftest or header change does" \
	stage_keys_follow_inputs
run_step "checkpatch: from $TARBALL" "$LOGS/checkpatch-fetch.log" fetch_checkpatch
for patch in "$TOP"/linux/*.patch; do
	[ -e "$patch" ] || continue
	host_check "checkpatch --strict is clean on linux/${patch##*/}" \
		checkpatch_clean "$patch"
done
host_check "shellcheck is clean on every shell script" shell_scripts_clean
status=0
"$TOP/scripts/check-source-stage.sh" | tee "$BUILD/check-source-stage.out" || status=$?
count_host_results "$BUILD/check-source-stage.out" "$status" scripts/check-source-stage.sh
status=0
"$TOP/scripts/check-bench-tables.sh" | tee "$BUILD/check-bench-tables.out" || status=$?
count_host_results "$BUILD/check-bench-tables.out" "$status" scripts/check-bench-tables.sh
status=0
"$TOP/scripts/check-glibc.sh" | tee "$BUILD/check-glibc.out" || status=$?
count_host_results "$BUILD/check-glibc.out" "$status" scripts/check-glibc.sh
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
