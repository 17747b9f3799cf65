"""Tante Trudels Trödel's pure helpers: the shop's rows (TT1), the set-up options, the verdict of a
weighing and the final comparison (TT5-TT7), and what the table may see of a game
(``public_view``). Internal to ``tante_trudels_troedel``.

The shop is a 5x5 grid of counters; the 20 rows round its edge are numbered 1-20 clockwise from
the entrance (0); 21 stands for the weighing. A row faces one line of five counters, and the row on
the opposite side faces the same line from its other end (rows 1-5 face the lines rows 15-11 face,
rows 6-10 those of rows 20-16), so a coupon lying on a line can be reached from either end.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from .core import Event, Option, SetupError, check_options, compare_grams, ranking

ROWS = 20
WEIGHING = ROWS + 1
LINES = 10
GOALS = ("standard", "heaviest", "lightest")
OPTIONS = (
    Option("potd_maker", None, "Purchase roll", kind="player",
           hints=("rolls the 3 dice",), ruling="TT2"),
    Option("first", None, "Who starts", kind="player", hints=("plays first",), ruling="TT3"),
    Option("scale_rows", (8, 18), "Scales on row", tuple(range(1, ROWS + 1)), kind="list",
           hints=("the scales icon row",), ruling="TT1"),
    Option("goal", "standard", "Goal", GOALS, ("normal", "heaviest", "lightest"),
           ("just under Purchase", "heaviest basket wins", "lightest basket wins"), ruling="TT7"),
    Option("tie_band_g", 0.05),
)


def line_of(row: int) -> int:
    """The counter line (0-9) that row ``row`` (1-20) faces; opposite rows share a line (TT1)."""
    side, i = divmod(row - 1, 5)
    return (i, 5 + i, 4 - i, 9 - i)[side]


def verdict(grams: float, potd: float, band: float) -> str:
    """What the beam balance would show against the Purchase of the Day: ``balanced`` within the
    tie band, else ``lighter`` or ``heavier`` (TT5)."""
    return ("lighter", "balanced", "heavier")[compare_grams(grams, potd, band) + 1]


def candidate(grams: float, potd: float, band: float, goal: str) -> bool:
    """TT6: in the standard game a basket counts only if lighter than the Purchase of the Day by
    more than the tie band; in the kids' variants (TT7) every basket counts."""
    return goal != "standard" or compare_grams(grams, potd, band) < 0


def groups(baskets: Mapping[str, float], potd: float, band: float, goal: str
           ) -> list[list[str]]:
    """The baskets best first, in groups that share a place: each group holds the baskets within
    the tie band of its best one and of the same kind (candidate or not). Standard (TT6): the
    candidates heaviest first, then the rest lightest first; ``heaviest``/``lightest`` (TT7)."""
    names = list(baskets)
    if goal == "standard":
        fits = [p for p in names if candidate(baskets[p], potd, band, goal)]
        order = (sorted(fits, key=lambda p: -baskets[p]) +
                 sorted((p for p in names if p not in fits), key=lambda p: baskets[p]))
    else:
        sign = -1 if goal == "heaviest" else 1
        order = sorted(names, key=lambda p: sign * baskets[p])
    out: list[list[str]] = []
    for p in order:
        if out:
            head = out[-1][0]
            if (candidate(baskets[p], potd, band, goal) == candidate(baskets[head], potd, band, goal)
                    and compare_grams(baskets[p], baskets[head], band) == 0):
                out[-1].append(p)
                continue
        out.append([p])
    return out


def winners(baskets: Mapping[str, float], potd: float, band: float, goal: str) -> list[str]:
    """TT6/TT7: the first group, if it holds candidates (no candidate, no winner)."""
    first = groups(baskets, potd, band, goal)[0]
    return first if candidate(baskets[first[0]], potd, band, goal) else []


