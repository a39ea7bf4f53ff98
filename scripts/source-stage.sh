# shellcheck shell=bash
# The generic stage "Debian source + our patch series -> built artifact".
# A package's build script names where its source comes from, its patch
# series and the files that say how it is built; this file gets the
# source, applies the series and keeps the tree in the cache, outside the
# checkout, under a key of exactly those inputs:
#
#   stage_init NAME ORIGIN PATCHDIR FILE...   the key and the tree's place
#   stage_up_to_date OUT                      OUT was copied from this tree
#   stage_begin                               lock the tree; unless it is
#                                             complete, make it anew (source
#                                             + series), STAGE_TO_BUILD=yes
#   (the package script then builds in $STAGE_SRC, installs into
#   $STAGE_OUT)
#   stage_finish                              mark the tree complete, drop
#                                             old trees
#   stage_copy_output OUT                     copy $STAGE_OUT to OUT
#
# ORIGIN is one of
#   deb:PACKAGE:TARBALL   a package of sources that deps.sh installs
#                         (glibc-source ships /usr/src/glibc/glibc-2.36.tar.xz)
#   apt:PACKAGE=VERSION   a Debian source package, fetched by apt-get source
#                         from the deb-src twin of the machine's own apt
#                         sources (the machine's apt configuration is not
#                         changed; see apt_source below)
# PATCHDIR is a directory with a series file ("-" for none).  A file
# PATCHDIR/upstream-only lists path prefixes (one per line, # comments)
# that the upstream project has and Debian's source removed: the patches
# keep their hunks for upstream, and those hunks are not applied here.
# Source after lib.sh.

# origin_version ORIGIN: the version of the source ORIGIN names.
origin_version() {
	local package
	case $1 in
	deb:*:?*)
		package=${1#deb:}
		pkg_version "${package%%:*}"
		;;
	apt:?*=?*) echo "${1#*=}" ;;
	*) die "unknown source origin '$1' (deb:PACKAGE:TARBALL or apt:PACKAGE=VERSION)" ;;
	esac
}

