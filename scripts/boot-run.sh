# shellcheck shell=bash
# The booted check's second half, sourced by scripts/boot-check.sh once the root is built and the
# box installed in it: the guest's own files, the disk image, the boot, the results, the power
# cuts. Uses SRC, CACHE, ROOT, OUT, KVER, CUTS, MEM, step, fail and inside from boot-check.sh.

GUEST=/usr/local/lib/spielleiter-boot-check

# -- 4. what the guest needs beside the installed box --------------------------------------------
step "the guest's checks, the test rig's settings, the disk image"
mkdir -p "$ROOT$GUEST"
install -m 0755 "$SRC/scripts/boot_guest.py" "$ROOT$GUEST/boot_guest.py"
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

IMG=$CACHE/root.img
rm -f "$IMG"
mke2fs -q -t ext4 -L spielroot -d "$ROOT" "$IMG" 6G
cp "$ROOT/boot/vmlinuz-$KVER" "$CACHE/vmlinuz"
cp "$ROOT/boot/initrd.img-$KVER" "$CACHE/initrd.img"
echo "image: $IMG ($(du -h "$IMG" | cut -f1) used of 6G)"

# boot_qemu DISK MODE CONSOLE [RESULTS]: runs qemu in the background; its pid in QEMU_PID
boot_qemu() {
  local disk=$1 mode=$2 console=$3 results=${4:-}
  local fmt=raw
  case "$disk" in *.qcow2) fmt=qcow2 ;; esac
  local extra=()
  if [ -n "$results" ]; then
    extra=(-drive "file=$results,format=raw,if=none,id=res,cache=writethrough")
    extra+=(-device "virtio-blk-pci,drive=res")
  fi
  : >"$console"
  qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 1 -m "$MEM" -nic none -display none \
    -monitor none -serial "file:$console" \
    -kernel "$CACHE/vmlinuz" -initrd "$CACHE/initrd.img" \
    -append "root=/dev/vda rw console=ttyAMA0 bootcheck=$mode" \
    -drive "file=$disk,format=$fmt,if=none,id=root,cache=none" -device "virtio-blk-pci,drive=root" \
    "${extra[@]}" &
  QEMU_PID=$!
}

# -- 5. the full run ------------------------------------------------------------------------------
FAILED_CHECKS=0
if [ "$ONLY" != cuts ]; then
step "boot: the checks inside the guest (about 8 minutes)"
RESULTS=$OUT/results.img
truncate -s 0 "$RESULTS"; truncate -s 64M "$RESULTS"
RUN_DISK=$OUT/full.qcow2
qemu-img create -q -f qcow2 -b "$IMG" -F raw "$RUN_DISK"
boot_qemu "$RUN_DISK" full "$OUT/console-full.log" "$RESULTS"
T_BOOT=$(date +%s)
( tail -n +1 -f "$OUT/console-full.log" --pid "$QEMU_PID" | grep --line-buffered 'BOOTCHECK' ) &
TAIL_PID=$!
for _ in $(seq 1 1800); do kill -0 "$QEMU_PID" 2>/dev/null || break; sleep 1; done
if kill -0 "$QEMU_PID" 2>/dev/null; then kill -9 "$QEMU_PID"; echo "boot-check: the guest ran out of time (30 min)"; fi
wait "$QEMU_PID" 2>/dev/null || true
kill "$TAIL_PID" 2>/dev/null || true
echo "the guest ran $(( $(date +%s) - T_BOOT )) s"
rm -rf "$OUT/results"; mkdir -p "$OUT/results"
tar -xf "$RESULTS" -C "$OUT/results" 2>/dev/null || echo "boot-check: no results on the second disk"
# each line once (the serial console may show a line twice)
FAILED_CHECKS=$({ grep -ao 'BOOTCHECK .* FAIL .*' "$OUT/console-full.log" || true; } | sort -u | wc -l)
PASSED_CHECKS=$({ grep -ao 'BOOTCHECK .* PASS .*' "$OUT/console-full.log" || true; } | sort -u | wc -l)
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
