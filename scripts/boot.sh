#!/usr/bin/env bash
# Boot the project's kernel with the project's image in QEMU.
#
#   boot.sh run [--user root|tester] [--dir DIR] [--name NAME] [--filter FILE]
#               -- CMD [ARG...]
#       Boot, run CMD in the guest (as USER, in DIR shared from the host when
#       given), print its output, power off; exit with CMD's exit status.
#       Job files, output, serial log and the QEMU command line:
#       build/jobs/NAME (default "run"; docs/testing.md lists them).  FILE
#       becomes the job's "filter" (make check's CHECKEXEC_ONLY, read by
#       run-tests).
#   boot.sh --build run|shell ...
#       The same, after building what is missing (scripts/build-all.sh).
#   boot.sh shell [--user tester|root]
#       Boot interactively on the serial console, logged in as the test user
#       (the default: an enforced session, SECBIT_EXEC_RESTRICT_FILE set and
#       locked) or root (not enforced).  Leave with "poweroff" (root) or
#       Ctrl-A X.
#
# Environment: ACCEL=tcg (default), icount or kvm (refused at once when
# KVM_DEVICE, default /dev/kvm, is missing or not readable and writable);
# icount is TCG on one vCPU whose clock counts the instructions it executes
# (-icount shift=0: one nanosecond of guest time per instruction, so the
# guest's clock_gettime() reads instruction counts; make bench's counted
# run, see docs/bench.md); TIMEOUT
# (seconds, default 900) for a run; MEMORY (default 2G); SMP (default 2);
# KERNEL (another bzImage to boot instead of the project's, e.g. an
# unpatched build to compare); PLUGIN (a TCG plugin and its arguments, for
# QEMU's -plugin, with ACCEL=icount: make bench-profile); CMDLINE_EXTRA
# (more kernel parameters for a run, e.g. nokaslr for make bench's counted
# runs); CPU (QEMU's -cpu under TCG and icount, default max; e.g. max,-smap
# for a guest without SMAP, whose kernel then runs no STAC and CLAC).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

KERNEL=${KERNEL:-$BUILD/kernel/bzImage}
IMAGE=$BUILD/image/checkexec.raw
ACCEL=${ACCEL:-tcg}
TIMEOUT=${TIMEOUT:-900}
# slab_nomerge: the soak test (test-check-soak) counts the objects of the
# cred and filp caches, which must hold nothing else.
CMDLINE="console=ttyS0 root=/dev/vda1 rw panic=-1 slab_nomerge"
CMDLINE+=" lsm=landlock,lockdown,yama,integrity,apparmor,ipe,execrestrict"
# Under TCG the kernel's late "sched_clock: Marking stable" patches a static
# branch while the other vCPU runs it, and TCG can still execute the int3
# of that patch after the kernel has finished it: "Oops: int3" in
# sched_clock_cpu and a panic, in a few boots of a hundred.  A TSC marked
# unstable from the start never flips that branch.
if [ "$ACCEL" = tcg ] || [ "$ACCEL" = icount ]; then
	CMDLINE+=" tsc=unstable"
fi

