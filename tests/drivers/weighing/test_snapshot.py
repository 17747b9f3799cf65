"""``PanSnapshot``: one pan's state after its latest sample, as modes read it."""

from __future__ import annotations

import random

from spielleiter.drivers.weighing import STATES, Calibration, PanSnapshot, ScaleChannel

CPG = 2000.0


def feed(channel, grams, seconds, t0=0.0, seed=1):
    rng = random.Random(seed)
    for i in range(round(seconds * 10)):
        channel.feed(t0 + i / 10, (grams + rng.gauss(0, 0.01)) * CPG)
    return t0 + seconds


def test_a_pan_goes_from_starting_to_empty_to_moving_to_stable():
    ch = ScaleChannel("left", Calibration(0.0, CPG), rate=10)
    assert PanSnapshot.of(ch).state == "starting"
    assert PanSnapshot.of(ch, connected=False, starting=True).state == "starting"
    t = feed(ch, 0.0, 1.0)
    empty = PanSnapshot.of(ch)
    assert empty.state == "empty" and empty.stable and empty.connected
    assert empty.grams is not None and abs(empty.grams) < 0.05
    ch.feed(t, 25.0 * CPG)
    ch.feed(t + 0.1, 25.0 * CPG)  # a jump waits one sample to prove it is no spike
    moving = PanSnapshot.of(ch)
    assert moving.state == "moving" and not moving.stable and moving.settled_g is None
    assert moving.since is None and moving.last_settled_g is not None  # what it stood at
    feed(ch, 25.0, 1.5, t0=t + 0.2)
    shot = PanSnapshot.of(ch)
    assert shot.state == "stable" and abs(shot.settled_g - 25.0) < 0.05
    assert shot.since is not None and shot.held_s() > 0 and shot.t == ch.t
    assert {s.state for s in (empty, moving, shot)} <= set(STATES)


def test_no_signal_and_overload_are_states_of_their_own_and_never_a_number():
    ch = ScaleChannel("left", Calibration(0.0, CPG), rate=10)
    feed(ch, 40.0, 1.5)
    gone = PanSnapshot.of(ch, connected=False)
    assert (gone.state, gone.grams, gone.stable, gone.connected) == \
        ("disconnected", None, False, False)
    heavy = PanSnapshot.of(ch, overload=True)
    assert (heavy.state, heavy.grams, heavy.stable, heavy.overload) == \
        ("overload", None, False, True)
    feed(ch, 1200.0, 1.0, t0=2.0)  # a book beyond the pan's range: the channel says so
    shot = PanSnapshot.of(ch)
    assert (shot.state, shot.grams, shot.stable, shot.overload) == ("overload", None, False, True)
    feed(ch, -60.0, 1.0, t0=4.0)   # far below zero: a pan lifted
    shot = PanSnapshot.of(ch)
    assert (shot.state, shot.grams, shot.underload) == ("underload", None, True)


def test_snapshots_are_values():
    ch = ScaleChannel("left", Calibration(0.0, CPG), rate=10)
    feed(ch, 5.0, 1.5)
    assert PanSnapshot.of(ch) == PanSnapshot.of(ch)
    assert PanSnapshot.of(ch, calibrated=False).calibrated is False
