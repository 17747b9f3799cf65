"""Issue 18, point 4: no silent loss. Each case is made the way it happens to a box: a power cut
(the files copied while the journal is open: with ``synchronous=FULL`` that is what the card
holds), then the damage a card or a hand does; or the state directory deleted under a running
box. The box must keep what can be kept, get back what a backup or the damaged file still
holds, and say what is lost.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from spielleiter.device.journal import backup as journal_backup
from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.journal.care import IDLE_S
from spielleiter.device.journal.notices import notice_lines
from spielleiter.device.session import Session
from spielleiter.games import GAMES, complete

NAME = "journal.sqlite3"
SHORT = Header("tatort-tonne", ("Ann", "Bob", "Cy"), {"trash": 1}, 1)
LONG = Header("currency-torraku", ("Ann", "Bob", "Cy"),
              {"bag": {"truck": 999, "washing_machine": 999, "rice_cooker": 999}}, 1)
RUNNING = 120  # actions of the running game, all in the log after the last game's checkpoint


def finish(session: Session, seed: int = 1) -> None:
    rng = random.Random(seed)
    info = GAMES[session.header.game]
    while not session.state.is_over:
        player = rng.choice(session.state.waiting_for())
        session.apply(complete(info, rng.choice(session.state.legal_actions(player)), rng))


def drops(session: Session, count: int) -> None:
    for _ in range(count):
        legal = session.state.legal_actions(session.state.waiting_for()[0])
        session.apply(next((a for a in legal if a["type"] == "drop"), legal[0]))


def power_cut(tmp_path: Path) -> tuple[Path, int]:
    """A journal with a finished game (checkpointed, backed up) and a running one of RUNNING
    actions, copied as a power cut leaves it; returns the copy and the finished game's actions."""
    live = tmp_path / "live"
    live.mkdir()
    journal = Journal(live / NAME)
    first = Session.new(journal, SHORT)
    finish(first)
    drops(Session.new(journal, LONG), RUNNING)
    cut = tmp_path / "cut"
    shutil.copytree(live, cut)
    journal.close()
    assert (cut / f"{NAME}-wal").stat().st_size > 0
    return cut, len(first.actions)


def games(path: Path) -> list[tuple[int, str, int]]:
    db = sqlite3.connect(path / NAME)
    try:
        return db.execute("SELECT id, status, (SELECT COUNT(*) FROM actions WHERE game_id=g.id) "
                          "FROM games g ORDER BY id").fetchall()
    finally:
        db.close()


def test_the_cut_journal_as_it_is_resumes_every_action(tmp_path):
    cut, first = power_cut(tmp_path)
    with Journal(cut / NAME) as journal:
        assert Session.resume(journal).actions and not journal.notices
    assert games(cut) == [(1, "over", first), (2, "running", RUNNING)]


# -- the log ------------------------------------------------------------------------------------
def test_a_damaged_frame_in_the_log_is_reported_with_what_is_lost_and_the_log_kept(tmp_path):
    cut, _ = power_cut(tmp_path)
    wal = cut / f"{NAME}-wal"
    data = bytearray(wal.read_bytes())
    data[32 + (24 + 4096) * 20 + 24 + 100] ^= 0xFF  # a bit in the 21st frame's page
    wal.write_bytes(bytes(data))
    with Journal(cut / NAME) as journal:
        session = Session.resume(journal)
        [lost] = journal.notices
    assert lost.kind == "lost" and lost.count and lost.count >= RUNNING - len(session.actions)
    assert notice_lines([lost]) == [f"{lost.count} saved changes lost"]
    [kept] = cut.glob(f"{NAME}-wal.bad-*")
    assert kept.read_bytes() == bytes(data)  # for whoever can recover more by hand


def test_a_frame_the_index_counted_but_the_log_does_not_hold_is_a_loss(tmp_path):
    cut, _ = power_cut(tmp_path)
    wal = cut / f"{NAME}-wal"
    wal.write_bytes(wal.read_bytes()[:-(24 + 4096) * 4])  # the card lost the log's end
    with Journal(cut / NAME) as journal:
        assert len(Session.resume(journal).actions) < RUNNING
        assert [n.kind for n in journal.notices] == ["lost"]


