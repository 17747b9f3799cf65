"""Buttons: our debounce and long-press logic, and gpiozero Buttons on MockFactory pins."""

from __future__ import annotations

from spielleiter.drivers.buttons import ButtonBank, ButtonPress as Press, Edge, PressDetector, mock_factory


def feed(detector: PressDetector, edges: list[tuple[str, bool, float]], until: float):
    """Feed edges in time order, waking the detector whenever it asked to be woken."""
    presses: list[Press] = []
    for name, level, t in edges:
        while (wake := detector.next_wake()) is not None and wake <= t:
            presses += detector.wake(wake)
        presses += detector.edge(Edge(name, level, t))
    while (wake := detector.next_wake()) is not None and wake <= until:
        presses += detector.wake(wake)
    return presses


def test_a_press_is_reported_on_its_first_edge():
    presses = feed(PressDetector(), [("s1.A", True, 1.0), ("s1.A", False, 1.1)], 2.0)
    assert presses == [Press("s1.A", 1.0)]


def test_a_bouncing_contact_gives_one_press():
    bounce = [("s1.A", lvl, 1.0 + i * 0.002) for i, lvl in
              enumerate([True, False, True, False, True, False, True])]
    release = [("s1.A", lvl, 1.2 + i * 0.002) for i, lvl in
               enumerate([False, True, False, True, False])]
    presses = feed(PressDetector(), bounce + release, 2.0)
    assert presses == [Press("s1.A", 1.0)]


def test_a_tap_released_inside_the_lockout_is_not_lost():
    detector = PressDetector(debounce_s=0.03)
    presses = feed(detector, [("s1.A", True, 1.0), ("s1.A", False, 1.01)], 1.5)
    assert presses == [Press("s1.A", 1.0)]
    assert detector.pressed() == []  # the release was picked up when the lockout ended
    presses = feed(detector, [("s1.A", True, 1.6)], 2.0)
    assert presses == [Press("s1.A", 1.6)]


def test_two_buttons_at_once_are_two_presses():
    presses = feed(PressDetector(), [("s1.A", True, 1.0), ("s2.C", True, 1.0),
                                     ("s1.A", False, 1.1), ("s2.C", False, 1.1)], 2.0)
    assert sorted(p.name for p in presses) == ["s1.A", "s2.C"]


def test_host_buttons_report_short_presses_on_release():
    detector = PressDetector(hold_buttons=frozenset({"host.ok"}))
    presses = feed(detector, [("host.ok", True, 1.0), ("host.ok", False, 1.2)], 3.0)
    assert presses == [Press("host.ok", 1.2)]


def test_holding_a_host_button_gives_one_long_press_and_no_short_one():
    detector = PressDetector(hold_s=1.0, hold_buttons=frozenset({"host.back"}))
    presses = feed(detector, [("host.back", True, 1.0), ("host.back", False, 3.5)], 5.0)
    assert presses == [Press("host.back", 2.0, long=True)]


def test_the_detector_asks_for_no_wake_up_when_nothing_is_pending():
    detector = PressDetector()
    feed(detector, [("s1.A", True, 1.0), ("s1.A", False, 1.1)], 2.0)
    assert detector.next_wake() is None


def test_button_bank_turns_mock_pin_edges_into_stamped_edges():
    factory = mock_factory()
    edges: list[Edge] = []
    clock = iter([5.0, 6.0]).__next__
    with ButtonBank({"s1.A": 17}, edges.append, clock, pin_factory=factory) as bank:
        pin = factory.pin(17)
        pin.drive_low()
        assert bank.held() == ["s1.A"]
        pin.drive_low()  # no change, no edge
        pin.drive_high()
    assert edges == [Edge("s1.A", True, 5.0), Edge("s1.A", False, 6.0)]


def test_button_bank_releases_its_pins_on_close():
    factory = mock_factory()
    bank = ButtonBank({"s1.A": 17}, lambda e: None, lambda: 0.0, pin_factory=factory)
    bank.close()
    bank.close()  # idempotent
    ButtonBank({"s1.A": 17}, lambda e: None, lambda: 0.0, pin_factory=factory).close()


def test_a_key_that_acted_on_its_press_edge_reports_nothing_more_when_its_release_finds_a_hold_meaning():
    detector = PressDetector()
    presses = feed(detector, [("host.ok", True, 1.0)], 1.05)
    assert presses == [Press("host.ok", 1.0)]
    detector.hold_buttons = frozenset({"host.ok"})   # the press opened the letter wheel
    presses = feed(detector, [("host.ok", False, 1.1)], 3.0)
    assert presses == []                             # no second OK from the same finger
    presses = feed(detector, [("host.ok", True, 3.5), ("host.ok", False, 3.6)], 4.0)
    assert presses == [Press("host.ok", 3.6)]        # the next tap is the wheel's short OK
