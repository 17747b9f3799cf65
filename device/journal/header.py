"""What starts a game: game name, players, options and seed, as the journal and the link keep it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..text import InputError, check


@dataclass(frozen=True)
class Header:
    """The fields every game starts from (the journal stores them as JSON, a replay reads them)."""

    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    table: dict[str, Any] = field(default_factory=dict)  # the referee's own set-up choices

    def to_json(self) -> dict[str, Any]:
        doc = {"game": self.game, "players": list(self.players), "options": self.options,
               "seed": self.seed}
        if self.table:
            doc["table"] = self.table
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> "Header":
        """Check the fields' shapes (not whether this box knows the game); InputError if not."""
        if not isinstance(doc, dict):
            raise InputError("the document must be a JSON object")
        game = doc.get("game")
        if not isinstance(game, str):
            raise InputError("'game' must be a game's name")
        players = doc.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise InputError("'players' must be a list of names")
        options = doc.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise InputError("'options' must be a JSON object")
        seed = doc.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InputError("'seed' must be an integer")
        table = doc.get("table", {})
        if not isinstance(table, dict):
            raise InputError("'table' must be a JSON object")
        header = cls(game, tuple(players), options, seed, table)
        check(header.to_json(), "the game's header")
        return header