usage() {
	sed -n '2,/^set /s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

# require_kvm: die with the reason when KVM cannot work here, instead of
# starting a QEMU that fails or a boot that waits for its time limit.
require_kvm() {
	local dev=${KVM_DEVICE:-/dev/kvm}
	[ -e "$dev" ] ||
		die "ACCEL=kvm, but $dev does not exist: KVM is not available on this machine; boot with ACCEL=tcg (the default)"
	if ! [ -r "$dev" ] || ! [ -w "$dev" ]; then
		die "ACCEL=kvm, but $dev is not readable and writable by $(id -un); boot with ACCEL=tcg (the default) or get access to $dev"
	fi
}

# qemu_base: the QEMU arguments every boot shares.
qemu_base() {
	local accel smp=${SMP:-2} cpu=${CPU:-max}
	case "$ACCEL" in
	tcg) accel=(-accel "tcg,thread=multi" -cpu "$cpu") ;;
	# sleep=off: an idle guest's clock jumps to its next timer at once
	# instead of waiting for the host's; align=off: the guest's clock is
	# never slowed to the host's.  Counts need one vCPU.
	icount)
		[ "$smp" = 1 ] || [ -z "${SMP:-}" ] ||
			die "ACCEL=icount counts instructions on one vCPU: SMP must be 1, not '$SMP'"
		smp=1
		accel=(-accel "tcg,thread=single" -icount "shift=0,sleep=off,align=off" -cpu "$cpu")
		;;
	kvm)
		[ -z "${CPU:-}" ] || die "CPU applies to ACCEL=tcg and icount; ACCEL=kvm runs -cpu host"
		accel=(-accel kvm -cpu host)
		;;
	*) die "ACCEL must be tcg, icount or kvm, not '$ACCEL'" ;;
	esac
	QEMU=(qemu-system-x86_64 "${accel[@]}" -m "${MEMORY:-2G}" -smp "$smp"
		-no-reboot -nic none -kernel "$KERNEL"
		-drive "file=$IMAGE,format=raw,if=virtio,snapshot=on")
	if [ -n "${PLUGIN:-}" ]; then
		[ "$ACCEL" = icount ] ||
			die "PLUGIN needs ACCEL=icount (one vCPU under TCG), not ACCEL=$ACCEL"
		QEMU+=(-plugin "$PLUGIN")
	fi
}

check_built() {
	[ -f "$KERNEL" ] || die "no kernel at $KERNEL (run: make kernel)"
	[ -f "$IMAGE" ] || die "no image at $IMAGE (run: make image)"
}

