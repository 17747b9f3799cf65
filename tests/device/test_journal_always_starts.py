"""The journal always starts: a file damaged in its database and its log together, the way a
card fails, opens at the first try (never the second, after systemd's restart), whatever bytes
the damage leaves. Python's sqlite3 raises UnicodeDecodeError when SQLite's own message quotes
bytes of the damaged schema that are not UTF-8: every read of stored bytes catches it."""

from __future__ import annotations

import random
import shutil

import pytest

from spielleiter.device.journal.store import Journal
from spielleiter.device.journal.header import Header
from spielleiter.device.session import Session
from test_journal_loss import NAME, power_cut

SEEDS = 40  # among them damage that makes SQLite quote non-UTF-8 bytes (8, 19, 36)


def scribble(path, rng: random.Random) -> None:
    raw = bytearray(path.read_bytes())
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(raw))
        n = min(rng.randint(1, 64), len(raw) - at)
        raw[at:at + n] = bytes(rng.choice([0xFF, 0x80, 0xC3, rng.randrange(256)])
                               for _ in range(n))
    path.write_bytes(bytes(raw))


def test_a_journal_damaged_in_database_and_log_together_starts_at_the_first_try(tmp_path):
    cut, _first = power_cut(tmp_path)
    for seed in range(SEEDS):
        rng = random.Random(seed)
        state = tmp_path / f"seed-{seed}"
        shutil.copytree(cut, state)
        scribble(state / NAME, rng)
        scribble(state / f"{NAME}-wal", rng)
        with Journal(state / NAME) as journal:  # raises nothing: the first start comes up
            Session.resume(journal)
            game = Session.new(journal, Header("tatort-tonne", ("Ann", "Bob"), {}, 1))
            assert game.game_id > 0, seed
        shutil.rmtree(state)


@pytest.fixture(autouse=True)
def quiet(caplog):
    caplog.set_level("CRITICAL")
