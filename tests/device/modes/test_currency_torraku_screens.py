"""Currency Torraku's screens and rules pages: every one fits the OLED and says one thing, in
German and English, in words a child reads; undo says what to put back."""

from __future__ import annotations

import re

import pytest

from spielleiter.device import i18n
from spielleiter.device.modes.currency_torraku import MODE, rules
from spielleiter.device.modes.currency_torraku.public import Public
from spielleiter.device.modes.currency_torraku.screens import (
    bid_view, bids_view, declare_label, declare_view, event_pages, final_view, keys_view,
    learn_view, learned_view, overview_pages, rows_view, stack_view, undo_view)
from spielleiter.device.screen.render import View, crowded, misfits
from spielleiter.games.currency_torraku import KINDS, new_game


def seen(state) -> Public:
    """The game as the table sees it: what the screens take."""
    return Public.of(state.public())

LONG = ["Alexandra", "Maximilian", "Ben", "Charlotte", "Emil", "Josephine"]
JARGON = re.compile(r"\b1 (pieces|Teile)\b|binding|verbindlich|\bC[1-4]\b|\d\. /|declare|"
                    r"\bhost\b|[A-C][-+] ")


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def with_footers(view: View) -> list[View]:
    """The view as the game menu shows a rules page: with its footer (less room)."""
    return [view] + [View(view.title, view.lines, view.big, footer=f)
                     for f in (i18n._("OK next  BACK back"), i18n._("OK done  BACK back"))]


def played(players=LONG):
    """A game with bids, draws from the bag, a collapse, round ends and a winner: (state,
    events) after each action. Each bids what they own (or matches the top bid from the bag)."""
    state = new_game(players, {}, 7)
    seen = [(state, [])]
    collapsed = False
    while not state.is_over:
        player = state.turn()
        legal = state.legal_actions(player)
        if state.phase == "bid":
            bids = [a for a in legal if a["type"] == "bid"]
            mine = [a for a in bids if a["count"] <= state.pieces[player]]
            passing = [a for a in legal if a["type"] == "pass"]
            action = (passing[0] if state.bids[player] is not None and passing
                      else mine[-1] if mine else bids[0] if bids else passing[0])
        elif len(state.stack) == 2 and not collapsed:
            action, collapsed = {"type": "collapse", "player": player}, True
        else:
            kinds = [a for a in legal if a["type"] == "place" and "piece" in a]
            action = kinds[0] if kinds else legal[0]
        state, events = state.apply(action)
        seen.append((state, events))
        assert len(seen) < 500
    return seen


def every_view(players=LONG) -> list[View]:
    views = [keys_view(), *rules.pages()]
    for state, events in played(players):
        views += [page.view for page in event_pages(events, seen(state))]
        if state.is_over:
            views.append(final_view(seen(state)))
            continue
        player = state.turn()
        if state.phase == "bid":
            for count in {a["count"] for a in state.legal_actions(player) if a["type"] == "bid"}:
                views += [bid_view(seen(state), player, count, True), bid_view(seen(state), player, count,
                                                                          False)]
            views.append(bid_view(seen(state), player, None, True, passing=True))
            views += [bids_view(seen(state), page) for page in range(overview_pages(seen(state)))]
        else:
            views += [stack_view(seen(state), True), stack_view(seen(state), False)]
            views += [rows_view(seen(state), page) for page in range(overview_pages(seen(state)))]
            labels = [declare_label(a) for a in state.legal_actions(player)]
            views.append(declare_view(labels, 0, player))
    for kind in KINDS:
        views.append(learn_view(kind, 2, 3))
    views.append(learned_view({"truck": 12.0, "washing_machine": 7.5, "rice_cooker": 4.0}, True))
    views.append(learned_view({"truck": 12.0, "washing_machine": 7.5, "rice_cooker": 4.0}, False))
    shared = new_game(["Ann", "Bo"], {}, 1)
    shared.phase, shared.won_by = "over", ("Ann", "Bo")
    views.append(final_view(seen(shared)))
    return views


@pytest.mark.parametrize("language", ["de", "en"])
def test_rules_pages_fit_say_one_thing_and_are_three_to_six(language):
    i18n.use(language)
    pages = rules.pages()
    assert 3 <= len(pages) <= 6 and MODE.rules is rules.pages
    for page in pages:
        for view in with_footers(page):
            assert misfits(view) == [], view.as_text()
            assert not crowded(view), view.as_text()
        assert not JARGON.search(page.as_text()), page.as_text()


def test_rules_pages_are_built_in_the_language_of_the_moment():
    i18n.use("de")
    german = [page.title for page in rules.pages()]
    i18n.use("en")
    english = [page.title for page in rules.pages()]
    assert "Das Ziel" in german and "The goal" in english and german != english


def test_rules_say_how_the_box_plays_it():
    text = "\n".join(page.as_text() for page in rules.pages())
    for words in ("hold B: pass", "The box", "weighs", "Press A", "Who starts must bid",
                  "from the bag", "after a round"):
        assert words in text, words


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_screen_fits_says_one_thing_and_has_no_jargon(language):
    i18n.use(language)
    problems = []
    for view in every_view():
        text = view.as_text()
        if misfits(view):
            problems.append(f"{misfits(view)}\n{text}")
        if crowded(view):
            problems.append(f"crowded\n{text}")
        if JARGON.search(text):
            problems.append(f"jargon\n{text}")
    assert not problems, "\n\n".join(problems)


