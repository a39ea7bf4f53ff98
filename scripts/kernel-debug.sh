#!/usr/bin/env bash
# make kernel-debug: build the series with KASAN, lockdep and kmemleak
# (build-kernel.sh --debug), boot it with the project's image and run the
# exec, Landlock and MDWE selftests and the soak under it, then a kmemleak
# scan and a look at the kernel log (testlibs/kernel-debug-tests).  Not part
# of make check: the debug kernel is a build of its own (28 min on this
# project's 2-core machines), and its guest run takes about 30 min under
# TCG.  Ends with "N passed, N failed"; exits non-zero on any failure or
# report.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

"$TOP/scripts/build-all.sh"
"$TOP/scripts/build-kernel.sh" --debug
status=0
KERNEL=$BUILD/kernel-debug/bzImage TIMEOUT=${TIMEOUT:-3600} \
	"$TOP/scripts/boot.sh" run --name kernel-debug -- \
	/usr/lib/checkexec/kernel-debug-tests || status=$?
out=$BUILD/jobs/kernel-debug/output
passed=$(grep -c '^ok ' "$out" || true)
failed=$(grep -c '^not ok ' "$out" || true)
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
	echo "not ok - the guest run failed with status $status"
	failed=1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
