"""The box's words for its keys, in every language it speaks: one verb belongs to one key.

A footer names what the host panel's keys do ("NEXT move  OK choose"). So that a child learns
a key once, every verb a footer uses is listed here under the one key it belongs to (OK, NEXT,
BACK; a long OK counts as OK), in English and, through the catalogue, in German: "wählen" is
OK's everywhere, "runter" NEXT's, "nein" BACK's. Places a key leads to ("back", "list") may
follow any key: they say where, not what; but a menu opens on BACK over what is shown (the game
menu, a replay's menu) or on OK at an end, never on NEXT, which only moves and turns pages. ``footer`` builds a footer from entries;
``key_of`` says whose a word is (the check in the tests reads every footer of the catalogue).
"""

from __future__ import annotations

import re

from .i18n import N_, _
from .screen.view import CHARS

KEYS = ("OK", "NEXT", "BACK")

# Each entry is "KEY word(s)" as a footer shows it; the German comes from the catalogue.
ENTRIES: tuple[str, ...] = (
    # OK: take, confirm, go on
    N_("OK choose"), N_("OK next"), N_("OK continue"), N_("OK go on"), N_("OK done"),
    N_("OK go"), N_("OK play"), N_("OK start"), N_("OK open"), N_("OK take"), N_("OK pick"),
    N_("OK enter"), N_("OK bid"), N_("OK it's on"), N_("OK all on"), N_("OK again"),
    N_("OK tries again"), N_("OK add"), N_("OK another"), N_("OK clear"), N_("OK correct"),
    N_("OK empty"), N_("OK end"), N_("OK read it"), N_("OK remove"), N_("OK roll the die"),
    N_("OK rolls the die"), N_("OK undo"), N_("OK replay"), N_("OK skip this"),
    N_("OK the next one"), N_("OK on"), N_("OK tare"), N_("OK set"), N_("OK that's it"),
    N_("OK pick at the box"), N_("OK or the next move"), N_("OK on the box: menu"), N_("OK on the box: next"),
    # NEXT: move along, turn, step a value
    N_("NEXT move"), N_("NEXT more"), N_("NEXT other"), N_("NEXT older"), N_("NEXT change"),
    N_("NEXT show"), N_("NEXT show me"), N_("NEXT steps"), N_("NEXT mass"), N_("NEXT colour"),
    N_("NEXT coins"), N_("NEXT winner"), N_("NEXT calibr."), N_("NEXT +1"),
    # BACK: undo a step, refuse, leave
    N_("BACK cancel"), N_("BACK keep"), N_("BACK no"), N_("BACK stop"),
)

# Where a key leads: any key may name these, but a menu (see MENU_KEYS).
PLACES: tuple[str, ...] = (N_("menu"), N_("back"), N_("home"), N_("list"), N_("standings"))
MENU = N_("menu")
MENU_KEYS = ("BACK", "OK")  # BACK opens the menu over a screen; OK reaches it from an end

_SEGMENT = re.compile(r"(?<![\w/])(hold OK|lang|A/NEXT|B/OK|A/B/C|A/C|OK|NEXT|BACK|A|B|C)"
                      r"(?![\w/]):?")
_ALIASES = {"hold OK": "OK", "lang": "OK", "A/NEXT": "NEXT", "B/OK": "OK"}


def segments(footer: str) -> list[tuple[str, str]]:
    """A footer as (key, words) pairs: "NEXT move  OK choose" -> [("NEXT", "move"), ("OK",
    "choose")]; a long OK and a station key that doubles a host key count as that host key;
    station keys alone are the games' own and stay as they are ("A", "B", "C")."""
    parts = _SEGMENT.split(footer)
    return [(_ALIASES.get(parts[i], parts[i]), parts[i + 1].strip(" :,"))
            for i in range(1, len(parts), 2)]


def words() -> dict[str, str]:
    """Every verb of the current language and the key it belongs to (a word listed under two
    keys is a mistake the tests catch: ``clashes``)."""
    out: dict[str, str] = {}
    for entry in ENTRIES:
        for key, word in segments(_(entry)):
            out.setdefault(word.lower(), key)
    return out


def clashes() -> list[str]:
    """Words of the current language listed under more than one key."""
    seen: dict[str, set[str]] = {}
    for entry in ENTRIES:
        for key, word in segments(_(entry)):
            seen.setdefault(word.lower(), set()).add(key)
    return sorted(f"{word}: {', '.join(sorted(keys))}" for word, keys in seen.items()
                  if len(keys) > 1)


def places() -> set[str]:
    return {_(place).lower() for place in PLACES}


def key_of(word: str) -> str | None:
    """The key ``word`` belongs to in the current language (None: a place, or not a verb)."""
    return words().get(word.lower())


def misused(footer: str) -> list[str]:
    """What of ``footer`` (in the current language) uses a word for another key than the
    glossary says, or a word the glossary does not know (empty: it agrees)."""
    known, where = words(), places()
    out = []
    for key, word in segments(footer):
        if key not in KEYS or not word or "{" in word:
            continue
        if word.lower() == _(MENU).lower() and key not in MENU_KEYS:
            out.append(f"{key} {word!r}: a menu opens with {' or '.join(MENU_KEYS)}")
            continue
        if word.lower() in where:
            continue
        owner = known.get(word.lower())
        if owner is None:
            out.append(f"{key} {word!r}: not in the glossary")
        elif owner != key:
            out.append(f"{key} {word!r}: that is {owner}'s word")
    return out


def footer(*entries: str) -> str:
    """A footer of glossary entries (marked with ``N_``), translated and spaced as the box
    shows them: ``footer(N_("NEXT move"), N_("OK choose"))``."""
    assert all(entry in ENTRIES for entry in entries), entries
    said = [_(entry) for entry in entries]
    wide = "  ".join(said)
    return wide if len(wide) <= CHARS else " ".join(said)


def choose_footer() -> str:
    """A list's footer: NEXT moves the cursor, OK chooses."""
    return footer("NEXT move", "OK choose")


__all__ = ["ENTRIES", "KEYS", "MENU", "MENU_KEYS", "PLACES", "choose_footer", "clashes", "footer", "key_of", "misused", "places",
           "segments", "words"]
