#!/usr/bin/env bash
# The booted check: the box under a real Linux kernel and a real systemd. An arm64 Debian trixie
# system boots in qemu-system-aarch64 (-M virt -cpu cortex-a72, TCG); the box is installed in it
# by scripts/install.sh as a user would, and the guest's own systemd runs the checks. Not part of
# the test suite (root, minutes; docs/install.md, "The booted check", says how and when).
#
#     sudo bash scripts/boot-check.sh [--cache DIR] [--fresh] [--build-only] [--cuts N]
#                                     [--only checks|cuts|serial]
#
# 1. root: an arm64 trixie root with Debian's kernel (linux-image-arm64), made with debootstrap
#    through qemu-user (about 15 minutes the first time; kept in the cache directory);
# 2. modules: gpio-sim and i2c-stub, which Debian's arm64 kernel does not ship, built out of tree
#    from Debian's linux-source (gpio-sim with kernel/irq/irq_sim.c beside it);
# 3. install: scripts/install.sh --box-id --broker inside the root (apt-get, the venv from PyPI,
#    the unit, the udev rules), as on a Pi with plain Debian;
# 4. image: the root as an ext4 disk image, the guest checks (scripts/boot-guest.sh) as a unit;
# 5. boot: qemu with the disk attached without host caching, no network card; the guest runs
#    its checks and writes their results on a second disk, which comes back here;
# 6. power cuts: qemu killed at random moments of a game played through gpio-sim, booted again,
#    the journal checked against what the box acknowledged before each cut.
#
# The cache (default /var/cache/spielleiter-boot, or BOOT_CHECK_CACHE) keeps the root and the
# modules between runs; --fresh makes them again. --build-only stops after step 3; --only checks
# skips the power cuts, --only cuts the checks of step 5, --only serial runs of step 5 only the
# serial weighing (a basket on a stand-in microcontroller's pan, through a second guest UART).
set -euo pipefail

SRC=${BOOT_CHECK_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
CACHE=${BOOT_CHECK_CACHE:-/var/cache/spielleiter-boot}
MIRROR=${BOOT_CHECK_MIRROR:-http://deb.debian.org/debian}
SUITE=trixie
FRESH=0
BUILD_ONLY=0
ONLY=""
CUTS=${BOOT_CHECK_CUTS:-20}
MEM=${BOOT_CHECK_MEM:-2048}

while [ $# -gt 0 ]; do
  case "$1" in
    --cache) CACHE=$2; shift ;;
    --fresh) FRESH=1 ;;
    --build-only) BUILD_ONLY=1 ;;
    --cuts) CUTS=$2; shift ;;
    --only) ONLY=$2; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "boot-check: unknown option $1 (--help)" >&2; exit 2 ;;
  esac
  shift
done
[[ "$CUTS" =~ ^[0-9]+$ ]] || { echo "boot-check: --cuts takes a number" >&2; exit 2; }
case "$ONLY" in ""|checks|cuts|serial) ;; *) echo "boot-check: --only checks, cuts or serial" >&2; exit 2 ;; esac
case "$ONLY" in checks|serial) CUTS=0 ;; esac

