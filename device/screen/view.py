"""What one screen says (a ``View``) and the small-text helpers that shape its lines; how a View
is drawn is ``screens``.

The small type has 21 characters a line (``CHARS``); a page carries at most ``PAGE_LINES`` of
them: one idea a screen.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

CHARS = 21                     # small characters a line
PAGE_LINES = 3                 # small lines a page (not a menu) may carry: one idea a screen


@dataclass(frozen=True)
class View:
    """What one screen says.

    ``lines`` fill the body (menus mark ``cursor``); ``big`` is one short word drawn large
    (a countdown, a score); ``footer`` names what the buttons do. ``blank`` clears the screen
    (privacy between hot-seat players) but may still carry a footer. ``notice`` is the box's own
    word about itself (the scales warming up, ``warm_up``); ``notice_at`` says where it goes, and
    the screen's other parts stay as they are:

    - "bar": in the title bar, in place of the title (the warm-up notice goes there only on a
      screen without a title; a mode may put its own word over its title, as the Scale tool's
      "Warmer: calibrate");
    - "row": on a row of its own under the title bar (the body moves down a row);
    - "tag": beside the title, at the right end of the bar, in plain type (the bar then ends
      after the title): for a short word where no row is free.
    """

    title: str = ""
    lines: tuple[str, ...] = ()
    big: str | None = None
    footer: str = ""
    cursor: int | None = None
    blank: bool = False
    notice: str = ""
    notice_at: str = "bar"

    @property
    def bar(self) -> str:
        """What the title bar shows: a "bar" notice, else the title."""
        return self.notice if self.notice and self.notice_at == "bar" else self.title

    @property
    def tag(self) -> str:
        """The notice beside the title in the bar ("" when there is none)."""
        return self.notice if self.notice_at == "tag" and self.title and not self.blank else ""

    @property
    def row(self) -> str:
        """The notice on its own row under the title bar ("" when there is none)."""
        return self.notice if self.notice_at == "row" and self.title and not self.blank else ""

    def as_text(self) -> str:
        """The view as plain text, for logs, the serial link and the closing notes."""
        out = [f"[{self.title}]"] if self.title else []
        if self.big:
            out.append(f"  ** {self.big} **")
        for i, line in enumerate(self.lines):
            out.append(("> " if i == self.cursor else "  ") + line)
        if self.footer:
            out.append(f"({self.footer})")
        if self.notice:
            out.append(f"! {self.notice}")  # last: the screen's own text reads as before
        return "\n".join(out)


def wrap(text: str, width: int = CHARS) -> list[str]:
    """Break ``text`` into lines of at most ``width`` characters (long words are cut)."""
    return textwrap.wrap(text, width, break_long_words=True) or [""]


def pack(parts: list[str], sep: str = ", ") -> list[str]:
    """Join ``parts`` into lines of at most CHARS characters without breaking a part."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(sep) + len(part) <= CHARS:
            lines[-1] += sep + part
        else:
            lines.append(part[:CHARS])
    return lines


def crowded(view: View) -> bool:
    """A page (not a menu, not a list the player scrolls) with more small lines than one idea
    needs: split it or say the point in ``big``."""
    return view.cursor is None and not view.blank and len(view.lines) > PAGE_LINES


__all__ = ["CHARS", "PAGE_LINES", "View", "crowded", "pack", "wrap"]
