#!/usr/bin/env bash
# Install Spielleiter on Raspberry Pi OS as a systemd service, from a checkout:
#
#     sudo bash scripts/install.sh
#
# Creates the "spielleiter" system user, a venv under /opt/spielleiter with the package and the
# GPIO backend for this board, sets up the boot settings (I2C at the OLED's speed, SPI0, SPI1, the
# UART without a serial console: scripts/install-board.sh), installs /etc/spielleiter/config.toml
# (only if absent) and the unit, then enables and starts the service. Running it again changes
# nothing unless the checkout changed (then it reinstalls and restarts). It says what it changed
# and whether a reboot is needed. See docs/install.md.
set -euo pipefail
umask 022  # the service user must be able to read the venv and the config

NAME=spielleiter
GROUPS_NEEDED=(gpio i2c spi dialout)

usage() {
  cat <<'EOF'
Usage: sudo bash scripts/install.sh [OPTIONS]

  (no option)      install or update, enable and start the service
  --no-start       install and enable, but do not start (or restart) it now
  --extra NAME     the Python extra to install instead of the detected one:
                   pi (lgpio: Pi 5, Raspberry Pi OS bookworm and newer) or pi-legacy (RPi.GPIO)
  --box-id ID      report to a room (docs/room.md): this box's id there (a-z, 0-9, -),
  --broker HOST    and the room's MQTT broker; written as [fleet] into a config without one
  --uninstall      stop and remove the service, the venv and the user;
                   keeps /var/lib/spielleiter (the journal) and /etc/spielleiter
  --purge          with --uninstall: remove /var/lib/spielleiter and /etc/spielleiter too
  --root DIR       work on a scratch root (DESTDIR style): every path is prefixed with DIR; commands
                   that change the running system (apt-get, useradd, pip, systemctl, raspi-config)
                   are printed as "[scratch root, skipped] ..." instead of run; config.txt
                   and cmdline.txt of the scratch root are edited directly
  --raspi-config PROG  with --root: run PROG (a stand-in that edits the scratch root, as the
                   tests and scripts/pi-check.sh use) for raspi-config's nonint functions
  -h, --help       this text
EOF
}

say() { printf '%s-install: %s\n' "$NAME" "$*"; }
die() { printf '%s-install: error: %s\n' "$NAME" "$*" >&2; exit 1; }

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PYTHON=${PYTHON:-python3}
ROOT=""
ACTION=install
PURGE=0
START=1
EXTRA=""
RASPI_STANDIN=""
BOX_ID=""
BROKER=""

while [ $# -gt 0 ]; do
  case "$1" in
    --uninstall) ACTION=uninstall ;;
    --purge) PURGE=1 ;;
    --no-start) START=0 ;;
    --extra) [ $# -ge 2 ] || die "--extra needs a name"; EXTRA=$2; shift ;;
    --extra=*) EXTRA=${1#--extra=} ;;
    --box-id) [ $# -ge 2 ] || die "--box-id needs an id"; BOX_ID=$2; shift ;;
    --broker) [ $# -ge 2 ] || die "--broker needs a host"; BROKER=$2; shift ;;
    --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT=$2; shift ;;
    --root=*) ROOT=${1#--root=} ;;
    --raspi-config) [ $# -ge 2 ] || die "--raspi-config needs a program"; RASPI_STANDIN=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
  shift
done
if [ "$PURGE" = 1 ] && [ "$ACTION" != uninstall ]; then die "--purge goes with --uninstall"; fi
if [ -n "$RASPI_STANDIN" ]; then
  [ -n "$ROOT" ] || die "--raspi-config goes with --root (on the running system the installed one is used)"
  [ -x "$RASPI_STANDIN" ] || die "--raspi-config $RASPI_STANDIN: not an executable"
  RASPI_STANDIN=$(cd "$(dirname "$RASPI_STANDIN")" && pwd)/$(basename "$RASPI_STANDIN")
fi
if [ -n "$BOX_ID$BROKER" ] && { [ -z "$BOX_ID" ] || [ -z "$BROKER" ]; }; then
  die "--box-id and --broker go together"
fi
[[ -z "$BOX_ID" || "$BOX_ID" =~ ^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$ ]] ||
  die "--box-id: 1-32 of a-z, 0-9 and -, starting and ending with a letter or digit"
[[ "$BROKER" =~ ^[A-Za-z0-9.:_-]*$ ]] || die "--broker: a host name or address"
case "$EXTRA" in ""|pi|pi-legacy) ;; *) die "--extra: use pi or pi-legacy, not '$EXTRA'" ;; esac

