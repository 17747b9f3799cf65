"""How the box plays Tatort Tonne, in a few pages read from the game's menu: the buttons, the
countdown, and how the box settles what the rulebook leaves open (docs/games.md, T2, T3, T5, T6).
Built when shown, so the pages follow the language of the moment."""

from __future__ import annotations

from ...i18n import _
from ...screen.render import View
from ..base import text_page
from .screens import button_lines


def pages() -> list[View]:
    return [
        text_page(_("How to win"), _('Be the only one with 3 trash cards, or the last one in the game.')),
        View(_("Your buttons"), button_lines()),                                   # T2
        text_page(_("Choose in secret"), _('Change your mind? Press again until everyone has chosen.')),                  # T2
        text_page(_("3, 2, 1, POINT!"), _('Accusers point at one player or nobody. Pointed at? Press!')),                     # T3
        text_page(_("Play-off"), _('Several with 3 trash? Only they play on, until one has most.')),                           # T5
        text_page(_("Pile empty?"), _('Then whoever has the most trash wins. A tie shares the win.')),                      # T6
    ]
