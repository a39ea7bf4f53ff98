# Check-exec: kernel AT_EXECVE_CHECK + securebits and a glibc ld.so that
# enforces them, built from Debian's sources and proven in a QEMU guest.
# Every target installs missing packages and builds what is missing first.

SCRIPTS := scripts
# guest-run hands CMD to the shell through the environment, unexpanded by
# make: quotes and $VARIABLES reach the guest's shell as typed.
export GUEST_CMD = $(value CMD)
# AS is also make's built-in name of the assembler: only a value given on
# the command line or in the environment counts.
USER_ARG := $(if $(filter-out default undefined,$(origin AS)),--user $(AS))
DIR_ARG := $(if $(DIR),--dir $(DIR))

.PHONY: help deps kernel glibc testlibs packages image build check check-names check-glibc check-glibc-baseline check-python check-python-baseline check-perl check-perl-baseline check-bash check-bash-baseline code-trees bench bench-profile demo kernel-debug kernel-each-patch glibc-each-patch shell guest-run clean clean-cache

help:
	@echo "make check      build what is missing, boot the guest, run every test"
	@echo "                (ends with 'N passed, N failed'; docs/testing.md);"
	@echo "                CHECKEXEC_ONLY=REGEX: only the results whose names match"
	@echo "make check-names  write the names of the last make check's results"
	@echo "                (build/check.tap) into testlibs/expected-results"
	@echo "make check-glibc  only glibc's tests of the patch and its elf suite,"
	@echo "                patched vs the recorded unpatched results, on the host"
	@echo "                (part of make check)"
	@echo "make check-glibc-baseline  build the unpatched glibc, run its elf suite"
	@echo "                and record the results in scripts/glibc-elf-baseline"
	@echo "                (not in make check; its time: scripts/stage-times)"
	@echo "make check-python  python3.11's tests of the series and the test modules"
	@echo "                that cover it, patched vs the recorded unpatched results,"
	@echo "                on the host (part of make check)"
	@echo "make check-python-baseline  build the unpatched python3.11, run those"
	@echo "                modules, record the results in scripts/python-test-baseline"
	@echo "make check-perl  perl's tests of the series and the test files that cover"
	@echo "                it, patched vs the recorded unpatched results, on the host"
	@echo "                (part of make check)"
	@echo "make check-perl-baseline  build the unpatched perl, run those test files,"
	@echo "                record the results in scripts/perl-test-baseline"
	@echo "make check-bash  bash's tests of what the series touches, patched vs the"
	@echo "                recorded unpatched results, on the host (part of make check)"
	@echo "make check-bash-baseline  build the unpatched bash, run those tests,"
	@echo "                record the results in scripts/bash-test-baseline"
	@echo "make code-trees  boot the image with Debian's modes and the interpreters'"
	@echo "                audit modes on, record what they load as code, derive the"
	@echo "                image's code trees from it (not in make check, which checks"
	@echo "                them); then make image"
	@echo "make bench      the cost of the check: both kernels (with and without the"
	@echo "                fast path), stock vs patched ld.so, timed and counted in"
	@echo "                instructions (ACCEL=icount); build/bench-table.txt"
	@echo "make bench-profile  instructions of a check per kernel function, in a loop"
	@echo "                and in ld.so's start-up (TCG plugin); build/bench-profile.txt"
	@echo "make kernel-debug  the series built with KASAN, lockdep and kmemleak:"
	@echo "                the exec selftests and the soak under it, then leak"
	@echo "                and lock reports (about 1 h; not part of make check)"
	@echo "make kernel-each-patch  apply linux/series one patch at a time and build"
	@echo "                what each touches (bzImage, selftests, set-exec); fails"
	@echo "                on an error or a warning (about 40 min; not in make check)"
	@echo "make glibc-each-patch  build glibc with each prefix of glibc-patches/series"
	@echo "                and run the tests each patch adds or changes (about 20-45"
	@echo "                min; not in make check)"
	@echo "make demo       boot the guest, try to get code past the policy in an open,"
	@echo "                an audit and an enforced session; print the table"
	@echo "                (also written to build/demo-table.txt)"
	@echo "make shell [AS=root]  boot the guest on this terminal, logged in as the"
	@echo "                test user in an enforced session (AS=root: not enforced)"
	@echo "make guest-run CMD='...' [DIR=host/dir] [AS=root|tester]"
	@echo "                boot, run CMD in the guest (in DIR, shared from the host),"
	@echo "                print its output; the exit status is CMD's"
	@echo "make deps       install the Debian packages the project needs"
	@echo "make kernel | glibc | testlibs | packages | image | build   build one stage"
	@echo "                (and the stages it needs), or all (packages: the"
	@echo "                patched Debian packages of interpreter-patches/, as .debs)"
	@echo "make clean      remove build/ (caches outside the checkout stay)"
	@echo "make clean-cache  also remove the caches (ccache, artifacts, glibc trees)"
	@echo "Variables: ACCEL=tcg|kvm (default tcg), TIMEOUT=seconds per boot,"
	@echo "           CHECKEXEC_CACHE=dir (default ~/.cache/checkexec), JOBS=n,"
	@echo "           CHECKEXEC_ONLY=REGEX (make check)"

# Each target is one user intent and runs one script; which stage needs
# which is known only to scripts/build-all.sh, which the scripts call.
deps:
	@$(SCRIPTS)/build-all.sh deps

kernel glibc testlibs packages image:
	@$(SCRIPTS)/build-all.sh $@

build:
	@$(SCRIPTS)/build-all.sh

check:
	@$(SCRIPTS)/check.sh

check-names:
	@$(SCRIPTS)/check.sh --names

# The suites run on the host, patched against the recorded unpatched
# results, and the targets that record those.
SUITES := check-glibc check-python check-perl check-bash

$(SUITES):
	@$(SCRIPTS)/$@.sh

$(SUITES:%=%-baseline):
	@$(SCRIPTS)/$(@:-baseline=).sh --baseline

code-trees:
	@$(SCRIPTS)/code-trees.sh trace

bench:
	@$(SCRIPTS)/bench.sh

bench-profile:
	@$(SCRIPTS)/bench-profile.sh

demo:
	@$(SCRIPTS)/demo.sh

kernel-debug:
	@$(SCRIPTS)/kernel-debug.sh

kernel-each-patch:
	@$(SCRIPTS)/kernel-each-patch.sh

glibc-each-patch:
	@$(SCRIPTS)/glibc-each-patch.sh

shell:
	@$(SCRIPTS)/boot.sh --build shell $(USER_ARG)

guest-run:
	@test -n "$$GUEST_CMD" || { echo "error: give the command: make guest-run CMD='...'" >&2; exit 2; }
	@$(SCRIPTS)/boot.sh --build run $(USER_ARG) $(DIR_ARG) -- bash -c "$$GUEST_CMD"

clean:
	rm -rf build

clean-cache: clean
	@. $(SCRIPTS)/lib.sh && echo "removing $$CACHE" && rm -rf "$$CACHE"