SCRATCH=0
if [ -n "$ROOT" ]; then
  [ -d "$ROOT" ] || die "--root $ROOT: no such directory"
  ROOT=$(cd "$ROOT" && pwd)
  [ "$ROOT" != / ] || ROOT=""
fi
[ -n "$ROOT" ] && SCRATCH=1
if [ "$SCRATCH" = 0 ] && [ "$(id -u)" != 0 ]; then
  die "run it as root: sudo bash scripts/install.sh"
fi

OPT=$ROOT/opt/$NAME
VENV=$OPT/venv
STAMP=$OPT/installed
UNIT_DIR=$ROOT/etc/systemd/system
UNIT=$UNIT_DIR/$NAME.service
UPLINK_UNIT=$UNIT_DIR/$NAME-uplink.service
DROPIN=$UNIT_DIR/$NAME.service.d/gpio-legacy.conf
CONF_DIR=$ROOT/etc/$NAME
CONF=$CONF_DIR/config.toml
STATE=$ROOT/var/lib/$NAME
MODULES=$ROOT/etc/modules-load.d/$NAME.conf
UDEV_RULES=$ROOT/etc/udev/rules.d/60-$NAME.rules

CHANGED=0        # something the running service uses changed: restart it
UNIT_CHANGED=0   # the unit or its drop-in changed: daemon-reload
REBOOT=0         # config.txt or cmdline.txt changed: they take effect at the next boot

quote() {  # the words as a shell would need them typed
  local word out=()
  for word in "$@"; do
    if [[ $word =~ ^[A-Za-z0-9_./=,:@%+-]+$ ]]; then out+=("$word"); else out+=("'${word//\'/\'\\\'\'}'"); fi
  done
  printf '%s' "${out[*]}"
}

# A command that changes the running system: run it, or only show it in a scratch root.
host() {
  local shown
  shown=$(quote "$@")
  if [ "$SCRATCH" = 1 ]; then
    say "[scratch root, skipped] $shown"
  else
    say "running: $shown"
    "$@"
  fi
}

has_group() {
  if [ "$SCRATCH" = 1 ]; then grep -q "^$1:" "$ROOT/etc/group" 2>/dev/null; else getent group "$1" >/dev/null; fi
}
has_user() {
  if [ "$SCRATCH" = 1 ]; then grep -q "^$1:" "$ROOT/etc/passwd" 2>/dev/null; else getent passwd "$1" >/dev/null; fi
}
show() { printf '%s' "${1#"$ROOT"}"; }  # a path as it is on the target system

# put_file MODE SOURCE DEST: install SOURCE as DEST unless identical; sets CHANGED.
put_file() {
  local mode=$1 src=$2 dest=$3
  if [ -f "$dest" ] && [ ! -L "$dest" ] && cmp -s "$src" "$dest"; then
    if [ "$(stat -c %a "$dest")" != "${mode#0}" ]; then chmod "$mode" "$dest"; fi
    say "unchanged: $(show "$dest")"
    return 0
  fi
  install -d -m 0755 "$(dirname "$dest")"
  install -m "$mode" "$src" "$dest"
  say "installed: $(show "$dest")"
  CHANGED=1
}

