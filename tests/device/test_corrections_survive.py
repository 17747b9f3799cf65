"""Corrections live through everything the journal lives through: a backup is made after each
correction, a salvage of a damaged file carries corrections over (their table made in a backup
that predates it), and the notice after a restore says what came back and what did not,
corrections included."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from spielleiter.device import i18n
from spielleiter.device.journal import backup as journal_backup
from spielleiter.device.journal.notices import notice_lines
from spielleiter.device.journal.salvage import Salvaged
from spielleiter.device.journal.store import Journal
from spielleiter.device.past.games import PastGames
from recordskit import Table
from test_journal_loss import damage_a_page


@pytest.fixture(autouse=True)
def english():
    i18n.use("en")


def a_corrected_game(tmp_path):
    """A finished Trödel game, backed up at its end, then corrected (a weighing)."""
    table = Table(tmp_path / "box", seed=4)
    session = table.new("tante-trudels-troedel")
    table.finish()
    past = PastGames(table.journal)
    last = len(session.actions) - 1
    action = session.actions[last]
    fixed = {**action, "grams": round(action["grams"] + 1.0, 1)}
    return table, past, session, last, fixed


def test_a_correction_is_backed_up_at_once(tmp_path):
    table, past, session, last, fixed = a_corrected_game(tmp_path)
    before = journal_backup.backups(table.path)
    past.correct(session.game_id, last, fixed, "wrong weighing")
    after = journal_backup.backups(table.path)
    assert len(after) == len(before) + 1 or after[0] != before[0]
    db = sqlite3.connect(after[0])
    assert db.execute("SELECT COUNT(*) FROM corrections").fetchone()[0] == 1
    db.close()
    table.close()


def test_a_restore_keeps_a_correction_made_after_the_last_backup_and_says_so(tmp_path):
    table, past, session, last, fixed = a_corrected_game(tmp_path)
    newest = journal_backup.backups(table.path)[0]
    keep = tmp_path / "end-of-game.sqlite3"
    shutil.copy(newest, keep)
    past.correct(session.game_id, last, fixed, "wrong weighing")
    table.close()
    for made in journal_backup.backups(table.path):  # the box of before: no backup after it
        made.unlink()
    shutil.copy(keep, newest)
    damage_a_page(table.path)
    with Journal(table.path) as journal:
        lines = notice_lines(journal.notices)
        restored = next(n for n in journal.notices if n.kind == "restored")
        assert restored.recovered.corrections == 1
        assert lines[:3] == ["Saved games damaged:", "Restored from backup",
                             "1 correction recovered"]  # what the screen shows
        record = PastGames(journal).record(session.game_id)
        assert record.corrected and any("wrong weighing" in c for c in record.changes)


def test_the_notice_says_what_could_not_be_recovered():
    from spielleiter.device.journal.file import Notice

    def lines(salvaged):
        return notice_lines([Notice("restored", "", "journal-000001.sqlite3",
                                    recovered=salvaged)])

    assert lines(Salvaged(unreadable=True)) == ["Restored from backup", "Newer changes lost"]
    assert lines(Salvaged(games=1, actions=3, corrections=2, lost=("corrections",))) == [
        "Restored from backup", "Some corrections lost", "2 corrections recovered",
        "1 game recovered", "3 moves recovered"]
