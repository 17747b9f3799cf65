"""Bunte Runde's screens and rules pages as a child across the table reads them: every page fits
the OLED and says one thing, in German and English, for any players, set and game."""

from __future__ import annotations

import random
import re

import pytest

from spielleiter.device import i18n
from spielleiter.device.modes import MODES
from spielleiter.device.modes.bunte_runde import rules
from spielleiter.device.modes.bunte_runde.public import Public
from spielleiter.device.modes.bunte_runde.screens import (final_view, glyph, layout_pages,
                                                          move_pages, pick_view, piece_big,
                                                          piece_text, piece_view, put_back_pages)
from spielleiter.device.screen.render import View, crowded, misfits, render
from spielleiter.games.bunte_runde import new_game


def seen(state) -> Public:
    """The game as the table sees it: what the screens take."""
    return Public.of(state.public())

LONG = ["Maximilian", "Anna-Sophie", "Jo", "Fatima", "Konstantin", "Lea"]  # 10 and 11 letters
NO_SINGULAR_PLURAL = re.compile(r"(?<![\d+])1 (coins|steps|small coins)\b")


@pytest.fixture(autouse=True)
def english_afterwards():
    """The language is process-wide: leave every later test in English."""
    yield
    i18n.use("en")


def problems(view: View) -> list[str]:
    """What a child would trip over: clipped text, a crowded page, "1 coins"."""
    found = misfits(view) + (["crowded"] if crowded(view) else [])
    if NO_SINGULAR_PLURAL.search(view.as_text()):
        found.append("singular number with a plural word")
    return found


def games(players: int, set_name: str, seed: int):
    """Every state of one game played with random steps (or takes), with the events of each."""
    names = LONG[:players]
    layout = "free" if seed % 2 else None
    state = new_game(names, {"set": set_name, "layout": layout}, seed)
    rng = random.Random(seed)
    while not state.is_over:
        action = rng.choice(state.legal_actions(state.turn()))
        after, events = state.apply(action)
        yield state, after, events
        state = after


# -- the rules ------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["de", "en"])
def test_every_rules_page_fits_and_says_one_thing(language):
    i18n.use(language)
    pages = rules.pages()
    assert 3 <= len(pages) <= 6
    for page in pages:                                   # as the game's menu shows it
        shown = View(page.title, page.lines, page.big, footer="OK next  BACK back")
        assert not misfits(shown), shown.as_text()
        assert not crowded(shown), shown.as_text()
        assert page.title and page.lines


def test_the_rules_are_built_in_the_language_of_the_moment():
    i18n.use("de")
    german = [page.title for page in rules.pages()]
    i18n.use("en")
    english = [page.title for page in rules.pages()]
    assert english[0] == "Your turn" and german[0] == "Dein Zug"
    assert "Counting steps" in english and "Schritte zählen" in german


def test_the_rules_say_how_the_box_settles_what_the_rulebook_leaves_open():
    text = " ".join(" ".join(page.lines) for page in rules.pages())
    assert "gaps do not count" in text                   # B3
    assert "box says who swaps" in text                  # B5
    assert "Equal coins: all win" in text                 # B6
    assert "tell the box each piece" in text             # B7


def test_the_mode_offers_its_rules_in_the_game_menu():
    mode = next(m for m in MODES if m.name == "bunte-runde")
    assert mode.rules is rules.pages


# -- the lay-out walk -----------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("set_name", ["pieces", "tiles"])
def test_the_lay_out_shows_one_piece_a_screen_large(language, set_name):
    i18n.use(language)
    state = new_game(["Anna", "Ben"], {"set": set_name}, 3)
    pages = layout_pages(seen(state))
    assert len(pages) == len(state.pieces) + 2
    for view, piece in zip(pages[1:-1], state.pieces):
        assert view.big == piece_big(*piece) and len(view.lines) == 1
    assert pages[-1].big == piece_big(*state.pieces[0])  # the figure's start piece (B2)
    for view in pages:
        assert not problems(view), view.as_text()


def test_a_custom_layout_with_long_names_still_fits():
    names = [[f"colour{c}-long", f"shape{s}-long"] for c in range(6) for s in range(6)]
    state = new_game(["Anna", "Ben"], {"layout": names}, 0)
    for view in layout_pages(seen(state)):
        assert not problems(view), view.as_text()


# -- whole games: after each move, at the end, after each undo ------------------------------------
@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("players,set_name", [(2, "tiles"), (3, "pieces"), (5, "tiles"),
                                              (6, "pieces")])