# write_package_versions FILE: "NAME VERSION" of every binary package the
# package stages built (build/packages/*/debs).
write_package_versions() {
	local deb
	for deb in "$BUILD"/packages/*/debs/*.deb; do
		[ -f "$deb" ] || continue
		# shellcheck disable=SC2016 # dpkg-deb's ${fields}, not the shell's
		dpkg-deb --showformat='${Package} ${Version}\n' -W "$deb"
	done >"$1"
}

# write_job JOBDIR USER FILTER CMD...: the files the guest's job unit and
# its command read (docs/testing.md); FILTER (a file, or empty for none)
# becomes the job's filter.
write_job() {
	local dir=$1 user=$2 filter=$3
	shift 3
	mkdir -p "$dir/expected"
	[ -z "$filter" ] || cp "$filter" "$dir/filter"
	printf '%s\n' "$user" >"$dir/user"
	{
		echo "# written by scripts/boot.sh"
		printf '%q ' "$@"
		echo
	} >"$dir/command"
	# What the guest tests compare the running system with.
	cp "$BUILD/kernel/release" "$dir/expected/kernel.release"
	cp "$BUILD/kernel/version" "$dir/expected/kernel.version"
	cp "$BUILD/glibc/libc.build-id" "$BUILD/glibc/ld.build-id" "$dir/expected/"
	write_package_versions "$dir/expected/packages"
	od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$dir/nonce"
}

# write_qemu_command FILE: the QEMU command line about to run, one
# shell-quoted line (to rerun a boot by hand, with the same job directory).
write_qemu_command() {
	local quoted
	quoted=$(printf '%q ' "${QEMU[@]}")
	printf '%s\n' "${quoted% }" >"$1"
}

# stream_output FILE PID: print FILE as it grows until process PID ends.
stream_output() {
	local file=$1 pid=$2 shown=0 size alive
	while :; do
		# Looked at before the size, so that the last round shows all.
		alive=yes
		kill -0 "$pid" 2>/dev/null || alive=no
		size=$(stat -c %s "$file" 2>/dev/null || echo 0)
		if [ "$size" -gt "$shown" ]; then
			# Not tail | head: head would stop early and tail (and with
			# pipefail this script) die of SIGPIPE when the file grows
			# between stat and tail.
			head -c "$size" "$file" | tail -c +$((shown + 1))
			shown=$size
		fi
		[ "$alive" = yes ] || break
		sleep 1
	done
}

cmd_run() {
	local user=root dir="" name=run filter="" jobdir log pid rc=0 start=$SECONDS
	while [ $# -gt 0 ]; do
		case "$1" in
		--user) user=${2:?--user needs a value}; shift 2 ;;
		--dir) dir=${2:?--dir needs a value}; shift 2 ;;
		--name) name=${2:?--name needs a value}; shift 2 ;;
		--filter) filter=${2:?--filter needs a value}; shift 2 ;;
		--) shift; break ;;
		*) usage ;;
		esac
	done
	[ $# -gt 0 ] || usage
	case "$user" in root | tester) ;; *) die "--user must be root or tester, not '$user'" ;; esac
	[ -z "$dir" ] || [ -d "$dir" ] || die "--dir $dir is not a directory"
	[ -z "$filter" ] || [ -f "$filter" ] || die "--filter $filter is not a file"
	check_built
	jobdir=$BUILD/jobs/$name
	log=$jobdir/serial.log
	rm -rf "$jobdir"
	write_job "$jobdir" "$user" "$filter" "$@"
	qemu_base
	QEMU+=(-display none -monitor none -serial "file:$log"
		-append "$CMDLINE${CMDLINE_EXTRA:+ $CMDLINE_EXTRA} checkexec.job=1"
		-virtfs "local,path=$jobdir,mount_tag=job,security_model=none,id=job")
	if [ -n "$dir" ]; then
		touch "$jobdir/has-hostdir"
		QEMU+=(-virtfs "local,path=$(realpath "$dir"),mount_tag=hostdir,security_model=none,id=hostdir")
	fi
	write_qemu_command "$jobdir/qemu-command"
	say "booting the guest ($ACCEL, limit ${TIMEOUT}s; serial log: $log)"
	timeout --kill-after=10 "$TIMEOUT" "${QEMU[@]}" >"$jobdir/qemu.log" 2>&1 &
	pid=$!
	stream_output "$jobdir/output" "$pid"
	wait "$pid" || rc=$?
	if [ ! -s "$jobdir/status" ]; then
		if [ "$rc" -eq 124 ]; then
			printf 'error: the guest did not finish within %s s\n' "$TIMEOUT" >&2
		elif grep -q 'Kernel panic' "$log" 2>/dev/null; then
			printf 'error: the guest kernel panicked\n' >&2
		else
			printf 'error: the guest stopped without reporting a result (qemu status %s, see %s)\n' \
				"$rc" "$jobdir/qemu.log" >&2
		fi
		# A QEMU that failed to start wrote nothing to the serial log.
		[ -s "$log" ] || log=$jobdir/qemu.log
		fail_with_log "guest run" "$log"
	fi
	rc=$(cat "$jobdir/status")
	say "guest run finished in $((SECONDS - start)) s with status $rc (files: $jobdir)"
	return "$rc"
}

cmd_shell() {
	local user=tester
	case "${1:-}" in
	"") ;;
	--user)
		user=${2:-}
		[ "$user" = root ] || [ "$user" = tester ] ||
			die "--user takes root or tester, not '$user'"
		;;
	*) usage ;;
	esac
	check_built
	qemu_base
	say "booting the guest on this terminal as $user; leave with Ctrl-A X"
	exec "${QEMU[@]}" -nographic -serial mon:stdio \
		-append "$CMDLINE checkexec.autologin=$user"
}

[ "$ACCEL" != kvm ] || require_kvm
# --build (make shell, make guest-run): build what is missing first.
if [ "${1:-}" = --build ]; then
	shift
	"$TOP/scripts/build-all.sh"
fi
case "${1:-}" in
run) shift; cmd_run "$@" ;;
shell) shift; cmd_shell "$@" ;;
*) usage ;;
esac