def test_a_torn_last_frame_is_no_loss(tmp_path):
    """A power cut in the middle of writing the last frame: that move was never shown, and the
    index never counted it (it is written after the commit; here it is gone with the cut)."""
    cut, _ = power_cut(tmp_path)
    wal = cut / f"{NAME}-wal"
    wal.write_bytes(wal.read_bytes()[:-100])
    (cut / f"{NAME}-shm").unlink()
    with Journal(cut / NAME) as journal:
        assert len(Session.resume(journal).actions) == RUNNING - 1
        assert journal.notices == []


def test_a_missing_log_is_reported(tmp_path):
    cut, first = power_cut(tmp_path)
    (cut / f"{NAME}-wal").unlink()
    with Journal(cut / NAME) as journal:
        session = Session.resume(journal)
        assert [n.kind for n in journal.notices] == ["lost"]
        assert notice_lines(journal.notices) == ["Recent moves lost"]
    assert session.game_id == 1 and len(session.actions) == first  # what the main file held


# -- the main file ------------------------------------------------------------------------------
@pytest.mark.parametrize("damage", ["zeroed", "deleted", "cut to half"])
def test_a_lost_main_file_is_restored_from_the_backup_and_the_log_salvaged_over_it(
        tmp_path, damage):
    cut, first = power_cut(tmp_path)
    main = cut / NAME
    if damage == "zeroed":
        main.write_bytes(bytes(main.stat().st_size))
    elif damage == "deleted":
        main.unlink()
    else:
        main.write_bytes(main.read_bytes()[:main.stat().st_size // 2])
    with Journal(cut / NAME) as journal:
        kinds = [n.kind for n in journal.notices]
        assert "restored" in kinds, journal.notices
        session = Session.resume(journal)
        lines = notice_lines(journal.notices)
    assert games(cut)[0] == (1, "over", first)              # from the backup at least
    assert session is not None
    assert "Restored from backup" in lines
    assert list(cut.glob(f"{NAME}.bad-*"))                  # the damaged files are kept


def damage_a_page(path: Path) -> None:
    """Scribble over a page of the journal that holds no game (a table of junk made for it):
    ``quick_check`` fails, every game can still be read."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE junk (x)")
    db.execute("INSERT INTO junk VALUES (zeroblob(20000))")
    db.commit()
    db.close()
    raw = bytearray(path.read_bytes())
    page = 4096 * 10
    raw[page:page + 64] = bytes(range(64))
    path.write_bytes(bytes(raw))


def test_a_damaged_main_file_without_a_backup_keeps_what_can_be_read(tmp_path):
    with Journal(tmp_path / NAME) as journal:
        drops(Session.new(journal, LONG), 30)
    shutil.rmtree(tmp_path / journal_backup.FOLDER, ignore_errors=True)
    damage_a_page(tmp_path / NAME)
    with Journal(tmp_path / NAME) as journal:
        assert {"moved-aside", "restored"} <= {n.kind for n in journal.notices}
        assert len(Session.resume(journal).actions) == 30
        lines = notice_lines(journal.notices)
        assert "Saved games recovered" in lines and "30 moves recovered" in lines


def test_salvage_carries_a_row_that_is_not_utf8_over_as_it_was(tmp_path):
    """Found by the fuzz target: such text could not be written back, and the box stopped."""
    with Journal(tmp_path / NAME) as journal:
        drops(Session.new(journal, LONG), 3)
        journal.save_calibration("left", {"offset": 1})
    db = sqlite3.connect(tmp_path / NAME)
    db.execute("UPDATE calibration SET data=CAST(? AS TEXT)", (b'{"offset": "\x80"}',))
    db.execute("UPDATE meta SET value='spielleiter-journal?' WHERE key='app'")  # set aside
    db.commit()
    db.close()
    with Journal(tmp_path / NAME) as journal:
        assert "restored" in {n.kind for n in journal.notices}
        assert journal.calibration("left") is None  # unreadable, as before: uncalibrated
        assert len(Session.resume(journal).actions) == 3


# -- while the box runs -------------------------------------------------------------------------
def playing(box_factory, state: Path, count: int):
    """A box playing the long game, ``count`` actions in."""
    box = box_factory(state_dir=state)
    box.runtime.post(lambda: box.app.start_game(LONG))
    box.runtime.pump()
    drops(box.app.session, count)
    return box


def test_the_state_directory_deleted_under_a_running_box_is_written_again(box_factory,
                                                                         tmp_path):
    state = tmp_path / "state"
    box = playing(box_factory, state, 5)
    shutil.rmtree(state)
    drops(box.app.session, 1)                      # saved: the file is written again first
    assert (state / NAME).is_file()
    assert "rewritten" in [n.kind for n in box.journal.notices]
    box.idle(IDLE_S + 1)                            # the journal's tick tells the table
    assert "Journal written anew" in box.last_view.lines
    box.close()
    with Journal(state / NAME) as journal:
        assert len(Session.resume(journal).actions) == 6


def test_a_state_directory_that_cannot_be_written_again_refuses_the_move(box_factory,
                                                                        tmp_path):
    state = tmp_path / "state"
    box = playing(box_factory, state, 2)
    shutil.rmtree(state)
    state.write_text("not a directory")            # nothing can be written there now
    legal = box.app.session.state.legal_actions(box.app.session.state.waiting_for()[0])
    assert box.app.apply(next((a for a in legal if a["type"] == "drop"), legal[0])) is None
    assert len(box.app.session.actions) == 2        # not taken, so never acknowledged
    assert box.app.flash_view is not None and "Cannot save!" in box.app.flash_view.lines
    assert "not-saving" in [n.kind for n in box.journal.notices]
    box.app.show_notices()
    assert "Not saving!" in box.app.view().lines


# -- checkpoints and backups ------------------------------------------------------------------------
def test_a_game_that_ends_is_checkpointed_and_backed_up_three_kept(tmp_path):
    with Journal(tmp_path / NAME) as journal:
        for seed in range(4):
            finish(Session.new(journal, SHORT), seed)
            assert (tmp_path / f"{NAME}-wal").stat().st_size == 0  # all in the main file
        Session.new(journal, SHORT).abandon()
        backups = journal_backup.backups(tmp_path / NAME)
    assert [p.name for p in backups] == [f"journal-00000{n}.sqlite3" for n in (5, 4, 3)]
    db = sqlite3.connect(backups[0])
    assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (5,)


def test_a_backup_that_cannot_be_written_does_not_stop_the_game(tmp_path):
    (tmp_path / journal_backup.FOLDER).write_text("in the way")
    with Journal(tmp_path / NAME) as journal:
        session = Session.new(journal, SHORT)
        finish(session)
        assert session.state.is_over and journal.care.backup_error
    with Journal(tmp_path / NAME) as journal:
        assert Session.resume(journal).state.is_over


def test_the_box_checkpoints_after_idle_minutes(box_factory, tmp_path):
    state = tmp_path / "state"
    box = playing(box_factory, state, 3)
    wal = state / f"{NAME}-wal"
    assert wal.stat().st_size > 0
    box.idle(IDLE_S - 5)
    assert wal.stat().st_size > 0
    box.idle(10)
    assert wal.stat().st_size == 0


def test_a_damaged_backup_is_passed_over_for_an_older_one(tmp_path):
    with Journal(tmp_path / NAME) as journal:
        finish(Session.new(journal, SHORT), 1)
        finish(Session.new(journal, SHORT), 2)
    newest = journal_backup.backups(tmp_path / NAME)[0]
    newest.write_bytes(b"scribbled" * 100)
    (tmp_path / NAME).write_bytes(b"also scribbled" * 100)
    with Journal(tmp_path / NAME) as journal:
        assert [n for n in journal.notices if n.kind == "restored"][0].reason == \
            "journal-000001.sqlite3"
        assert journal.db.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)
