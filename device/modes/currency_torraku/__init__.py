"""Currency Torraku's mode: the referee (bids at the stations, the stack on a pan), its screens,
its rules pages and its demo."""

from ..base import ModeInfo
from . import rules
from .demo import DEMOS
from .referee import CurrencyTorrakuReferee

MODE = ModeInfo("currency-torraku", "Currency Torraku", game="currency-torraku",
                referee=CurrencyTorrakuReferee, demos=DEMOS, rules=rules.pages)
