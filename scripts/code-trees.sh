#!/usr/bin/env bash
# The image's code trees (images/mkosi.extra/usr/share/checkexec/code-trees):
# the files its interpreters run as code, which fix-library-modes makes
# executable.  They are derived from a trace, not written by hand.
#
#   code-trees.sh trace    boot the image with Debian's modes put back and
#                          the interpreters' audit modes on for every unit
#                          (checkexec.trace, systemd.setenv=...), run the
#                          trace's workload (testlibs/code-trace), record
#                          what the interpreters reported in code-trees.trace,
#                          and derive code-trees from it (make code-trees;
#                          then rebuild the image)
#   code-trees.sh derive [TRACE]
#                          print the code trees the rule below derives from
#                          TRACE (default: the recorded one)
#   code-trees.sh check    the recorded code-trees is what derive prints
#                          (make check's host part)
#
# The rule, for each traced file of the system (a package's, or root's
# outside the home directories on a mount that allows execution: a user's
# or a test's own files are not the system's code; testlibs/code-trace):
#   - a bytecode cache stands for its source, and a source for its cache:
#     both "*.py *.pyc" (the trace names the source of each cache it saw);
#   - a Python file (.py, .pyc, .pth) below an entry of the interpreter's
#     module search path: that entry is the tree, so that the modules of a
#     package installed later are covered too;
#   - any other file below an entry of perl's @INC, and each entry itself
#     (the trace names them all once perl reported a file, so that the
#     modules a package installs later are covered too): that entry,
#     "*.al *.ix *.pl *.pm" (the files require, use and do load,
#     AutoLoader's among them) and the file's own extension if it is another
#     (a configuration file that a module runs with do:
#     /etc/perl/Net/libnet.cfg);
#   - any other file with an extension: its directory, "*.EXT", but in
#     /etc itself, where a pattern would take in other packages'
#     configuration (/etc/bash.bashrc), that file alone;
#   - a file without one: that file alone;
#   - lines of one tree are merged; a tree inside another that names the
#     same patterns is dropped.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

DIR=$TOP/images/mkosi.extra/usr/share/checkexec
TRACE=$DIR/code-trees.trace
TREES=$DIR/code-trees

