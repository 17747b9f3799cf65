"""Bunte Runde's rules as the box plays them: six short pages for the game's own menu.

They say how a turn goes and how the box settles what the rulebook leaves open: steps count only
pieces (B3), who swaps for the large coin and that a scoring is paid in full (B5), a tie shares
the win (B6), and the free layout (B7). Each page is one sentence, wrapped to at most three lines
in the language of the moment (the pages are built when shown).
"""

from __future__ import annotations

from ...i18n import _
from ...screen.render import View
from ..base import text_page


def pages() -> list[View]:
    """The rules pages, in the current language (the game menu adds the footer)."""
    texts = [
        (_("Your turn"), _("Move the figure 1, 2 or 3 pieces on and take that piece.")),
        (_("Counting steps"), _("Clockwise, pieces only: gaps do not count.")),  # B3
        (_("Colour or shape gone"),                                                # B4
         _("Everyone gets 1 coin for each piece of it they have.")),
        (_("Large coin"),                                                          # B5
         _("Too few coins for a double scoring? The box says who swaps.")),
        (_("Pot empty: the end"), _("Most coins wins. Equal coins: all win.")),   # B6
        (_("Free layout"),                                                         # B7
         _("You lay out the circle and tell the box each piece taken.")),
    ]
    return [text_page(title, text) for title, text in texts]
