"""``spielleiter selftest`` on the journal: SQLite's quick_check and the age of
the newest backup, read only, so it can run beside the service."""

from __future__ import annotations

import json
import os
import random

from spielleiter.device.journal import backup as journal_backup
from spielleiter.device.cli import main
from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.service.checks import check_journal
from spielleiter.device.session import Session
from spielleiter.games import GAMES, complete

NAME = "journal.sqlite3"
HEADER = Header("tatort-tonne", ("Ann", "Bob", "Cy"), {"trash": 1}, 1)


def finished_game(state) -> None:
    rng = random.Random(1)
    with Journal(state / NAME) as journal:
        session = Session.new(journal, HEADER)
        while not session.state.is_over:
            player = rng.choice(session.state.waiting_for())
            session.apply(complete(GAMES[HEADER.game], rng.choice(
                session.state.legal_actions(player)), rng))


def test_the_newest_backup_is_reported_with_its_age_and_games(tmp_path):
    finished_game(tmp_path)
    [backup] = journal_backup.backups(tmp_path / NAME)
    row = check_journal(tmp_path, now=backup.stat().st_mtime + 7200)
    assert row.verdict == "PASS"
    assert "quick_check ok, 1 game" in row.detail
    assert "journal-000001.sqlite3: 2.0 h old, 1 game; 1 kept" in row.detail


def test_a_journal_with_ended_games_and_no_backup_fails(tmp_path):
    finished_game(tmp_path)
    for backup in journal_backup.backups(tmp_path / NAME):
        backup.unlink()
    row = check_journal(tmp_path)
    assert (row.verdict, row.short) == ("FAIL", "no backup")


def test_a_backup_written_by_a_clock_ahead_has_an_unknown_age(tmp_path):
    finished_game(tmp_path)
    [backup] = journal_backup.backups(tmp_path / NAME)
    row = check_journal(tmp_path, now=backup.stat().st_mtime - 3600)
    assert row.verdict == "PASS" and "age unknown" in row.detail


def test_a_damaged_journal_fails_and_says_what_the_box_will_do(tmp_path):
    finished_game(tmp_path)
    (tmp_path / NAME).write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    row = check_journal(tmp_path)
    assert row.verdict == "FAIL" and "restores the newest backup" in row.detail


def test_no_journal_is_skipped(tmp_path):
    assert check_journal(tmp_path / "none").verdict == "SKIP"


def test_the_command_adds_the_journal_with_a_state_directory(tmp_path, capsys):
    finished_game(tmp_path)
    assert main(["selftest", "--lang", "en", "--sim", "--json", "--config", os.devnull,
                 "--state-dir", str(tmp_path)]) == 0
    parts = json.loads(capsys.readouterr().out)["parts"]
    assert parts[-1]["part"] == "journal" and parts[-1]["verdict"] == "PASS"
    assert "newest backup journal-000001.sqlite3" in parts[-1]["detail"]
