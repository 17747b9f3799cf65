"""Tatort Tonne's mode: the referee, its screens and pages, its rules pages and its demo."""

from ....games.tatort_tonne import INFO
from ..base import game_mode
from . import rules
from .demo import DEMOS
from .referee import TatortTonneReferee

MODE = game_mode(INFO, TatortTonneReferee, demos=DEMOS, rules=rules.pages, order=10)
