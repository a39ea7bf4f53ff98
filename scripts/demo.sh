#!/usr/bin/env bash
# make demo: boot the guest, run the catalogue of bypass attempts
# (testlibs/run-demo) in the open, audit and enforced sessions, print the table
# and keep it in build/demo-table.txt.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

"$TOP/scripts/build-all.sh"
status=0
"$TOP/scripts/boot.sh" run --name demo -- /usr/lib/checkexec/run-demo || status=$?
table=$BUILD/jobs/demo/demo-table.txt
[ -s "$table" ] ||
	die "the guest wrote no table (serial log: $BUILD/jobs/demo/serial.log)"
cp "$table" "$BUILD/demo-table.txt"
say "the table is also in $BUILD/demo-table.txt"
[ "$status" -eq 0 ] ||
	die "a legitimate program failed or a payload ran enforced (status $status): see the table"
