"""How the box plays Currency Torraku, in a few short pages read from the game's menu: the goal,
bidding at the stations, what the box settles that the rulebook leaves open (docs/games.md, C1-C4,
said in the table's words), and the stack on the pan.

Built when shown (``pages()``), so every text is in the language of the moment.
"""

from __future__ import annotations

from ...i18n import _
from ...screen.render import View
from ..base import text_page
from .screens import keys_view


def pages() -> list[View]:
    """The rules pages, first to last (each says one thing; three small lines at most)."""
    return [
        text_page(_("The goal"), _('Stack all your pieces away. No pieces left after a round: win!')),
        text_page(_("Bidding"), _('Bid how many you can stack: the top bid or more, or pass.')),
        keys_view(),
        text_page(_("Good to know"), _('Who starts must bid. Too few pieces? Take more from the bag.')),
        text_page(_("Stacking"), _('In turn, put a piece on the stack. The box weighs each one.')),
        text_page(_("It fell!"), _('Stack fell? You take it all. Only your own piece fell? Press A.')),
    ]


__all__ = ["pages"]
