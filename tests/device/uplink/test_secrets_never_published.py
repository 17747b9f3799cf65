"""Secret choices and hidden grams never leave the box: whole random games of every kind are
committed to a journal action by action, the uplink looks after each, and nothing it publishes
shows a value the engine calls secret at that moment (``State.secrets()``), be it in the events,
the live state or the redacted action. (A value may be secret again later, as a card chosen
again after an earlier reveal; what was said while it was public stays said.)"""

from __future__ import annotations

import json
import random

import pytest

from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.session import Session
from spielleiter.games import GAMES
from roomkit import follower, random_play, taken

play = random_play()
leaked, playthrough, start = play.leaked, play.playthrough, play.start

SEEDS = range(3)


def header_for(info, seed: int) -> Header:
    """The header of ``games.play.start``'s game (the same draws of players and options)."""
    rng = random.Random(seed)
    count = rng.randint(info.min_players, info.max_players)
    options = rng.choice(play.option_sets(info))
    return Header(info.name, tuple(f"P{i}" for i in range(count)), dict(options), seed)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_secret_is_ever_published_over_whole_random_games(tmp_path, game):
    info = GAMES[game]
    hidden_fields = 0
    for seed in SEEDS:
        journal = Journal(tmp_path / f"{seed}" / "journal.sqlite3")
        header = header_for(info, seed)
        session = Session.new(journal, header)
        assert session.state.to_json() == start(info, seed).to_json()
        f = follower(journal.path, tmp_path / f"{seed}" / "uplink")
        for db in (journal.db, f.outbox.db):  # what is proven here is redaction, not fsync
            db.execute("PRAGMA synchronous=OFF")
        published: list[dict] = []
        for step, (_before, action, after, _events) in enumerate(playthrough(info, seed)):
            session.apply(action)
            f.scan()
            fresh = taken(f.outbox) + [f.live()]
            found = leaked(fresh, after.secrets())
            assert not found, f"{game} seed {seed} step {step}: {found} published while secret"
            published += fresh
        assert session.state.is_over, "the random game reached its end"
        for message in published:
            assert "seed" not in message and "seed" not in message.get("record", {})
            if message.get("kind") == "action":
                hidden_fields += len(message["action"].get("hidden", []))
        assert json.dumps(published)  # every message is plain JSON
        journal.close()
    if any(m.private for m in info.measurements.values()) or game == "tatort-tonne":
        assert hidden_fields, f"{game} has secrets, so some action fields were hidden"
