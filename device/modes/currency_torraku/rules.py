"""How the box plays Currency Torraku, in a few short pages read from the game's menu: the goal,
bidding at the stations, what the box settles that the rulebook leaves open (RULINGS.md C1-C4,
said in the table's words), and the stack on the pan.

Built when shown (``pages()``), so every text is in the language of the moment.
"""

from __future__ import annotations

from ...i18n import _
from ...screens import View
from .screens import keys_view


def pages() -> list[View]:
    """The rules pages, first to last (each says one thing; three small lines at most)."""
    return [
        View(_("The goal"), (_("Stack all your pieces"), _("away. No pieces left"),
                             _("after a round: win!"))),
        View(_("Bidding"), (_("Bid how many you can"), _("stack: the top bid or"),
                            _("more, or pass."))),
        keys_view(),
        View(_("Good to know"), (_("Who starts must bid."), _("Too few pieces? Take"),
                                 _("more from the bag."))),
        View(_("Stacking"), (_("In turn, put a piece"), _("on the stack. The box"),
                             _("weighs each one."))),
        View(_("It fell!"), (_("Stack fell? You take"), _("it all. Only your own"),
                             _("piece fell? Press A."))),
    ]


__all__ = ["pages"]
