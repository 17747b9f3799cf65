"""The keyboard as the box's buttons, for ``spielleiter sim`` (interactive ``keys`` and the
headless ``keys`` command alike), and the legend that explains them under the screen."""

from __future__ import annotations

import textwrap
from typing import Sequence

from ..i18n import _
from ..pans.words import pan_name

HOST_KEYS = {"b": "host.back", "o": "host.ok", "\n": "host.ok", " ": "host.next",
             "n": "host.next"}
STATION_KEYS = ["123", "456", "789", "qwe", "asd", "zxc", "rty", "fgh"]
UNDO_KEY = "u"  # holds BACK: undo
HOLD_KEY = "h"  # the next button is held (a long press: pass in Torraku, end a name)
QUIT_KEY = "Q"
# The simulated pans (``cli/hand.py``): the first key of a pair acts on the first pan, the second
# on the second. Keys no station uses, so they work with eight stations wired.
PUT_KEYS = "[]"  # set the mass in hand down on that pan (again: a second, equal piece)
LIFT_KEYS = "{}"  # lift the piece set down last from that pan
LIGHTER_KEY, HEAVIER_KEYS = "-", "+="  # the mass in hand: step through PAN_MASSES_G
TYPE_KEY = "m"  # type the mass in hand in grams, Enter takes it
EMPTY_KEY = "0"  # lift everything off every pan (a new game finds them as they were left)
PAN_MASSES_G = (1.0, 2.0, 5.0, 10.0, 12.3, 12.4, 20.0, 50.0, 100.0, 200.0, 500.0)


def key_map(stations: int) -> dict[str, str]:
    """Keyboard key -> button name, for the host panel and each wired station."""
    keys = dict(HOST_KEYS)
    for number, row in enumerate(STATION_KEYS[:stations], start=1):
        for key, button in zip(row, "ABC"):
            keys[key] = f"s{number}.{button}"
    return keys


def _pack(head: str, items: list[str], width: int) -> list[str]:
    """``head`` then ``items`` two spaces apart, on as few lines of ``width`` as they fit;
    continuation lines are indented under the first item."""
    lines, line = [], head
    for item in items:
        if line.strip() and len(line) + 2 + len(item) > width and line != head:
            lines.append(line)
            line = " " * len(head) + item
        else:
            line = f"{line}  {item}" if line != head else head + item
    lines.append(line)
    return lines


def legend(stations: Sequence[str], width: int = 80, pans: Sequence[str] = (),
           on_pans: str = "", typing: str = "") -> list[str]:
    """The key help under the interactive screen, packed into lines of at most ``width``:
    the host panel, each station by its name (its keys are A B C), the simulated pans with
    ``on_pans`` (what lies on them and the mass in hand) first. ``typing``, the mass being
    typed, stands where the pan keys' help stood (those keys type now), packed in words."""
    lines = _pack(_("Host: "), [_("b BACK"), _("o/Enter OK"), _("n/Space NEXT"), _("u undo"),
                                _("h+key hold it"), _("{key} quit").format(key=QUIT_KEY)], width)
    if stations:
        lines += _pack(_("Station keys A B C: "), [
            f"{name} {' '.join(row)}" for name, row in zip(stations, STATION_KEYS)], width)
    pans = list(pans)[:len(PUT_KEYS)]
    if pans:
        head = _("Pans: ")
        lines.append(f"{head}{on_pans}" if on_pans else head.rstrip())
        if typing:
            return [line[:width] for line in lines] + [
                " " * len(head) + part
                for part in textwrap.wrap(typing, max(width - len(head), 20))]
        lines += _pack(" " * len(head), [
            _("{keys} put on {pans}").format(keys=" ".join(PUT_KEYS[:len(pans)]),
                                             pans="/".join(pan_name(pan) for pan in pans)),
            _("{keys} lift last").format(keys=" ".join(LIFT_KEYS[:len(pans)])),
            _("{keys} mass in hand").format(keys=f"{LIGHTER_KEY} {HEAVIER_KEYS[0]} {TYPE_KEY}"),
            (_("{key} empty both") if len(pans) > 1 else _("{key} empty it")).format(
                key=EMPTY_KEY)], width)
    return [line[:width] for line in lines]
