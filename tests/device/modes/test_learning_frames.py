"""The learning station's screens as drawn, pixel for pixel, in English and German: the word a
child must read drawn in the largest type (``tests/device/reference/learning/``)."""

from __future__ import annotations

import pytest

from spielleiter.device import i18n
from spielleiter.device.modes.learning import rules
from spielleiter.device.modes.learning import screens as S
from spielleiter.device.screen.fonts import BIG_SIZES
from spielleiter.device.screen.render import layout, render
from support import assert_frame

SCREENS = {
    "menu_two_stars": lambda: S.menu_quiz("heavier", 2),
    "heavier_both": lambda: S.heavier_load(False, False),
    "yes": lambda: S.good(S.heavier_truth("left", 385.0)),
    "grams_pick": lambda: S.grams_pick(150, 50),
    "balance_more": lambda: S.balance_add("more", False),
    "order_guess": lambda: S.order_guess([2, 1]),
    "pan_trouble": lambda: S.pan_trouble("right"),
    "how_stars": lambda: rules.pages()[2],
}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("name", sorted(SCREENS))
def test_the_learning_screens_look_as_drawn_with_their_word_big(name, language):
    i18n.use(language)
    view = SCREENS[name]()
    assert layout(view).size == BIG_SIZES[0], view.as_text()
    assert_frame(render(view), f"learning/{name}_{language}")
