# shellcheck shell=bash
# Making a kernel tree from Debian's linux-source-6.12 and configuring it as
# the guest's kernel: allnoconfig + FRAGMENTS.  Used by build-kernel.sh and
# kernel-each-patch.sh.  Source after lib.sh, with KSRC (the tree) and
# FRAGMENTS (an array of config fragments) set.

SRC_PKG=linux-source-6.12
TARBALL=/usr/src/$SRC_PKG.tar.xz
# The guest kernel's configuration, in the order merged (a later fragment
# wins): what the guest and its tests use, then the project's own settings.
# shellcheck disable=SC2034 # used by the scripts that source this file
GUEST_FRAGMENTS=("$TOP/linux/guest.config" "$TOP/linux/checkexec.config")

# unpack_kernel: a fresh KSRC from the tarball (its top directory is
# $SRC_PKG; KSRC may have another name).
unpack_kernel() {
	local tmp
	tmp=$(dirname "$KSRC")/.unpack-$(basename "$KSRC")
	rm -rf "$KSRC" "$tmp"
	mkdir -p "$tmp"
	tar -C "$tmp" -xf "$TARBALL"
	mv "$tmp/$SRC_PKG" "$KSRC"
	rmdir "$tmp"
}

# check_fragment CONFIG FRAGMENT: every setting of FRAGMENT must have
# survived the merge, or the kernel is not the one we asked for.
check_fragment() {
	local config=$1 fragment=$2 line name bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) grep -qxF "$line" "$config" || {
			warn "$fragment: '$line' is not in the final .config"
			bad=1
		} ;;
		'# CONFIG_'*' is not set')
			name=${line#\# }
			name=${name%% *}
			if grep -q "^$name=" "$config"; then
				warn "$fragment: $name should be unset"
				bad=1
			fi
			;;
		esac
	done <"$fragment"
	return "$bad"
}

# make_ipe_test_key: the key pair whose certificate the kernel trusts
# (CONFIG_SYSTEM_TRUSTED_KEYS in linux/checkexec.config), so that the IPE
# test can sign a policy.  A test key of a test kernel, made once per cache
# and then reused, so that two builds of the same series give the image the
# same key: a kernel change that leaves its user-space outputs alone then
# does not rebuild the image.
make_ipe_test_key() {
	local dir=$CACHE/ipe-test-key tmp
	if [ ! -s "$dir/key.pem" ] || [ ! -s "$dir/cert.pem" ]; then
		mkdir -p "$CACHE"
		tmp=$(mktemp -d "$CACHE/.ipe-test-key-XXXXXX")
		openssl req -new -x509 -newkey rsa:2048 -nodes -days 36500 \
			-subj "/CN=checkexec IPE test key/" -outform PEM \
			-keyout "$tmp/key.pem" -out "$tmp/cert.pem"
		rm -rf "$dir"
		mv "$tmp" "$dir"
	fi
	cp "$dir/key.pem" certs/checkexec-ipe-test.key
	cp "$dir/cert.pem" certs/checkexec-ipe-test.pem
}

# make_bzimage: build KSRC's bzImage with ccache.  The IPE test
# certificate enters the kernel by .incbin (certs/system_certificates.S),
# which ccache does not see: without it in every compile's hash, a cache
# that had compiled that file with another certificate gave a kernel that
# refused the policies signed with this one.
#
# The compressed kernel enters the bzImage the same way (piggy.o:
# .incbin of vmlinux.bin.*), and two builds of the same sources give the
# same piggy.S: a cache hit there put another build's kernel in the
# bzImage (test-kernel-is-ours saw it).  piggy.o is made again without
# ccache (CCACHE_DISABLE keeps the command line, so nothing else rebuilds).
make_bzimage() {
	cd "$KSRC" || return
	CCACHE_EXTRAFILES=$KSRC/certs/checkexec-ipe-test.pem \
		make -j"$JOBS" CC="ccache gcc" bzImage || return
	rm -f arch/x86/boot/compressed/piggy.o
	CCACHE_DISABLE=1 make -j"$JOBS" CC="ccache gcc" bzImage
}

# merge_config: KSRC/.config from FRAGMENTS alone: every option they do
# not set is off (allnoconfig), unless an option they set needs it.
# Settings of symbols the tree does not have (yet) are dropped.
merge_config() {
	cd "$KSRC" || return
	scripts/kconfig/merge_config.sh -n "${FRAGMENTS[@]}"
}

# check_fragments: every fragment must hold exactly in KSRC/.config.
check_fragments() {
	local frag
	for frag in "${FRAGMENTS[@]}"; do
		check_fragment "$KSRC/.config" "$frag"
	done
}

# The kernel the guest's configuration was cut from (the one built before
# linux/guest.config: x86_64_defconfig + kvm_guest.config + the project's
# own settings), and how the guest's kernel differs from it, each with why
# (docs/kernel.md).
REFERENCE_CONFIGS=(x86_64_defconfig kvm_guest.config)
GUEST_DIFFERENCES=$TOP/linux/guest-differences
# The core: the Kconfig files whose settings decide what the paths the
# tests and make bench run compile to and how they behave.
CORE_KCONFIG=(arch/Kconfig arch/x86 init kernel mm block fs security lib)

