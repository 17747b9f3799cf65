"""The power cuts' verdicts, from the serial console logs of scripts/boot-check.sh's rounds.

Round k's log holds what its box acknowledged (``ACK game=G actions=N``: an action the guest saw
committed, read from the journal by a second process) until the plug was pulled; round k+1's log
holds what the journal had after the reboot (``FOUND ... actions=N ... integrity=ok``, or
``FOUND nothing`` when no game had begun) and whether the box resumed. A round passes when the
journal holds at least every action acknowledged before the cut and SQLite's integrity check says
``ok``.

    python3 scripts/boot_cuts.py RUN_DIR ROUNDS
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ACK = re.compile(rb"BOOTCHECK \[[ \d.]+s\] ACK game=(\d+) actions=(\d+)")
FOUND = re.compile(rb"BOOTCHECK \[[ \d.]+s\] FOUND (?:nothing|game=(\d+) actions=(\d+) "
                   rb"status=(\w+) integrity=(\S+))")
RESUMED = re.compile(rb"BOOTCHECK \[[ \d.]+s\] RESUMED after ([\d.]+) s: STATUS='([^;']*)")
EXT4 = re.compile(rb"EXT4-fs \(vda\): ((?:recovery|error|warning)[^\r\n]*)", re.IGNORECASE)
CUT_AT = re.compile(r"round (\d+): plug pulled (\d+) s into the game")


def acknowledged(log: bytes) -> int:
    found = ACK.findall(log)
    return int(found[-1][1]) if found else 0


def main(argv: list[str]) -> int:
    run, rounds = Path(argv[0]), int(argv[1])
    delays = {int(m.group(1)): int(m.group(2)) for m in
              CUT_AT.finditer((run / "cuts.txt").read_text())} if (run / "cuts.txt").exists() else {}
    lost = checked = 0
    for k in range(1, rounds + 1):
        before, after = run / f"console-cut-{k - 1}.log", run / f"console-cut-{k}.log"
        if not before.exists() or not after.exists():
            break
        acked = acknowledged(before.read_bytes())
        text = after.read_bytes()
        found = FOUND.search(text)
        if found is None:
            print(f"cut {k}: no FOUND line after the reboot: FAIL")
            lost += 1
            continue
        have = int(found.group(2)) if found.group(2) else 0
        integrity = found.group(4).decode() if found.group(4) else "ok (no game yet)"
        resumed = RESUMED.search(text)
        ext4 = "; ".join(sorted({m.decode() for m in EXT4.findall(text)})) or "clean"
        ok = have >= acked and integrity.startswith("ok")
        checked += 1
        lost += not ok
        shown = (f"resumed: {resumed.group(2).decode()} ({float(resumed.group(1)):.1f} s)"
                 if resumed else "no game to resume")
        print(f"cut {k}: {delays.get(k - 1, '?')} s into the game; acknowledged {acked}, "
              f"journal after the reboot {have}, integrity {integrity}; {shown}; ext4: {ext4}: "
              f"{'PASS' if ok else 'FAIL'}")
    print(f"power cuts: {checked} checked, {lost} lost an acknowledged action or failed")
    return 1 if lost or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
