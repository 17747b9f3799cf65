"""Past games: every ended game of the journal as a record, read without writing.

A game as a record (``records``) and its result kept so a list is not a replay of every game
(``results``), the list and its filters (``games``, ``filters``, ``rows``), corrections made
afterwards (``corrections``), the family's statistics (``statistics``) and a game taken
elsewhere as a document or CSV (``export``). The screens that show them are the ``past`` and
``statistics`` modes.
"""

from __future__ import annotations

from .games import PastGames
from .records import GameRecord
from .statistics import FamilyStats

__all__ = ["FamilyStats", "GameRecord", "PastGames"]
