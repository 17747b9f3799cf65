"""Tatort Tonne's screens for a family without a manual: every screen fits with the longest names
in German and English, the rules pages, the end with the standings, a reason for every refused
press, and an undo that says what to put back and who acts again."""

from __future__ import annotations

import pytest

from spielleiter.device import i18n
from spielleiter.device.modes import GAME_MODES
from spielleiter.device.modes.base import handover_view
from spielleiter.device.modes.tatort_tonne import pages as tt_pages
from spielleiter.device.modes.tatort_tonne import rules, screens as tt_screens
from spielleiter.device.modes.tatort_tonne.public import Public
from spielleiter.device.modes.tatort_tonne.referee import COUNTDOWN_S
from spielleiter.device.screen.render import crowded, misfits
from spielleiter.games.tatort_tonne import new_game

from support import build_box
from spielleiter.device.cli.demo import play
from spielleiter.device.modes.tatort_tonne.demo import script
from test_tatort_tonne_referee import (EXAMPLE_PLAYERS, actions, example_choices,
                                       example_round_pointed, host_pick, open_game, start_game)

LONG = ["Maximilianne", "Konstantinos", "Bartholomäus", "Friederike-A", "Wilhelmina-B",
        "Josephine-An", "Anastasia-Lu", "Christophoru", "Alexandrina1", "Kunigunde-Ma"]
assert all(len(name) == 12 for name in LONG)  # the roster's longest names (MAX_NAME)


def seen(state) -> Public:
    """The game as the table sees it: what the screens take."""
    return Public.of(state.public())


@pytest.fixture
def box_factory(fast_game_box_factory):
    return fast_game_box_factory


@pytest.fixture(autouse=True)
def english_afterwards():
    """The language is process-wide: leave every later test in English."""
    yield
    i18n.use("en")


def problems(views) -> list[str]:
    return [f"{view.as_text()}: {misfits(view) or 'crowded'}" for view in views
            if misfits(view) or crowded(view)]


def play_round(state, choices, targets=None):
    """Apply every choice, then every accuser's target, to a pure engine state."""
    events = []
    for player, card in choices.items():
        state, events = state.apply({"type": "choose", "player": player, "card": card})
    for player, target in (targets or {}).items():
        state, events = state.apply({"type": "point", "player": player, "target": target})
    return state, events


# -- every screen fits, with the longest names, in both languages ---------------------------------
@pytest.mark.parametrize("language", ["de", "en"])
def test_every_screen_fits_with_ten_players_of_the_longest_names(language):
    i18n.use(language)
    names = LONG
    views = [tt_screens.choose_view(12, 10, 10, names[0]), tt_screens.choose_view(12, 9, 10, None),
             handover_view(names[1]), handover_view("Ann"),
             tt_screens.ready_view(names[:9]), tt_screens.ready_view(names[:1]),
             tt_screens.countdown_view(names[:9], 3), tt_screens.countdown_view(names[:9], 0),
             tt_screens.point_view(names[2], True), tt_screens.point_view(names[2], False),
             tt_screens.pick_view(names[0], names[1:] + [None], 9)]
    state = new_game(names, {"trash": 10})
    # everybody steals but the last, who accuses the first: a catch, eight trash, a round
    choices = {p: "steal" for p in names[:-1]} | {names[-1]: "accuse"}
    state, events = play_round(state, choices, {names[-1]: names[0]})
    views += tt_pages.reveal_pages(events, seen(state))
    state2, events2 = play_round(state, {p: "steal" for p in state.still_in()})
    views += tt_pages.reveal_pages(events2, seen(state2))        # the pile runs out: a shared win
    assert state2.is_over
    views += [tt_pages.winner_view(seen(state2)), tt_pages.standings_view(seen(state2))]
    views += tt_pages.undo_pages(seen(state2), seen(state), {"type": "choose", "player": names[-1]})
    assert not problems(views), "\n\n".join(problems(views))


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_rules_pages_fit_and_each_says_one_thing(language):
    i18n.use(language)
    shown = rules.pages()
    assert 3 <= len(shown) <= 6
    assert not problems(shown), "\n\n".join(problems(shown))


def test_the_rules_are_wired_and_follow_the_language():
    assert GAME_MODES["tatort-tonne"].rules is rules.pages
    english = [view.as_text() for view in rules.pages()]
    i18n.use("de")
    german = [view.as_text() for view in rules.pages()]
    assert all(e != g for e, g in zip(english, german))
    assert any("ZEIGT" in page for page in german)


def test_the_rules_say_how_the_box_settles_T2_T3_T5_T6():
    text = " ".join(" ".join((v.title, *v.lines)) for v in rules.pages())
    assert "Press again" in text                                  # T2: change until all chose
    assert "nobody" in text                                       # T3: point at nobody
    assert "Only they play on" in text                            # T5: the play-off
    assert "most trash wins" in text and "shares" in text         # T6: the empty pile