remove_path() {
  if [ -e "$1" ] || [ -L "$1" ]; then
    rm -rf -- "$1"
    say "removed: $(show "$1")"
    CHANGED=1
  fi
}

systemctl_here() {  # systemctl on the running system, or on the scratch root's files
  if [ "$SCRATCH" = 1 ]; then
    if command -v systemctl >/dev/null; then
      systemctl --root="$ROOT" --quiet "$@" 2>/dev/null
    else
      return 1
    fi
  else
    systemctl --quiet "$@"
  fi
}

# -- the board ------------------------------------------------------------------------------------
board_model() {
  local f
  for f in "$ROOT/proc/device-tree/model" "$ROOT/sys/firmware/devicetree/base/model"; do
    if [ -r "$f" ]; then tr -d '\0' <"$f"; return 0; fi
  done
  return 1
}

os_version() {  # VERSION_ID of /etc/os-release (12 = bookworm), empty if unknown
  local f=$ROOT/etc/os-release
  [ -r "$f" ] || f=$ROOT/usr/lib/os-release
  [ -r "$f" ] || return 0
  sed -n 's/^VERSION_ID="\{0,1\}\([0-9]*\).*/\1/p' "$f" | head -n 1
}

choose_extra() {
  local model version
  model=$(board_model || true)
  version=$(os_version)
  if [ -z "$model" ]; then
    say "board: unknown (no device-tree model; not a Raspberry Pi?)"
  else
    say "board: $model; OS version: ${version:-unknown}"
  fi
  if [ -n "$EXTRA" ]; then
    say "GPIO backend: [$EXTRA] (--extra)"
    return
  fi
  case "$model" in
    *"Raspberry Pi 5"*|*"Compute Module 5"*)  # also the Pi 500
      EXTRA=pi; say "GPIO backend: [pi] lgpio + rpi-lgpio (RPi.GPIO cannot drive a Pi 5)" ;;
    *)
      if [ -z "$version" ] || [ "$version" -ge 12 ]; then
        EXTRA=pi; say "GPIO backend: [pi] lgpio + rpi-lgpio (Raspberry Pi OS bookworm or newer)"
      else
        EXTRA=pi-legacy; say "GPIO backend: [pi-legacy] RPi.GPIO (Raspberry Pi OS before bookworm)"
      fi ;;
  esac
}

# -- I2C, SPI, the UART and the serial console: scripts/install-board.sh ----------------------------
# shellcheck source=scripts/install-board.sh
. "$SRC/scripts/install-board.sh"

# -- the Python side ------------------------------------------------------------------------------
check_python() {
  "$PYTHON" -S -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null ||
    die "$PYTHON is missing or older than 3.11: Spielleiter needs Raspberry Pi OS bookworm or newer"
}

source_hash() {  # what the venv was built from: the package sources and the chosen extra
  (cd "$SRC" && find pyproject.toml setup.py README.md games drivers device -type f \
      ! -path '*/__pycache__/*' ! -path '*.egg-info/*' -print0 | LC_ALL=C sort -z |
    xargs -0 sha256sum; printf 'extra=%s\n' "$(extras)") | sha256sum | cut -d' ' -f1
}

install_packages() {
  local APT_PACKAGES=()  # the "box" lines of scripts/debian-packages.txt
  mapfile -t APT_PACKAGES < <(awk '!/^[[:space:]]*(#|$)/ { sub(/#.*/, "")
    for (i = 2; i <= NF; i++) if ($i == "box") { print $1; break } }' "$SRC/scripts/debian-packages.txt")
  if ! command -v apt-get >/dev/null && [ "$SCRATCH" = 0 ]; then
    say "warning: no apt-get; make sure these are installed: ${APT_PACKAGES[*]}"
    return
  fi
  local missing=() p
  for p in "${APT_PACKAGES[@]}"; do
    if [ "$SCRATCH" = 1 ] || ! dpkg -s "$p" >/dev/null 2>&1; then missing+=("$p"); fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    host apt-get update
    host env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
  fi
}

