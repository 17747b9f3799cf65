"""The keyboard as the box's buttons, for ``spielleiter sim`` (interactive ``keys`` and the
headless ``keys`` command alike), and the legend that explains them under the screen."""

from __future__ import annotations

from typing import Sequence

HOST_KEYS = {"b": "host.back", "o": "host.ok", "\n": "host.ok", " ": "host.next",
             "n": "host.next"}
STATION_KEYS = ["123", "456", "789", "qwe", "asd", "zxc", "rty", "fgh"]
UNDO_KEY = "u"  # holds BACK: undo
HOLD_KEY = "h"  # the next button is held (a long press: pass in Torraku, end a name)
QUIT_KEY = "Q"
PAN_KEYS = {"[": "left", "]": "right"}
PAN_MASSES_G = (0.0, 5.0, 12.3, 12.4, 50.0, 200.0)  # what [ and ] cycle through, grams


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


def legend(stations: Sequence[str], width: int = 80, pans: Sequence[str] = ()) -> list[str]:
    """The key help under the interactive screen, packed into lines of at most ``width``:
    the host panel, each station by its name (its keys are A B C), the simulated pans."""
    lines = _pack("Host: ", ["b BACK", "o/Enter OK", "n/Space NEXT", "u undo",
                             "h+key hold it",
                             f"{QUIT_KEY} quit"], width)
    if stations:
        lines += _pack("Station keys A B C: ", [
            f"{name} {' '.join(row)}" for name, row in zip(stations, STATION_KEYS)], width)
    keys = [f"{key} {pan}" for key, pan in PAN_KEYS.items() if pan in pans]
    if keys:
        masses = "/".join(f"{g:g}" for g in PAN_MASSES_G)
        lines += _pack("Pans: ", [*keys, f"(next mass: {masses} g)"], width)
    return [line[:width] for line in lines]
