"""One rule for "the same weight": the engines and the device's judge compare grams alike."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spielleiter.games.core import compare_grams, same_grams
from spielleiter.games.trudel_rules import candidate, groups, verdict


def test_a_difference_of_exactly_the_band_is_within_it_as_decimals():
    assert 13.15 - 13.10 > 0.05  # binary floats say otherwise
    assert compare_grams(13.15, 13.10, 0.05) == 0
    assert compare_grams(13.10, 13.15, 0.05) == 0
    assert compare_grams(13.16, 13.10, 0.05) == 1
    assert compare_grams(13.04, 13.10, 0.05) == -1
    assert same_grams(0.3, 0.1 + 0.2, 0.0)


def test_a_band_or_grams_that_are_no_numbers_are_refused():
    for bad in (-0.01, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            compare_grams(1.0, 1.0, bad)
    with pytest.raises(ValueError):
        compare_grams(float("nan"), 1.0, 0.05)


@given(st.decimals(min_value=0, max_value=2000, places=2),
       st.decimals(min_value=0, max_value=2000, places=2),
       st.decimals(min_value=0, max_value=5, places=2))
def test_grams_with_two_decimals_compare_as_their_decimals_do(a, b, band):
    want = 0 if abs(a - b) <= band else (1 if a > b else -1)
    assert compare_grams(float(a), float(b), float(band)) == want


def test_the_trudel_rules_use_the_one_rule():
    assert verdict(13.15, 13.10, 0.05) == "balanced"
    assert verdict(13.16, 13.10, 0.05) == "heavier"
    assert not candidate(13.05, 13.10, 0.05, "standard")  # exactly the band: not lighter by more
    assert candidate(13.04, 13.10, 0.05, "standard")
    assert groups({"a": 10.15, "b": 10.10}, 20.0, 0.05, "standard") == [["a", "b"]]


def test_13_15_against_13_10_is_the_same_on_the_scale_screen_and_in_the_game(tmp_path):
    from spielleiter.device.config import core as config
    from spielleiter.device.journal.store import Journal
    from spielleiter.device.modes.scale import ScaleMode
    from spielleiter.device.pans.scales import Scales

    site = tmp_path / "config.toml"
    site.write_text('[loadcells.left]\nreader = "spi"\nbus = 0\n'
                    '[loadcells.right]\nreader = "spi"\nbus = 1\n')
    journal = Journal(tmp_path / "journal.sqlite3")
    scales = Scales.build(config.load(site), journal, lambda event: None, simulated=True)
    try:
        assert scales.tie_band_g == 0.05
        for pan in scales.pans.values():
            pan.connected = True
        scales.judge.observe("left", 2.0, 13.15, 1.0)
        scales.judge.observe("right", 2.0, 13.10, 1.0)
        assert scales.verdict() == "balanced"
        assert ScaleMode(SimpleNamespace(scales=scales)).view().lines[-1] == "Balanced"
        assert verdict(13.15, 13.10, scales.tie_band_g) == "balanced"
    finally:
        scales.close()
        journal.close()
