"""Inputs: every button becomes a Press(source, key, hold); which keys hold is the mode's choice."""

from __future__ import annotations

import pytest

from spielleiter.device.inputs import Inputs, Press
from spielleiter.device.runtime import ManualClock, Runtime
from spielleiter.drivers.buttons import Edge, PressDetector


def test_a_press_is_named_by_its_source_and_key():
    assert Press.parse("host.ok") == Press("host", "ok")
    assert Press.parse("s2.B", hold=True) == Press(2, "B", True)
    assert Press(2, "B").name == "s2.B" and Press(2, "B").station == 1
    assert Press("host", "back").station is None


@pytest.mark.parametrize("name", ["host.A", "s0.A", "sx.A", "s1.D", "ok", "s1"])
def test_a_name_that_is_no_button_is_refused(name):
    with pytest.raises(ValueError):
        Press.parse(name)


def make_inputs():
    clock = ManualClock()
    runtime = Runtime(clock)
    got: list[Press] = []
    inputs = Inputs(PressDetector(0.03, 1.0), runtime.call_at, runtime.cancel, clock, got.append)
    return clock, runtime, inputs, got


def press(clock, runtime, inputs, name, seconds):
    inputs.on_edge(Edge(name, True, clock()))
    runtime.run_until(clock() + seconds)
    inputs.on_edge(Edge(name, False, clock()))
    runtime.run_until(clock() + 0.1)


def test_a_station_key_without_a_hold_meaning_acts_on_the_press_edge():
    clock, runtime, inputs, got = make_inputs()
    inputs.on_edge(Edge("s1.B", True, clock()))
    assert got == [Press(1, "B", False, clock())]


def test_a_station_key_given_a_hold_meaning_reports_a_long_press_at_any_station():
    clock, runtime, inputs, got = make_inputs()
    inputs.set_holds(["s3.B"])
    press(clock, runtime, inputs, "s3.B", 1.2)
    assert [(p.source, p.key, p.hold) for p in got] == [(3, "B", True)]
    got.clear()
    press(clock, runtime, inputs, "s3.B", 0.2)
    assert [(p.source, p.key, p.hold) for p in got] == [(3, "B", False)]


def test_back_on_the_host_panel_always_has_its_hold_meaning():
    clock, runtime, inputs, got = make_inputs()
    inputs.set_holds([])
    press(clock, runtime, inputs, "host.back", 1.5)
    assert [(p.name, p.hold) for p in got] == [("host.back", True)]