install_venv() {
  local want have="" spec
  spec="[$(extras),hx711]"
  want=$(source_hash)
  [ -r "$STAMP" ] && have=$(cat "$STAMP")
  if [ "$have" = "$want" ] && [ -x "$VENV/bin/$NAME" ] &&
      "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    say "unchanged: $(show "$VENV") (the $NAME package with $spec)"
    return
  fi
  if ! "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    host "$PYTHON" -m venv --clear "$VENV"
  fi
  # rpi-lgpio and RPi.GPIO both provide the RPi.GPIO module: only one may be installed.
  local other=rpi-lgpio
  [ "$EXTRA" = pi ] && other=RPi.GPIO
  if [ "$SCRATCH" = 1 ] || "$VENV/bin/python" -m pip show -q "$other" >/dev/null 2>&1; then
    host "$VENV/bin/python" -m pip uninstall -y -q "$other"
  fi
  # The gpio reader's hx711 package comes too (small, pure Python), so reader = "gpio" works.
  # PYPI=1: where pip builds lgpio from its sdist (Python 3.13 has no wheel), lgpio's own switch
  # for a self-contained module that needs no liblgpio from the OS (Debian has none).
  if [ "$SCRATCH" = 1 ]; then
    host env PYPI=1 "$VENV/bin/python" -m pip install --disable-pip-version-check -q --upgrade \
      "${SRC}${spec}"
  else
    # Build from a copy, so the checkout gets no root-owned build/ or egg-info directories.
    local build
    build=$(mktemp -d)
    cp -r "$SRC/pyproject.toml" "$SRC/setup.py" "$SRC/README.md" "$SRC/games" "$SRC/drivers" \
      "$SRC/device" "$build/"
    host env PYPI=1 "$VENV/bin/python" -m pip install --disable-pip-version-check -q --upgrade \
      "${build}${spec}"
    rm -rf -- "$build"
    printf '%s\n' "$want" >"$STAMP"
    say "installed: $(show "$VENV") (the $NAME package with $spec)"
  fi
  CHANGED=1
}

# The command on PATH, so the docs' "spielleiter selftest" works as typed: a link in
# /usr/local/bin to the venv's (the link's target as on the target system).
BIN_LINK=$ROOT/usr/local/bin/$NAME
link_command() {
  local target=/opt/$NAME/venv/bin/$NAME
  if [ -L "$BIN_LINK" ] && [ "$(readlink "$BIN_LINK")" = "$target" ]; then
    say "unchanged: $(show "$BIN_LINK")"
    return 0
  fi
  [ -e "$BIN_LINK" ] && [ ! -L "$BIN_LINK" ] && { say "kept: $(show "$BIN_LINK") (not ours)"; return 0; }
  install -d -m 0755 "$(dirname "$BIN_LINK")"
  ln -sfn "$target" "$BIN_LINK"
  say "linked: $(show "$BIN_LINK") -> $target"
}

# -- the room (docs/room.md) ----------------------------------------------------------------------
FLEET=""  # 1 or 0 once the site config's [fleet] was read (read_fleet): it stays so for the run
fleet_configured() {  # [fleet] box_id and broker both set in the site config (or asked for now)
  [ -n "$BOX_ID" ] && return 0
  [ -r "$CONF" ] || return 1
  if [ -z "$FLEET" ]; then
    if fleet_in_conf; then FLEET=1; else FLEET=0; fi
  fi
  [ "$FLEET" = 1 ]
}

# read_fleet: fleet_configured's answer read once, in this shell, before the $(extras) subshells
# ask for it (each would start Python again). Only --box-id adds a room during a run, and it
# answers by itself; the config written from the defaults has every setting commented out.
read_fleet() { fleet_configured || true; }

