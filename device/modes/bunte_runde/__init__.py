"""Bunte Runde's mode: the referee, its screens, its rules pages and its demos."""

from ..base import ModeInfo
from . import rules
from .demo import DEMOS
from .referee import BunteRundeReferee

MODE = ModeInfo("bunte-runde", "Bunte Runde", game="bunte-runde", referee=BunteRundeReferee,
                demos=DEMOS, rules=rules.pages)
