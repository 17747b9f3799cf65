"""Tante Trudels Trödel's close-call screens as drawn, pixel for pixel, in English and German
(``tests/device/reference/trudel/``): one idea each, every line in the box's reading type and
fitting the screen, never a gram figure."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from spielleiter.device import i18n
from spielleiter.device.modes.tante_trudels_troedel import screens as S
from spielleiter.device.modes.tante_trudels_troedel.weighing import Job, TakeOff
from spielleiter.device.screen.render import CHARS, layout, render
from support import assert_frame

BASKET = Job("weigh", "Anna", "right", "left", 13.2, 1, 9, potd_g=13.2, band_g=0.05)
ONE_PAN = Job("basket", "Anna", "left", None, None, 3, 30, potd_g=13.2, band_g=0.05)


def weigher(job: Job, stage: str, note: str = "") -> SimpleNamespace:
    """What ``weigh_view`` reads of a ``JobWeigher`` (its stage and note)."""
    return SimpleNamespace(job=job, stage=stage, note=note, paused=False, heavy=None, low=None,
                           silent=None)


SCREENS = {
    "swap_off": lambda: S.weigh_view(weigher(BASKET, "swap_off"), True, 2, cancel=True),
    "swap_on": lambda: S.weigh_view(weigher(BASKET, "swap_on"), True, 2, cancel=True),
    "swap_on_one_pan": lambda: S.weigh_view(weigher(ONE_PAN, "swap_on"), False, 1, cancel=False),
    "swap_missing": lambda: S.weigh_view(weigher(BASKET, "swap_wait", "swap_missing"), True, 2,
                                         cancel=True),
    "purchase_back": lambda: S.take_off_view(TakeOff("Anna", "right", purchase=True), 2, "left"),
    "purchase_off_one_pan": lambda: S.take_off_view(TakeOff("Anna", "left", purchase=True), 1,
                                                    "left"),
}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("name", sorted(SCREENS))
def test_the_close_call_screens_look_as_drawn_and_fit(name, language):
    i18n.use(language)
    view = SCREENS[name]()
    room = layout(view).room
    assert len(view.lines) <= room, view.as_text()
    assert all(len(text) <= CHARS for text in (view.title, view.footer, *view.lines))
    assert not re.search(r"\d", " ".join(view.lines)), view.as_text()  # never grams
    assert_frame(render(view), f"trudel/{name}_{language}")
