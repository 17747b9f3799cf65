"""The kids' learning station: a sense of weight, with a memory of every child's progress.

Reached from the home menu: choose the child (the roster, or a guest), then one of four quizzes
on the pans (which is heavier, how many grams, make it balance, put them in order) or the child's
results. Scoring and levels are pure (``games.learning``); the answers live in the journal
database (``device.history``).
"""

from __future__ import annotations

from ...i18n import N_
from ..base import ModeInfo
from .demo import DEMOS
from .mode import LearningMode

MODE = ModeInfo("learning", N_("Learning"), open=LearningMode, demos=DEMOS, order=50,
                shows_grams=True)

__all__ = ["MODE", "LearningMode"]