usage() {
	sed -n '2,/^set /s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

# derive TRACE: the code trees of TRACE, with their header.
derive() {
	[ -f "$1" ] || die "no trace at $1 (run: make code-trees)"
	cat <<'EOF'
# The trees of code files that the image's interpreters run: TREE
# PATTERN... (the files below TREE whose names match), or FILE.
# fix-library-modes gives each such file an execute bit when the image is
# built and after every dpkg run, since under SECBIT_EXEC_RESTRICT_FILE an
# interpreter runs only files the kernel would execute, and Debian installs
# them 0644; test-library-modes and test-code-trees check them.
#
# Derived from code-trees.trace by scripts/code-trees.sh (its rule is
# there): do not edit; run make code-trees.
EOF
	awk '
	function value(key,   i) {
		for (i = 1; i <= NF; i++)
			if (index($i, key "=") == 1)
				return substr($i, length(key) + 2)
		return "-"
	}
	function add(root, patterns,   n, p, i) {
		if (!(root in lines))
			order[++count] = root
		n = split(patterns, p, " ")
		for (i = 1; i <= n; i++)
			if (!((root, p[i]) in has)) {
				has[root, p[i]] = 1
				lines[root] = lines[root] " " p[i]
			}
		if (n == 0)
			lines[root] = lines[root]
	}
	/^#/ || NF == 0 { next }
	{
		sub(/^trace /, "")
		if (value("system") != "yes")
			next
		path = value("real")
		base = path
		sub(/.*\//, "", base)
		dir = path
		sub(/\/[^\/]*$/, "", dir)
		ext = ""
		if (base ~ /^[^.].*\.[^.]+$/) {
			ext = base
			sub(/.*\./, "", ext)
		}
		if (path !~ /^\/./ || dir == "") {
			# fix-library-modes would refuse a tree of "/" anyway.
			print "code-trees: " path ": no tree of its own (at the top, or not a full path)" > "/dev/stderr"
			bad = 1
			next
		}
		root = value("module_root")
		if (ext == "py" || ext == "pyc" || ext == "pth") {
			patterns = ext == "pth" ? "*.pth" : "*.py *.pyc"
			add(root != "-" ? root : dir, patterns)
		} else if (root != "-") {
			patterns = "*.al *.ix *.pl *.pm"
			# A directory of the search path has no extension of its own
			# (/usr/share/perl/5.36.0).
			if (value("why") != "search-path" && ext != "" &&
				index(" " patterns " ", " *." ext " ") == 0)
				patterns = patterns " *." ext
			add(root, patterns)
		} else if (ext != "" && dir != "/etc")
			add(dir, "*." ext)
		else
			add(path, "")
	}
	# Whether every pattern of the line of A is one of the line of B.
	function within(a, b,   n, p, i) {
		n = split(lines[a], p, " ")
		if (n == 0)
			return 0
		for (i = 1; i <= n; i++)
			if (!((b, p[i]) in has))
				return 0
		return 1
	}
	END {
		if (bad)
			exit 1
		for (i = 1; i <= count; i++) {
			a = order[i]
			for (j = 1; j <= count; j++) {
				b = order[j]
				if (a != b && index(a, b "/") == 1 && within(a, b))
					dropped[a] = 1
			}
			if (!(a in dropped))
				print a lines[a]
		}
	}' "$1" | LC_ALL=C sort
}

cmd_trace() {
	local job=$BUILD/jobs/code-trace new
	"$TOP/scripts/build-all.sh"
	say "tracing what the interpreters load: a boot of the image with Debian's modes, audit modes on"
	CMDLINE_EXTRA="checkexec.trace systemd.setenv=DASH_EXEC_CHECK=audit systemd.setenv=BASH_EXEC_CHECK=audit systemd.setenv=PYTHONEXECCHECK=audit systemd.setenv=PERL_EXEC_CHECK=audit" \
		"$TOP/scripts/boot.sh" run --name code-trace -- \
		/usr/lib/checkexec/code-trace --journal >/dev/null ||
		fail_with_log "the trace's boot (code-trace)" "$job/output"
	grep -q 'debian-modes: [1-9][0-9]* code files have Debian' "$job/serial.log" ||
		fail_with_log "the trace's boot: checkexec-trace.service put back no mode" "$job/serial.log"
	new=$(sed -n 's/^trace //p' "$job/output" | LC_ALL=C sort -u)
	[ -n "$new" ] || fail_with_log "the trace's boot: no file reported" "$job/output"
	{
		echo "# What the image's interpreters reported with their audit modes on, in a"
		echo "# boot with Debian's modes (make code-trees, $(date -u +%Y-%m-%d)): the"
		echo "# boot's services, login shells, the legitimate programs and a package"
		echo "# installation (testlibs/code-trace says which, and what each field"
		echo "# means).  scripts/code-trees.sh derives code-trees from it."
		printf '%s\n' "$new"
	} >"$TRACE.new"
	mv "$TRACE.new" "$TRACE"
	derive "$TRACE" >"$TREES.new"
	mv "$TREES.new" "$TREES"
	say "$(grep -c . <<<"$new") files traced, $(grep -c ' system=yes ' <<<"$new") of the system;" \
		"$(grep -vc '^#' "$TREES") lines in ${TREES#"$TOP"/} (review: git diff; then make image)"
}

cmd_check() {
	local derived
	derived=$(derive "$TRACE")
	if [ "$derived" != "$(cat "$TREES")" ]; then
		echo "# ${TREES#"$TOP"/} is not what the rule derives from the trace:"
		diff <(printf '%s\n' "$derived") "$TREES" | sed 's/^/# /'
		return 1
	fi
	echo "# $(grep -vc '^#' "$TREES") lines, from $(grep -vc '^#' "$TRACE") traced files"
}

case "${1:-}" in
trace) cmd_trace ;;
derive) derive "${2:-$TRACE}" ;;
check) cmd_check ;;
*) usage ;;
esac
