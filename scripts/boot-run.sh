# shellcheck shell=bash
# The booted check's second half, sourced by scripts/boot-check.sh once the root is built and the
# box installed in it: the guest's own files, the disk image, the boot, the results, the power
# cuts. Uses SRC, CACHE, ROOT, OUT, KVER, CUTS, MEM, step, fail and inside from boot-check.sh.

GUEST=/usr/local/lib/spielleiter-boot-check

# -- 4. what the guest needs beside the installed box --------------------------------------------
step "the guest's checks, the test rig's settings, the disk image"
mkdir -p "$ROOT$GUEST"
install -m 0755 "$SRC/scripts/boot_guest.py" "$ROOT$GUEST/boot_guest.py"
install -m 0644 "$SRC/scripts/boot_uart.py" "$ROOT$GUEST/boot_uart.py"
# gpiozero accepts only a Raspberry Pi (its /proc/cpuinfo revision): the virt board is none, so
# the service sees a Pi 4's cpuinfo (the test rig's only stand-in; the unit is otherwise as shipped).
{ grep -v '^Revision' /proc/cpuinfo | head -n 8; printf 'Revision\t: c03114\n'; } \
  >"$ROOT$GUEST/cpuinfo"
mkdir -p "$ROOT/etc/systemd/system/spielleiter.service.d"
cat >"$ROOT/etc/systemd/system/spielleiter.service.d/boot-check.conf" <<EOF
# The booted check's rig: a Raspberry Pi 4's /proc/cpuinfo for gpiozero (this is no Pi).
[Service]
BindReadOnlyPaths=$GUEST/cpuinfo:/proc/cpuinfo
EOF
cat >"$ROOT/etc/systemd/system/spielleiter-boot-check.service" <<EOF
[Unit]
Description=Spielleiter booted check (guest side)
After=spielleiter.service mosquitto.service spielleiter-uplink.service
[Service]
Type=simple
ExecStart=/usr/bin/python3 $GUEST/boot_guest.py
StandardOutput=journal
[Install]
WantedBy=multi-user.target
EOF
mkdir -p "$ROOT/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/spielleiter-boot-check.service \
  "$ROOT/etc/systemd/system/multi-user.target.wants/spielleiter-boot-check.service"
# The OLED on i2c-stub (bus 0: the virt board has no I2C of its own), at the SSD1306's address.
# i2c-dev too: the installer loads it at boot only beside a config.txt (a Pi's boot files)
printf 'i2c-dev\ni2c-stub\n' >"$ROOT/etc/modules-load.d/spielleiter-boot-check.conf"
echo "options i2c-stub chip_addr=0x3c" >"$ROOT/etc/modprobe.d/spielleiter-boot-check.conf"
echo "/dev/vda / ext4 defaults 0 1" >"$ROOT/etc/fstab"
echo spielleiter-boot >"$ROOT/etc/hostname"
# The site config as a person would edit it (over the installer's commented defaults): the
# demo's players, the OLED on bus 0, no load cells and no link (a game that weighs nothing).
CONF=$ROOT/etc/spielleiter/config.toml
sed -i '/^# -- boot-check --/,$d' "$CONF"
cat >>"$CONF" <<'EOF'
# -- boot-check --
[players]
names = ["Alexandra", "Melanie", "Ulrike", "Birgit", "Sarah", "Rot", "Blau", "Grün", "Gelb", "Lila"]
[display]
i2c_port = 0
[link]
enabled = false
[loadcells.left]
reader = "none"
[loadcells.right]
reader = "none"
EOF
rm -rf "$ROOT/var/lib/spielleiter" "$ROOT/var/lib/spielleiter-uplink" "$ROOT/var/lib/spielleiter-boot-check"
# The presses of a whole game, from the demo on a simulated box with this config (inside the
# root, through qemu-user: the installed package, as the guest has it).
cp "$SRC/scripts/boot_presses.py" "$ROOT$GUEST/boot_presses.py"
chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
  /opt/spielleiter/venv/bin/python "$GUEST/boot_presses.py" /etc/spielleiter/config.toml 7 \
  >"$ROOT$GUEST/presses.json"
