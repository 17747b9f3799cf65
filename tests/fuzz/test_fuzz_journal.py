"""Fuzz journal start-up: rows bent with sqlite3 directly (structure intact), then the Journal,
Session.resume and a whole simulated box on it. Nothing in the rows may stop the box."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from fuzz_strategies import VALUES, fuzz_settings, headers, played, to_text
from hypothesis import event, given
from hypothesis import strategies as st

from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.modes import GAME_MODES
from spielleiter.device.session import Session

NAME = "journal.sqlite3"
KINDS = {"moved-aside", "restored", "degraded", "set-aside", "calibration"}
TARGETS = [("games", "header"), ("games", "game"), ("games", "status"), ("actions", "action"),
           ("actions", "seq"), ("calibration", "data"), ("notes", "data"), ("meta", "value")]
# a value as a bad card, a hand edit or another program would leave it in a column
CELLS = st.one_of(
    VALUES.map(to_text), st.text(max_size=30), st.binary(max_size=30).map(lambda b: ("blob", b)),
    st.binary(max_size=30).map(lambda b: ("text", b)), st.integers(-2**63, 2**63 - 1),
    st.floats(),
    st.sampled_from(['{"game": "tatort-tonne", "players" [', "[1, 2, 3]", "{}", "null",
                     '"running"', "damaged", "99", "-1", "spielleiter-journal"]))


@st.composite
def a_journal(draw, directory: Path) -> Path:
    """A good journal with a game or two, calibration and a note, then 1-4 cells bent."""
    path = directory / NAME
    with Journal(path) as journal:
        for _ in range(draw(st.integers(1, 2))):
            doc = draw(headers(games=GAME_MODES, good=True))
            header = Header.from_json(doc)
            game = journal.start_game(header)
            for action in draw(played(header.game, list(header.players), header.options,
                                      header.seed, limit=8)):
                try:
                    Session.resume(journal).apply(action)
                except Exception:  # refused actions are simply not journalled
                    pass
            if draw(st.booleans()):
                journal.set_status(game, "over")
        journal.save_calibration("left", {"offset": 1.0, "scale": 2.5})
        journal.add_note("selftest", {"ok": True})
    db = sqlite3.connect(path)
    for _ in range(draw(st.integers(1, 4))):
        table, column = draw(st.sampled_from(TARGETS))
        rowids = [r for (r,) in db.execute(f"SELECT rowid FROM {table}")]
        if not rowids:
            continue
        value = draw(CELLS)
        sql = f"UPDATE {table} SET {column}=? WHERE rowid=?"
        if isinstance(value, tuple):
            kind, value = value
            if kind == "text":
                sql = f"UPDATE {table} SET {column}=CAST(? AS TEXT) WHERE rowid=?"
        try:
            db.execute(sql, (value, draw(st.sampled_from(rowids))))
            db.commit()
            event(f"bent {table}.{column}")
        except sqlite3.IntegrityError:  # a CHECK, NOT NULL or key the schema itself enforces
            db.rollback()
    db.close()
    return path


@fuzz_settings()
@given(data=st.data())
def test_bent_rows_never_stop_the_journal_the_session_or_the_box(box_factory, tmp_path, data):
    directory = Path(tempfile.mkdtemp(dir=tmp_path))
    path = data.draw(a_journal(directory))
    with Journal(path) as journal:
        session = Session.resume(journal, playable=GAME_MODES)
        assert {n.kind for n in journal.notices} <= KINDS
        assert not [n for n in journal.notices if "engine failed" in n.text], journal.notices
        event("resumed" if session else "nothing to resume")
        calibration = journal.calibration("left")
        assert calibration is None or isinstance(calibration, dict)
        assert isinstance(journal.notes("selftest"), list)
        for notice in journal.notices:
            event(f"notice: {notice.kind}")
        first = [n for n in journal.notices if n.kind == "set-aside"]
    with Journal(path) as journal:  # set aside once: not reported again
        Session.resume(journal, playable=GAME_MODES)
        again = [n for n in journal.notices if n.kind == "set-aside"]
        assert not (first and again and {n.game_id for n in first} & {n.game_id for n in again})
    box = box_factory(["Alexandra", "Melanie", "Ulrike"], state_dir=directory)
    try:
        box.runtime.pump()
        assert box.app.view() is not None  # the loop runs and there is a screen
    finally:
        box.close()
