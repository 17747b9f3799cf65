"""The hand at the simulated pans in ``spielleiter sim``: the mass it holds and the pieces it has
set down on each pan.

A real pan keeps what lies on it, from one game to the next; so does a simulated one, across a
restart too (``sim-pans.json``). The hand therefore shows what lies where (the legend's "Pans:"
line), lifts the last piece or empties the pans on a key, and chooses the mass it sets down:
stepping through ``PAN_MASSES_G`` or typed in grams, as often as wanted (two equal pieces for
"make it balance", a set of coins for Currency Torraku). What lies where is the box's one record
(``Box.pieces``, restored from the state directory), never a copy the hand keeps beside it: so
what an earlier run left shows on the legend and is lifted like any piece. Keys are in
``keys.py``; every key answers with a note for the status line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..i18n import _, ngettext
from ..pans.simulated import lay
from ..pans.words import pan_name
from .keys import (EMPTY_KEY, HEAVIER_KEYS, LIFT_KEYS, LIGHTER_KEY, PAN_MASSES_G, PUT_KEYS,
                   TYPE_KEY)
from .pan_load import PAN_LIMIT_G, grams_text, too_heavy

MAX_TYPED = 7  # characters of a typed mass ("999.999")
CANCEL_KEYS = ("\x1b", TYPE_KEY)  # Esc, or m again
BACKSPACE = "\b"


@dataclass
class Hand:
    """``pans``: the simulated pans (the first pair of keys acts on the first, the second on the
    second); ``put(pan, grams)`` sets down (negative: lifts) on the box; ``pieces``: what lies
    on each pan as pieces, the last on top, which ``put`` keeps: the box's ``Box.pieces``, with
    what an earlier run left there. Without it (a ``put`` that keeps no record) the hand records
    its own puts."""

    pans: tuple[str, ...]
    put: Callable[[str, float], None]
    pieces: dict[str, list[float]] | None = None
    mass_g: float = 10.0
    typed: str | None = None  # the digits typed after TYPE_KEY, None when not typing

    def __post_init__(self) -> None:
        self.pans = tuple(self.pans)[:len(PUT_KEYS)]
        if self.pieces is None:
            own: dict[str, list[float]] = {}
            put = self.put

            def put_and_record(pan: str, grams: float) -> None:
                put(pan, grams)
                lay(own.setdefault(pan, []), grams)

            self.put, self.pieces = put_and_record, own

    def on(self, pan: str) -> list[float]:
        """The pieces on ``pan``, the last set down last (read only: ``put`` changes them)."""
        assert self.pieces is not None
        return self.pieces.setdefault(pan, [])

    def wants(self, key: str) -> bool:
        """True for a key the hand acts on now (while typing a mass: every key)."""
        if not self.pans:
            return False
        return self.typed is not None or key in (
            *PUT_KEYS[:len(self.pans)], *LIFT_KEYS[:len(self.pans)], LIGHTER_KEY, *HEAVIER_KEYS,
            TYPE_KEY, EMPTY_KEY)

    @property
    def loaded(self) -> bool:
        return any(self.on(pan) for pan in self.pans)

    def on_pans(self) -> str:
        """What lies where and what the hand holds, for the legend: "left 10 + 10 g   right
        empty   in hand 12.3 g"."""
        parts = [f"{pan_name(pan)} {self._load(pan)}" for pan in self.pans]
        parts.append(_("in hand {grams} g").format(grams=grams_text(self.mass_g)))
        return "   ".join(parts)

    def prompt(self) -> str:
        """While a mass is typed, the line that shows it (the legend puts it where the pan keys'
        help stands: those keys type now); "" otherwise."""
        if self.typed is None:
            return ""
        return _("typing: {typed}_ g (Enter takes it, Esc cancels)").format(typed=self.typed)

    def _load(self, pan: str) -> str:
        pieces = self.on(pan)
        if not pieces:
            return _("empty")
        if len(pieces) > 3:
            return ngettext("{n} piece, {grams} g", "{n} pieces, {grams} g", len(pieces)).format(
                n=len(pieces), grams=grams_text(round(sum(pieces), 3)))
        return " + ".join(grams_text(p) for p in pieces) + " g"

    def key(self, key: str) -> str:
        """Act on one key (``wants`` said yes); the note for the status line."""
        if self.typed is not None:
            return self._typing(key)
        if key in PUT_KEYS:
            pan = self.pans[PUT_KEYS.index(key)]
            problem = too_heavy(self.mass_g, sum(self.on(pan)))
            if problem is not None:
                return problem
            self.put(pan, self.mass_g)
            return _("set {grams} g down on the {pan} pan").format(
                grams=grams_text(self.mass_g), pan=pan_name(pan))
        if key in LIFT_KEYS:
            pan = self.pans[LIFT_KEYS.index(key)]
            if not self.on(pan):
                return _("the {pan} pan is empty: nothing to lift").format(pan=pan_name(pan))
            piece = self.on(pan)[-1]
            self.put(pan, -piece)
            return _("lifted {grams} g off the {pan} pan").format(grams=grams_text(piece),
                                                                  pan=pan_name(pan))
        if key == EMPTY_KEY:
            if not self.loaded:
                return _("the pans are empty already")
            for pan in self.pans:
                load = sum(self.on(pan))
                if load:
                    self.put(pan, -load)
            return _("lifted everything off the pans")
        if key == LIGHTER_KEY or key in HEAVIER_KEYS:
            self.mass_g = self._step(+1 if key in HEAVIER_KEYS else -1)
            return _("in hand: {grams} g").format(grams=grams_text(self.mass_g))
        if key == TYPE_KEY:
            self.typed = ""
            return _("type the mass in grams, then Enter")
        return ""

    def _step(self, direction: int) -> float:
        """The next mass of the list above (or below) the one in hand, which may be a typed one
        between two of them; the ends stay where they are."""
        if direction > 0:
            return next((g for g in PAN_MASSES_G if g > self.mass_g), self.mass_g)
        return next((g for g in reversed(PAN_MASSES_G) if g < self.mass_g), self.mass_g)

    def _typing(self, key: str) -> str:
        assert self.typed is not None
        if key in CANCEL_KEYS:
            self.typed = None
            return _("kept {grams} g in hand").format(grams=grams_text(self.mass_g))
        if key == BACKSPACE:
            self.typed = self.typed[:-1]
            return ""
        if key == "\n":
            return self._take_typed()
        if not key:  # a key with no character (an arrow): nothing to type
            return ""
        if key == ",":
            key = "."
        if not (key.isdigit() and key.isascii() or key == "." and "." not in self.typed):
            return _("{key} is not part of a number: digits and one point, Enter takes "
                     "it").format(key=repr(key))
        if len(self.typed) >= MAX_TYPED:
            return _("at most {n} characters").format(n=MAX_TYPED)
        self.typed += key
        return ""

    def _take_typed(self) -> str:
        assert self.typed is not None
        try:
            value = float(self.typed)
        except ValueError:
            value = 0.0
        problem = too_heavy(value)
        if problem is not None:
            return _("{problem} (Esc cancels)").format(problem=problem)
        if not value > 0:
            shown = self.typed or _("nothing")
            return _("{shown}: type a mass above 0 and up to {limit} g (Esc cancels)").format(
                shown=shown, limit=grams_text(PAN_LIMIT_G))
        self.typed = None
        self.mass_g = round(value, 3)
        return _("in hand: {grams} g").format(grams=grams_text(self.mass_g))
