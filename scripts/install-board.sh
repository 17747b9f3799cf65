# shellcheck shell=bash
# Part of scripts/install.sh (sourced by it): the Raspberry Pi's boot settings the box needs.
#
#   I2C1 for the OLED at [display] i2c_speed_hz   dtparam=i2c_arm=on, dtparam=i2c_arm_baudrate=N
#   SPI0 for the left pan                         dtparam=spi=on
#   SPI1 for the right pan                        dtoverlay=spi1-1cs (raspi-config has no switch)
#   the cells' thermometer (TMP102 on I2C1)        dtoverlay=i2c-sensor,tmp102 (kept if another
#                                                 i2c-sensor line is there: the owner's choice)
#   the UART on GPIO 14/15 for the link           enable_uart=1; on a Pi 5 dtparam=uart0=on
#   no serial console on that UART                console=serial0/ttyAMA0/ttyS0 out of cmdline.txt
#
# raspi-config's own non-interactive functions (do_i2c, do_spi, do_serial_hw, do_serial_cons) do
# what they can, where the installed raspi-config has them; scripts/boot_config.py edits
# config.txt and cmdline.txt for the rest, and for all of it where raspi-config is missing (plain
# Debian, a scratch root). Whatever changed is listed, and a reboot asked for.

BOOT_CONFIG=$SRC/scripts/boot_config.py
RASPI_CONFIG=""     # the raspi-config to run, "" for none

boot_file() {  # boot_file NAME: /boot/firmware/NAME (bookworm and later) or /boot/NAME
  local f
  for f in "$ROOT/boot/firmware/$1" "$ROOT/boot/$1"; do
    if [ -f "$f" ]; then printf '%s' "$f"; return 0; fi
  done
  return 1
}
config_txt() { boot_file config.txt; }
cmdline_txt() { boot_file cmdline.txt; }

is_pi5() {  # the Pi 5, Pi 500 and CM5 (BCM2712): the header's UART is UART0 on the RP1
  case "$(board_model || true)" in
    *"Raspberry Pi 5"*|*"Compute Module 5"*) return 0 ;;  # "Raspberry Pi 5" is in "... 500" too
    *) return 1 ;;
  esac
}

# Which raspi-config to use: on the running system the installed one; in a scratch root only a
# stand-in given with --raspi-config (one that edits the scratch root: the real tool always
# edits the running system's /boot).
find_raspi_config() {
  if [ -n "$RASPI_STANDIN" ]; then
    RASPI_CONFIG=$RASPI_STANDIN
  elif [ "$SCRATCH" = 0 ] && command -v raspi-config >/dev/null; then
    RASPI_CONFIG=$(command -v raspi-config)
  elif [ "$SCRATCH" = 1 ] && [ -e "$ROOT/usr/bin/raspi-config" ]; then
    say "raspi-config is in the scratch root but cannot run on it: config.txt is edited directly"
  fi
}

raspi_has() {  # raspi_has FUNCTION: the installed raspi-config defines it (older ones lack some)
  [ -n "$RASPI_CONFIG" ] && grep -Eq "^$1[[:space:]]*\(\)" "$RASPI_CONFIG"
}

raspi_get() {  # raspi_get FUNCTION: what raspi-config's get_* says (0 = on), "" if it fails
  SPIELLEITER_ROOT=$ROOT "$RASPI_CONFIG" nonint "$1" 2>/dev/null || true
}

raspi_run() {  # raspi_run FUNCTION ARG: run one nonint function; false if it fails
  local shown
  shown=$(quote raspi-config nonint "$@")
  if [ -n "$RASPI_STANDIN" ]; then
    say "running (a stand-in, on $ROOT): $shown"
  else
    say "running: $shown"
  fi
  SPIELLEITER_ROOT=$ROOT "$RASPI_CONFIG" nonint "$@" || {
    say "warning: raspi-config nonint $* failed; editing the file directly instead"
    return 1
  }
}

# via_raspi_config GETTER SETTER ARG: switch a setting on with raspi-config if it has both
# functions and the getter says off; true when raspi-config took care of it.
via_raspi_config() {
  local get=$1 set=$2 want=$3 what=$4 now
  raspi_has "$get" && raspi_has "$set" || return 1
  now=$(raspi_get "$get")
  if [ "$now" = "$want" ]; then
    say "$what: already set (raspi-config $get)"
    return 0
  fi
  raspi_run "$set" "$want" || return 1
  [ "$(raspi_get "$get")" = "$want" ] || { say "warning: $what still off after raspi-config $set"; return 1; }
}

