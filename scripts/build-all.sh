#!/usr/bin/env bash
# Build everything the guest needs, each step only when its inputs changed:
# packages, kernel, glibc, image.  Prints the time of each stage.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
hold_build_lock

for stage in deps build-kernel build-glibc build-image; do
	start=$SECONDS
	"$TOP/scripts/$stage.sh"
	say "stage $stage: $((SECONDS - start)) s"
done
