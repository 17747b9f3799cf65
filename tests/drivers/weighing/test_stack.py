"""The stack watcher: settled steps against learned unit weights, confirmed only when they hold."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from spielleiter.drivers.weighing.stack import StackError, StackWatcher, Units

UNITS = Units.from_samples({"truck": [12.0, 12.1, 11.9], "washing_machine": [7.5, 7.45, 7.55],
                            "rice_cooker": [4.0, 4.05, 3.95]})


def watcher(base: float = 0.0) -> StackWatcher:
    w = StackWatcher(UNITS, confirm_s=0.2)
    w.reset(base)
    return w


def test_distinct_kinds_are_named_and_alike_kinds_are_not():
    assert UNITS.distinct
    assert [UNITS.kind_of(g) for g in (12.2, 7.3, 4.1, 9.8)] == ["truck", "washing_machine",
                                                                "rice_cooker", None]
    alike = Units.from_samples({"a": [5.0, 5.1], "b": [5.2, 5.3]})
    assert not alike.distinct and alike.kind_of(5.0) is None


def test_a_rise_of_one_piece_that_holds_is_a_rise_with_its_kind():
    w = watcher(20.0)
    assert w.stable(1.0, 31.95)
    assert w.confirm(1.1) is None                      # not held long enough yet
    step = w.confirm(1.2)
    assert step is not None and (step.kind, step.piece, step.pieces) == ("rise", "truck", 1)
    assert w.base == 31.95 and w.pending is None


def test_a_fall_is_counted_in_pieces_and_a_level_that_does_not_hold_is_nothing():
    w = watcher(40.0)
    w.stable(1.0, 16.1)
    step = w.confirm(1.3)
    assert step is not None and step.kind == "fall" and step.pieces == 3
    w.stable(2.0, 8.6)                                 # a piece lifted ...
    w.moving(2.1)                                      # ... and put back before it held
    assert w.confirm(2.5) is None and w.base == 16.1


def test_settled_changes_within_the_noise_follow_creep_and_are_no_event():
    w = watcher(30.0)
    assert not w.stable(1.0, 30.2)
    assert w.base == 30.2 and w.confirm(5.0) is None


def test_two_pieces_at_once_are_odd():
    w = watcher(0.0)
    w.stable(1.0, 24.0)
    step = w.confirm()
    assert step is not None and step.kind == "odd" and step.pieces == 3


def test_without_units_every_rise_is_one_unnamed_piece():
    w = StackWatcher(None)
    w.reset(0.0)
    w.stable(0.0, 3.0)
    step = w.confirm()
    assert step is not None and step.kind == "rise" and step.piece is None


def test_unusable_weighings_are_refused_with_a_message():
    with pytest.raises(StackError, match="truck: no usable weighings"):
        Units.from_samples({"truck": []})
    with pytest.raises(StackError, match="no kinds"):
        Units.from_samples({})


@given(st.lists(st.floats(min_value=-0.29, max_value=0.29), max_size=30))
def test_no_settled_wandering_within_the_noise_ever_makes_an_event(offsets):
    w = watcher(50.0)
    for i, offset in enumerate(offsets):
        w.stable(float(i), w.base + offset)            # creep: each level near the last
        assert w.confirm(float(i) + 1.0) is None


def test_a_level_that_comes_back_after_a_step_is_back_and_confirmed_at_once():
    w = watcher(20.0)
    w.stable(1.0, 12.0)
    assert w.confirm(1.2).kind == "fall"
    w.stable(2.0, 20.05)                               # the lifted piece is back
    assert w.due() == 2.0
    step = w.confirm(2.0)
    assert step is not None and step.kind == "back" and w.base == 20.05


def test_a_fall_of_more_than_one_piece_is_confirmed_as_soon_as_it_settles():
    w = watcher(60.0)
    w.stable(1.0, 30.0)
    assert w.due() == 1.0 and w.confirm(1.0).kind == "fall"


def test_an_odd_level_leaves_the_reference_so_a_hand_taken_off_is_nothing():
    w = watcher(20.0)
    w.stable(1.0, 48.0)                                # a hand resting very still
    assert w.confirm(1.2).kind == "odd" and w.base == 20.0
    assert not w.stable(3.0, 20.02)                    # taken off: the stack as it was
