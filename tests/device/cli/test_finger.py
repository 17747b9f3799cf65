"""The simulator's finger: keys reach the box's pins in the order typed and keep up with a fast
child (10 taps a second) without falling behind."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Pins:
    """Mock pins that record (time, name, level) as the scheduled actions run."""

    log: list[tuple[float, str, str]] = field(default_factory=list)
    at: float = 0.0

    def pin(self, name):
        pins = self

        class Pin:
            def drive_low(self):
                pins.log.append((round(pins.at, 3), name, "down"))

            def drive_high(self):
                pins.log.append((round(pins.at, 3), name, "up"))
        return Pin()


def finger_on(pins: Pins):
    from spielleiter.device.cli.finger import Finger

    actions: list[tuple[float, object]] = []
    now = [0.0]
    finger = Finger(pins.pin, debounce_s=0.03, clock=lambda: now[0],
                    schedule=lambda delay, act: actions.append((now[0] + delay, act)))

    def type_at(t: float, name: str) -> float:
        now[0] = t
        return finger.press(name)

    def run() -> None:
        for t, act in sorted(actions, key=lambda a: a[0]):
            pins.at = t
            act()
    return type_at, run


def test_ten_taps_a_second_each_go_down_when_typed():
    pins = Pins()
    type_at, run = finger_on(pins)
    delays = [type_at(i * 0.1, "host.next") for i in range(32)]
    assert max(delays) == 0.0                              # the finger never falls behind
    run()
    downs = [t for t, _name, level in pins.log if level == "down"]
    assert downs == [round(i * 0.1, 3) for i in range(32)]


def test_keys_typed_faster_than_a_finger_keep_their_order_across_buttons():
    pins = Pins()
    type_at, run = finger_on(pins)
    for i, name in enumerate(["host.next", "host.next", "host.ok", "host.next", "host.ok"]):
        type_at(i * 0.02, name)                            # 50 keys a second: they queue
    run()
    order = [name for _t, name, level in pins.log if level == "down"]
    assert order == ["host.next", "host.next", "host.ok", "host.next", "host.ok"]
    times = [t for t, _name, _level in pins.log]
    assert times == sorted(times)                          # never two buttons down at once
    ups = {i: t for i, (t, _n, level) in enumerate(pins.log) if level == "up"}
    gaps = [pins.log[i + 1][0] - t for i, t in ups.items() if i + 1 < len(pins.log)]
    assert min(gaps) > 0.03                                # each release outlasts the debounce
