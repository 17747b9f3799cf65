# Sourced by scripts/boot-check.sh and scripts/pi-check.sh: mounts undone on exit, and an arm64
# chroot through qemu-user (binfmt_misc with qemu-aarch64 registered with the F flag).
# The caller defines step and fail.

MOUNTS=()
cleanup() {
  local i
  for (( i=${#MOUNTS[@]}-1; i>=0; i-- )); do umount -l "${MOUNTS[$i]}" 2>/dev/null || true; done
  MOUNTS=()
}
trap cleanup EXIT
mount_in() {  # mount_in TARGET MOUNT-ARGS...
  local target=$1; shift
  [ -e "$target" ] || mkdir -p "$target"
  mount "$@" "$target"
  MOUNTS+=("$target")
}

need_arm64_binfmt() {  # qemu-aarch64 registered so that an arm64 root runs in a chroot
  if ! mountpoint -q /proc/sys/fs/binfmt_misc; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  fi
  if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && command -v update-binfmts >/dev/null; then
    update-binfmts --enable qemu-aarch64 || true
  fi
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] ||
    fail "qemu-aarch64 is not registered (Debian: apt-get install qemu-user-static binfmt-support)"
  grep -q '^flags:.*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
    fail "qemu-aarch64 is registered without the F flag: it cannot run inside a chroot"
}