# patch_dir: the absolute path of the stage's PATCHDIR (given relative to
# the top of the checkout, or absolute).
patch_dir() {
	case $STAGE_PATCHES in
	/*) echo "$STAGE_PATCHES" ;;
	*) echo "$TOP/$STAGE_PATCHES" ;;
	esac
}

# stage_init NAME ORIGIN PATCHDIR FILE...: set STAGE_KEY (the origin, its
# version, the patch series, the FILEs that say how the package is built,
# this file and lib.sh), STAGE_TREE (the tree in the cache), STAGE_OUT
# (where the build installs, in the tree) and STAGE_PATCHES.
stage_init() {
	local name=$1 origin=$2 patches=$3 version
	shift 3
	version=$(origin_version "$origin")
	STAGE_NAME=$name STAGE_ORIGIN=$origin STAGE_PATCHES=$patches
	if [ "$patches" != - ] && [ ! -f "$(patch_dir)/series" ]; then
		die "stage $name: $patches/series is missing"
	fi
	STAGE_KEY=$(content_key "origin=$origin" "version=$version" \
		"$([ "$patches" = - ] && echo "no patches" || echo "$patches")" \
		"$@" scripts/source-stage.sh scripts/lib.sh)
	STAGE_TREE=$CACHE/source-tree/$name-$STAGE_KEY
	STAGE_OUT=$STAGE_TREE/out
}

# stage_source_dir: the source directory of the current tree (set by
# stage_begin; the name the source itself gives it, such as glibc-2.36).
stage_source_dir() {
	local dir
	dir=$(cat "$STAGE_TREE/.source-dir" 2>/dev/null) ||
		die "stage $STAGE_NAME: $STAGE_TREE has no source yet"
	echo "$STAGE_TREE/$dir"
}

# stage_up_to_date OUT: OUT holds the output of the current, complete tree.
stage_up_to_date() {
	[ -f "$1/.key" ] && [ "$(cat "$1/.key")" = "$STAGE_KEY" ] &&
		[ -f "$STAGE_TREE/.complete" ]
}

# lock_stage_tree: hold the tree's lock until this process exits; builds
# and test runs write into the tree, and other checkouts share it.
lock_stage_tree() {
	mkdir -p "$CACHE/source-tree"
	exec 8>"$STAGE_TREE.lock"
	if ! flock -n 8; then
		say "waiting for another build or test run in $STAGE_TREE"
		flock 8
	fi
}

# deb_src_sources DIR: write into DIR the deb-src twin of every apt source
# the machine has (one-line .list entries and deb822 .sources files).
deb_src_sources() {
	local file
	for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$file" ] || continue
		sed -n 's/^[[:space:]]*deb\([[:space:]]\)/deb-src\1/p' "$file"
	done >"$1/machine.list"
	for file in /etc/apt/sources.list.d/*.sources; do
		[ -f "$file" ] || continue
		sed 's/^Types:.*$/Types: deb-src/' "$file" >"$1/${file##*/}"
	done
	grep -qs . "$1"/* ||
		die "the machine has no apt sources to take a Debian source package from"
}

# apt_setup: APT_OPTS, the options of apt-get and apt-cache for a private
# index of the machine's deb-src sources in $CACHE/apt-source.
apt_setup() {
	local dir=$CACHE/apt-source
	mkdir -p "$dir/sources.list.d" "$dir/lists/partial" "$dir/cache/archives/partial"
	rm -f "$dir/sources.list.d/"*
	deb_src_sources "$dir/sources.list.d"
	APT_OPTS=(-o "Dir::Etc::SourceList=/dev/null"
		-o "Dir::Etc::SourceParts=$dir/sources.list.d"
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o "APT::Sandbox::User=$(id -un)")
}

# indexed_versions PACKAGE: the versions of the source package in the
# private index, one per line.
indexed_versions() {
	apt-cache "${APT_OPTS[@]}" showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p'
}

# apt_update: fetch the private index anew (log: its directory's
# update.log).
apt_update() {
	local log=$CACHE/apt-source/update.log
	say "apt-get update of the machine's deb-src sources (log: $log)" >&2
	apt-get "${APT_OPTS[@]}" update >"$log" 2>&1 || fail_with_log "apt-get update" "$log"
}

# apt_source_versions PACKAGE: the versions of the source package the
# machine's apt sources have, newest first (the index is fetched if it
# has none).
apt_source_versions() {
	apt_setup
	[ -n "$(indexed_versions "$1")" ] || apt_update
	indexed_versions "$1" | sort -r -V
}

# apt_source PACKAGE=VERSION DEST [OPTION...]: unpack the Debian source
# package (its Debian patches applied, as dpkg-source -x does) into DEST,
# or do what apt-get source's OPTIONs say (--download-only: only fetch its
# files into DEST).  The index is fetched anew when the version is not in
# it.
apt_source() {
	local pkg=${1%%=*} version=${1#*=} dest=$2
	shift 2
	apt_setup
	indexed_versions "$pkg" | grep -qxF "$version" || apt_update
	indexed_versions "$pkg" | grep -qxF "$version" ||
		die "the machine's apt sources have no source package $pkg=$version (versions: $(
			indexed_versions "$pkg" | tr '\n' ' '))"
	mkdir -p "$dest"
	(cd "$dest" && apt-get "${APT_OPTS[@]}" source --only-source "$@" "$pkg=$version")
}

# fetch_source: unpack the origin's source into the tree and record the
# name of its directory.  Run by run_step.
fetch_source() {
	local tarball dir found
	case $STAGE_ORIGIN in
	deb:*)
		tarball=${STAGE_ORIGIN#deb:*:}
		[ -f "$tarball" ] || die "$tarball is missing (run: make deps)"
		mkdir -p "$STAGE_TREE/deb"
		tar -C "$STAGE_TREE/deb" -xf "$tarball"
		dir=deb
		;;
	apt:*)
		apt_source "${STAGE_ORIGIN#apt:}" "$STAGE_TREE/apt"
		dir=apt
		;;
	esac
	# The one directory the source unpacked into, moved to the top.
	mapfile -t found < <(find "$STAGE_TREE/$dir" -mindepth 1 -maxdepth 1 -type d)
	[ ${#found[@]} -eq 1 ] ||
		die "stage $STAGE_NAME: $STAGE_ORIGIN gave ${#found[@]} source directories, not one"
	mv "${found[0]}" "$STAGE_TREE/"
	[ "$dir" != deb ] || rmdir "$STAGE_TREE/deb"
	echo "${found[0]##*/}" >"$STAGE_TREE/.source-dir"
}