# boot_config.py is the standard library only: -S starts Python without site-packages' hooks.
boot_edit() {  # boot_edit config FILE ARGS...: scripts/boot_config.py's edit
  "$PYTHON" -S "$BOOT_CONFIG" "$@" >/dev/null
}

say_changes() {  # say_changes BEFORE AFTER: the lines that went and came, as +/- lines
  local line
  while IFS= read -r line; do
    say "$(show "$2"): $line"
  done < <(diff --unchanged-line-format= --old-line-format='- %L' --new-line-format='+ %L' \
             "$1" "$2" || true)
}

i2c_speed() {  # [display] i2c_speed_hz of the site config (or the shipped default)
  local value
  value=$("$PYTHON" -S "$BOOT_CONFIG" setting "$SRC/device/data/default_config.toml" "$CONF" \
    display.i2c_speed_hz)
  if ! [[ $value =~ ^[0-9]+$ ]] || [ "$value" -lt 10000 ] || [ "$value" -gt 1000000 ]; then
    say "warning: display.i2c_speed_hz = $value is not 10000-1000000 Hz; using 400000" >&2
    value=400000
  fi
  printf '%s' "$value"
}

configure_board() {
  local txt cmdline saved speed ops=()
  if ! txt=$(config_txt); then
    say "warning: no /boot/firmware/config.txt or /boot/config.txt: enable I2C (at" \
      "$(i2c_speed) Hz), SPI, SPI1 (dtoverlay=spi1-1cs) and the UART by hand, and take the" \
      "serial console off it"
    return 0
  fi
  cmdline=$(cmdline_txt || true)
  saved=$(mktemp -d)
  cp "$txt" "$saved/config.txt"
  [ -z "$cmdline" ] || cp "$cmdline" "$saved/cmdline.txt"
  find_raspi_config

  via_raspi_config get_i2c do_i2c 0 "I2C" || ops+=(dtparam:i2c_arm=on)
  via_raspi_config get_spi do_spi 0 "SPI0" || ops+=(dtparam:spi=on)
  speed=$(i2c_speed)
  ops+=("dtparam:i2c_arm_baudrate=$speed" overlay:spi1-1cs "overlay:i2c-sensor,tmp102")
  if ! via_raspi_config get_serial_hw do_serial_hw 0 "the UART"; then
    if is_pi5; then ops+=(dtparam:uart0=on); else ops+=(set:enable_uart=1); fi
  fi
  # raspi-config's do_serial_cons edits only cmdline.txt, so it may come before the edit of
  # config.txt; the cmdline.txt edit, where it is not done, goes with that one (one Python).
  if [ -z "$cmdline" ]; then
    say "warning: no cmdline.txt: make sure no console=serial0 is on the kernel command line"
  elif ! via_raspi_config get_serial_cons do_serial_cons 1 "no serial console"; then
    ops+=(--cmdline "$cmdline" --drop-console "serial0,serial1,ttyAMA0,ttyS0")
  fi
  boot_edit config "$txt" "${ops[@]}"
  if cmp -s "$saved/config.txt" "$txt" &&
      { [ -z "$cmdline" ] || cmp -s "$saved/cmdline.txt" "$cmdline"; }; then
    say "boot settings: unchanged ($(show "$txt")${cmdline:+, $(show "$cmdline")})"
  else
    REBOOT=1
    say_changes "$saved/config.txt" "$txt"
    [ -z "$cmdline" ] || say_changes "$saved/cmdline.txt" "$cmdline"
  fi
  rm -rf -- "$saved"

  if ! grep -qs '^[[:space:]]*i2c[-_]dev' "$ROOT/etc/modules" "$ROOT"/etc/modules-load.d/*.conf; then
    local tmp; tmp=$(mktemp)
    printf '# %s: /dev/i2c-* for the OLED\ni2c-dev\n' "$NAME" >"$tmp"
    put_file 0644 "$tmp" "$MODULES"
    rm -f "$tmp"
  fi
}

reboot_note() {
  if [ "$REBOOT" = 1 ]; then
    say "reboot needed: the boot settings changed, and take effect at the next boot (sudo reboot)"
  else
    say "no reboot needed"
  fi
}
