#!/bin/sh
# make bench: a script that sources 20 shell libraries (sourced-NN.sh, of
# realistic size) and uses them, as init scripts and maintainer scripts do.
set -e
for library in /usr/lib/checkexec/bench/sourced/sourced-*.sh; do
	# shellcheck disable=SC1090 # the libraries are found at run time
	. "$library"
done
[ "$BENCH_SOURCED" -eq 20 ]
bench_version_ge 6.12 6.1
