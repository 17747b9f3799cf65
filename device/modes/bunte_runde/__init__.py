"""Bunte Runde's mode: the referee, its screens, its rules pages and its demos."""

from ....games.bunte_runde import INFO
from ..base import game_mode
from . import rules
from .demo import DEMOS
from .referee import BunteRundeReferee

MODE = game_mode(INFO, BunteRundeReferee, demos=DEMOS, rules=rules.pages, order=20)
