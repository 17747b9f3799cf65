"""Every screen Tante Trudels Trödel can show, in German and English: nothing clipped, one thing a
page, no gram figure before the end, and the rules pages read from the game's menu."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from spielleiter.device import i18n
from spielleiter.device.modes import GAME_MODES
from spielleiter.device.modes.tante_trudels_troedel import rules
from spielleiter.device.modes.tante_trudels_troedel.pages import (event_pages, final_view,
                                                                   undo_pages)
from spielleiter.device.modes.tante_trudels_troedel.screens import (act_view, move_view,
                                                                     refusal_lines, roll_view,
                                                                     rolling_view, weigh_view)
from spielleiter.device.modes.tante_trudels_troedel.public import Public
from spielleiter.device.modes.tante_trudels_troedel.weighing import Job
from spielleiter.device.screen.render import View, crowded, misfits, wrap
from spielleiter.games.tante_trudels_troedel import new_game

LANGUAGES = ("de", "en")
LONG = "Maximiliane1"          # a name of the roster's longest (12 characters)
DECIMAL = re.compile(r"\d[.,]\d")


def seen(state) -> Public:
    """The game as the table sees it: what the screens take."""
    return Public.of(state.public())


@pytest.fixture(params=LANGUAGES)
def language(request):
    i18n.use(request.param)
    yield request.param
    i18n.use("en")


def shown(view: View) -> View:
    """A rules page as the game's menu shows it: with a footer."""
    return View(view.title, view.lines, view.big, footer="OK next  BACK back")


def check(views: list[View]) -> None:
    problems = [f"{misfits(v) or 'crowded'}\n{v.as_text()}" for v in views
                if misfits(v) or crowded(v)]
    assert not problems, "\n\n".join(problems)


# -- the rules -----------------------------------------------------------------------------------
def test_the_rules_are_three_to_six_pages_that_fit_and_say_one_thing(language):
    pages = rules.pages()
    assert 3 <= len(pages) <= 6
    check(pages + [shown(page) for page in pages])
    assert all(page.title for page in pages)


def test_the_rules_are_built_in_the_language_of_the_moment():
    i18n.use("de")
    try:
        german = [page.as_text() for page in rules.pages()]
    finally:
        i18n.use("en")
    english = [page.as_text() for page in rules.pages()]
    assert german != english and "[Das Ziel]" in german[0] and "[The goal]" in english[0]
    assert "0,05 g" in german[-1] and "0.05 g" in english[-1]


def test_the_rules_are_offered_on_the_games_menu():
    assert GAME_MODES["tante-trudels-troedel"].rules is rules.pages


# -- every screen of a game ----------------------------------------------------------------------
def play(players, actions):
    state = new_game(players, {}, 7)
    events = []
    for action in actions:
        state, events = state.apply(action)
    return state, events


def turn_screens(players) -> list[View]:
    first = players[0]
    potd = [{"type": "roll", "player": first, "value": v} for v in (6, 4, 3)]
    potd.append({"type": "weigh_potd", "player": first, "grams": 13.2})
    views: list[View] = []
    state, _ = play(players, [])
    for station in (True, False):
        for table_die in (True, False):
            views.append(roll_view(seen(state), first, station, table_die, 6))
    state, _ = play(players, potd)
    for station in (True, False):
        for table_die in (True, False):
            views.append(roll_view(seen(state), first, station, table_die, 3))
    views.append(rolling_view(first, 2))
    state, _ = play(players, potd + [{"type": "roll", "player": first, "value": 5}])
    views.append(move_view(seen(state), first, True, 0, ["forward"]))
    state, _ = play(players, potd + [{"type": "roll", "player": first, "value": 5},
                                     {"type": "move", "player": first, "direction": "forward"}])
    actions = state.legal_actions(first)
    views.append(act_view(seen(state), first, True, 0, actions))
    # every label the menu can show, the long ones with a long name
    labels = [{"type": t, "player": first, "coupon": c} for t in ("take", "return")
              for c in (False, True)]
    labels += [{"type": t, "player": first} for t in ("exchange", "weigh", "coupon_shop",
                                                       "end_turn")]
    labels += [{"type": "coupon_player", "player": first, "target": p} for p in players[1:]]
    views.append(act_view(seen(state), first, False, 0, labels))
    return views


def weigh_screens(players) -> list[View]:
    first = players[0]
    views = []
    for pans in (1, 2):
        basket, ref = ("right", "left") if pans == 2 else ("left", None)
        for job in (Job("potd", first, "left"), Job("weigh", first, basket, ref, 13.2, 1),
                    Job("weigh", first, basket, ref, 13.2, 3),
                    Job("basket", first, basket, ref, 13.2, 4),
                    Job("basket", first, basket, ref, 13.2, 0)):
            notes = ("", "empty") + (("potd_missing", "potd_extra") if job.ref else ())
            for station in (True, False):
                for stage, note, paused, heavy, low in [
                        ("clear", "", False, None, None), ("load", "", False, None, None),
                        ("load", "", True, None, None), ("load", "", False, job.pan, None),
                        ("clear", "", False, None, job.pan)] + \
                        [("wait", note, False, None, None) for note in notes]:
                    weigher = SimpleNamespace(job=job, stage=stage, note=note, paused=paused,
                                              silent=job.ref if paused else None, heavy=heavy,
                                              low=low)
                    views.append(weigh_view(weigher, station, pans,
                                            cancel=job.kind == "weigh"))
    return views


