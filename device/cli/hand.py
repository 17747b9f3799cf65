"""The hand at the simulated pans in ``spielleiter sim``: the mass it holds and the pieces it has
set down on each pan.

A real pan keeps what lies on it, from one game to the next; so does a simulated one. The hand
therefore shows what lies where (the legend's "Pans:" line), lifts the last piece or empties the
pans on a key, and chooses the mass it sets down: stepping through ``PAN_MASSES_G`` or typed in
grams, as often as wanted (two equal pieces for "make it balance", a set of coins for Currency
Torraku). Keys are in ``keys.py``; every key answers with a note for the status line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..i18n import _, language, ngettext
from ..scales_text import pan_name
from .keys import (EMPTY_KEY, HEAVIER_KEYS, LIFT_KEYS, LIGHTER_KEY, PAN_MASSES_G, PUT_KEYS,
                   TYPE_KEY)
from .pan_load import PAN_LIMIT_G, too_heavy

MAX_TYPED = 7  # characters of a typed mass ("999.999")
CANCEL_KEYS = ("\x1b", TYPE_KEY)  # Esc, or m again
BACKSPACE = "\b"


def grams(value: float) -> str:
    """12.3 -> "12.3" (German "12,3"), 10.0 -> "10"."""
    return f"{value:g}".replace(".", ",") if language() == "de" else f"{value:g}"


@dataclass
class Hand:
    """``pans``: the simulated pans (the first pair of keys acts on the first, the second on the
    second); ``put(pan, grams)`` sets down (negative: lifts) on the box; ``load_g(pan)``: what
    lies on a pan (with what an earlier run left there; default: the pieces set down here)."""

    pans: tuple[str, ...]
    put: Callable[[str, float], None]
    load_g: Callable[[str], float] | None = None
    mass_g: float = 10.0
    pieces: dict[str, list[float]] = field(default_factory=dict)
    typed: str | None = None  # the digits typed after TYPE_KEY, None when not typing

    def __post_init__(self) -> None:
        self.pans = tuple(self.pans)[:len(PUT_KEYS)]
        for pan in self.pans:
            self.pieces.setdefault(pan, [])

    def wants(self, key: str) -> bool:
        """True for a key the hand acts on now (while typing a mass: every key)."""
        if not self.pans:
            return False
        return self.typed is not None or key in (
            *PUT_KEYS[:len(self.pans)], *LIFT_KEYS[:len(self.pans)], LIGHTER_KEY, *HEAVIER_KEYS,
            TYPE_KEY, EMPTY_KEY)

    @property
    def loaded(self) -> bool:
        return any(self.pieces.values())

    def on_pans(self) -> str:
        """What lies where and what the hand holds, for the legend: "left 10 + 10 g   right
        empty   in hand 12.3 g" (or the mass being typed)."""
        parts = [f"{pan_name(pan)} {self._load(pan)}" for pan in self.pans]
        if self.typed is not None:
            parts.append(_("typing: {typed}_ g (Enter takes it, Esc cancels)").format(
                typed=self.typed))
        else:
            parts.append(_("in hand {grams} g").format(grams=grams(self.mass_g)))
        return "   ".join(parts)

    def _load(self, pan: str) -> str:
        pieces = self.pieces[pan]
        if not pieces:
            return _("empty")
        if len(pieces) > 3:
            return ngettext("{n} piece, {grams} g", "{n} pieces, {grams} g", len(pieces)).format(
                n=len(pieces), grams=grams(round(sum(pieces), 3)))
        return " + ".join(grams(p) for p in pieces) + " g"

    def key(self, key: str) -> str:
        """Act on one key (``wants`` said yes); the note for the status line."""
        if self.typed is not None:
            return self._typing(key)
        if key in PUT_KEYS:
            pan = self.pans[PUT_KEYS.index(key)]
            on_pan = self.load_g(pan) if self.load_g else sum(self.pieces[pan])
            problem = too_heavy(self.mass_g, on_pan)
            if problem is not None:
                return problem
            self.put(pan, self.mass_g)
            self.pieces[pan].append(self.mass_g)
            return _("set {grams} g down on the {pan} pan").format(
                grams=grams(self.mass_g), pan=pan_name(pan))
        if key in LIFT_KEYS:
            pan = self.pans[LIFT_KEYS.index(key)]
            if not self.pieces[pan]:
                return _("the {pan} pan is empty: nothing to lift").format(pan=pan_name(pan))
            piece = self.pieces[pan].pop()
            self.put(pan, -piece)
            return _("lifted {grams} g off the {pan} pan").format(grams=grams(piece),
                                                                  pan=pan_name(pan))
        if key == EMPTY_KEY:
            if not self.loaded:
                return _("the pans are empty already")
            for pan in self.pans:
                load = sum(self.pieces[pan])
                if load:
                    self.put(pan, -load)
                self.pieces[pan].clear()
            return _("lifted everything off the pans")
        if key == LIGHTER_KEY or key in HEAVIER_KEYS:
            self.mass_g = self._step(+1 if key in HEAVIER_KEYS else -1)
            return _("in hand: {grams} g").format(grams=grams(self.mass_g))
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
            return _("kept {grams} g in hand").format(grams=grams(self.mass_g))
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
                shown=shown, limit=grams(PAN_LIMIT_G))
        self.typed = None
        self.mass_g = round(value, 3)
        return _("in hand: {grams} g").format(grams=grams(self.mass_g))
