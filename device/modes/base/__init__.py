"""What every mode shares, once: the table and mode protocols (``table``), pages and standings
(``pages``), seats and the hot seat (``seats``), the referee (``referee``), the home-menu
entry (``info``) and what a host-panel tool shares (``tool``).

A mode is whatever the home menu offers: a game's referee, the Scale tool, Settings. The App hands
it ``Press``es and ``Weight``s and shows its ``view()``.
"""

from .info import Demo, DemoStep, ModeInfo, game_mode
from .pages import Page, Pages, score_shown, standings_view, text_page
from .referee import Referee
from .seats import HotSeat, handover_view, seat_player
from .table import Mode, Table
from .tool import HostTool

__all__ = ["Demo", "DemoStep", "HostTool", "HotSeat", "Mode", "ModeInfo", "Page", "Pages", "Referee", "Table",
           "game_mode", "handover_view", "score_shown", "seat_player", "standings_view",
           "text_page"]