# series_for_tree SRC: copy the series into $STAGE_TREE/patches, without
# the hunks of files that upstream-only names; each such file must indeed
# be missing from SRC (if Debian ships it again, the hunk must apply).
series_for_tree() {
	local src=$1 from to=$STAGE_TREE/patches p path
	local -a prefixes=()
	from=$(patch_dir)
	rm -rf "$to"
	mkdir -p "$to"
	cp "$from/series" "$to/series"
	if [ -f "$from/upstream-only" ]; then
		mapfile -t prefixes < <(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' \
			"$from/upstream-only")
	fi
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		[ -f "$from/$p" ] || die "$STAGE_PATCHES/series names $p, which does not exist"
		# Whole, as upstream and git am get it: a hunk's line counts that
		# disagree with its lines are caught here, also in a dropped hunk.
		git apply --stat "$from/$p" >/dev/null 2>"$to/$p.parse" ||
			die "$STAGE_PATCHES/$p is not a well-formed patch: $(head -n 1 "$to/$p.parse")"
		awk -v prefixes="${prefixes[*]}" -v dropped="$to/$p.dropped" '
			BEGIN { n = split(prefixes, prefix, " ") }
			/^diff --git a\// {
				path = substr($3, 3); skip = 0
				for (i = 1; i <= n; i++)
					if (index(path, prefix[i]) == 1) skip = 1
				if (skip) print path > dropped
			}
			!skip { print }' "$from/$p" >"$to/$p"
		[ -f "$to/$p.dropped" ] || continue
		while read -r path; do
			[ ! -e "$src/$path" ] ||
				die "$STAGE_PATCHES/$p: $path is listed in upstream-only, but the Debian source has it"
			say "$p: not applying the hunk of $path (upstream only)"
		done <"$to/$p.dropped"
	done <"$from/series"
}

# patch_source: apply the series to the source.  Run by run_step.
patch_source() {
	local src
	src=$(stage_source_dir)
	series_for_tree "$src"
	apply_series "$src" "$STAGE_TREE/patches"
}

# stage_begin: take the tree's lock; STAGE_TO_BUILD=no if the tree is
# complete, otherwise make it anew (the source, then the series) and set
# STAGE_TO_BUILD=yes: the caller builds it and calls stage_finish.
# shellcheck disable=SC2034 # STAGE_SRC, STAGE_TO_BUILD: for the caller
stage_begin() {
	lock_stage_tree
	STAGE_SRC=
	STAGE_TO_BUILD=no
	if [ -f "$STAGE_TREE/.complete" ]; then
		STAGE_SRC=$(stage_source_dir)
		return 0
	fi
	STAGE_TO_BUILD=yes
	rm -rf "$STAGE_TREE"
	mkdir -p "$STAGE_TREE"
	run_step "$STAGE_NAME: source from $STAGE_ORIGIN" \
		"$LOGS/$STAGE_NAME-source.log" fetch_source
	if [ "$STAGE_PATCHES" != - ]; then
		run_step "$STAGE_NAME: apply $STAGE_PATCHES/series" \
			"$LOGS/$STAGE_NAME-patch.log" patch_source
	fi
	STAGE_SRC=$(stage_source_dir)
}

# drop_old_stage_trees: keep the two newest complete trees of the stage's
# name (and the current one); a tree in use by another process stays.
drop_old_stage_trees() {
	local old
	find "$CACHE/source-tree" -mindepth 2 -maxdepth 2 -name .complete \
		-path "*/$STAGE_NAME-*" -printf '%T@ %h\n' | sort -rn |
		tail -n +3 | cut -d' ' -f2- | while read -r old; do
		[ "$old" = "$STAGE_TREE" ] && continue
		# Only this stage's trees: NAME-KEY, not NAME-other-KEY.
		[[ ${old##*/} =~ ^$STAGE_NAME-[0-9a-f]{16}$ ]] || continue
		(flock -n 7 && rm -rf "$old") 7>"$old.lock" && rm -f "$old.lock"
	done
}

# stage_copy_output OUT: copy the tree's output to OUT, with the key.
stage_copy_output() {
	[ -d "$STAGE_OUT" ] || die "stage $STAGE_NAME: the build installed nothing into $STAGE_OUT"
	rm -rf "$1"
	mkdir -p "$(dirname "$1")"
	cp -a "$STAGE_OUT" "$1"
	echo "$STAGE_KEY" >"$1/.key"
}

# stage_finish: the tree is complete.
stage_finish() {
	touch "$STAGE_TREE/.complete"
	drop_old_stage_trees
}
