#!/usr/bin/env bash
# The emulated Pi check: scripts/install.sh and the box on an arm64 Debian trixie root, run on the
# Pi's CPU architecture through qemu-user-static. Not part of the test suite (half an hour or
# more from nothing; docs/install.md, "What the emulated check proves", has the times).
#
#     sudo bash scripts/pi-check.sh [--root DIR] [--model pi5|pi4|pi3|zero2w] [--fresh]
#
# 1. binfmt_misc mounted and qemu-aarch64 registered (Debian's qemu-user-static, binfmt-support);
# 2. a minbase arm64 trixie root made with debootstrap (kept in DIR for the next run; --fresh
#    makes a new one), with a Raspberry Pi's config.txt and cmdline.txt (as Raspberry Pi OS ships
#    them), the board's device-tree model and /proc/cpuinfo revision, and the raspi-config
#    stand-in of tests/standins (what the real tool's nonint functions do to those files);
# 3. inside it, as root: scripts/install.sh --no-start (apt-get, the user, the venv with the
#    [pi,hx711] extras from PyPI, the boot settings, the unit), then the files it left are checked
#    and a second run must change nothing;
# 4. lgpio, spidev, smbus2 and the rpi-lgpio shim (RPi.GPIO) import in the box's venv;
#    systemd-analyze verify passes on the unit; `spielleiter config check`, `selftest --sim` and
#    `demo tatort-tonne` run on the emulated CPU.
#
# pip inside the root sees only the root's certificates: the CA bundle and the PIP_* settings of
# this machine (its environment) are handed in. The root never goes inside the checkout. What
# the emulation cannot show (the SoC's UART, I2C, SPI and GPIO, the firmware reading config.txt,
# timing): docs/install.md, "What the emulated check proves".
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=${PI_CHECK_ROOT:-/var/tmp/spielleiter-pi-root}
MODEL=pi5
FRESH=0
MIRROR=${PI_CHECK_MIRROR:-http://deb.debian.org/debian}
SUITE=trixie

while [ $# -gt 0 ]; do
  case "$1" in
    --root) DIR=$2; shift ;;
    --model) MODEL=$2; shift ;;
    --fresh) FRESH=1 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "pi-check: unknown option $1 (--help)" >&2; exit 2 ;;
  esac
  shift
done

case "$MODEL" in  # the device-tree model and the /proc/cpuinfo revision of each board
  pi5) MODEL_NAME="Raspberry Pi 5 Model B Rev 1.0"; REVISION=c04170 ;;
  pi4) MODEL_NAME="Raspberry Pi 4 Model B Rev 1.4"; REVISION=c03114 ;;
  pi3) MODEL_NAME="Raspberry Pi 3 Model B Plus Rev 1.3"; REVISION=a020d3 ;;
  zero2w) MODEL_NAME="Raspberry Pi Zero 2 W Rev 1.0"; REVISION=902120 ;;
  *) echo "pi-check: --model pi5, pi4, pi3 or zero2w" >&2; exit 2 ;;
esac

