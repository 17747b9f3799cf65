"""Button edge to OLED frame, idle traffic and idle CPU of the real runtime, against a naive loop.

The device runs as in production (runtime thread, real clock) on gpiozero's MockFactory pins, with
luma.oled's real ``ssd1306`` driver writing to a recording I2C bus. A press is timed from the
edge that completes it (the press for a key with no long meaning, as NEXT and a station's keys
here; the release for one with a long meaning, as BACK) to the moment the new frame
has been handed to the driver and written to the bus. The baseline in the same run is the loop
many hobby projects use: poll the buttons every 10 ms and redraw the whole screen each time.

    python benchmarks/latency.py [--presses 1000] [--idle 10]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from spielleiter.device.config import core as config
from spielleiter.device.box import Box
from spielleiter.device.screen.render import View, render
from spielleiter.drivers.buttons import mock_factory
from spielleiter.drivers.display import RecordingBus, open_device

TARGET_IDLE_BYTES = 0
TARGET_IDLE_CPU_S = 0.6


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Bench:
    def __init__(self, state_dir: Path) -> None:
        self.bus = RecordingBus()
        self.frame_done = threading.Event()
        self.frame_at = 0.0
        # The pans' real readers find no chip here, so no samples arrive unless streamed below.
        self.box = Box.build(config.load(), state_dir, pin_factory=mock_factory(),
                             display_device=open_device("ssd1306", bus=self.bus),
                             on_frame=self._on_frame, seed_source=lambda: 1,
                             simulated_scales=False)
        self.loop = threading.Thread(target=self.box.runtime.run_forever, daemon=True)
        self.loop.start()
        self.frame_done.wait(5)
        time.sleep(0.5)  # past the guard after the first screens (a person reads them first)

    def _on_frame(self, _image: object) -> None:
        self.frame_at = time.perf_counter()
        self.frame_done.set()

    def press(self, name: str, timed_edge: str) -> float:
        """Press and release; the latency from the timed edge to the frame on the bus (ms). Like
        a person, it waits out the guard after a new screen (a press within it is ignored)."""
        time.sleep(self.box.app.inputs.guard_left() + 0.01)
        pin = self.box._pin(name)
        self.frame_done.clear()
        start = time.perf_counter()
        pin.drive_low()
        if timed_edge == "release":
            time.sleep(0.05)  # a finger stays on a button for 50 ms or more
            start = time.perf_counter()
            pin.drive_high()
        if not self.frame_done.wait(2):
            raise RuntimeError(f"no frame after {name}")
        latency = (self.frame_at - start) * 1000
        if timed_edge == "press":
            time.sleep(0.05)  # a finger stays on a button for 50 ms or more
            pin.drive_high()
        # Past the lock-outs: the release is taken when the press's 30 ms lock-out ends, and a
        # new press inside the release's own lock-out would wait for it (a finger is slower).
        time.sleep(0.08)
        return latency

    def call(self, fn) -> None:
        done = threading.Event()
        self.box.runtime.post(lambda: (fn(), done.set()))
        done.wait(5)

    def close(self) -> None:
        self.box.runtime.stop()
        self.loop.join(5)
        self.box.close()


def streaming(bench: "Bench", seconds: float, rate: int = 10) -> tuple[float, float]:
    """Idle at the menu while two pans stream ``rate`` samples/s each into the loop (what a
    box with both load cells connected does all day): bytes and CPU seconds per minute."""
    from spielleiter.drivers.loadcell import LoadCellSample

    stop = threading.Event()

    def feed() -> None:
        seq = 0
        while not stop.wait(1 / rate):
            seq += 1
            for pan in ("left", "right"):
                bench.box.runtime.post(LoadCellSample(pan, seq / rate, 1000 + seq % 3, seq))

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    try:
        return idle(bench.bus, seconds)
    finally:
        stop.set()
        thread.join()


def idle(bus: RecordingBus, seconds: float) -> tuple[float, float]:
    """Bytes per minute on the bus and process CPU seconds per minute while nothing happens."""
    sent = bus.bytes_sent
    cpu = time.process_time()
    time.sleep(seconds)
    scale = 60 / seconds
    return (bus.bytes_sent - sent) * scale, (time.process_time() - cpu) * scale


def naive_baseline(presses: int, idle_s: float) -> dict[str, float]:
    """Poll every 10 ms and redraw every time (no queue, no frame skipping)."""
    factory = mock_factory()
    from gpiozero import Button

    button = Button(13, pull_up=True, pin_factory=factory)
    bus = RecordingBus()
    device = open_device("ssd1306", bus=bus)
    count = [0]
    stop = threading.Event()
    drawn = threading.Event()
    seen = [0, 0.0]

    def loop() -> None:
        was = False
        while not stop.is_set():
            now = button.is_pressed
            if now and not was:  # acts on the press, as the box does for NEXT
                count[0] += 1
            was = now
            device.display(render(View("Players", big=str(count[0]))))
            if count[0] != seen[0]:
                seen[0], seen[1] = count[0], time.perf_counter()
                drawn.set()
            time.sleep(0.01)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    pin = factory.pin(13)
    latencies = []
    for _ in range(presses):
        drawn.clear()
        start = time.perf_counter()
        pin.drive_low()
        drawn.wait(2)
        latencies.append((seen[1] - start) * 1000)
        time.sleep(0.03)
        pin.drive_high()
        time.sleep(0.03)
    idle_bytes, idle_cpu = idle(bus, idle_s)
    stop.set()
    thread.join()
    return {"p50": statistics.median(latencies), "p99": pct(latencies, 99),
            "idle_bytes": idle_bytes, "idle_cpu": idle_cpu}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1000)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    parser.add_argument("--baseline-presses", type=int, default=200)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as state_dir:
        bench = Bench(Path(state_dir))
        bench.press("host.ok", "release")                 # home -> the game's menu
        bench.press("host.ok", "release")                 # New game -> set-up: players
        menu = [bench.press("host.next", "press") for _ in range(args.presses)]
        while bench.box.app.screens.setup.players != 10:  # ten seats: counts change per press
            bench.press("host.next", "release")
        bench.press("host.ok", "release")
        bench.press("host.ok", "release")
        bench.press("host.ok", "release")                 # start
        station = []
        rounds = max(1, args.presses // 3)
        for _ in range(rounds):
            for name in ("s1.A", "s2.B", "s3.C"):
                station.append(bench.press(name, "press"))
            for _ in range(3):
                bench.call(bench.box.app.undo)
            bench.call(bench.box.app.referee.pages.stop)  # the put-back pages, read
            bench.call(bench.box.app.overlay.end)
        time.sleep(2.5)  # let the last notice time out: idle means no timer pending
        idle_bytes, idle_cpu = idle(bench.bus, args.idle)
        stream_bytes, stream_cpu = streaming(bench, args.idle)
        bench.close()
    base = naive_baseline(args.baseline_presses, args.idle)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    rows = [
        ("host NEXT press -> frame p50 (ms)", statistics.median(menu), base["p50"], None),
        ("host NEXT press -> frame p99 (ms)", pct(menu, 99), base["p99"], None),
        ("station press + commit -> frame p50 (ms)", statistics.median(station), None, None),
        ("station press + commit -> frame p99 (ms)", pct(station, 99), None, None),
        ("idle bytes per minute", idle_bytes, base["idle_bytes"], TARGET_IDLE_BYTES),
        ("idle CPU s per minute", idle_cpu, base["idle_cpu"], TARGET_IDLE_CPU_S),
        ("idle, 2 pans streaming 10 SPS: bytes/min", stream_bytes, None, None),
        ("idle, 2 pans streaming 10 SPS: CPU s/min", stream_cpu, None, None),
    ]
    print(f"presses: {len(menu)} host, {len(station)} station; idle {args.idle:.0f} s; "
          f"baseline {args.baseline_presses} presses; python {sys.version.split()[0]}")
    print(f"{'measure':42} {'ours':>10} {'naive':>10}  target")
    ok = True
    for name, ours, naive, target in rows:
        verdict = ""
        if target is not None:
            passed = ours <= target
            ok &= passed
            verdict = f"<= {target}  {'PASS' if passed else 'MISS'}"
        naive_text = f"{naive:10.2f}" if naive is not None else f"{'-':>10}"
        print(f"{name:42} {ours:10.2f} {naive_text}  {verdict}")
    print(f"{'peak RSS (MB, whole process)':42} {rss_mb:10.1f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
