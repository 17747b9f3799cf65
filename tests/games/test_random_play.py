"""Every registered game played at random from ``legal_actions``: each listed action is accepted,
the table never sees a secret, and every state survives JSON."""

from __future__ import annotations

import json

import pytest
from play import leaked, names, playthrough, round_trip

from spielleiter.games import GAMES

SEEDS = 25


@pytest.mark.parametrize("name", names())
def test_random_play_from_legal_actions_reaches_the_end_without_leaks(name):
    info = GAMES[name]
    ended = 0
    for seed in range(SEEDS):
        state = None
        for before, action, state, events in playthrough(info, seed):
            secrets = state.secrets()
            measurement = info.measurements.get(action["type"])
            if measurement is not None and measurement.private and not state.is_over:
                secrets += (action[measurement.field],)
            public = json.loads(json.dumps(state.public()))
            assert not leaked(public, secrets), (seed, action, public)
            assert not leaked([e.to_json() for e in events], secrets), (seed, action, events)
            again = round_trip(state)
            assert again == state and again.public() == public
        assert state is not None
        ended += state.is_over
        if state.is_over:
            assert state.waiting_for() == ()
            assert all(state.legal_actions(p) == [] for p in state.players)
            ranks = state.standings()
            assert sorted(p for _, p, _ in ranks) == sorted(state.players)
            if state.winners():
                assert {p for r, p, _ in ranks if r == 1} == set(state.winners())
    assert ended >= SEEDS * 9 // 10, f"only {ended} of {SEEDS} games ended"


def test_the_leak_check_finds_a_secret_as_a_value_or_inside_a_text():
    assert leaked({"a": [1, {"b": 12.3}]}, (12.3,)) == [12.3]
    assert leaked([{"text": "Basket: 12.3 g"}], (12.3,)) == [12.3]
    assert leaked({"row": 12, "name": "P3"}, (12.0, 3.0)) == []
    assert leaked({"card": "steal"}, ("steal",)) == ["steal"]
    assert leaked({"accusers": ["a"]}, ("accuse",)) == []