python3 - "$ROOT$GUEST/presses.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
presses = sum(step[0] == "press" for step in plan["steps"])
print(f"presses: {presses}, actions {plan['actions']}, winners {plan['winners']}")
PY
# The serial weighing's config: the left pan on the guest's second UART (qemu's PCI serial card,
# fed by the stand-in microcontroller on the host), named by its label, the card's PCI id, not
# by a ttyS number; the guest puts it in place for that check. Trödel's presses up to its first
# basket with it.
python3 - "$CONF" "$ROOT$GUEST/config-uart.toml" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
none = '[loadcells.left]\nreader = "none"\n'
assert none in text, "the site config has no [loadcells.left] to change"
serial = '[loadcells.left]\nreader = "serial"\nport = "1b36:0002"\nbaud = 115200\n'
open(sys.argv[2], "w", encoding="utf-8").write(text.replace(none, serial))
PY
chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
  /opt/spielleiter/venv/bin/python "$GUEST/boot_presses.py" --until-basket "$GUEST/config-uart.toml" 7 \
  >"$ROOT$GUEST/troedel.json"
python3 - "$ROOT$GUEST/troedel.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
presses = sum(step[0] == "press" for step in plan["steps"])
print(f"Trödel up to its basket: {presses} presses, {plan['actions']} actions, then "
      f"{plan['all_on'][1]} with the basket on the {plan['pan']} pan")
PY

IMG=$CACHE/root.img
rm -f "$IMG"
mke2fs -q -t ext4 -L spielroot -d "$ROOT" "$IMG" 6G
cp "$ROOT/boot/vmlinuz-$KVER" "$CACHE/vmlinuz"
cp "$ROOT/boot/initrd.img-$KVER" "$CACHE/initrd.img"
echo "image: $IMG ($(du -h "$IMG" | cut -f1) used of 6G)"

# boot_qemu DISK MODE CONSOLE [RESULTS [UART]]: runs qemu in the background; its pid in QEMU_PID.
# With UART (a file name), a second serial port for the guest: a PCI serial card (8250_pci, which
# Debian's kernel has built in) whose other end is a pty here; its path goes into UART.
boot_qemu() {
  local disk=$1 mode=$2 console=$3 results=${4:-} uart=${5:-}
  local fmt=raw
  case "$disk" in *.qcow2) fmt=qcow2 ;; esac
  local extra=()
  if [ -n "$results" ]; then
    extra=(-drive "file=$results,format=raw,if=none,id=res,cache=writethrough")
    extra+=(-device "virtio-blk-pci,drive=res")
  fi
  if [ -n "$uart" ]; then
    extra+=(-chardev "pty,id=cells" -device "pci-serial,chardev=cells")
  fi
  : >"$console"
  qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 1 -m "$MEM" -nic none -display none \
    -monitor none -serial "file:$console" \
    -kernel "$CACHE/vmlinuz" -initrd "$CACHE/initrd.img" \
    -append "root=/dev/vda rw console=ttyAMA0 bootcheck=$mode" \
    -drive "file=$disk,format=$fmt,if=none,id=root,cache=none" -device "virtio-blk-pci,drive=root" \
    "${extra[@]}" >"$console.qemu" 2>&1 &
  QEMU_PID=$!
  if [ -n "$uart" ]; then  # qemu prints "char device redirected to /dev/pts/N (label cells)"
    : >"$uart"
    for _ in $(seq 1 100); do
      sed -n 's|.*redirected to \(/dev/pts/[0-9]*\) (label cells).*|\1|p' "$console.qemu" >"$uart"
      [ -s "$uart" ] && break
      sleep 0.1
    done
  fi
}

# -- 5. the full run ------------------------------------------------------------------------------
FAILED_CHECKS=0
if [ "$ONLY" != cuts ]; then
MODE=full
[ "$ONLY" = serial ] && MODE=serial
step "boot: the checks inside the guest ($MODE; about $([ "$MODE" = full ] && echo 9 || echo 5) minutes)"
RESULTS=$OUT/results.img
truncate -s 0 "$RESULTS"; truncate -s 64M "$RESULTS"
RUN_DISK=$OUT/full.qcow2
qemu-img create -q -f qcow2 -b "$IMG" -F raw "$RUN_DISK"
boot_qemu "$RUN_DISK" "$MODE" "$OUT/console-full.log" "$RESULTS" "$OUT/uart-pty"
T_BOOT=$(date +%s)
# the stand-in microcontroller on the pty: the serial reader's lines, a basket when asked
rm -f "$OUT/mcu.jsonl"
MCU_PID=""
if [ -s "$OUT/uart-pty" ]; then
  python3 "$SRC/scripts/boot_mcu.py" run "$(cat "$OUT/uart-pty")" "$OUT/console-full.log" \
    "$OUT/mcu.jsonl" --pid "$QEMU_PID" --seed "$RANDOM" >"$OUT/mcu.log" 2>&1 &
  MCU_PID=$!
  echo "the stand-in microcontroller on $(cat "$OUT/uart-pty") (pid $MCU_PID)"