def test_every_page_of_whole_games_fits_and_says_one_thing(language, players, set_name):
    i18n.use(language)
    for seed in range(4):
        for before, after, events in games(players, set_name, seed):
            views = [page.view for page in move_pages(events, seen(after))]
            views += put_back_pages(seen(after), seen(before))       # undoing this move
            for view in views:
                assert not problems(view), view.as_text()
        for page in range(4):
            view = final_view(seen(after), page)
            assert not problems(view), view.as_text()


def test_undo_pages_name_the_piece_the_figure_and_the_coins_of_every_move():
    for before, after, events in games(3, "pieces", 2):  # an even seed: a dealt circle
        pages = put_back_pages(seen(after), seen(before))
        taken = events[0].data
        assert pages[0].big == piece_big(taken["colour"], taken["shape"])
        assert pages[1].title in ("Figure back", "Figure back onto")
        assert pages[1].big == piece_big(*before.pieces[before.figure])
        scored = {e.data["value"] for e in events if e.kind == "scoring"}
        assert any(p.title == "Coins to the pot" for p in pages) == bool(scored)


def test_the_end_shows_the_final_coins_then_the_winner():
    *_, (before, after, events) = games(4, "pieces", 0)
    pages = move_pages(events, seen(after))
    assert [p.view.title for p in pages][-2:] == ["Coins at the end"] * 2
    assert sum(len(p.view.lines) for p in pages[-2:]) == 4
    winner = final_view(seen(after))
    assert winner.title in ("Winner!", "Shared win!")
    assert winner.footer == "NEXT coins  OK menu"
    assert [final_view(seen(after), n).title for n in (1, 2, 3)] == [
        "Coins at the end", "Coins at the end", winner.title]


def test_a_long_winners_name_goes_in_small_type():
    state = new_game(["Anna-Sophie", "Ben"], {"set": "tiles", "layout": "free"}, 0)
    state.won_by, state.phase = ("Anna-Sophie",), "over"
    view = final_view(seen(state))
    assert view.big is None and view.lines == ("Anna-Sophie", "0 coins")
    assert not problems(view)


def test_the_end_coins_share_players_out_evenly_over_the_pages():
    from spielleiter.device.modes.bunte_runde.screens import chunks

    assert [len(page) for page in chunks(["a", "b", "c", "d"])] == [2, 2]
    assert [len(page) for page in chunks(list("abcde"))] == [3, 2]
    assert [len(page) for page in chunks(list("abcdefg"))] == [3, 2, 2]
    assert [len(page) for page in chunks(list("abc"))] == [3]
    assert chunks([]) == [()]


# -- the pickers' keys and the animals --------------------------------------------------------------
@pytest.mark.parametrize("language", ["de", "en"])
def test_both_pickers_give_each_key_one_verb_and_their_footers_fit(language):
    from spielleiter.device import glossary

    i18n.use(language)
    takes = [{"colour": "red", "shape": "bird"}, {"colour": "red", "shape": "cat"},
             {"colour": "blue", "shape": "fish"}]
    views = [pick_view("Ann", station, takes, colour, 0)
             for station in (True, False) for colour in (None, "red")]
    for view in views:
        assert not misfits(view), view.footer
        assert glossary.misused(view.footer) == []
    move, pick = i18n._("NEXT move").split()[1], i18n._("OK pick").split()[1]
    for view in views:                  # A moves as NEXT does, B picks as OK does, C goes back
        words = view.footer.split()
        said = {key.split("/")[0]: word for key, word in zip(words[::2], words[1::2])}
        if "A" in said:
            assert said["A"] == move and said["B"] == pick
            assert said.get("C", i18n._("back")) == i18n._("back")
        else:
            assert said["NEXT"] in (move, "OK") and pick in view.footer


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_animals_are_drawn_as_animals_large_and_small(language):
    from support import assert_frame

    i18n.use(language)
    animals = ("cat", "dog", "fish", "bird", "frog")
    small = View(" ".join(glyph(a) for a in animals),
                 tuple(piece_text("red", a) for a in animals[2:]))
    assert_frame(render(small), f"bunte_runde/animals_small_{language}")
    bird = piece_view("Ann", ("purple", "bird"))
    assert bird.big.startswith(glyph("bird"))
    assert_frame(render(bird), f"bunte_runde/animal_bird_{language}")
