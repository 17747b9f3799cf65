"""A finished game told again step by step: the pages the table saw, the secrets it did not see
kept secret, the standings at the end, and every frame fitting the OLED in both languages."""

from __future__ import annotations

import re

import pytest

from spielleiter.device import i18n
from spielleiter.device.journal.header import Header
from spielleiter.device.modes import GAME_MODES
from spielleiter.device.screen.render import crowded, misfits
from spielleiter.device.modes.past.steps import Replay, step_view
from spielleiter.games import GAMES
from pastkit import random_game_actions

NAMES = ["Alexandra", "Ben", "Cleo", "Maximilianne"]


def build(game: str, seed: int = 5, players: list[str] | None = None) -> tuple[Header, list]:
    players = players or NAMES[:GAMES[game].max_players]
    return Header(game, tuple(players), {}, seed), random_game_actions(game, players, seed)


def text(view) -> str:
    return " ".join([view.title, view.big or "", *view.lines]).casefold()


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("game", sorted(GAME_MODES))
def test_every_frame_of_a_replay_of_every_game_fits_the_oled(game, language):
    i18n.use(language)
    replay = Replay.build(*build(game))
    assert replay.error is None and replay.state.is_over
    bad = [f"{replay.view(i).as_text()}\n{misfits(replay.view(i))}"
           for i in range(len(replay.frames))
           if misfits(replay.view(i)) or crowded(replay.view(i))]
    assert not bad, "\n\n".join(bad)


def test_each_step_shows_the_pages_the_game_showed_after_that_action():
    header, actions = build("bunte-runde")
    replay = Replay.build(header, actions)
    first = [f.view for f in replay.frames if f.step == 1]
    assert first[0].title == f"{actions[0]['player']} takes"
    assert {f.step for f in replay.frames} == set(range(1, len(actions) + 2))


def test_tatort_tonne_cards_stay_hidden_until_the_round_reveals_them():
    header, actions = build("tatort-tonne", seed=3, players=["Ann", "Ben", "Cleo"])
    replay = Replay.build(header, actions)
    cards = ("steal", "alibi", "accuse")
    state = GAMES["tatort-tonne"].new_game(["Ann", "Ben", "Cleo"], {}, 3)
    after = {}
    for step, action in enumerate(actions, 1):
        state, _ = state.apply(action)
        after[step] = state.secrets()
    revealed = False
    for frame in replay.frames:
        if frame.step > len(actions):
            break
        hidden = [c for c in after[frame.step] if c in cards]
        assert not any(c in text(frame.view) for c in hidden), frame.view.as_text()
        revealed = revealed or "reveals" in frame.view.title
    assert revealed, "a round's reveal shows the cards"
    assert step_view(GAMES["tatort-tonne"].new_game(["Ann", "Ben"], {}, 1).apply(
        actions[0] | {"player": "Ann"})[0], actions[0] | {"player": "Ann"}, 1, 9
    ).lines == ("chose in secret",)


def test_tante_trudels_grams_show_only_when_the_game_revealed_them_at_the_end():
    header, actions = build("tante-trudels-troedel")
    replay = Replay.build(header, actions)
    grams = re.compile(r"\d+[.,]\d+\s*g\b")
    last = len(actions)
    before_end = [f.view for f in replay.frames if f.step < last]
    assert before_end and not [v.as_text() for v in before_end if grams.search(text(v))]
    assert any(grams.search(text(f.view)) for f in replay.frames if f.step >= last)


def test_a_step_without_a_page_names_the_player_big_and_what_they_did():
    header, actions = build("currency-torraku", players=["Ann", "Ben"])
    replay = Replay.build(header, actions)
    view = replay.frames[0].view
    assert (view.title, view.big, view.lines) == (f"Step 1 of {len(actions)}", "Ann",
                                                  (f"bids {actions[0]['count']}",))


def test_a_replay_ends_with_the_standings_and_says_ok_goes_back_to_the_list():
    header, actions = build("bunte-runde", players=["Ann", "Ben"])
    replay = Replay.build(header, actions)
    last = replay.view(len(replay.frames) - 1)
    assert last.title == "Standings" and len(last.lines) == 2
    assert "OK list" in last.footer and "BACK menu" in last.footer
    assert replay.view(0).footer == f"1/{len(actions)} OK on BACK menu"


def test_a_replay_stops_before_an_action_the_engine_refuses_and_says_which():
    header, actions = build("bunte-runde", players=["Ann", "Ben"])
    broken = actions[:3] + [{"type": "move", "player": "Nobody", "steps": 1}] + actions[3:]
    replay = Replay.build(header, broken)
    assert replay.error.startswith("action 3:") and replay.steps == 3
    assert replay.frames[-1].view.title == "Standings"


def test_a_point_at_nobody_says_nobody():
    state = GAMES["tatort-tonne"].new_game(["Ann", "Ben"], {}, 1)
    for player in ("Ann", "Ben"):
        state, _ = state.apply({"type": "choose", "player": player, "card": "accuse"})
    action = {"type": "point", "player": "Ann", "target": None}
    assert step_view(state.apply(action)[0], action, 3, 9).lines == ("points at nobody",)


def test_an_engine_that_fails_stops_the_replay_there_and_the_frames_still_end(monkeypatch):
    header, actions = build("bunte-runde", players=["Ann", "Ben"])
    state_class = type(GAMES["bunte-runde"].new_game(["Ann", "Ben"], {}, 1))
    real = state_class.apply
    calls = []

    def flaky(self, action):
        calls.append(action)
        if len(calls) == 4:
            raise RuntimeError("an engine bug")
        return real(self, action)

    monkeypatch.setattr(state_class, "apply", flaky)
    replay = Replay.build(header, actions)
    assert replay.error == "action 3: RuntimeError" and replay.steps == 3
    assert replay.frames[-1].view.title == "Standings"


def test_a_trodel_game_ended_before_its_reveal_never_shows_a_gram():
    header, actions = build("tante-trudels-troedel")
    replay = Replay.build(header, actions[:-1])  # ended from the game menu before the end
    grams = re.compile(r"\d+[.,]\d+\s*g\b")
    assert not replay.state.is_over
    shown = [replay.view(i) for i in range(len(replay.frames))]
    assert not [v.as_text() for v in shown if grams.search(text(v))]
    assert not [v.as_text() for v in shown
                if any(f"{g:g}" in text(v) for g in replay.state.secrets())]
