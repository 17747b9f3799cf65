"""Ten presses a second: does the screen keep up? The box and the terminal simulator's finger.

The device runs as in production (runtime thread, real clock, journal on disk) on gpiozero's
MockFactory pins, with luma.oled's real ``ssd1306`` driver writing to a recording I2C bus. The
simulator's ``Finger`` (what ``spielleiter sim`` types with) taps NEXT on the home menu at a
steady rate; every frame records how many presses the box had taken when it was drawn. Each press
is timed from its pin going down to the first frame that shows it, and "behind" counts the
presses typed but not yet on the screen at each new tap. The baseline in the same run is the
terminal's old finger (a 120 ms press and 60 ms pause per key, each button queued on its own),
which fell eight letters behind at ten taps a second. Also timed: the terminal's Braille
drawing of one frame (it runs on the curses thread, beside the loop).

    python benchmarks/burst.py [--presses 60] [--rate 10]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from spielleiter.device.config import core as config
from spielleiter.device.box import Box
from spielleiter.device.cli.finger import Finger
from spielleiter.device.cli.terminal import braille
from spielleiter.drivers.buttons import mock_factory
from spielleiter.drivers.display import RecordingBus, open_device


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class OldFinger:
    """The terminal's finger before: 120 ms down, 60 ms up, a queue per button."""

    def __init__(self, pin: Callable[[str], Any]) -> None:
        self._pin = pin
        self.free_at: dict[str, float] = {}

    def press(self, name: str) -> float:
        pin = self._pin(name)
        now = time.monotonic()
        start = max(now, self.free_at.get(name, 0.0))
        self.free_at[name] = start + 0.12 + 0.06
        threading.Timer(start - now, pin.drive_low).start()
        threading.Timer(start - now + 0.12, pin.drive_high).start()
        return start - now


def burst(finger_kind: str, presses: int, rate: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as state_dir:
        frames: list[tuple[float, int]] = []
        taken = [0]
        bus = RecordingBus()
        box = Box.build(config.load(), Path(state_dir), pin_factory=mock_factory(),
                        display_device=open_device("ssd1306", bus=bus),
                        on_frame=lambda _img: frames.append((time.monotonic(), taken[0])),
                        seed_source=lambda: 1, simulated_scales=False)
        deliver = box.app.inputs._deliver

        def counted(press: Any) -> None:
            taken[0] += 1
            deliver(press)

        box.app.inputs._deliver = counted
        loop = threading.Thread(target=box.runtime.run_forever, daemon=True)
        loop.start()
        time.sleep(0.5)
        finger = (Finger(box._pin, debounce_s=box.config.debounce_s) if finger_kind == "new"
                  else OldFinger(box._pin))
        typed: list[float] = []
        behind: list[int] = []
        start = time.monotonic()
        for i in range(presses):
            time.sleep(max(0.0, start + i / rate - time.monotonic()))
            shown = frames[-1][1] if frames else 0
            behind.append(i - shown)
            typed.append(time.monotonic() + finger.press("host.next"))
        time.sleep(presses / rate * 2 + 1)  # everything typed has had time to arrive
        box.runtime.stop()
        loop.join(5)
        image = box.display.last
        box.close()
    latencies = []
    for i, down in enumerate(typed):
        shown_at = next((t for t, count in frames if count >= i + 1), None)
        if shown_at is not None:
            latencies.append((shown_at - down) * 1000)
    draw_ms = []
    for _ in range(50):
        t0 = time.perf_counter()
        braille(image)
        draw_ms.append((time.perf_counter() - t0) * 1000)
    return {"p50": statistics.median(latencies), "p99": pct(latencies, 99),
            "behind": max(behind), "lost": presses - taken[0] if taken[0] <= presses else 0,
            "shown": len(latencies), "draw": statistics.median(draw_ms)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--rate", type=float, default=10.0, help="presses per second")
    args = parser.parse_args()
    logging.getLogger().setLevel(logging.ERROR)  # the pans' readers find no chip here: no news
    ours = burst("new", args.presses, args.rate)
    old = burst("old", args.presses, args.rate)
    print(f"{args.presses} NEXT taps at {args.rate:g} per second on the home menu; "
          f"python {sys.version.split()[0]}")
    print(f"{'measure':44} {'ours':>8} {'old finger':>11}  target")
    rows = [("pin down -> frame showing it, p50 (ms)", "p50", None),
            ("pin down -> frame showing it, p99 (ms)", "p99", None),
            ("most presses typed but not yet shown", "behind", 1),
            ("presses lost", "lost", 0)]
    ok = True
    for name, key, target in rows:
        verdict = ""
        if target is not None:
            passed = ours[key] <= target
            ok &= passed
            verdict = f"<= {target}  {'PASS' if passed else 'MISS'}"
        print(f"{name:44} {ours[key]:8.1f} {old[key]:11.1f}  {verdict}")
    print(f"{'terminal: one frame as Braille (ms, p50)':44} {ours['draw']:8.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
