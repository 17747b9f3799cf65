"""The shared referee's weigher: a reading only from a still, connected pan in range, and for
every other snapshot a reason the table can act on."""

from __future__ import annotations

import pytest

from spielleiter.device.inputs import Weight
from spielleiter.device.modes.base.controllers import Weigher
from spielleiter.drivers.weighing import PanSnapshot
from spielleiter.games.core import Measurement


def weigher_seeing(**snapshot) -> Weigher:
    weigher = Weigher("left", Measurement("grams", 0.0, 70.0, decimals=1))
    shot = PanSnapshot(**{"pan": "left", "state": "stable", "grams": 30.04, "stable": True,
                          "connected": True, "overload": False, **snapshot})
    assert weigher.on_weight(Weight("left", "stable", shot.grams, pans={"left": shot}))
    return weigher


def test_a_still_pan_gives_its_grams_at_the_games_resolution():
    weigher = weigher_seeing()
    assert weigher.wait() is None and weigher.grams() == 30.0


@pytest.mark.parametrize("snapshot, reason", [
    ({"state": "moving", "stable": False}, "Still wobbling..."),
    ({"state": "disconnected", "connected": False, "grams": None}, "Scale not answering"),
    ({"state": "overload", "overload": True, "stable": False}, "Too heavy for the pan"),
    ({"state": "underload", "underload": True, "stable": False}, "below zero"),
    ({"state": "starting", "stable": False, "grams": None}, "Weighing..."),
])
def test_a_pan_that_cannot_be_read_gives_no_grams_and_says_why(snapshot, reason):
    weigher = weigher_seeing(**snapshot)
    assert weigher.grams() is None
    assert reason in (weigher.wait() or "")
