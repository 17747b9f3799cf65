"""Stations named after seat colours speak the box's language: "Rot" is "Red" in English, "Red"
is "Rot" in German; a family's own name stays as it is."""

from __future__ import annotations

import pytest

from spielleiter.device import i18n


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def test_station_colours_follow_the_language():
    i18n.use("en")
    assert [i18n.seat_name(n) for n in ("Rot", "Blau", "Grün", "Weiß")] == \
        ["Red", "Blue", "Green", "White"]
    i18n.use("de")
    assert [i18n.seat_name(n) for n in ("Red", "Rot", "Yellow")] == ["Rot", "Rot", "Gelb"]
    assert i18n.seat_name("Oma Ilse") == "Oma Ilse"


def test_the_box_names_its_stations_in_english_when_it_speaks_english(box_factory):
    box = box_factory()
    i18n.use("en")
    assert box.app.station_name(0) == "Red"          # the shipped config's "Rot"
    i18n.use("de")
    assert box.app.station_name(0) == "Rot"
