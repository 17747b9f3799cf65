"""Hypothesis strategies for the fuzz suite: JSON text as a careless or hostile sender writes it.

Values may hold lone surrogates (as ``\\ud800`` escapes or raw), integers longer than Python's
4300-digit limit, NaN and Infinity, deep nesting, and games played part-way through their legal
actions before a field is bent. ``to_text`` writes them, since ``json.dumps`` cannot write some.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from spielleiter.games import GAMES, GameError, complete


def fuzz_settings() -> settings:
    """The budget registered in conftest.py: large with SPIELLEITER_FUZZ=1, small otherwise."""
    import os

    return settings.get_profile("spielleiter-fuzz" if os.environ.get("SPIELLEITER_FUZZ") == "1"
                                else "spielleiter-quick")


@dataclass(frozen=True)
class Raw:
    """A piece of JSON text written as is (a 5000-digit integer, ``NaN``, a broken fragment)."""

    text: str


SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"])
CHARS = st.one_of(st.characters(), SURROGATES, st.sampled_from("\x00\n\r\t\"\\é€😀"))
TEXTS = st.text(CHARS, max_size=12)
NAMES = st.one_of(st.sampled_from(["Alexandra", "Melanie", "Ulrike", "Birgit", "Sarah", "Ab"]),
                  TEXTS)
HUGE = st.integers(4290, 4500).map(lambda n: Raw("9" * n))
ODD_NUMBERS = st.one_of(HUGE, st.sampled_from([Raw("NaN"), Raw("-Infinity"), Raw("1e999"),
                                                Raw("-0"), Raw("1E400"), Raw("0.1e-400")]))
# one case in eight is an odd number: the rest should get past the parser to the engines
NUMBERS = st.one_of(st.integers(-3, 30), st.integers(-3, 30), st.integers(), st.integers(),
                    st.floats(allow_nan=False, allow_infinity=False), st.floats(-1, 1000),
                    st.sampled_from([0, 1, 2, 10**30, -(2**63), 0.5, 1e308]), ODD_NUMBERS)
LEAVES = st.one_of(st.none(), st.booleans(), NUMBERS, TEXTS)
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(TEXTS, inner, max_size=4)), max_leaves=12)
DEEP = st.integers(900, 3000).map(lambda n: Raw("[" * n + "]" * n))


def to_text(value: Any, ascii_only: bool = True) -> str:
    """JSON text for ``value`` (``Raw`` pieces verbatim; NaN/Infinity as Python writes them)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{to_text(str(k), ascii_only)}: {to_text(v, ascii_only)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(to_text(v, ascii_only) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


def defaults(game: str) -> dict[str, Any]:
    """The game's own options (declared once in its GameInfo) and their defaults."""
    return GAMES[game].defaults()


@st.composite
def options(draw, game: str | None) -> Any:
    """Mostly the game's own option keys with fitting or bent values; sometimes anything."""
    known = defaults(game) if game in GAMES else {}
    if draw(st.integers(0, 9)) == 0:
        return draw(VALUES)
    out: dict[str, Any] = {}
    for key in draw(st.lists(st.sampled_from(sorted(known) or ["x"]), max_size=3, unique=True)):
        default = known.get(key)
        out[key] = draw(st.one_of(st.just(default), VALUES,
                                  NUMBERS if isinstance(default, (int, float)) else VALUES))
    if draw(st.integers(0, 5)) == 0:
        out[draw(TEXTS)] = draw(VALUES)
    return out


@st.composite
def played(draw, game: str, players: list[str], opts: Any, seed: Any, limit: int = 40
           ) -> list[Any]:
    """Actions for a game: legal ones drawn from ``legal_actions`` (measurements filled by a
    seeded rng or bent), now and then one with a field replaced or made up entirely."""
    actions: list[Any] = []
    try:
        state = GAMES[game].new_game(list(players), opts, seed)
    except Exception:  # refused (or an engine bug the target will meet): any actions will do
        return draw(st.lists(VALUES, max_size=3))
    rng = random.Random(draw(st.integers(0, 2**16)))
    for _ in range(draw(st.integers(0, limit))):
        waiting = list(state.waiting_for())
        legal = [a for p in waiting for a in state.legal_actions(p)]
        kind = draw(st.integers(0, 19))
        if not legal or kind == 0:
            action: Any = draw(st.one_of(VALUES, st.dictionaries(
                st.sampled_from(["type", "player", "card", "target", "grams"]), VALUES,
                max_size=4)))
        else:
            action = complete(GAMES[game], draw(st.sampled_from(legal)), rng)
            if kind == 1 and action:  # bend one field
                key = draw(st.sampled_from(sorted(action)))
                action = {**action, key: draw(VALUES)}
        actions.append(action)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            continue
        try:
            state, _ = state.apply(action)
        except GameError:
            pass
        except Exception:  # an engine bug: leave it for the target under test to meet
            break
        if state.is_over:
            break
    return actions


PEOPLE = ["Alexandra", "Melanie", "Ulrike", "Birgit", "Sarah", "Ines", "Jana", "Kim", "Lea",
          "Mia", "Nora"]


@st.composite
def headers(draw, games: Any = None, good: bool | None = None) -> dict[str, Any]:
    """A header as a link ``new`` or a replay document carries it: in two cases of three one
    that starts a game (so the actions reach the engines), otherwise bent somewhere. ``games``:
    the names to choose from (default: every engine); ``good=True``: always a usable one."""
    good = draw(st.integers(0, 2)) > 0 if good is None else good
    names = sorted(games if games is not None else GAMES)
    game = draw(st.sampled_from(names)) if good or draw(st.integers(0, 4)) else draw(TEXTS)
    info = GAMES.get(game)
    low, high = (info.min_players, info.max_players) if info else (0, 4)
    if good:
        count = draw(st.integers(low, min(high, len(PEOPLE))))
        players = draw(st.lists(st.sampled_from(PEOPLE), min_size=count, max_size=count,
                                unique=True))
        known = defaults(game)
        opts = {k: known[k] for k in draw(st.lists(st.sampled_from(sorted(known) or ["-"]),
                                                   max_size=2, unique=True)) if k in known}
        return {"game": game, "players": players, "options": opts,
                "seed": draw(st.integers(0, 2**31))}
    count = draw(st.integers(max(0, low - 1), high + 1))
    players = draw(st.one_of(
        st.lists(st.sampled_from(PEOPLE), min_size=count, max_size=count, unique=True),
        st.lists(NAMES, min_size=count, max_size=count)))
    doc: dict[str, Any] = {"game": game, "players": players,
                           "options": draw(options(game)), "seed": draw(st.one_of(
                               st.integers(0, 2**31), NUMBERS))}
    if draw(st.integers(0, 2)) == 0:  # a field missing or replaced by anything
        key = draw(st.sampled_from(sorted(doc)))
        if draw(st.booleans()):
            del doc[key]
        else:
            doc[key] = draw(VALUES)
    return doc


@st.composite
def documents(draw) -> str:
    """A replay document as text."""
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return draw(st.one_of(st.text(CHARS, max_size=40), DEEP.map(to_text)))
    if kind == 1:
        return to_text(draw(VALUES), draw(st.booleans()))
    doc = draw(headers())
    header_ok = (isinstance(doc.get("game"), str) and doc["game"] in GAMES
                 and isinstance(doc.get("players"), list)
                 and all(isinstance(p, str) for p in doc["players"])
                 and isinstance(doc.get("seed", 0), int))
    doc["actions"] = (draw(played(doc["game"], doc["players"], doc.get("options"),
                                  doc.get("seed", 0))) if header_ok else draw(VALUES))
    return to_text(doc, draw(st.booleans()))
