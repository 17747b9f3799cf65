"""The keyboard as the box's buttons, for ``spielleiter sim`` (interactive ``keys`` and the
headless ``keys`` command alike)."""

from __future__ import annotations

HOST_KEYS = {"b": "host.back", "o": "host.ok", "\n": "host.ok", " ": "host.next",
             "n": "host.next"}
STATION_KEYS = ["123", "456", "789", "qwe", "asd", "zxc", "rty", "fgh"]
UNDO_KEY = "u"  # holds BACK: undo


def key_map(stations: int) -> dict[str, str]:
    """Keyboard key -> button name, for the host panel and each wired station."""
    keys = dict(HOST_KEYS)
    for number, row in enumerate(STATION_KEYS[:stations], start=1):
        for key, button in zip(row, "ABC"):
            keys[key] = f"s{number}.{button}"
    return keys


def legend(stations: int) -> list[str]:
    """The key help under the interactive screen."""
    lines = ["Host panel:  b = BACK   o/Enter = OK   n/Space = NEXT   u = hold BACK (undo)"]
    for number, row in enumerate(STATION_KEYS[:stations], start=1):
        lines.append(f"Station {number}:   {row[0]} = A   {row[1]} = B   {row[2]} = C")
    lines.append("Pans:        [ = left pan mass   ] = right pan mass (cycles 0, 5, 12.3, "
                 "12.4, 50, 200 g)")
    lines.append("Q = quit")
    return lines
