# Sourced by scripts/hil/setup and scripts/hil/exec.
#
# The cache: HIL_CACHE, or wolftable-hil in the user's cache directory.
# Its arm64/ holds what the VM boots: vmlinuz (Debian's arm64 kernel),
# base.cpio (busybox and the modules) and ok (what they were made from).
HIL_CACHE=${HIL_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/wolftable-hil}
HIL_ARCH_DIR=$HIL_CACHE/arm64

# hil_src_key: a hash of what the cached parts are made from here (setup
# and the modules' sources): a change to them makes the cache stale.
hil_src_key() {
  cat "$HIL_DIR"/setup "$HIL_DIR"/kmod/Kbuild "$HIL_DIR"/kmod/*.c | sha256sum | cut -c1-16
}

# hil_ready: the cache has parts built from these sources.
hil_ready() {
  [ -f "$HIL_ARCH_DIR/ok" ] && [ -f "$HIL_ARCH_DIR/vmlinuz" ] && [ -f "$HIL_ARCH_DIR/base.cpio" ] &&
    [ "$(cut -d' ' -f3 "$HIL_ARCH_DIR/ok")" = "$(hil_src_key)" ]
}