# reference_config FILE: KSRC's x86_64_defconfig + kvm_guest.config +
# linux/checkexec.config into FILE (KCONFIG_CONFIG: KSRC/.config stays as
# it is).
reference_config() {
	(
		cd "$KSRC" &&
			export KCONFIG_CONFIG=$1 &&
			make -s "${REFERENCE_CONFIGS[0]}" &&
			scripts/kconfig/merge_config.sh -m "$1" \
				"kernel/configs/${REFERENCE_CONFIGS[1]}" \
				"$TOP/linux/checkexec.config" &&
			make -s olddefconfig
	) >/dev/null
}

# core_symbols: the symbols the core's Kconfig files define, one per line.
core_symbols() {
	(cd "$KSRC" && find "${CORE_KCONFIG[@]}" -name 'Kconfig*' -print0) |
		(cd "$KSRC" && xargs -0 sed -n -E \
			's/^[[:space:]]*(menu)?config[[:space:]]+([A-Za-z0-9_]+)[[:space:]]*$/\2/p') |
		sort -u
}

# read_settings ARRAY: ARRAY[SYMBOL]=VALUE for each "SYMBOL=VALUE" or
# "CONFIG_SYMBOL=VALUE" line of standard input; a bare SYMBOL gets the
# value "-" (left out).  Comments and blank lines are skipped.
read_settings() {
	local -n settings=$1
	local line
	while IFS= read -r line; do
		line=${line%%#*}
		line=${line%"${line##*[![:space:]]}"}
		[ -n "$line" ] || continue
		line=${line#CONFIG_}
		# shellcheck disable=SC2034 # a name reference to the caller's array
		case "$line" in
		*=*) settings["${line%%=*}"]=${line#*=} ;;
		*) settings["$line"]=- ;;
		esac
	done
}

# check_reference_settings: KSRC/.config against the reference kernel and
# linux/guest-differences, so that a change of linux/guest.config cannot
# drop, add or change a setting that decides what a tested path costs
# (make bench compares with kernels built from the reference) unnoticed.
check_reference_settings() {
	local tmp symbols symbol bad=0
	local -A final=() reference=() differs=() core=()
	tmp=$(mktemp -d)
	reference_config "$tmp/config" || {
		rm -rf "$tmp"
		warn "cannot make the reference configuration (${REFERENCE_CONFIGS[*]})"
		return 1
	}
	read_settings final < <(grep '^CONFIG_' "$KSRC/.config")
	read_settings reference < <(grep '^CONFIG_' "$tmp/config")
	rm -rf "$tmp"
	read_settings differs <"$GUEST_DIFFERENCES"
	# An empty list would let every core setting go unnoticed.
	if ! symbols=$(core_symbols) || [ "$(wc -l <<<"$symbols")" -lt 1000 ]; then
		warn "cannot list the symbols of the core (${CORE_KCONFIG[*]})"
		return 1
	fi
	while read -r symbol; do core[$symbol]=1; done <<<"$symbols"
	for symbol in "${!reference[@]}"; do
		[ -z "${differs[$symbol]+set}" ] || continue
		if [ -n "${final[$symbol]+set}" ]; then
			[ "${final[$symbol]}" = "${reference[$symbol]}" ] || {
				warn "CONFIG_$symbol=${final[$symbol]}, the reference kernel's ${reference[$symbol]}: set that or list the new value, with why, in $GUEST_DIFFERENCES"
				bad=1
			}
		elif [ -n "${core[$symbol]:-}" ]; then
			warn "CONFIG_$symbol=${reference[$symbol]} of the reference kernel is not set: set it in linux/guest.config or list it, with why, in $GUEST_DIFFERENCES"
			bad=1
		fi
	done
	for symbol in "${!final[@]}"; do
		if [ -n "${reference[$symbol]+set}" ] || [ -n "${differs[$symbol]+set}" ]; then
			continue
		fi
		warn "CONFIG_$symbol=${final[$symbol]} is not set in the reference kernel: list it, with why, in $GUEST_DIFFERENCES"
		bad=1
	done
	for symbol in "${!differs[@]}"; do
		check_difference "$symbol" "${differs[$symbol]}" \
			"${reference[$symbol]-}" "${final[$symbol]-}" || bad=1
	done
	[ "$bad" -eq 0 ] ||
		warn "the guest's kernel differs from the reference (${REFERENCE_CONFIGS[*]} + linux/checkexec.config) otherwise than $GUEST_DIFFERENCES says (docs/kernel.md)"
	return "$bad"
}

# check_difference SYMBOL LISTED REFERENCE FINAL: a line of
# linux/guest-differences holds: a left-out setting (LISTED "-") is set in
# the reference alone; a new value is the guest's and not the reference's.
# An empty REFERENCE or FINAL: not set there.
check_difference() {
	local symbol=$1 listed=$2 reference=$3 final=$4
	if [ "$listed" = - ]; then
		[ -n "$reference" ] || {
			warn "$GUEST_DIFFERENCES: the reference kernel does not set $symbol"
			return 1
		}
		[ -z "$final" ] || {
			warn "$GUEST_DIFFERENCES: $symbol is set (CONFIG_$symbol=$final)"
			return 1
		}
	else
		[ "$final" = "$listed" ] || {
			warn "$GUEST_DIFFERENCES: CONFIG_$symbol is ${final:-not set}, not $listed"
			return 1
		}
		[ "$reference" != "$listed" ] || {
			warn "$GUEST_DIFFERENCES: CONFIG_$symbol=$listed is the reference kernel's value already"
			return 1
		}
	fi
}
