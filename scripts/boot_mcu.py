"""The booted check's stand-in microcontroller, on the host, and its verdict on the weighing.

    boot_mcu.py run PTY CONSOLE LOG [--pid PID] [--seed N]
    boot_mcu.py judge CONSOLE LOG

``run`` is the microcontroller behind the guest's second UART: qemu's ``-chardev pty`` gives the
guest's PCI serial card a pty here, and on it the project's own simulated HX711 on a load cell
(``drivers.sim.make_cell``, ideal: only the chip's noise) is read by the project's simulated
microcontroller (``drivers.sim.SimMicrocontroller``), which writes the serial reader's lines
(``D <seq> <hex6>``, drivers/loadcell/serial.py) as conversions come, in real time. Writes never
block: a line the guest is not reading is lost, as a real UART's would be. It follows the
guest's console (CONSOLE, qemu's serial log) for what to put on the pan:

    BOOTCHECK [..] SERIAL PUT <grams>   the pan's load becomes <grams> (a calibration mass, 0)
    BOOTCHECK [..] SERIAL BASKET        a Trödel basket: three items of 2.5-6.0 g (from --seed)

and keeps what it did in LOG (JSON lines), until the pty closes or PID ends.

``judge`` compares the basket the host put down with the grams the box committed (the guest's
``SERIAL WEIGHED grams=...`` line) and prints one ``BOOTCHECK`` line, PASS within ``TOLERANCE_G``;
exit status 1 otherwise. Standard library and the project's drivers package only: it runs on the
host's python3 from a checkout without a venv.
"""

from __future__ import annotations

import errno
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
import tty
from pathlib import Path
from typing import Any, Callable

TOLERANCE_G = 0.05  # the HX711's noise is 0.015 g; Trödel's baskets differ by 0.1 g
COMMAND = re.compile(r"BOOTCHECK \[ *([\d.]+)s\] SERIAL (PUT (-?[\d.]+)|BASKET)\s*$")
WEIGHED = re.compile(r"BOOTCHECK \[ *[\d.]+s\] SERIAL WEIGHED grams=(-?[\d.]+) uart=(\S+)")


def drivers() -> Any:
    """The project's ``spielleiter.drivers.sim``, from this checkout when it is not installed
    (the package is a namespace over the checkout's top-level folders)."""
    try:
        import spielleiter.drivers.sim as sim  # noqa: PLC0415
    except ImportError:
        top = Path(tempfile.mkdtemp(prefix="boot-mcu-"))
        (top / "spielleiter").mkdir()
        (top / "spielleiter" / "drivers").symlink_to(Path(__file__).resolve().parents[1] / "drivers")
        sys.path.insert(0, str(top))
        import spielleiter.drivers.sim as sim  # noqa: PLC0415
    return sim


def basket(seed: int) -> list[float]:
    """Three items of a Trödel basket, in grams with one decimal, as the game's are."""
    rng = random.Random(seed)
    return [round(rng.uniform(2.5, 6.0), 1) for _ in range(3)]


class Log:
    """JSON lines, flushed each: what the stand-in did survives its being killed."""

    def __init__(self, path: Path) -> None:
        self.file = path.open("a", encoding="utf-8")
        self.t0 = time.monotonic()

    def __call__(self, event: str, **data: Any) -> None:
        self.file.write(json.dumps({"t": round(time.monotonic() - self.t0, 2), "event": event,
                                    **data}) + "\n")
        self.file.flush()


def commands(console: Path) -> Callable[[], list[tuple[str, float | None]]]:
    """New SERIAL commands on the console since the last call, each once (the console may show
    a line twice; a line's guest time tells them apart)."""
    offset, seen, partial = 0, set(), b""

    def read() -> list[tuple[str, float | None]]:
        nonlocal offset, partial
        try:
            with console.open("rb") as f:
                f.seek(offset)
                data = f.read()
        except OSError:
            return []
        offset += len(data)
        lines = (partial + data).split(b"\n")
        partial = lines.pop()
        found = []
        for raw in lines:
            line = raw.decode("utf-8", "replace").strip()
            match = COMMAND.search(line)
            if match and match.group(0) not in seen:
                seen.add(match.group(0))
                grams = float(match.group(3)) if match.group(3) is not None else None
                found.append(("put" if grams is not None else "basket", grams))
        return found
    return read


