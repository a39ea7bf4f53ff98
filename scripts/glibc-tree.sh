# shellcheck shell=bash
# The glibc build trees, two instances of the generic source stage
# (source-stage.sh): "glibc" (Debian's glibc-source + glibc-patches/series;
# the image's C library) and "glibc-unpatched" (Debian's source as is; its
# elf test results are the baseline of make check).  They live in the
# cache, outside the checkout, so that glibc's own tests can run from them
# after a fresh clone.  Source after lib.sh.
# shellcheck source=scripts/source-stage.sh
source "$TOP/scripts/source-stage.sh"

GLIBC_ORIGIN=deb:glibc-source:/usr/src/glibc/glibc-2.36.tar.xz

# glibc_tree VARIANT: the stage of VARIANT (patched, unpatched or
# series=DIR: the patch series in DIR), and the
# tree's paths: TREE, GSRC (source), GOBJ (objdir), GINC (the kernel and
# library headers glibc is built with; not TREE/include, which is
# GOBJ/../include, a path glibc's makefiles give a meaning of their own)
# and GOUT (install).
glibc_tree() {
	case $1 in
	patched) stage_init glibc "$GLIBC_ORIGIN" glibc-patches \
		scripts/build-glibc.sh scripts/glibc-tree.sh ;;
	unpatched) stage_init glibc-unpatched "$GLIBC_ORIGIN" - \
		scripts/build-glibc.sh scripts/glibc-tree.sh ;;
	# A series of its own (glibc-each-patch.sh: each prefix of ours).
	series=*) stage_init "glibc-$(basename "${1#series=}")" \
		"$GLIBC_ORIGIN" "${1#series=}" \
		scripts/build-glibc.sh scripts/glibc-tree.sh ;;
	*) die "glibc_tree: unknown variant '$1'" ;;
	esac
	# shellcheck disable=SC2034 # used by the scripts that source this file
	GLIBC_VARIANT=$1 TREE=$STAGE_TREE GSRC=$STAGE_TREE/glibc-2.36 \
		GOBJ=$STAGE_TREE/obj GINC=$STAGE_TREE/sysinclude GOUT=$STAGE_OUT
}
