"""The booted check's serial weighing, guest side: a Trödel basket weighed through a UART.

The virt board's one UART is the console, so qemu adds a PCI serial card (8250_pci) whose other
end is a pty on the host, where a stand-in microcontroller (scripts/boot_mcu.py: the project's
simulated HX711 and microcontroller) streams the serial reader's lines. Here, inside the guest:

1. the site config gets the left pan on that UART (``reader = "serial"``, the port named by its
   label: the card's PCI id ``1b36:0002``), as a person fitting the serial reader would write
   it, ``spielleiter config check`` must say which tty that is, and the service is stopped with
   its journal put aside;
2. ``spielleiter calibrate --pan left --mass 200`` runs as the service's user: the empty pan, then
   ``SERIAL PUT 200`` asks the host for the mass, and Enter goes to the command once the host
   has had time to put it down (it says nothing back: the UART carries only the reader's lines);
3. the service starts; Tante Trudels Trödel is set up and the Purchase of the Day rolled through
   the gpio-sim lines (the demo's presses up to its first basket, scripts/boot_presses.py);
4. ``SERIAL BASKET`` asks the host to put a basket of three items on the pan, the station's
   "all on" is pressed, and the grams of the ``weigh_potd`` action the box commits are said as
   ``SERIAL WEIGHED``. The host, which knows what it put, judges the figure.

Standard library only (the guest's python3); ``rig`` is boot_guest.py's module (its ``say``,
``check``, ``sh``, ``prop``, ``wait``, ``play`` and ``journal_state``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

HERE = Path("/usr/local/lib/spielleiter-boot-check")
CONFIG = Path("/etc/spielleiter/config.toml")
SPIELLEITER = "/opt/spielleiter/venv/bin/spielleiter"
QEMU_PCI_SERIAL = ("0x1b36", "0x0002")  # qemu's pci-serial card: Red Hat's vendor id, device 2
HOST_PUTS_S = 5.0  # the host sees a console line within a second; the pan settles in 0.4 s
CALIBRATION_G = 200


def pci_uart() -> tuple[str, str] | None:
    """(/dev/ttySN, its PCI address) of qemu's PCI serial card, from sysfs."""
    for tty in sorted(Path("/sys/class/tty").glob("ttyS*")):
        device = (tty / "device").resolve()
        for folder in (device, *device.parents[:2]):  # serial_core's port and controller first
            try:
                ids = ((folder / "vendor").read_text().strip(),
                       (folder / "device").read_text().strip())
            except OSError:
                continue
            if ids == QEMU_PCI_SERIAL:
                return f"/dev/{tty.name}", folder.name
    return None


def latest_actions(journal: Path) -> list[dict[str, Any]]:
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5)
    try:
        row = db.execute("SELECT id FROM games ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return []
        return [json.loads(a) for (a,) in db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (row[0],))]
    finally:
        db.close()