# -- choosing -------------------------------------------------------------------------------------
def test_the_buttons_show_until_the_first_card_then_the_count(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    view = box.last_view
    assert view.title == "Round 1: choose!" and view.big is None
    assert [line.strip() for line in view.lines] == [
        "A Steal trash", "B You did it!", "C Airtight alibi"]
    assert view.footer == "OK: Birgit's turn"                     # the hot seat, in words
    box.tap("s2.B")
    assert box.last_view.big == "4 of 5" and box.last_view.lines == ("have not chosen yet",)


def test_the_hand_over_names_the_player_large(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    box.tap("host.ok")
    view = box.last_view
    assert (view.title, view.big, view.lines) == ("Pass the box to", "Birgit",
                                                  ("Others: look away!",))


# -- pointing --------------------------------------------------------------------------------------
def test_ok_opens_the_list_back_closes_it_and_nobody_is_last(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    example_choices(box)
    assert box.last_view.lines[0] .startswith("Get ready to point")
    box.idle(COUNTDOWN_S)
    assert box.last_view.lines == ("Was it you? Press!", "Nobody? Melanie: C")
    box.tap("host.ok")
    assert box.last_view.lines == ("Alexandra", "Ulrike", "Birgit", "Sarah", "Nobody")
    box.tap("host.back")
    assert box.last_view.footer == "OK: pick at the box" and box.app.mode == "game"
    host_pick(box, 4)                                             # Melanie pointed at nobody
    assert box.app.session.actions[-1] == {"type": "point", "player": "Melanie", "target": None}


# -- refused presses say why -----------------------------------------------------------------------
def test_a_host_key_during_the_countdown_says_wait(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    example_choices(box)
    box.tap("host.ok")
    assert "Wait for POINT!" in box.last_view.as_text() and box.app.mode == "game"


def test_a_station_during_the_reveal_is_told_to_wait_for_ok(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    example_round_pointed(box)
    assert box.app.referee.pages
    before = actions(box)
    box.tap("s1.A")
    assert actions(box) == before and "Wait: OK at the box" in box.last_view.as_text()


def test_the_accuser_pressing_a_or_b_is_told_who_presses(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    example_choices(box)
    box.idle(COUNTDOWN_S)
    box.tap("s2.A")                                               # Melanie is the one asked
    text = box.last_view.as_text()
    assert "Not you, Melanie!" in text and "Nobody? Press C." in text
    assert "error" in box.beeper.played


def test_ok_while_choosing_without_hot_seats_says_where_to_choose(box_factory):
    box = box_factory(EXAMPLE_PLAYERS[:3])
    open_game(box)
    while box.app.screens.setup.players != 3:
        box.tap("host.next")
    for _ in range(3):
        box.tap("host.ok")
    assert box.app.mode == "game"
    box.tap("host.ok")
    assert "Choose with your own" in box.last_view.as_text()
    assert actions(box) == 0


def test_next_on_the_hand_over_says_ok_shows_the_cards(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    box.tap("host.ok")
    box.tap("host.next")
    assert "OK shows the cards." in box.last_view.as_text()
    assert box.app.referee.hot.stage == "privacy"


def test_back_after_a_hot_seat_card_is_down_says_ok_goes_on(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    start_game(box)
    for key in ("host.ok", "host.ok", "host.ok"):                 # Birgit steals
        box.tap(key)
    box.tap("host.back")
    assert "The card is down." in box.last_view.as_text() and box.app.mode == "game"
    assert box.app.session.state.choices == {"Birgit": "steal"}


def test_a_station_after_the_end_is_told_the_game_is_over(box_factory):
    box = box_factory(["a", "b"])
    open_game(box)
    while box.app.screens.setup.players != 2:
        box.tap("host.next")
    for _ in range(3):
        box.tap("host.ok")
    box.tap("s1.B")
    box.tap("s2.A")
    box.idle(COUNTDOWN_S)
    box.tap("s2.C")                                               # b caught: a wins
    box.idle(30)
    box.tap("s1.A")
    assert "The game is over" in box.last_view.as_text()


# -- the end: the winner with the sound, then everybody's place ------------------------------------
def test_the_win_sound_plays_with_the_winner_then_ok_shows_the_standings(tmp_path):
    steps = list(script())[:-3]               # the demo up to the last round's reveal, unread
    with build_box(tmp_path, list(EXAMPLE_PLAYERS), pans=False) as box:   # pages wait for OK
        play(box, iter(steps))
        assert box.app.referee.pages
        while box.app.referee.pages:
            assert "win" not in box.beeper.played             # not over the reveal
            box.tap("host.ok")
        view = box.last_view
        assert (view.title, view.big, view.lines) == ("The winner is", "Sarah", ("3 trash cards",))
        assert box.beeper.played[-1] == "win"
        box.tap("host.ok")
        assert box.last_view.title == "Standings"
        assert [line.split() for line in box.last_view.lines] == [
            ["1.", "Sarah", "3"], ["2.", "Birgit", "0"], ["3.", "Alexandra", "out", "0"],
            ["3.", "Melanie", "out", "0"], ["3.", "Ulrike", "out", "0"]]
        assert box.last_view.footer == "NEXT more  OK menu"
        box.tap("host.next")
        assert box.last_view.cursor == 1 and box.app.mode == "game"
        box.tap("host.ok")
        assert box.app.session is None


def test_a_game_won_by_the_last_one_left_says_so():
    state = new_game(["Ann", "Ben"])
    state, _ = play_round(state, {"Ann": "accuse", "Ben": "steal"}, {"Ann": "Ben"})
    assert state.winners() == ("Ann",)
    view = tt_pages.winner_view(seen(state))
    assert view.big == "Ann" and view.lines == ("everyone else is out",)
    assert tt_pages.standings_view(seen(state)).lines == ("1. Ann              0",
                                                    "2. Ben          out 0")


def test_score_text_marks_players_who_are_out_for_the_game_menu():
    state = new_game(["Ann", "Ben", "Cy"])
    state, _ = play_round(state, {"Ann": "accuse", "Ben": "steal", "Cy": "steal"}, {"Ann": "Ben"})
    assert [tt_pages.score_text(seen(state), p) for p in state.players] == ["0", "out 0", "1"]


# -- undo says what to put back and who acts again -------------------------------------------------
def test_undo_of_a_choice_says_who_chooses_again():
    before, _ = play_round(new_game(["Ann", "Ben", "Cy"]), {"Ann": "steal", "Ben": "alibi"})
    after, _ = play_round(new_game(["Ann", "Ben", "Cy"]), {"Ann": "steal"})
    [page] = tt_pages.undo_pages(seen(before), seen(after), {"type": "choose", "player": "Ben"})
    assert (page.title, page.big, page.lines) == ("Undone", "Ben", ("choose again",))


def test_undo_of_the_resolving_point_says_what_to_put_back(box_factory):
    box = box_factory(EXAMPLE_PLAYERS)
    example_round_pointed(box)
    box.idle(30)                                                  # round 2: Sarah holds 1 trash
    seen = []
    box.hold("host.back", 1.2)
    while box.app.referee.pages or box.app.flash_view is not None:
        box.idle(0.5)
        if box.last_view.as_text() not in seen:
            seen.append(box.last_view.as_text())
    pages = [text for text in seen if not text.startswith("[Spielleiter]")][:3]
    assert pages == [
        "[Put trash back]\n  ** Sarah **\n  1 trash card\n(OK: next)",
        "[Back in the game]\n  Melanie, Ulrike\n(OK: next)",
        "[Undone]\n  ** Ulrike **\n  point again\n(OK: next)"]
    assert box.last_view.title == "Ulrike pointed at?"


def test_undo_of_the_winning_round_puts_the_trash_back_and_plays_on():
    state = new_game(["Ann", "Ben", "Cy"], {"trash": 10})
    for _ in range(2):
        state, _ = play_round(state, {"Ann": "steal", "Ben": "alibi", "Cy": "alibi"})
    won, _ = play_round(state, {"Ann": "steal", "Ben": "alibi", "Cy": "alibi"})
    assert won.is_over
    undone = {"type": "choose", "player": "Cy", "card": "alibi"}
    before_last, _ = play_round(state, {"Ann": "steal", "Ben": "alibi"})
    back = tt_pages.undo_pages(seen(won), seen(before_last), undone)
    assert [(p.title, p.big, p.lines) for p in back] == [
        ("Put trash back", "Ann", ("1 trash card",)), ("Undone", "Cy", ("choose again",))]


def test_undo_pages_in_german():
    i18n.use("de")
    before, _ = play_round(new_game(["Ann", "Ben", "Cy"]), {"Ann": "accuse", "Ben": "steal",
                                                            "Cy": "steal"}, {"Ann": "Cy"})
    after, _ = play_round(new_game(["Ann", "Ben", "Cy"]), {"Ann": "accuse", "Ben": "steal",
                                                           "Cy": "steal"})
    texts = [p.as_text() for p in tt_pages.undo_pages(seen(before), seen(after),
                                                      {"type": "point", "player": "Ann"})]
    assert texts == ["[Müll zurücklegen]\n  ** Ben **\n  1 Müllkarte",
                     "[Wieder im Spiel]\n  ** Cy **",
                     "[Zurückgenommen]\n  ** Ann **\n  zeigt nochmal"]
