#!/usr/bin/env bash
# What a booted guest uses of its kernel, as sorted "KIND NAME" lines:
# mounted file system types, drivers bound to a device, socket families
# with open sockets, crypto algorithms in use, cgroup controllers, failed
# systemd units and the kernel's warnings.  Booting the image on two
# kernels and comparing the lists shows what a smaller configuration lost
# (docs/kernel.md: how linux/guest.config was checked against the
# x86_64_defconfig kernel):
#   KERNEL=old/bzImage scripts/kernel-usage.sh >old.txt
#   scripts/kernel-usage.sh >new.txt
#   diff old.txt new.txt
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

# The guest side, run as root by the job unit (a "systemctl
# is-system-running --wait" here would wait for the job itself).
# shellcheck disable=SC2016 # expanded by the guest's shell
PROBE='
awk "{ print \"mount\", \$3 }" /proc/self/mounts
for d in /sys/bus/*/drivers/*/; do
	if find "$d" -maxdepth 1 -type l ! -name module | grep -q .; then
		echo "driver $(basename "$(dirname "$(dirname "$d")")")/$(basename "$d")"
	fi
done
awk "NR > 1 && \$2 > 0 { print \"socket\", \$1 }" /proc/net/protocols
awk "/^name/ { n = \$3 } /^refcnt/ && \$3 > 1 { print \"crypto\", n }" /proc/crypto
tr " " "\n" </sys/fs/cgroup/cgroup.controllers | sed "s/^/cgroup /"
systemctl --failed --no-legend --plain | awk "{ print \"failed-unit\", \$1 }"
journalctl -b -k -p warning --no-pager -o cat |
	sed -e "s/^/kernel-warning /" -e "s/[0-9][0-9]*/N/g"
'

out=$BUILD/jobs/kernel-usage
"$TOP/scripts/boot.sh" run --name kernel-usage -- bash -c "$PROBE" >/dev/null ||
	fail_with_log "kernel-usage probe" "$out/serial.log"
grep -E '^(mount|driver|socket|crypto|cgroup|failed-unit|kernel-warning) ' \
	"$out/output" | LC_ALL=C sort -u
