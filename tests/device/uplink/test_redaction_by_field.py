"""Redaction by field, never by value: whole random games are played in pairs that differ only
in a secret, the secret set equal to a public number or name (a die's 6 and a Purchase of the
Day of exactly 6.0 g; a player named like the card she hides), and every byte the uplink would
publish before the secret is revealed is the same for both games of a pair."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import pytest

from spielleiter.device.journal.header import Header
from spielleiter.device.journal import Journal
from spielleiter.device.session import Session
from spielleiter.games import GAMES, State, complete
from roomkit import follower

PAIRS = range(4)


def published(tmp_path, name: str, header: Header, actions: list[dict[str, Any]],
              revealed: Callable[[State], bool]) -> list[str]:
    """The bytes the uplink makes of the game (each stream message and each live state), up to
    the action that reveals the secret."""
    ticks = iter(range(10**6))
    journal = Journal(tmp_path / name / "journal.sqlite3", clock=lambda: 1.8e9 + next(ticks))
    session = Session.new(journal, header)
    f = follower(journal.path, tmp_path / name / "uplink")
    for db in (journal.db, f.outbox.db):
        db.execute("PRAGMA synchronous=OFF")
    out: list[str] = []
    for action in actions:
        session.apply(action)
        if revealed(session.state):
            break
        f.scan()
        pending = f.outbox.pending(0, 10**9)
        f.outbox.delivered(p.n for p in pending)
        out += [f"{p.topic} {p.payload}" for p in pending]
        out.append(json.dumps(f.live(), ensure_ascii=False))
    journal.close()
    f.outbox.close()
    return out


def random_game(header: Header, rng: random.Random,
                fill: Callable[[dict[str, Any]], dict[str, Any]]) -> list[dict[str, Any]]:
    """A whole random game's actions; ``fill`` gives a measurement its value."""
    info = GAMES[header.game]
    state = info.new_game(list(header.players), header.options, header.seed)
    actions = []
    while not state.is_over:
        player = rng.choice(state.waiting_for())
        action = fill(complete(info, rng.choice(state.legal_actions(player)), rng))
        state = state.apply(action)[0]
        actions.append(action)
    return actions


@pytest.fixture(autouse=True)
def one_stream(monkeypatch):
    """Both games of a pair publish under the same stream name (it is random otherwise)."""
    monkeypatch.setattr("spielleiter.device.uplink.outbox.secrets.token_hex", lambda n: "s" * n)


@pytest.mark.parametrize("pair", PAIRS)
def test_trodel_grams_equal_to_a_die_or_a_row_leave_the_same_bytes_as_any_other(tmp_path, pair):
    """The Purchase of the Day at exactly a public number (6.0 g, a die's face) against 0.1 g
    more, every other reading kept at the same distance: the verdicts are the same, so
    everything published before the reveal must be too."""
    rng = random.Random(pair)
    target = float(rng.choice([6, 1, 2, 3, 12, 20]))  # a die's face, a row, a position
    header = Header("tante-trudels-troedel", ("Anna", "Ben", "Cem")[:2 + pair % 2], {}, pair)
    info = GAMES[header.game]

    def fill(action: dict[str, Any]) -> dict[str, Any]:
        measurement = info.measurements.get(action["type"])
        if measurement is None or not measurement.private:
            return action
        if action["type"] == "weigh_potd":
            return {**action, "grams": target}
        delta = rng.choice([0.0, 1.0, -0.5, round(rng.uniform(-target + 0.1, 15.0), 1)])
        return {**action, "grams": round(target + delta, 1)}

    game = random_game(header, rng, fill)
    twin = [{**a, "grams": round(a["grams"] + 0.1, 1)} if "grams" in a else a for a in game]
    assert any(a.get("type") == "weigh_potd" and a["grams"] == target for a in game)
    assert any(a.get("type") == "roll" for a in game)

    def over(state: State) -> bool:
        return state.is_over

    first = published(tmp_path, "a", header, game, over)
    second = published(tmp_path, "b", header, twin, over)
    assert len(first) > 10
    assert first == second


@pytest.mark.parametrize("pair", PAIRS)
def test_tatort_cards_chosen_leave_the_same_bytes_whatever_they_are(tmp_path, pair):
    """One choice of the first round made another card (players named like the cards): nothing
    published before the round's choices are revealed may differ."""
    rng = random.Random(pair)
    header = Header("tatort-tonne", ("accuse", "alibi", "steal", "Anna")[:3 + pair % 2], {},
                    pair)
    cards = GAMES[header.game].values["card"]
    game = random_game(header, rng, lambda a: a)
    state = GAMES[header.game].new_game(list(header.players), header.options, header.seed)
    first_round = []
    for i, action in enumerate(game):  # the choices until the first round's are revealed
        if state.phase != "choose":
            break
        first_round.append(i)
        state = state.apply(action)[0]
    changed = first_round[rng.randrange(len(first_round))]
    while game[changed]["type"] == "choose" and changed + 1 < len(game) \
            and game[changed + 1]["type"] == "choose":
        if rng.random() < 0.5:
            break
        changed += 1
    other = rng.choice([c for c in cards if c != game[changed]["card"]])
    twin = [*game[:changed], {**game[changed], "card": other}, *game[changed + 1:]]

    def revealed(state: State) -> bool:
        return state.phase != "choose" or state.round != 1

    first = published(tmp_path, "a", header, game, revealed)
    second = published(tmp_path, "b", header, twin, revealed)
    assert first and first == second


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_that_declares_no_hidden_field_keeps_no_secret(game):
    """The pairs above cover every game that has secrets: one that hides no field of any
    action has none in any state of a whole random game."""
    info = GAMES[game]
    hides = any(info.hidden_fields(kind) for kind in {*info.secret_fields, *info.measurements})
    if hides:
        assert game in ("tante-trudels-troedel", "tatort-tonne")
        return
    rng = random.Random(1)
    state = info.new_game(["Anna", "Ben", "Cem"][:max(info.min_players, 2)], {}, 1)
    for _ in range(3000):
        if state.is_over:
            break
        assert state.secrets() == ()
        player = rng.choice(state.waiting_for())
        state = state.apply(complete(info, rng.choice(state.legal_actions(player)), rng))[0]
