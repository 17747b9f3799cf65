"""What starts a game: game name, players, options and seed, as the journal and the link keep it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .text import InputError, check


@dataclass(frozen=True)
class Header:
    """The fields every game starts from (the journal stores them as JSON, a replay reads them)."""

    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": list(self.players), "options": self.options,
                "seed": self.seed}

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
        header = cls(game, tuple(players), options, seed)
        check(header.to_json(), "the game's header")
        return header