else
  echo "boot-check: qemu gave no pty for the second UART ($OUT/console-full.log.qemu)"
fi
( tail -n +1 -f "$OUT/console-full.log" --pid "$QEMU_PID" | grep --line-buffered 'BOOTCHECK' ) &
TAIL_PID=$!
for _ in $(seq 1 1800); do kill -0 "$QEMU_PID" 2>/dev/null || break; sleep 1; done
if kill -0 "$QEMU_PID" 2>/dev/null; then kill -9 "$QEMU_PID"; echo "boot-check: the guest ran out of time (30 min)"; fi
wait "$QEMU_PID" 2>/dev/null || true
kill "$TAIL_PID" 2>/dev/null || true
if [ -n "$MCU_PID" ]; then kill "$MCU_PID" 2>/dev/null || true; wait "$MCU_PID" 2>/dev/null || true; fi
echo "the guest ran $(( $(date +%s) - T_BOOT )) s"
rm -rf "$OUT/results"; mkdir -p "$OUT/results"
tar -xf "$RESULTS" -C "$OUT/results" 2>/dev/null || echo "boot-check: no results on the second disk"
# each line once (the serial console may show a line twice)
# the serial weighing's figure, judged here: the host knows what it put on the pan
python3 "$SRC/scripts/boot_mcu.py" judge "$OUT/console-full.log" "$OUT/mcu.jsonl" \
  | tee "$OUT/serial-verdict.txt" || true
FAILED_CHECKS=$({ grep -aho 'BOOTCHECK .* FAIL .*' "$OUT/console-full.log" "$OUT/serial-verdict.txt" || true; } | sort -u | wc -l)
PASSED_CHECKS=$({ grep -aho 'BOOTCHECK .* PASS .*' "$OUT/console-full.log" "$OUT/serial-verdict.txt" || true; } | sort -u | wc -l)
echo "checks: $PASSED_CHECKS passed, $FAILED_CHECKS failed (results: $OUT/results)"
fi

# -- 6. power cuts --------------------------------------------------------------------------------
if [ "$CUTS" -gt 0 ]; then
  step "power cuts: $CUTS rounds, qemu killed at a random moment of a game (cache=none)"
  CUT_DISK=$OUT/cuts.qcow2
  qemu-img create -q -f qcow2 -b "$IMG" -F raw "$CUT_DISK"
  CUT_LOG=$OUT/cuts.txt; : >"$CUT_LOG"
  rm -f "$OUT"/console-cut-*.log
  for round in $(seq 0 "$CUTS"); do
    console=$OUT/console-cut-$round.log
    boot_qemu "$CUT_DISK" cut "$console"
    t=$(date +%s)
    # wait for the round to play (in the last round, only for the check of the one before)
    while kill -0 "$QEMU_PID" 2>/dev/null && ! grep -aq 'BOOTCHECK .* PLAYING' "$console"; do
      [ $(( $(date +%s) - t )) -gt 600 ] && break
      sleep 1
    done
    if [ "$round" -eq "$CUTS" ]; then
      kill -9 "$QEMU_PID" 2>/dev/null || true; wait "$QEMU_PID" 2>/dev/null || true; break
    fi
    delay=$(( (RANDOM % 75) + 1 ))  # the game's presses take about 140 s on the emulated CPU
    sleep "$delay"
    kill -9 "$QEMU_PID" 2>/dev/null || true
    wait "$QEMU_PID" 2>/dev/null || true
    acked=$({ grep -ao 'ACK game=[0-9]* actions=[0-9]*' "$console" || true; } | tail -n 1)
    echo "round $round: plug pulled $delay s into the game; last acknowledged: ${acked:-nothing}" | tee -a "$CUT_LOG"
  done
  LOST=0
  python3 "$SRC/scripts/boot_cuts.py" "$OUT" "$CUTS" | tee -a "$CUT_LOG" || LOST=1
fi

step "done in $(( $(date +%s) - T0 )) s; results in $OUT"
if [ "${FAILED_CHECKS:-0}" != 0 ] || [ "${LOST:-0}" != 0 ]; then
  fail "${FAILED_CHECKS:-0} checks failed; power cuts: $([ "${LOST:-0}" = 0 ] && echo nothing lost || echo see $CUT_LOG)"
fi
