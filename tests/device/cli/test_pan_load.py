"""One limit for what the simulators set down on a pan (``cli/pan_load.py``): ``weigh --sim``,
``scale --put``, ``sim --headless``'s ``put`` and the interactive sim's hand take up to 5000 g
(past the cells' stop and the HX711's saturation, so a heavy book can be tried) and refuse more
with the same words (weigh took 1000 g before)."""

from __future__ import annotations

import io
import json

import pytest

from spielleiter.device.cli.hand import Hand
from spielleiter.device.cli.headless import Headless
from spielleiter.device.cli.pan_load import PAN_LIMIT_G, too_heavy
from spielleiter.device.cli.pans import run_weigh
from spielleiter.device.cli.scale_live import parse_puts

PANS = ("left", "right")


def headless_answer(box, line: str) -> dict:
    out = io.StringIO()
    Headless(box, out).line(line)
    return json.loads(out.getvalue().splitlines()[-1])


def test_every_simulator_refuses_a_mass_past_the_cells_in_the_same_words(box_factory, capsys):
    words = too_heavy(6000.0)
    assert words is not None and f"at most {PAN_LIMIT_G:g} g" in words
    assert run_weigh(6000.0, None, sim=True, seed=0, rate=10, as_json=False) == 2
    assert words in capsys.readouterr().err
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_puts(["left=6000"], PANS)
    box = box_factory()
    assert words in headless_answer(box, "put left 6000")["error"]
    hand = Hand(tuple(box.scales.pans), box.put)
    assert [hand.key(k) for k in "m6000\n"][-1].startswith(words)
    assert box.scales.sim.load_g("left") == 0


def test_the_limit_is_what_lies_on_the_pan_so_puts_cannot_pile_past_it(box_factory):
    box = box_factory()
    assert "error" not in headless_answer(box, f"put left {PAN_LIMIT_G * 0.6:g}")
    second = headless_answer(box, f"put left {PAN_LIMIT_G * 0.6:g}")["error"]
    assert too_heavy(PAN_LIMIT_G * 0.6, PAN_LIMIT_G * 0.6) in second
    assert box.scales.sim.load_g("left") == pytest.approx(PAN_LIMIT_G * 0.6)
    hand = Hand(tuple(box.scales.pans), box.put, box.pieces)
    for key in "m3000\n":
        hand.key(key)
    assert hand.key("[") == too_heavy(3000.0, 3000.0)               # the hand, as the pan holds
    assert "error" not in headless_answer(box, f"put right {PAN_LIMIT_G:g}")  # the limit itself