fleet_in_conf() {  # -S: the standard library only, without site-packages' start-up hooks
  "$PYTHON" -S - "$CONF" <<'PY'
import sys, tomllib
try:
    fleet = tomllib.load(open(sys.argv[1], "rb")).get("fleet", {})
except (OSError, ValueError):
    sys.exit(1)
sys.exit(0 if isinstance(fleet, dict) and fleet.get("box_id") and fleet.get("broker") else 1)
PY
}

extras() {  # the pip extras: the GPIO backend, and the uplink's MQTT client for a room
  if fleet_configured; then printf '%s,room' "$EXTRA"; else printf '%s' "$EXTRA"; fi
}

write_fleet() {  # --box-id/--broker: a [fleet] section for a config that has none
  [ -n "$BOX_ID" ] || return 0
  if grep -qs '^[[:space:]]*\[fleet\]' "$CONF"; then
    say "kept: [fleet] in $(show "$CONF") (present; edit it to change the room)"
    return 0
  fi
  printf '\n[fleet]                     # written by install.sh --box-id --broker\nbox_id = "%s"\nbroker = "%s"\n' \
    "$BOX_ID" "$BROKER" >>"$CONF"
  say "room: box $BOX_ID reports to $BROKER ([fleet] in $(show "$CONF"))"
  CHANGED=1
}

start_uplink() {  # enabled only where a room is configured
  local unit=$NAME-uplink.service
  if ! fleet_configured; then
    if systemctl_here is-enabled "$unit"; then host systemctl disable --now "$unit"; fi
    say "uplink: no room configured ([fleet] in $(show "$CONF")); not enabled"
    return 0
  fi
  if [ "$SCRATCH" = 1 ] && command -v systemctl >/dev/null; then
    systemctl --root="$ROOT" --quiet enable "$unit" 2>/dev/null || true
    say "enabled: $unit (in the scratch root)"
  elif ! systemctl_here is-enabled "$unit"; then
    host systemctl enable "$unit"
  fi
  [ "$START" = 1 ] && host systemctl restart "$unit"
  return 0
}

commented_defaults() {
  local defaults=$SRC/device/data/default_config.toml
  [ -r "$defaults" ] || die "missing $defaults"
  cat <<EOF
# /etc/spielleiter/config.toml: this box's settings over the shipped defaults.
# Every setting below is commented out and shows its default value. To change one, uncomment its
# [section] line and the setting. A [[stations]] list you uncomment replaces all default stations.
# Check: spielleiter config check. Apply: sudo systemctl restart spielleiter.

EOF
  sed -E 's/^([[:space:]]*[^#[:space:]])/#\1/' "$defaults"
}

legacy_dropin() {
  cat <<'EOF'
# Written by scripts/install.sh for the [pi-legacy] backend (RPi.GPIO): it maps /dev/gpiomem
# and exports pins through /sys/class/gpio for edge detection.
[Service]
DeviceAllow=char-bcm2835-gpiomem rw
DeviceAllow=char-gpiomem rw
ProtectKernelTunables=no
EOF
}

# -- the device nodes' groups: what Raspberry Pi OS does and plain Debian does not ----------------
# Raspberry Pi OS gives /dev/gpiochip*, /dev/i2c-* and /dev/spidev* to the gpio, i2c and spi
# groups (its raspberrypi-sys-mods package's 99-com.rules); plain Debian leaves them to root, so
# the service's user could not open them. Where that file is missing, the same three rules go
# into /etc/udev/rules.d (serial ports already belong to dialout on both).
udev_rules_text() {
  cat <<'EOF'
# Written by scripts/install.sh: the device groups Raspberry Pi OS sets (its 99-com.rules), for a
# system without them (plain Debian). The spielleiter service's user is in these groups.
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"
SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"
EOF
}

