# shellcheck shell=bash
# The glibc build trees.  They live in the cache, outside the checkout, so
# that glibc's own tests can run from them after a fresh clone: "patched"
# (glibc-patches/series; the image's C library) and "unpatched" (Debian's
# source as is; its elf test results are the baseline of make check).
# Source after lib.sh.

# glibc_tree VARIANT: set GLIBC_VARIANT, GLIBC_KEY and the tree's paths:
# TREE, GSRC (source), GOBJ (objdir), GINC (the kernel and library headers
# glibc is built with; not TREE/include, which is GOBJ/../include, a path
# glibc's makefiles give a meaning of their own), GOUT (install).
glibc_tree() {
	local deb_version patches
	deb_version=$(pkg_version glibc-source)
	case $1 in
	patched) patches=glibc-patches ;;
	unpatched) patches="no patches" ;;
	*) die "glibc_tree: unknown variant '$1'" ;;
	esac
	GLIBC_VARIANT=$1
	GLIBC_KEY=$(content_key "glibc-source=$deb_version" "$patches" \
		scripts/build-glibc.sh scripts/glibc-tree.sh scripts/lib.sh)
	TREE=$CACHE/glibc-tree/$1-$GLIBC_KEY
	# shellcheck disable=SC2034 # used by the scripts that source this file
	GSRC=$TREE/glibc-2.36 GOBJ=$TREE/obj GINC=$TREE/sysinclude GOUT=$TREE/out
}

# lock_glibc_tree: hold the tree's lock until this process exits; builds
# and test runs write into the tree, and other checkouts share it.
lock_glibc_tree() {
	mkdir -p "$CACHE/glibc-tree"
	exec 8>"$TREE.lock"
	if ! flock -n 8; then
		say "waiting for another build or test run in $TREE"
		flock 8
	fi
}

# drop_old_glibc_trees: keep the two newest complete trees of the variant
# (and this one); a tree in use by another process is left alone.
drop_old_glibc_trees() {
	local old
	find "$CACHE/glibc-tree" -mindepth 2 -maxdepth 2 -name .complete \
		-path "*/$GLIBC_VARIANT-*" -printf '%T@ %h\n' | sort -rn |
		tail -n +3 | cut -d' ' -f2- | while read -r old; do
		[ "$old" = "$TREE" ] && continue
		(flock -n 7 && rm -rf "$old") 7>"$old.lock" && rm -f "$old.lock"
	done
}