T0=$(date +%s)
step() { printf '\n== [%4ds] %s\n' "$(( $(date +%s) - T0 ))" "$*"; }
fail() { printf 'pi-check: FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "run it as root (debootstrap, chroot and mount need it)"
DIR=$(mkdir -p "$DIR" && cd "$DIR" && pwd)
case "$DIR/" in "$SRC"/*) fail "--root $DIR is inside the checkout; keep the root outside it" ;; esac

# shellcheck source=scripts/arm64-chroot.sh
source "$SRC/scripts/arm64-chroot.sh"

step "binfmt_misc and qemu-aarch64"
for tool in debootstrap chroot; do
  command -v "$tool" >/dev/null || fail "$tool is missing (Debian: apt-get install debootstrap)"
done
need_arm64_binfmt
sed -n 's/^interpreter /interpreter: /p' /proc/sys/fs/binfmt_misc/qemu-aarch64

if [ "$FRESH" = 1 ] && [ -e "$DIR/.pi-check-base" ]; then
  step "removing the old root ($DIR)"
  if findmnt -rn -o TARGET | grep -q "^$DIR/"; then fail "something is still mounted under $DIR"; fi
  rm -rf --one-file-system -- "$DIR"
  mkdir -p "$DIR"
fi
if [ ! -e "$DIR/.pi-check-base" ]; then
  step "debootstrap --arch=arm64 --variant=minbase $SUITE (a few minutes)"
  [ -z "$(ls -A "$DIR")" ] || fail "$DIR is not empty and holds no pi-check root; use another --root"
  debootstrap --arch=arm64 --variant=minbase \
    --include=ca-certificates,systemd,python3,python3-venv,sudo "$SUITE" "$DIR" "$MIRROR" \
    >"$DIR.debootstrap.log" 2>&1 || { tail -n 20 "$DIR.debootstrap.log"; fail "debootstrap"; }
  date -u +%FT%TZ >"$DIR/.pi-check-base"
else
  step "reusing the root in $DIR (made $(cat "$DIR/.pi-check-base"); --fresh for a new one)"
fi

step "the Pi's boot files, board and raspi-config stand-in ($MODEL_NAME)"
mkdir -p "$DIR/boot/firmware" "$DIR/sys/firmware/devicetree/base" "$DIR/etc/spielleiter-pi-check"
cat >"$DIR/boot/firmware/config.txt" <<'EOF'
# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Additional overlays and parameters are documented
# /boot/firmware/overlays/README

# Automatically load overlays for detected cameras
camera_auto_detect=1

# Automatically load overlays for detected DSI displays
display_auto_detect=1

# Automatically load initramfs files, if found
auto_initramfs=1

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

# Don't have the firmware create an initial video= setting in cmdline.txt.
# Use the kernel's default instead.
disable_fw_kms_setup=1

# Run in 64-bit mode
arm_64bit=1

# Disable compensation for displays with overscan
disable_overscan=1

# Run as fast as firmware / board allows
arm_boost=1

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
# This line should be removed if the legacy DWC2 controller is required
# (e.g. for USB device mode) or if USB support is not required.
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
EOF
echo "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait" \
  >"$DIR/boot/firmware/cmdline.txt"
cp "$DIR/boot/firmware/config.txt" "$DIR/etc/spielleiter-pi-check/config.txt.stock"
printf '%s\0' "$MODEL_NAME" >"$DIR/sys/firmware/devicetree/base/model"
{ grep -v '^Revision' /proc/cpuinfo | head -n 8; printf 'Revision\t: %s\n' "$REVISION"; } \
  >"$DIR/etc/spielleiter-pi-check/cpuinfo"
install -m 0755 "$SRC/tests/standins/raspi-config" "$DIR/usr/bin/raspi-config"
rm -f "$DIR/var/log/raspi-config-standin.log"  # this run's calls only
cp /etc/resolv.conf "$DIR/etc/resolv.conf" 2>/dev/null || true

# The checkout, as a user would have cloned it (without venvs and caches).
rm -rf "$DIR/root/spielleiter"
mkdir -p "$DIR/root/spielleiter"
tar -C "$SRC" --exclude='.git' --exclude='.venv*' --exclude='__pycache__' --exclude='*.egg-info' \
  --exclude='.pytest_cache' --exclude='.hypothesis' --exclude='build' -cf - . |
  tar -C "$DIR/root/spielleiter" -xf -

# pip's certificate bundle and settings of this machine, handed into the root.
# More retries than pip's 5: the emulated TLS handshakes are slow, and connections reset now and
# then on the way to PyPI.
ENVS=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
      RPI_LGPIO_REVISION="$REVISION" PIP_RETRIES="${PIP_RETRIES:-10}")
bundle=${PIP_CERT:-${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}}
if [ -f "$bundle" ]; then
  cp "$bundle" "$DIR/etc/spielleiter-pi-check/ca-bundle.crt"
  ENVS+=(PIP_CERT=/etc/spielleiter-pi-check/ca-bundle.crt
         SSL_CERT_FILE=/etc/spielleiter-pi-check/ca-bundle.crt
         REQUESTS_CA_BUNDLE=/etc/spielleiter-pi-check/ca-bundle.crt)
  echo "pip trusts this machine's CA bundle ($bundle)"
fi
while IFS='=' read -r name value; do
  case "$name" in
    PIP_CERT|PIP_FIND_LINKS|PIP_CONSTRAINT|PIP_INDEX_URL|PIP_EXTRA_INDEX_URL|PIP_RETRIES)
      continue ;;  # paths and indexes of this machine: the bundle above, PyPI itself inside
    PIP_*|*_proxy|*_PROXY) ENVS+=("$name=$value"); echo "handed in: $name" ;;
  esac
done < <(env)

mount_in "$DIR/proc" -t proc proc
mount_in "$DIR/proc/cpuinfo" --bind "$DIR/etc/spielleiter-pi-check/cpuinfo"
mount_in "$DIR/dev" --bind /dev
mount_in "$DIR/dev/pts" --bind /dev/pts
inside() { chroot "$DIR" /usr/bin/env -i "${ENVS[@]}" "$@"; }

step "the emulated CPU"
echo "uname -m inside: $(inside uname -m); python: $(inside python3 --version)"
inside python3 -c 'import platform, sys; assert platform.machine() == "aarch64", platform.machine()'

step "scripts/install.sh --no-start (apt-get, venv, pip from PyPI, boot settings, unit)"
inside bash -c 'cd /root/spielleiter && bash scripts/install.sh --no-start' | tee "$DIR/install-1.log"

step "what the installer left: config.txt, cmdline.txt"
diff -u "$DIR/etc/spielleiter-pi-check/config.txt.stock" "$DIR/boot/firmware/config.txt" || true
cat "$DIR/boot/firmware/cmdline.txt"
want=(dtparam=i2c_arm=on dtparam=spi=on dtparam=i2c_arm_baudrate=400000 dtoverlay=spi1-1cs
      "dtoverlay=i2c-sensor,tmp102")
if [ "$MODEL" = pi5 ]; then want+=(dtparam=uart0=on); else want+=(enable_uart=1); fi
for line in "${want[@]}"; do
  grep -qx "$line" "$DIR/boot/firmware/config.txt" || fail "config.txt has no line $line"
done
! grep -q 'console=serial0' "$DIR/boot/firmware/cmdline.txt" || fail "the serial console is still in cmdline.txt"
grep -q 'reboot needed' "$DIR/install-1.log" || fail "the first run did not ask for a reboot"
grep -q '^nonint do_serial_hw 0' "$DIR/var/log/raspi-config-standin.log" ||
  fail "raspi-config's do_serial_hw was not used"
echo "raspi-config stand-in calls:"; sed 's/^/  /' "$DIR/var/log/raspi-config-standin.log"

step "scripts/install.sh --no-start again: nothing to change"
inside bash -c 'cd /root/spielleiter && bash scripts/install.sh --no-start' | tee "$DIR/install-2.log"
grep -q 'boot settings: unchanged' "$DIR/install-2.log" || fail "the second run changed the boot settings"
grep -q 'no reboot needed' "$DIR/install-2.log" || fail "the second run asked for a reboot"
! grep -q '^spielleiter-install: installed:' "$DIR/install-2.log" || fail "the second run installed files again"

step "the Pi extra imports (lgpio, spidev, smbus2, RPi.GPIO from rpi-lgpio, hx711)"
inside /opt/spielleiter/venv/bin/python - <<'PY'
import importlib.metadata as md, platform, sys
import lgpio, smbus2, spidev
import RPi.GPIO as GPIO
import hx711, gpiozero, luma.oled
print(f"{platform.machine()}, Python {sys.version.split()[0]}")
for dist in ("lgpio", "rpi-lgpio", "spidev", "smbus2", "hx711", "gpiozero", "luma.oled", "pillow"):
    print(f"  {dist} {md.version(dist)}")
print(f"  lgpio module: {lgpio.__file__}; RPi.GPIO is rpi-lgpio: {GPIO.__file__}")
PY

step "systemd-analyze verify (the unit as installed)"
inside systemd-analyze verify /etc/systemd/system/spielleiter.service
echo "verify: ok"
inside systemctl is-enabled spielleiter.service

step "spielleiter config check, selftest --sim, demo (on the emulated CPU)"
inside /opt/spielleiter/venv/bin/spielleiter config check
inside /opt/spielleiter/venv/bin/spielleiter selftest --sim
inside /opt/spielleiter/venv/bin/spielleiter demo tatort-tonne --lang en >"$DIR/demo.log"
head -n 12 "$DIR/demo.log"
echo "... ($(wc -l <"$DIR/demo.log") lines)"

step "passed ($MODEL_NAME, Debian $SUITE arm64 under qemu-user) in $(( $(date +%s) - T0 )) s"
