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
make_bzimage() {
	cd "$KSRC" || return
	CCACHE_EXTRAFILES=$KSRC/certs/checkexec-ipe-test.pem \
		make -j"$JOBS" CC="ccache gcc" bzImage
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
