"""Pan Dice's mode folder: its pages, rules and demo. The shared referee plays it."""

from ....games.pan_dice import INFO
from ..base import game_mode
from . import rules
from .demo import DEMOS
from .pages import PanDiceReferee

MODE = game_mode(INFO, PanDiceReferee, demos=DEMOS, rules=rules.pages)