def run(pty: str, console: Path, log_path: Path, pid: int | None, seed: int) -> int:
    sim = drivers()
    log = Log(log_path)
    clock = sim.VirtualClock()
    cell = sim.make_cell(clock, rate=10, seed=seed)
    fd = os.open(pty, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    tty.setraw(fd)  # no echo, no newline translation: the bytes as the microcontroller sends
    sent = dropped = 0

    def write(data: bytes) -> None:
        nonlocal sent, dropped
        try:
            os.write(fd, data)
            sent += 1
        except BlockingIOError:
            dropped += 1

    mcu = sim.SimMicrocontroller(cell.chip, write)
    log("start", pty=pty, seed=seed, counts_per_gram=round(cell.chip.counts_per_gram, 2))
    new = commands(console)
    t0 = time.monotonic()
    next_look = 0.0
    try:
        while pid is None or _alive(pid):
            now = time.monotonic() - t0
            try:
                mcu.run_until(now)
                os.read(fd, 4096)  # the guest sends nothing the reader needs; keep it drained
            except BlockingIOError:
                pass
            except OSError as exc:
                if exc.errno == errno.EIO:  # qemu closed its end
                    break
                raise
            if now >= next_look:
                next_look = now + 0.1
                for kind, grams in new():
                    target = grams if grams is not None else sum(items := basket(seed))
                    change = round(target - cell.pan.load_g, 3)
                    if change > 0:
                        cell.pan.place(change)
                    elif change < 0:
                        cell.pan.remove(-change)
                    if kind == "basket":
                        log("basket", items=items, grams=round(target, 2), at_s=round(now, 1))
                    else:
                        log("put", grams=target, at_s=round(now, 1))
            time.sleep(0.01)
    finally:
        log("end", lines_sent=sent, lines_dropped=dropped)
        os.close(fd)
    return 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def judge(console_text: str, log_lines: list[str]) -> tuple[bool, str]:
    """The verdict: (PASS?, the line's text)."""
    events = [json.loads(line) for line in log_lines if line.strip()]
    baskets = [e for e in events if e["event"] == "basket"]
    end = next((e for e in reversed(events) if e["event"] == "end"), None)
    streamed = f"; {end['lines_sent']} lines sent, {end['lines_dropped']} dropped" if end else ""
    weighed = WEIGHED.findall(console_text)
    if not baskets:
        return False, "serial weighing: the guest never asked for a basket" + streamed
    items, put = baskets[-1]["items"], baskets[-1]["grams"]
    shown = " + ".join(f"{g:g}" for g in items)
    if not weighed:
        return False, f"serial weighing: the host put {put:.2f} g ({shown}), the box " \
                      f"committed no weighing{streamed}"
    grams, uart = float(weighed[-1][0]), weighed[-1][1]
    ok = abs(grams - put) <= TOLERANCE_G
    return ok, (f"serial weighing: the host put a basket of {put:.2f} g ({shown}) on the "
                f"stand-in's pan, the box read {grams:.2f} g through {uart} (off by "
                f"{grams - put:+.2f} g; within {TOLERANCE_G} g: {'yes' if ok else 'no'})"
                f"{streamed}")


def main(argv: list[str]) -> int:
    if len(argv) >= 4 and argv[0] == "run":
        opts = dict(zip(argv[4::2], argv[5::2]))
        pid = int(opts["--pid"]) if "--pid" in opts else None
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # the log's last line, then go
        return run(argv[1], Path(argv[2]), Path(argv[3]), pid, int(opts.get("--seed", "36")))
    if len(argv) == 3 and argv[0] == "judge":
        console = Path(argv[1]).read_text(encoding="utf-8", errors="replace")
        log = Path(argv[2]).read_text(encoding="utf-8").splitlines() \
            if Path(argv[2]).exists() else []
        ok, text = judge(console, log)
        print(f"BOOTCHECK [host] {'PASS' if ok else 'FAIL'} {text}")
        return 0 if ok else 1
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