def calibrate(rig: Any, pan: str) -> tuple[bool, str]:
    """``spielleiter calibrate`` as the service's user, the host putting the mass on."""
    cmd = ["runuser", "-u", "spielleiter", "--", "env", "PYTHONUNBUFFERED=1", SPIELLEITER,
           "calibrate", "--pan", pan,
           "--mass", str(CALIBRATION_G), "--lang", "en"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    said = []
    for line in proc.stdout:
        said.append(line.strip())
        rig.say(f"calibrate: {line.strip()}")
        if "Press Enter" not in line:
            continue
        if "Put" in line:
            rig.say(f"SERIAL PUT {CALIBRATION_G}")
            time.sleep(HOST_PUTS_S)
        proc.stdin.write("\n")
        proc.stdin.flush()
    code = proc.wait(timeout=120)
    rig.say("SERIAL PUT 0")  # the mass off again
    time.sleep(HOST_PUTS_S)
    return code == 0, " / ".join(said[-2:])


def weigh_basket(rig: Any, chip: Any) -> None:
    """The check: the steps in the module's doc."""
    found = pci_uart()
    if found is None:
        ttys = {p.name: os.path.realpath(p / "device") for p in Path("/sys/class/tty").glob("ttyS*")}
        pci = {d.name: f"{(d / 'vendor').read_text().strip()}:{(d / 'device').read_text().strip()}"
               for d in Path("/sys/bus/pci/devices").glob("*")}
        kernel = [line for line in rig.sh("dmesg").splitlines()
                  if any(word in line.lower() for word in ("serial", "8250", "ttys"))]
        rig.check("serial weighing through a guest UART", False,
                  f"no PCI serial card: ttyS* {ttys}; PCI {pci}; kernel: {kernel[-8:]}")
        return
    tty, address = found
    rig.say(f"UART for the load cells: {tty} (PCI {address})")
    rig.sh("systemctl", "stop", rig.UNIT)
    journal = rig.JOURNAL
    if journal.exists():
        aside = journal.parent / "before-uart"
        aside.mkdir(exist_ok=True)
        for f in journal.parent.glob("journal.sqlite3*"):
            f.rename(aside / f.name)
    CONFIG.write_text((HERE / "config-uart.toml").read_text())  # in place: owner, mode kept
    said = rig.sh("runuser", "-u", "spielleiter", "--", SPIELLEITER, "config", "check",
                  "--lang", "en")
    named = [line.strip() for line in said.splitlines() if "UART for" in line]
    rig.check("the UART found by its label", any(tty in line for line in named),
              f"config check: {named or said.strip().splitlines()[-3:]}")
    ok, said = calibrate(rig, "left")
    if not rig.check("serial reader: calibrated through the UART", ok, said):
        return
    plan = json.loads((HERE / "troedel.json").read_text())
    rig.sh("systemctl", "start", rig.UNIT)
    rig.wait("spielleiter active", lambda: rig.prop(rig.UNIT, "ActiveState") == "active", 180)
    time.sleep(12)  # the self-test's screen passes
    rig.say(f"STATUS before Trödel: {rig.prop(rig.UNIT, 'StatusText')!r}")
    rig.play(chip, plan["steps"])
    time.sleep(1.0)
    before = latest_actions(journal)
    if len(before) != plan["actions"]:
        rig.check("serial weighing through a guest UART", False,
                  f"Trödel's set-up left {len(before)} actions, not {plan['actions']}: {before}")
        return
    rig.say("SERIAL BASKET")
    time.sleep(HOST_PUTS_S)
    pressed = time.monotonic()
    rig.play(chip, [plan["all_on"]])
    weighed: list[dict[str, Any]] = []

    def committed() -> bool:
        weighed[:] = [a for a in latest_actions(journal) if a.get("type") == "weigh_potd"]
        return bool(weighed)

    took = rig.wait("the Purchase of the Day weighed", committed, 60, 0.25)
    log = rig.sh("journalctl", "-b", "-u", rig.UNIT, "-o", "cat")
    reader = [line for line in log.splitlines() if "left" in line and ("serial" in line or
                                                                       "pan" in line)]
    if took is None:
        rig.check("serial weighing through a guest UART", False,
                  f"no weigh_potd in the journal 60 s after all on; STATUS="
                  f"{rig.prop(rig.UNIT, 'StatusText')!r}; log: {reader[-3:]}")
        return
    grams = weighed[-1].get("grams")
    rig.say(f"SERIAL WEIGHED grams={grams} uart={tty} after={time.monotonic() - pressed:.1f}s")
    rig.check("serial weighing through a guest UART", isinstance(grams, (int, float)),
              f"Trödel's Purchase of the Day weighed {grams} g on the left pan, read from {tty} "
              f"(PCI {address}), {took:.1f} s after all on; the host judges the figure")
    rig.OUT.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5)
    kept = sqlite3.connect(rig.OUT / "journal-uart.sqlite3")
    try:
        source.backup(kept)  # with what the WAL holds
    finally:
        kept.close()
        source.close()
