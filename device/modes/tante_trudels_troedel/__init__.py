"""Tante Trudels Trödel's mode: the referee with the load cells, its screens, pages, weighing,
rules and demo."""

from ..base import ModeInfo
from . import rules
from .demo import DEMOS
from .referee import TanteTrudelsTroedelReferee

MODE = ModeInfo("tante-trudels-troedel", "Tante Trudels Trödel", game="tante-trudels-troedel",
                referee=TanteTrudelsTroedelReferee, demos=DEMOS, rules=rules.pages)