device_groups() {
  local d
  for d in etc/udev/rules.d usr/lib/udev/rules.d lib/udev/rules.d; do
    if [ -e "$ROOT/$d/99-com.rules" ]; then
      say "device groups: Raspberry Pi OS's /$d/99-com.rules gives gpiochip, i2c and spi to their groups"
      remove_path "$UDEV_RULES"
      return 0
    fi
  done
  local tmp before=$CHANGED; tmp=$(mktemp)
  udev_rules_text >"$tmp"
  CHANGED=0
  put_file 0644 "$tmp" "$UDEV_RULES"
  rm -f "$tmp"
  if [ "$CHANGED" = 1 ]; then
    say "device groups: no Raspberry Pi OS rules here (plain Debian?): $(show "$UDEV_RULES") gives /dev/gpiochip*, /dev/i2c-* and /dev/spidev* to gpio, i2c and spi, as Raspberry Pi OS does"
    if [ "$SCRATCH" = 1 ] || { systemd_running && command -v udevadm >/dev/null; }; then
      host udevadm control --reload
      host udevadm trigger --subsystem-match=gpio --subsystem-match=i2c-dev --subsystem-match=spidev
    fi
  fi
  [ "$before" = 1 ] && CHANGED=1
  return 0
}

# -- install --------------------------------------------------------------------------------------
do_install() {
  if [ ! -f "$SRC/pyproject.toml" ] || [ ! -f "$SRC/setup.py" ] ||
      [ ! -f "$SRC/systemd/$NAME.service" ]; then
    die "run it from a Spielleiter checkout ($SRC has no pyproject.toml, setup.py or systemd unit)"
  fi
  check_python
  choose_extra
  install_packages

  local g
  for g in "${GROUPS_NEEDED[@]}"; do
    has_group "$g" || host groupadd --system "$g"
  done
  has_group "$NAME" || host groupadd --system "$NAME"
  if has_user "$NAME"; then
    say "unchanged: user $NAME"
  else
    host useradd --system --gid "$NAME" --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" \
      --home-dir "/var/lib/$NAME" --no-create-home --shell /usr/sbin/nologin \
      --comment "Spielleiter board game referee" "$NAME"
  fi

  install -d -m 0755 "$OPT"
  read_fleet
  install_venv
  link_command
  if [ -f "$SRC/docs/install.md" ]; then put_file 0644 "$SRC/docs/install.md" "$OPT/docs/install.md"; fi
  if [ -f "$SRC/docs/room.md" ]; then put_file 0644 "$SRC/docs/room.md" "$OPT/docs/room.md"; fi

  configure_board
  device_groups

  if [ -e "$CONF" ]; then
    say "kept: $(show "$CONF") (present; never overwritten)"
  else
    local tmp; tmp=$(mktemp)
    commented_defaults >"$tmp"
    put_file 0644 "$tmp" "$CONF"
    rm -f "$tmp"
  fi
  write_fleet

  local before=$CHANGED
  CHANGED=0
  put_file 0644 "$SRC/systemd/$NAME.service" "$UNIT"
  put_file 0644 "$SRC/systemd/$NAME-uplink.service" "$UPLINK_UNIT"
  if [ "$EXTRA" = pi-legacy ]; then
    local tmp; tmp=$(mktemp)
    legacy_dropin >"$tmp"
    put_file 0644 "$tmp" "$DROPIN"
    rm -f "$tmp"
  else
    remove_path "$DROPIN"
    rmdir "$(dirname "$DROPIN")" 2>/dev/null || true
  fi
  UNIT_CHANGED=$CHANGED
  [ "$before" = 1 ] && CHANGED=1

  start_service
  start_uplink
  reboot_note
  say "done. Status: systemctl status $NAME   Log: journalctl -u $NAME -f"
}

systemd_running() {  # booted with systemd (sd_booted): not a chroot or an image being prepared
  [ -d /run/systemd/system ]
}

