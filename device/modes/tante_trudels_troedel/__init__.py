"""Tante Trudels Trödel's mode: the referee with the load cells, its screens, pages, weighing,
rules and demo."""

from ....games.tante_trudels_troedel import INFO
from ..base import game_mode
from . import rules
from .demo import DEMOS
from .referee import TanteTrudelsTroedelReferee

MODE = game_mode(INFO, TanteTrudelsTroedelReferee, demos=DEMOS, rules=rules.pages, order=30)
