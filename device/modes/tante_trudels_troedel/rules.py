"""Tante Trudels Trödel's rules as the box plays them: six short pages, read from the game's menu.

Not the rulebook again: the goal in a sentence, then what the box does (it keeps the grams secret,
TT2) and how it settles what the rulebook leaves open (going back, TT4; who wins and how close is
"the same weight", TT6). Built when shown, so in the language of the moment.
"""

from __future__ import annotations

from ...i18n import _
from ...screens import View
from .screens import grams

TIE_BAND_G = 0.05  # the default tie band (RULINGS.md TT6)


def pages() -> list[View]:
    return [
        View(_("The goal"), (_("Fill your basket, but"), _("stay lighter than the"),
                             _("Purchase of the Day."))),
        View(_("Only the box knows"), (_("The box weighs, and"), _("until the end it says"),
                                       _("LIGHTER or HEAVIER."))),
        View(_("Your turn"), (_("Roll and move. Then"), _("take, return or swap"),
                              _("one thing, or weigh."))),
        View(_("Going back"), (_("Could you reach the"), _("weighing? Go back if"),
                               _("nobody is there yet."))),
        View(_("Who wins?"), (_("The heaviest basket"), _("under the Purchase."),
                              _("Same weight: shared."))),
        View(_("Same weight?"), (_("or less apart: yes"),), big=grams(TIE_BAND_G)),
    ]


__all__ = ["pages"]