def standings(baskets: Mapping[str, float], potd: float, band: float, goal: str
              ) -> list[tuple[int, str, float]]:
    """(rank, player, grams) best first (``baskets`` in seat order): a group shares a rank."""
    place = {p: i for i, group in enumerate(groups(baskets, potd, band, goal)) for p in group}
    return ranking((p, -place[p], g) for p, g in baskets.items())


def final(players: Sequence[str], baskets: Mapping[str, float], potd: float, band: float,
          goal: str) -> tuple[tuple[str, ...], list[Event]]:
    """The winners in seat order and the reveal: every gram figure, then who wins (TT6, TT7)."""
    best = winners(baskets, potd, band, goal)
    won = tuple(p for p in players if p in best)
    text = " & ".join(won) + (" wins" if len(won) == 1 else " win") if won else "Nobody wins"
    return won, [Event("reveal", f"Purchase of the Day: {potd:.1f} g",
                       {"potd_g": potd, "baskets": dict(baskets),
                        "results": {p: verdict(g, potd, band) for p, g in baskets.items()}}),
                 Event("winner", text, {"players": list(won)})]


MAX_GRAMS = 1e6  # no pan weighs a tonne: a larger "reading" is a broken message


def grams_ok(value: Any, positive: bool) -> bool:
    """A scale reading: a finite number of grams below a tonne, above 0 where ``positive``
    (the range first: a huge int cannot become a float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return (0 < value if positive else 0 <= value) and value < MAX_GRAMS and math.isfinite(value)


def check_setup(names: Sequence[str], options: Any) -> dict[str, Any]:
    """The options checked and completed (players default to the first seat)."""
    opts = check_options(options, OPTIONS)
    rows = opts["scale_rows"]
    if (not isinstance(rows, (list, tuple))
            or not all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= ROWS
                       for r in rows) or len(set(rows)) != len(rows)):
        raise SetupError("scale_rows: rows 1-20")
    opts["scale_rows"] = tuple(sorted(rows))
    for key in ("potd_maker", "first"):
        if opts[key] is None:
            opts[key] = names[0]
        elif opts[key] not in names:
            raise SetupError("{option}: one of the players", option=key)
    band = opts["tie_band_g"]
    if not grams_ok(band, positive=False) or band > 10:
        raise SetupError("tie_band_g: 0 to 10 g")
    opts["tie_band_g"] = float(band)
    if opts["goal"] not in GOALS:
        raise SetupError("goal: standard, heaviest or lightest")
    return opts


def public_view(game: Any) -> dict[str, Any]:
    """What the table may see of a game (TT2): every gram figure only once it is over; where
    the roll reaches while a move waits (TT4), each row's coupons, the standings."""
    over = game.is_over
    reach = None
    if game.stage == "move" and game.turn and game.roll:
        here = game.position[game.turn]
        reach = {"forward": min(here + game.roll, WEIGHING),
                 "back": here - game.roll if game.can_move_back() else None}
    return {
        "game": game.game,
        "phase": game.phase,
        "turn": game.turn if game.phase == "play" else None,
        "stage": game.stage,
        "roll": game.roll,
        "reach": reach,
        "acted": game.acted,
        "paid": game.paid,
        "waiting_for": list(game.waiting_for()),
        "last_weigh": game.last_weigh,
        "last_weigh_by": game.last_weigh_by,
        "potd_maker": game.potd_maker,
        "first": game.first,
        "potd_rows": list(game.potd_rows),
        "potd_g": game.potd_g if over else None,
        "scale_rows": list(game.scale_rows),
        "goal": game.goal,
        "shop_coupons": [game.coupons_at(r) for r in range(1, ROWS + 1)],
        "players": [
            {"name": p, "position": game.position[p],
             "arrival": game.arrivals.index(p) + 1 if p in game.arrivals else None,
             "items": game.items[p], "coupons": game.coupons[p],
             "basket_g": game.basket_g[p] if over else None}
            for p in game.players
        ],
        "arrivals": list(game.arrivals),
        "winners": list(game.won_by),
        "standings": [list(row) for row in game.standings()],
    }
