"""What one OLED frame costs on the I2C bus: the Pi's default 100 kHz and the installer's 400 kHz.

luma.oled's real ``ssd1306`` and ``sh1106`` drivers draw real screens over the recording bus of
``drivers/display.py``, which logs every transfer. Two ways to the wire are counted:

- through a bus object (``i2c(bus=...)``: the tests, ``selftest --sim``): luma sends pixel data in
  32-byte SMBus blocks, each a transfer of its own;
- through ``i2c(port=1)`` (the box): luma opens smbus2 itself and sends each ``data()`` call as
  one ``i2c_rdwr`` message of up to 4 KiB; the same log, consecutive data blocks joined.

A write transfer on the wire is a START, the address byte, the control byte (0x00 commands, 0x40
data), the bytes, a STOP: 9 clocks a byte (8 bits and the ACK), and about 2 bit times for START,
STOP and the bus free time between transfers. The kernel's own time per transfer (the ioctl, the
controller's interrupts) is not in these figures: only a Pi can measure it. The baseline in the
same run is the bus at 100 kHz, where Raspberry Pi OS leaves it without dtparam=i2c_arm_baudrate.

    python benchmarks/display.py [--frames 200]
"""

from __future__ import annotations

import argparse
import time

from spielleiter.device.screen.render import View, render
from spielleiter.drivers.display import RecordingBus, open_device

SPEEDS_HZ = (100_000, 400_000)
BITS_PER_BYTE = 9
BITS_PER_TRANSFER = 2  # START + STOP and the bus free time, roughly
DATA = 0x40
SCREENS = (View("Players", big="4"), View("Self-test", ("OLED ok", "left pan ok")),
           View("Tatort Tonne", ("Anna chooses", "Ben waits")))


def messages(log: list[tuple[int, tuple[int, ...]]], joined: bool) -> list[int]:
    """The payload length of each transfer; ``joined``: consecutive data blocks as one message
    (what luma sends through its own smbus2 bus, up to 4096 bytes)."""
    out: list[int] = []
    last = None
    for control, data in log:
        if joined and control == DATA and last == DATA and out[-1] + len(data) <= 4096:
            out[-1] += len(data)
        else:
            out.append(len(data))
        last = control
    return out


def wire_seconds(lengths: list[int], hz: int) -> float:
    bits = sum((n + 2) * BITS_PER_BYTE + BITS_PER_TRANSFER for n in lengths)  # + address, control
    return bits / hz


def measure(kind: str, frames: int) -> dict[str, object]:
    bus = RecordingBus(log=[])
    device = open_device(kind, bus=bus)
    images = [render(view).convert("1") for view in SCREENS]
    del bus.log[:]
    device.display(images[0])
    one = list(bus.log)
    start = time.perf_counter()
    for i in range(frames):
        device.display(images[i % len(images)])
    cpu_ms = (time.perf_counter() - start) / frames * 1000
    device.cleanup()
    result: dict[str, object] = {"kind": kind, "cpu_ms": cpu_ms}
    for name, joined in (("blocks", False), ("box", True)):
        lengths = messages(one, joined)
        result[name] = {"transfers": len(lengths), "bytes": sum(n + 2 for n in lengths),
                        **{f"ms_{hz // 1000}k": wire_seconds(lengths, hz) * 1000
                           for hz in SPEEDS_HZ}}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200)
    args = parser.parse_args()
    print(f"{'driver':8s} {'path':10s} {'transfers':>9s} {'bytes':>6s} {'100 kHz':>9s} "
          f"{'400 kHz':>9s} {'frames/s at 400k':>17s}")
    for kind in ("ssd1306", "sh1106"):
        r = measure(kind, args.frames)
        for path, label in (("box", "i2c(port)"), ("blocks", "i2c(bus)")):
            f = r[path]
            print(f"{kind:8s} {label:10s} {f['transfers']:9d} {f['bytes']:6d} "
                  f"{f['ms_100k']:7.1f} ms {f['ms_400k']:7.1f} ms "
                  f"{1000 / f['ms_400k']:17.0f}")
        box = r["box"]
        print(f"{kind:8s} 400 kHz against the 100 kHz baseline: "
              f"{box['ms_100k'] / box['ms_400k']:.1f}x faster on the wire; luma's own work per "
              f"frame here: {r['cpu_ms']:.2f} ms of CPU")


if __name__ == "__main__":
    main()