def test_the_end_shows_the_standings_then_the_winner():
    state, events = played()[-1]
    assert state.is_over
    pages = [page.view for page in event_pages(events, seen(state))]
    assert pages[0].title == "Round over" and pages[0].lines == ("into the bag",)
    standings = [p for p in pages if p.title == "Pieces left"]
    assert len(standings) == 2 and all(len(p.lines) <= 3 for p in standings)
    winners = state.winners()
    assert standings[0].lines[0].startswith(f"1. {winners[0]}")
    assert standings[0].lines[0].endswith(" 0 pieces")
    end = final_view(seen(state))
    assert end.title == "Shared win!" and ", ".join(end.lines) == ", ".join(winners)
    state.won_by = winners[:1]
    end = final_view(seen(state))
    assert end.title == "Game over" and end.big == winners[0]
    assert end.lines == ("wins: no pieces left",)


def test_one_piece_is_said_in_the_singular_in_both_languages():
    state = new_game(["Ann", "Bo"], {}, 1)
    state, _ = state.apply({"type": "bid", "player": "Ann", "count": 1})
    state, _ = state.apply({"type": "pass", "player": "Bo"})
    state, _ = state.apply({"type": "pass", "player": "Ann"})
    assert stack_view(seen(state), True).lines == ("1 piece still to go",)
    i18n.use("de")
    assert stack_view(seen(state), True).lines == ("noch 1 Teil",)
    state, events = state.apply({"type": "place", "player": "Ann", "piece": "truck"})
    assert [p.view.big for p in event_pages(events, seen(state))][0] == "1 Teil"


# -- undo ----------------------------------------------------------------------------------------
def test_undo_of_a_bid_says_how_many_come_back_from_the_row():
    state = new_game(["Ann", "Bo"], {}, 1)
    view = undo_view({"type": "bid", "player": "Ann", "count": 4}, seen(state))
    assert view.title == "Ann: take back" and view.big == "4 pieces"
    assert view.lines == ("from your row",) and view.footer == "OK: done"
    raised, _ = state.apply({"type": "bid", "player": "Ann", "count": 2})
    raised, _ = raised.apply({"type": "bid", "player": "Bo", "count": 3})
    view = undo_view({"type": "bid", "player": "Ann", "count": 5}, seen(raised))
    assert view.big == "3 pieces"                      # from 5 back to her earlier 2


def test_undo_of_a_bid_that_drew_from_the_bag_sends_them_back_into_the_bag():
    state = new_game(["Ann", "Bo"], {}, 1)
    state.pieces["Bo"] = 8
    state, _ = state.apply({"type": "bid", "player": "Ann", "count": 10})
    view = undo_view({"type": "bid", "player": "Bo", "count": 10}, seen(state))
    assert view.big == "10 pieces" and view.lines == ("2 go into the bag",)
    i18n.use("de")
    assert undo_view({"type": "bid", "player": "Bo", "count": 9}, seen(state)).lines == \
        ("1 in den Beutel",)


def test_undo_of_a_place_a_collapse_and_a_pass_says_what_goes_where():
    state = new_game(["Ann", "Bo"], {}, 1)
    for action in ({"type": "bid", "player": "Ann", "count": 3},
                   {"type": "pass", "player": "Bo"}, {"type": "pass", "player": "Ann"},
                   {"type": "place", "player": "Ann", "piece": "truck"},
                   {"type": "place", "player": "Ann"}):
        state, _ = state.apply(action)
    place = undo_view({"type": "place", "player": "Ann", "piece": "truck"}, seen(state))
    assert place.title == "Ann: take back" and place.big == "truck"
    assert place.lines == ("off the stack",)
    assert undo_view({"type": "place", "player": "Ann"}, seen(state)).big == "1 piece"
    fell = undo_view({"type": "collapse", "player": "Ann"}, seen(state))
    assert fell.title == "Ann: put back" and fell.big == "2 pieces"
    assert fell.lines == ("onto the stack",)
    passed = undo_view({"type": "pass", "player": "Bo"}, seen(state))
    assert passed.big == "Bo" and passed.lines == ("bids again",)
    for language in ("de", "en"):
        i18n.use(language)
        for view in (place, fell, passed, undo_view({"type": "drop", "player": "Ann"}, seen(state))):
            assert misfits(view) == [] and not crowded(view)


def test_the_overview_shows_every_player_three_a_page():
    state = new_game(LONG, {}, 1)
    state, _ = state.apply({"type": "bid", "player": "Alexandra", "count": 2})
    state, _ = state.apply({"type": "pass", "player": "Maximilian"})
    first, second = bids_view(seen(state), 0), bids_view(seen(state), 1)
    assert first.lines[0].endswith("bids 2") and first.lines[1].endswith("0, passed")
    assert first.footer == "NEXT more" and second.footer == "NEXT back"
    assert len(first.lines + second.lines) == 6 and overview_pages(seen(state)) == 2
    assert second.lines[-1].startswith("Josephine") and second.lines[-1].endswith("no bid yet")
    for p in LONG[2:]:
        state, _ = state.apply({"type": "pass", "player": p})
    state, _ = state.apply({"type": "pass", "player": "Alexandra"})
    rows = rows_view(seen(state), 0)
    assert rows.title == "Stack: 0 pieces" and rows.lines[0].endswith("2 to go")