start_service() {
  if [ "$SCRATCH" = 1 ]; then
    if systemctl_here is-enabled "$NAME.service"; then
      say "unchanged: $NAME.service enabled"
    elif command -v systemctl >/dev/null; then
      systemctl --root="$ROOT" --quiet enable "$NAME.service" 2>/dev/null
      say "enabled: $NAME.service (in the scratch root)"
    else
      say "[scratch root, skipped] systemctl enable $NAME (no systemctl here)"
    fi
    [ "$UNIT_CHANGED" = 1 ] && host systemctl daemon-reload
    if [ "$START" = 1 ]; then
      if [ "$CHANGED" = 1 ]; then host systemctl restart "$NAME"; else host systemctl start "$NAME"; fi
    fi
    return 0
  fi
  if ! systemd_running; then  # a chroot, a container, an SD card's root being prepared
    systemctl --quiet is-enabled "$NAME.service" 2>/dev/null || host systemctl enable "$NAME.service"
    say "systemd is not running here: not reloaded or started; $NAME starts at the next boot"
    return 0
  fi
  if [ "$UNIT_CHANGED" = 1 ]; then host systemctl daemon-reload; fi
  systemctl --quiet is-enabled "$NAME.service" 2>/dev/null || host systemctl enable "$NAME.service"
  [ "$START" = 1 ] || { say "not started (--no-start): sudo systemctl start $NAME"; return 0; }
  if systemctl --quiet is-active "$NAME.service"; then
    if [ "$CHANGED" = 1 ]; then host systemctl restart "$NAME.service"; else say "unchanged: $NAME running"; fi
  else
    host systemctl start "$NAME.service"
  fi
}

# -- uninstall ------------------------------------------------------------------------------------
do_uninstall() {
  if [ "$SCRATCH" = 1 ]; then
    if [ -e "$UNIT" ] && systemctl_here is-enabled "$NAME.service"; then
      systemctl --root="$ROOT" --quiet disable "$NAME.service" 2>/dev/null || true
      say "disabled: $NAME.service (in the scratch root)"
    fi
    host systemctl stop "$NAME"
  elif [ -e "$UNIT" ]; then
    host systemctl disable --now "$NAME.service" || true
  fi
  if [ -e "$UPLINK_UNIT" ]; then
    if [ "$SCRATCH" = 1 ]; then
      systemctl --root="$ROOT" --quiet disable "$NAME-uplink.service" 2>/dev/null || true
    else
      host systemctl disable --now "$NAME-uplink.service" || true
    fi
    remove_path "$UPLINK_UNIT"
  fi
  remove_path "$DROPIN"
  rmdir "$(dirname "$DROPIN")" 2>/dev/null || true
  remove_path "$UNIT"
  if [ "$SCRATCH" = 1 ] || systemd_running; then host systemctl daemon-reload; fi
  remove_path "$OPT"
  if [ -L "$BIN_LINK" ] && [ "$(readlink "$BIN_LINK")" = "/opt/$NAME/venv/bin/$NAME" ]; then
    remove_path "$BIN_LINK"
  fi
  remove_path "$MODULES"
  remove_path "$UDEV_RULES"
  if has_user "$NAME"; then host userdel "$NAME" || say "warning: userdel $NAME failed"; fi
  if [ "$SCRATCH" = 0 ] && has_group "$NAME"; then
    host groupdel "$NAME" || say "warning: groupdel $NAME failed"
  fi
  if [ "$PURGE" = 1 ]; then
    remove_path "$STATE"
    remove_path "$STATE-uplink"
    remove_path "$CONF_DIR"
  else
    [ -e "$STATE" ] && say "kept: $(show "$STATE") (the journal; --purge removes it)"
    [ -e "$CONF_DIR" ] && say "kept: $(show "$CONF_DIR") (--purge removes it)"
  fi
  say "the boot settings stay (I2C, SPI, SPI1, the UART: raspi-config or config.txt to undo them)"
  say "done."
}

if [ "$ACTION" = install ]; then do_install; else do_uninstall; fi