def end_screens(players, goal: str, baskets: dict) -> tuple[list[View], list[View]]:
    """(the pages on the way, the pages and screen of the end)."""
    state = new_game(players, {"goal": goal}, 7)
    before: list[View] = []

    def apply(action):
        nonlocal state
        state, events = state.apply(action)
        return [page.view for page in event_pages(events, seen(state), 2, "left")]

    for value in (6, 4, 3):
        before += apply({"type": "roll", "player": players[0], "value": value})
    before += apply({"type": "weigh_potd", "player": players[0], "grams": 13.2})
    while state.phase == "play":
        player = state.turn
        before += apply({"type": "roll", "player": player, "value": 6})
        before += apply({"type": "move", "player": player, "direction": "forward"})
        if state.turn == player and state.phase == "play":
            if any(a["type"] == "weigh" for a in state.legal_actions(player)):
                before += apply({"type": "weigh", "player": player, "grams": 12.0})
            else:
                before += apply({"type": "take", "player": player, "coupon": False})
            before += apply({"type": "end_turn", "player": player})
    end: list[View] = []
    for player in list(state.arrivals):
        pages = apply({"type": "weigh_basket", "player": player, "grams": baskets[player]})
        (end if state.is_over else before).extend(pages)
    return before, end + [final_view(seen(state))]


GAMES = [
    (("Anna", "Ben"), "standard", {"Anna": 12.8, "Ben": 13.1}),
    (("Anna", "Ben", "Carla"), "standard", {"Anna": 13.5, "Ben": 13.2, "Carla": 14.0}),
    ((LONG, "Ben", "Carla", "Dirk"), "standard",
     {LONG: 1.25, "Ben": 1.25, "Carla": 33.0, "Dirk": 13.19}),
    (("Anna", LONG), "heaviest", {"Anna": 12.8, LONG: 23.1}),
    (("Anna", "Ben", "Carla", LONG), "lightest", {"Anna": 2.8, "Ben": 3.1, "Carla": 4.0,
                                                  LONG: 5.0}),
]


@pytest.mark.parametrize("players,goal,baskets", GAMES)
def test_every_screen_fits_and_no_gram_shows_before_the_end(language, players, goal, baskets):
    before, end = end_screens(players, goal, baskets)
    views = turn_screens(players) + weigh_screens(players) + before
    check(views + end)
    assert any(v.big in ("LIGHTER", "LEICHTER") for v in before)
    assert not [v.as_text() for v in views if DECIMAL.search(v.as_text())]
    assert any(DECIMAL.search(v.as_text()) for v in end)


def test_a_long_winners_name_goes_in_a_line_and_a_short_one_in_big(language):
    _before, end = end_screens(("Anna", LONG), "heaviest", {"Anna": 12.8, LONG: 23.1})
    assert end[-1].big is None and end[-1].lines == (LONG,)
    _before, end = end_screens(("Anna", LONG), "heaviest", {"Anna": 33.8, LONG: 23.1})
    assert end[-1].big == "Anna" and end[-1].lines == ()


@pytest.mark.parametrize("players", [("Anna", "Ben"), (LONG, "Maximilian12")])
def test_every_undo_page_fits(language, players):
    first, second = players
    potd = [{"type": "roll", "player": first, "value": v} for v in (6, 4, 3)]
    state, _ = play(players, potd[:2])
    rolled, _ = play(players, potd)
    views = [page.view for page in undo_pages(potd[2], seen(rolled), seen(state), 2, "right",
                                              "left")]
    assert views[0].big.endswith(" 13")  # the row the undone roll had reached: 6 + 4 + 3 (TT1)
    state, _ = play(players, potd + [{"type": "weigh_potd", "player": first, "grams": 13.2}])
    kinds = [{"type": "move"}, {"type": "take", "coupon": False}, {"type": "take", "coupon": True},
             {"type": "return", "coupon": False}, {"type": "return", "coupon": True},
             {"type": "exchange"}, {"type": "coupon_shop"},
             {"type": "coupon_player", "target": second}, {"type": "weigh_potd"},
             {"type": "weigh_basket"}]
    for pans in (1, 2):
        for kind in kinds:
            pages = undo_pages({**kind, "player": first}, seen(state), seen(state), pans,
                               "right", "left")
            assert pages, kind
            views += [page.view for page in pages]
    assert undo_pages({"type": "end_turn", "player": first}, seen(state), seen(state), 2,
                      "right", "left") == []
    check(views)


def test_every_refusal_during_a_weighing_fits_a_short_message(language):
    """The reason shows as the box's short message: at most three wrapped lines."""
    views = []
    for pans, ref in ((1, None), (2, "left")):
        job = Job("weigh", "Anna", "right" if ref else "left", ref, 13.2, 2)
        reasons = ["paused", "clear", "wait", "empty", "load", "heavy", "low"] + \
            (["potd_missing", "potd_extra"] if ref else [])
        for reason in reasons:
            for station in (True, False):
                lines = refusal_lines(reason, job, pans, station)
                views.append(View("Spielleiter", tuple(p for line in lines for p in wrap(line))))
    check(views)
