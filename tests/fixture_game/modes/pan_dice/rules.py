"""How the box plays Pan Dice, on a few pages."""

from __future__ import annotations

from ...i18n import _
from ...screen.render import View
from ..base import text_page


def pages() -> list[View]:
    return [text_page(_("Pan Dice"), _("Roll, then aim: ten grams a pip, on the pan.")),
            text_page(_("How to win"), _("A close weight scores. First to the goal wins.")),
            text_page(_("Good to know"), _("The box rolls, or enter a real die."))]
