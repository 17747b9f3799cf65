"""Currency Torraku's mode: the referee (bids at the stations, the stack on a pan), its screens,
its rules pages and its demo."""

from ....games.currency_torraku import INFO
from ..base import game_mode
from . import rules
from .demo import DEMOS
from .referee import CurrencyTorrakuReferee

MODE = game_mode(INFO, CurrencyTorrakuReferee, demos=DEMOS, rules=rules.pages, order=40)
