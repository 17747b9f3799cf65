"""How the box plays Tatort Tonne, in a few pages read from the game's menu: the buttons, the
countdown, and how the box settles what the rulebook leaves open (RULINGS T2, T3, T5, T6).
Built when shown, so the pages follow the language of the moment."""

from __future__ import annotations

from ...i18n import _
from ...screens import View
from .screens import button_lines


def pages() -> list[View]:
    return [
        View(_("How to win"), (_("Be the only one with"), _("3 trash cards, or the"),
                               _("last one in the game."))),
        View(_("Your buttons"), button_lines()),                                   # T2
        View(_("Choose in secret"), (_("Change your mind?"), _("Press again until"),
                                     _("everyone has chosen."))),                  # T2
        View(_("3, 2, 1, POINT!"), (_("Accusers point at one"), _("player or nobody."),
                                    _("Pointed at? Press!"))),                     # T3
        View(_("Play-off"), (_("Several with 3 trash?"), _("Only they play on,"),
                             _("until one has most."))),                           # T5
        View(_("Pile empty?"), (_("Then whoever has"), _("the most trash wins."),
                                _("A tie shares the win."))),                      # T6
    ]
