"""What Trudel's referee keeps in the journal besides the game's actions, so a power cut loses
nothing of what lies on the pans: a scales-row weighing under way, the first pan's reference for
the Purchase of the Day, and a substitution under way (the basket's reading of a close call).

Each is a journal note naming its game; the newest note of a kind counts. A note that cannot be
written costs only what it would have kept: the weighing starts afresh, and the reference falls
back to the Purchase's number from the start with a tolerance widened by the first pan's
possible drift (``Reference.fallback``), which still catches a missing or an extra item.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...journal.file import JournalError
from .weighing import POTD_TOL_G, ZERO_DRIFT_G, drift_bound_g

if TYPE_CHECKING:
    from ...journal.store import Journal

log = logging.getLogger(__name__)

WEIGH_NOTE = "tante-trudels-troedel-weighing"  # {"game": id, "at": count or None}
REF_NOTE = "tante-trudels-troedel-potd-ref"     # {"game": id, "g": grams, "cross": b, "away": b}
SWAP_NOTE = "tante-trudels-troedel-swap"        # {"game", "at", "kind", "player", "basket_g"}


@dataclass(frozen=True)
class Reference:
    """The last accepted reading of the Purchase: ``g`` read on its own pan, or (``cross``) on
    the basket's pan by a substitution, the Purchase then going back; ``away``: it has not been
    seen back where it lives since (the screens say so)."""

    g: float
    cross: bool = False
    away: bool = False

    def tol_g(self, potd_g: float) -> float:
        """How far the first pan may read from ``g``: the weigher's tolerance, and for a
        reading on the other cell both cells' span drift."""
        return POTD_TOL_G + (2.0 * drift_bound_g(potd_g) if self.cross else 0.0)

    @staticmethod
    def fallback_tol_g(potd_g: float) -> float:
        """No reference kept: against the Purchase's number from the start, the first pan may
        also carry its zero's drift under the load and the span's (stays below ``ITEM_MIN_G``
        for a Purchase up to about 400 g)."""
        return POTD_TOL_G + ZERO_DRIFT_G + drift_bound_g(potd_g)


class Memory:
    """The notes of one game in the journal."""

    def __init__(self, journal: "Journal", game_id: int) -> None:
        self.journal = journal
        self.game_id = game_id
        self.noted: int | None = None  # the scales-row weighing the journal holds

    def note(self, kind: str, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """A note of this game, to go into the commit of the action it belongs to."""
        return kind, {"game": self.game_id, **data}

    def _write(self, kind: str, data: dict[str, Any]) -> bool:
        try:
            self.journal.add_note(*self.note(kind, data))
            return True
        except JournalError as exc:
            log.error("the %s note could not be written: %s", kind, exc)
            return False

    def write(self, notes: list[tuple[str, dict[str, Any]]]) -> None:
        """Keep notes that had no action to go with (its action was refused)."""
        for kind, data in notes:
            self._write(kind, {k: v for k, v in data.items() if k != "game"})

    def _latest(self, kind: str) -> dict[str, Any]:
        notes = self.journal.notes(kind, 1)
        note = notes[0] if notes else {}
        return note if note.get("game") == self.game_id else {}

    # -- a scales-row weighing under way ----------------------------------------------------------
    def weighing_note(self, count: int | None) -> tuple[str, dict[str, Any]]:
        return self.note(WEIGH_NOTE, {"at": count})

    def note_weighing(self, count: int | None) -> None:
        if count != self.noted and self._write(WEIGH_NOTE, {"at": count}):
            self.noted = count

    def weighing_at(self) -> int | None:
        """The action count of the scales-row weighing under way at the power cut."""
        at = self._latest(WEIGH_NOTE).get("at")
        return at if isinstance(at, int) else None

    # -- the Purchase's reference ---------------------------------------------------------------
    def reference_note(self, ref: Reference) -> tuple[str, dict[str, Any]]:
        return self.note(REF_NOTE, {"g": ref.g, "cross": ref.cross, "away": ref.away})

    def keep_reference(self, ref: Reference) -> None:
        self._write(REF_NOTE, {"g": ref.g, "cross": ref.cross, "away": ref.away})

    def reference(self) -> Reference | None:
        note = self._latest(REF_NOTE)
        g = note.get("g")
        if not isinstance(g, (int, float)) or isinstance(g, bool):
            return None
        return Reference(float(g), bool(note.get("cross")), bool(note.get("away")))

    # -- a substitution under way -----------------------------------------------------------------
    def swap_note(self, at: int | None, kind: str = "", player: str = "",
                  basket_g: float | None = None) -> tuple[str, dict[str, Any]]:
        return self.note(SWAP_NOTE, {"at": at, "kind": kind, "player": player,
                                     "basket_g": basket_g})

    def note_swap(self, at: int | None, kind: str = "", player: str = "",
                  basket_g: float | None = None) -> None:
        self._write(SWAP_NOTE, {"at": at, "kind": kind, "player": player, "basket_g": basket_g})

    def swap_of(self, at: int, kind: str, player: str) -> float | None:
        """The basket's reading of a close call for this weighing, if one was under way."""
        note = self._latest(SWAP_NOTE)
        g = note.get("basket_g")
        if note.get("at") != at or note.get("kind") != kind or note.get("player") != player \
                or not isinstance(g, (int, float)) or isinstance(g, bool):
            return None
        return float(g)


__all__ = ["REF_NOTE", "SWAP_NOTE", "WEIGH_NOTE", "Memory", "Reference"]
