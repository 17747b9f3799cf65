"""Snapshots of a long game's state, checked against replay from the start.

A 50,000-action game took seconds to resume and to undo, replaying everything. Now the session
rebuilds from the newest snapshot that checks (its digest, the engine that made it, a state the
engine rebuilds, actions after it that replay) and replays at most ``EVERY`` actions; anything
off falls back to an older snapshot or to the start. The journal's actions stay the truth.
"""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spielleiter.device import session as session_mod
from spielleiter.device.journal import snapshots
from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.replay import replay, start
from spielleiter.device.session import Session
from spielleiter.games import GAMES, complete

NAME = "journal.sqlite3"
EVERY = 7  # small, so a short game crosses many snapshots
LONG = Header("currency-torraku", ("Ann", "Bob", "Cy"),
              {"bag": {"truck": 999, "washing_machine": 999, "rice_cooker": 999}}, 1)


@pytest.fixture(autouse=True)
def often(monkeypatch):
    monkeypatch.setattr(snapshots, "EVERY", EVERY)


def moves(header: Header, count: int, seed: int = 3) -> list[dict]:
    """``count`` legal actions of a game (random play), as the table might make them."""
    rng = random.Random(seed)
    info = GAMES[header.game]
    state, out = start(header), []
    while len(out) < count and not state.is_over:
        player = rng.choice(state.waiting_for())
        action = complete(info, rng.choice(state.legal_actions(player)), rng)
        state, _ = state.apply(action)
        out.append(action)
    return out


def truth(header: Header, actions: list[dict]):
    state, _events, error = replay(start(header), actions)
    assert error is None
    return state


def counting(monkeypatch) -> list[int]:
    """How many actions each replay inside the session runs."""
    runs: list[int] = []
    real = session_mod.replay

    def spy(state, actions, **kwargs):
        runs.append(len(actions))
        return real(state, actions, **kwargs)

    monkeypatch.setattr(session_mod, "replay", spy)
    return runs


def played(tmp_path, header: Header = LONG, count: int = 5 * EVERY + 3) -> list[dict]:
    actions = moves(header, count)
    with Journal(tmp_path / NAME) as journal:
        session = Session.new(journal, header)
        for action in actions:
            session.apply(action)
    return actions


@settings(max_examples=25, deadline=None, derandomize=True)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000),
       count=st.integers(0, 60))
def test_a_state_rebuilt_from_its_json_is_the_state_and_plays_on_the_same(game, seed, count):
    info = GAMES[game]
    players = ["Ann", "Bob", "Cy", "Dee"][:max(3, info.min_players)]
    header = Header(game, tuple(players), {}, seed)
    actions = moves(header, count + 1, seed)
    state = truth(header, actions[:-1] if actions else [])
    doc = json.loads(snapshots.encode(state, 1)[2])
    rebuilt = type(state).from_json(doc)
    assert rebuilt == state and rebuilt.public() == state.public()
    if actions and not state.is_over:
        assert rebuilt.apply(actions[-1])[0] == state.apply(actions[-1])[0]


def test_a_long_game_resumes_from_its_newest_snapshot_as_replay_would(tmp_path, monkeypatch):
    actions = played(tmp_path)
    runs = counting(monkeypatch)
    with Journal(tmp_path / NAME) as journal:
        stored = journal.db.execute("SELECT seq FROM snapshots ORDER BY seq").fetchall()
        assert [s for (s,) in stored] == [EVERY * n for n in range(1, 6)]
        session = Session.resume(journal)
    assert session.state == truth(LONG, actions)
    assert sum(runs) == len(actions) - 5 * EVERY  # only what follows the newest snapshot
    assert session.last_events  # the last action's events, shown again after a resume


def test_undo_across_snapshots_gives_the_state_replay_gives(tmp_path, monkeypatch):
    actions = played(tmp_path)
    with Journal(tmp_path / NAME) as journal:
        session = Session.resume(journal)
        runs = counting(monkeypatch)
        for n in range(len(actions) - 1, len(actions) - 3 * EVERY - 2, -1):
            session.undo()
            assert session.state == truth(LONG, actions[:n]), n
            assert max(runs) <= EVERY
        assert journal.db.execute("SELECT MAX(seq) FROM snapshots").fetchone()[0] <= \
            len(session.actions)
        for action in actions[len(session.actions):]:  # and forward again, snapshotting anew
            session.apply(action)
    with Journal(tmp_path / NAME) as journal:
        assert Session.resume(journal).state == truth(LONG, actions)


def bend(tmp_path, sql: str, *args) -> None:
    db = sqlite3.connect(tmp_path / NAME)
    db.execute(sql, args)
    db.commit()
    db.close()


NEWEST = "WHERE seq=(SELECT MAX(seq) FROM snapshots)"
BAD_SNAPSHOTS = {
    "a flipped digit (digest)": (f"UPDATE snapshots SET state=replace(state, '1', '2') {NEWEST}",),
    "from an older engine": (f"UPDATE snapshots SET engine='currency-torraku@0ld' {NEWEST}",),
    "not JSON, digest matching": (f"UPDATE snapshots SET state='{{', digest=? {NEWEST}",
                                  snapshots.digest_of("{")),
    "another game's state": (f"UPDATE snapshots SET state=?, digest=? {NEWEST}",
                             '{"game": "tatort-tonne", "state": {}}',
                             snapshots.digest_of('{"game": "tatort-tonne", "state": {}}')),
    "a digest that is not text": (f"UPDATE snapshots SET digest=7 {NEWEST}",),
}


@pytest.mark.parametrize("case", BAD_SNAPSHOTS)
def test_a_bad_snapshot_is_never_trusted_an_older_one_is_used(tmp_path, monkeypatch, case):
    actions = played(tmp_path)
    bend(tmp_path, *BAD_SNAPSHOTS[case])
    runs = counting(monkeypatch)
    with Journal(tmp_path / NAME) as journal:
        session = Session.resume(journal)
        assert not journal.notices  # nothing lost: the actions are the truth
    assert session.state == truth(LONG, actions)
    assert sum(runs) == len(actions) - 4 * EVERY  # from the snapshot before it


def test_a_snapshot_that_checks_but_does_not_fit_its_actions_is_dropped(tmp_path, monkeypatch):
    """A state the engine rebuilds, digest right, but the game it holds went elsewhere: the
    actions after it do not replay, so the state before it is used."""
    actions = played(tmp_path)
    foreign = truth(LONG, moves(LONG, 5 * EVERY, seed=99))
    row = snapshots.encode(foreign, 5 * EVERY)
    bend(tmp_path, f"UPDATE snapshots SET state=?, digest=? {NEWEST}", row[2], row[3])
    with Journal(tmp_path / NAME) as journal:
        session = Session.resume(journal)
    assert session.state == truth(LONG, actions)


def test_every_snapshot_bad_is_a_replay_from_the_start(tmp_path, monkeypatch):
    actions = played(tmp_path)
    bend(tmp_path, "UPDATE snapshots SET engine='old'")
    runs = counting(monkeypatch)
    with Journal(tmp_path / NAME) as journal:
        assert Session.resume(journal).state == truth(LONG, actions)
    assert sum(runs) == len(actions)


def test_a_short_game_has_no_snapshot(tmp_path):
    played(tmp_path, count=EVERY - 1)
    with Journal(tmp_path / NAME) as journal:
        assert journal.db.execute("SELECT COUNT(*) FROM snapshots").fetchone() == (0,)
