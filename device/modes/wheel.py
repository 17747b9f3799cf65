"""The letter wheel: a name typed with the host panel's three keys (and a station's, if near).

The letters stand on a ring, with the cursor staying where the last letter was picked (names run
through near letters: "Sophie" needs about 23 presses, a plain wheel that starts at A each time
about 45). NEXT and BACK move one step, a station's C and A jump five, OK or a station's B picks
the letter under the cursor, and a long OK ends the name. The ring's first place deletes the last
letter (or, on an empty name, gives up).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _
from ..screen.render import View

DELETE = "<"
RING = DELETE + "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜß- "
JUMP = 5
MAX_LEN = 12


@dataclass
class Wheel:
    """A name being typed; ``done``/``cancelled`` say how it ended."""

    text: str = ""
    cursor: int = 1  # "A"
    done: bool = False
    cancelled: bool = False

    def move(self, steps: int) -> None:
        self.cursor = (self.cursor + steps) % len(RING)

    def pick(self) -> None:
        char = RING[self.cursor]
        if char == DELETE:
            if self.text:
                self.text = self.text[:-1]
            else:
                self.cancelled = True
        elif len(self.text) < MAX_LEN:
            lower = bool(self.text) and self.text[-1] not in " -" and char.isalpha()
            self.text += char.lower() if lower else char

    def finish(self) -> None:
        if self.text.strip():
            self.done = True

    def key(self, key: str, hold: bool = False) -> None:
        """A host key (back/ok/next) or a station key (A/B/C)."""
        if key == "ok" and hold:
            self.finish()
        elif key == "back" and hold:  # a long BACK gives the name up
            self.cancelled = True
        elif key in ("ok", "B"):
            self.pick()
        elif key == "next":
            self.move(1)
        elif key == "back":
            self.move(-1)
        elif key == "C":
            self.move(JUMP)
        elif key == "A":
            self.move(-JUMP)

    def view(self) -> View:
        window = "".join(RING[(self.cursor + offset) % len(RING)] for offset in (-2, -1))
        after = "".join(RING[(self.cursor + offset) % len(RING)] for offset in (1, 2))
        under = RING[self.cursor]
        shown = {DELETE: _("del"), " ": _("space")}.get(under, under)
        return View(_("Name: {text}_").format(text=self.text), (f"{window}  [{shown}]  {after}",),
                    big=shown, footer=_("OK add  hold OK: end"))


def presses(name: str, start: int = 1) -> list[str]:
    """The shortest key sequence (host NEXT/BACK, station A/C, OK) that types ``name`` and ends
    it; what a practised hand would press."""
    keys: list[str] = []
    cursor = start
    for char in name:
        target = RING.index(char.upper() if len(char.upper()) == 1 else char)  # ß stays ß
        keys += _route(cursor, target)
        keys.append("ok")
        cursor = target
    return keys + ["ok-hold"]


def _route(src: int, dst: int) -> list[str]:
    size = len(RING)
    best: list[str] | None = None
    for jumps in range(-size // JUMP - 1, size // JUMP + 2):
        rest = (dst - src - jumps * JUMP) % size
        for steps in (rest, rest - size):
            route = (["C" if jumps > 0 else "A"] * abs(jumps)
                     + ["next" if steps > 0 else "back"] * abs(steps))
            if best is None or len(route) < len(best):
                best = route
    assert best is not None
    return best
