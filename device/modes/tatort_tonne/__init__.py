"""Tatort Tonne's mode: the referee, its screens and pages, its rules pages and its demo."""

from ..base import ModeInfo
from . import rules
from .demo import DEMOS
from .referee import TatortTonneReferee

MODE = ModeInfo("tatort-tonne", "Tatort Tonne", game="tatort-tonne", referee=TatortTonneReferee,
                demos=DEMOS, rules=rules.pages)
