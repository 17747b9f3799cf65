"""Tante Trudels Trödel's rules as the box plays them: six short pages, read from the game's menu.

Not the rulebook again: the goal in a sentence, then what the box does (it keeps the grams secret,
TT2) and how it settles what the rulebook leaves open (going back, TT4; who wins and how close is
"the same weight", TT6). Built when shown, so in the language of the moment.
"""

from __future__ import annotations

from ...i18n import _
from ...screen.render import View
from ..base import text_page
from .screens import grams

TIE_BAND_G = 0.05  # the default tie band (TT6 in docs/games.md)


def pages() -> list[View]:
    return [
        text_page(_("The goal"), _('Fill your basket, but stay lighter than the Purchase of the Day.')),
        text_page(_("Only the box knows"), _('The box weighs, and until the end it says LIGHTER or HEAVIER.')),
        text_page(_("Your turn"), _('Roll and move. Then take, return or swap one thing, or weigh.')),
        text_page(_("Going back"), _('Could you reach the weighing? Go back if nobody is there yet.')),
        text_page(_("Who wins?"), _('The heaviest basket under the Purchase. Same weight: shared.')),
        View(_("Same weight?"), (_("or less apart: yes"),), big=grams(TIE_BAND_G)),
    ]


__all__ = ["pages"]