T0=$(date +%s)
step() { printf '\n== [%4ds] %s\n' "$(( $(date +%s) - T0 ))" "$*"; }
fail() { printf 'boot-check: FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "run it as root (debootstrap, chroot and mount need it)"
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
case "$CACHE/" in "$SRC"/*) fail "the cache $CACHE is inside the checkout; keep it outside" ;; esac
ROOT=$CACHE/root
OUT=$CACHE/run
mkdir -p "$OUT"

# shellcheck source=scripts/arm64-chroot.sh
source "$SRC/scripts/arm64-chroot.sh"

step "tools: debootstrap, qemu-aarch64 (binfmt), qemu-system-aarch64, mke2fs"
for tool in debootstrap chroot qemu-system-aarch64 mke2fs; do
  command -v "$tool" >/dev/null ||
    fail "$tool is missing (Debian: apt-get install debootstrap qemu-user-static binfmt-support qemu-system-arm e2fsprogs)"
done
need_arm64_binfmt
qemu-system-aarch64 --version | head -n 1

# -- 1. the root ----------------------------------------------------------------------------------
PACKAGES=ca-certificates,systemd,systemd-sysv,udev,kmod,procps,sudo,python3,python3-venv
PACKAGES+=,python3-dev,build-essential,swig,i2c-tools,fonts-terminus-otb,sqlite3,mosquitto
PACKAGES+=,mosquitto-clients,linux-image-arm64,linux-headers-arm64,linux-source,xz-utils,e2fsprogs
PACKAGES+=,gpiod,initramfs-tools,zstd

if [ "$FRESH" = 1 ] && [ -e "$ROOT" ]; then
  step "removing the old root ($ROOT)"
  if findmnt -rn -o TARGET | grep -q "^$ROOT/"; then fail "something is still mounted under $ROOT"; fi
  rm -rf --one-file-system -- "$ROOT"
fi
if [ ! -e "$ROOT/.boot-check-base" ]; then
  step "debootstrap --arch=arm64 $SUITE with Debian's kernel (about 15 minutes)"
  rm -rf --one-file-system -- "$ROOT"
  mkdir -p "$ROOT"
  debootstrap --arch=arm64 --variant=minbase --include="$PACKAGES" "$SUITE" "$ROOT" "$MIRROR" \
    >"$CACHE/debootstrap.log" 2>&1 || { tail -n 30 "$CACHE/debootstrap.log"; fail "debootstrap"; }
  date -u +%FT%TZ >"$ROOT/.boot-check-base"
else
  step "reusing the root in $ROOT (made $(cat "$ROOT/.boot-check-base"); --fresh for a new one)"
fi
KVER=$(find "$ROOT/lib/modules" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -V | tail -n 1)
if [ -z "$KVER" ] || [ ! -e "$ROOT/boot/vmlinuz-$KVER" ]; then fail "no kernel in the root"; fi
echo "kernel: $KVER"

cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
mount_in "$ROOT/proc" -t proc proc
mount_in "$ROOT/dev" --bind /dev
mount_in "$ROOT/dev/pts" --bind /dev/pts
ENVS=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
      PIP_RETRIES="${PIP_RETRIES:-10}")
bundle=${PIP_CERT:-${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}}
if [ -f "$bundle" ]; then
  mkdir -p "$ROOT/etc/spielleiter-boot-check"
  cp "$bundle" "$ROOT/etc/spielleiter-boot-check/ca-bundle.crt"
  ENVS+=(PIP_CERT=/etc/spielleiter-boot-check/ca-bundle.crt
         SSL_CERT_FILE=/etc/spielleiter-boot-check/ca-bundle.crt
         REQUESTS_CA_BUNDLE=/etc/spielleiter-boot-check/ca-bundle.crt)
fi
while IFS='=' read -r name value; do
  case "$name" in
    PIP_CERT|PIP_FIND_LINKS|PIP_CONSTRAINT|PIP_INDEX_URL|PIP_EXTRA_INDEX_URL|PIP_RETRIES) continue ;;
    PIP_*|*_proxy|*_PROXY) ENVS+=("$name=$value") ;;
  esac
done < <(env)
inside() { chroot "$ROOT" /usr/bin/env -i "${ENVS[@]}" "$@"; }

# -- 2. gpio-sim and i2c-stub ---------------------------------------------------------------------
EXTRA_DIR=$ROOT/lib/modules/$KVER/extra
if [ ! -e "$EXTRA_DIR/gpio-sim.ko" ] || [ ! -e "$EXTRA_DIR/i2c-stub.ko" ]; then
  step "gpio-sim and i2c-stub from Debian's linux-source, for $KVER"
  tarball=$(find "$ROOT/usr/src" -maxdepth 1 -name 'linux-source-*.tar.xz' | sort -V | tail -n 1)
  base=$(basename "$tarball" .tar.xz)
  build=$ROOT/root/sim-modules
  rm -rf "$build"; mkdir -p "$build"
  tar -C "$build" -xJf "$tarball" --strip-components=1 \
    "$base/drivers/gpio/gpio-sim.c" "$base/drivers/gpio/gpiolib.h" \
    "$base/kernel/irq/irq_sim.c" "$base/drivers/i2c/i2c-stub.c"
  mkdir -p "$build/m"
  # gpio-sim.c as gpio-sim-main.c: the module (gpio-sim.ko) is it and irq_sim.c linked together
  cp "$build/drivers/gpio/gpio-sim.c" "$build/m/gpio-sim-main.c"
  cp "$build/drivers/gpio/gpiolib.h" "$build/kernel/irq/irq_sim.c" "$build/drivers/i2c/i2c-stub.c" \
    "$build/m/"
  # irq_to_desc() is not exported to modules; generic_handle_irq() does the same for a simple IRQ.
  sed -i 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' "$build/m/irq_sim.c"
  grep -q irq_to_desc "$build/m/irq_sim.c" && fail "irq_sim.c still calls irq_to_desc"
  sed -i 's|"\.\./gpiolib\.h"|"gpiolib.h"|' "$build/m/gpio-sim-main.c"
  cat >"$build/m/Makefile" <<'EOF'
obj-m := gpio-sim.o i2c-stub.o
gpio-sim-y := gpio-sim-main.o irq_sim.o
EOF
  inside make -C "/lib/modules/$KVER/build" M=/root/sim-modules/m modules \
    >"$CACHE/modules.log" 2>&1 || { tail -n 30 "$CACHE/modules.log"; fail "building the modules"; }
  mkdir -p "$EXTRA_DIR"
  cp "$build/m/gpio-sim.ko" "$build/m/i2c-stub.ko" "$EXTRA_DIR/"
  inside depmod "$KVER"
  echo "built: $(cd "$EXTRA_DIR" && ls)"
else
  step "reusing gpio-sim and i2c-stub for $KVER"
fi

# -- 3. the box, installed as a user would --------------------------------------------------------
step "scripts/install.sh --box-id boot-check --broker 127.0.0.1 --no-start (inside the root)"
rm -rf "$ROOT/root/spielleiter"
mkdir -p "$ROOT/root/spielleiter"
tar -C "$SRC" --exclude='.git' --exclude='.venv*' --exclude='__pycache__' --exclude='*.egg-info' \
  --exclude='.pytest_cache' --exclude='.hypothesis' --exclude='build' -cf - . |
  tar -C "$ROOT/root/spielleiter" -xf -
inside bash -c 'cd /root/spielleiter && bash scripts/install.sh --no-start --box-id boot-check --broker 127.0.0.1' \
  | tee "$OUT/install.log"
cleanup

[ "$BUILD_ONLY" = 1 ] && { step "built (--build-only) in $(( $(date +%s) - T0 )) s"; exit 0; }

# shellcheck source=scripts/boot-run.sh
. "$SRC/scripts/boot-run.sh"
