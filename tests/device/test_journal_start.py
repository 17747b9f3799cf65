"""The box always starts, resumes what it can and says what it cannot save.

A full disk is made with ``RLIMIT_FSIZE`` 0 in a child process (no file may grow: every SQLite
write fails, as on a full card), so the whole simulator runs there, headless, and answers on
pipes (which the limit does not touch).
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.session import Session
from support import english_config

NAME = "journal.sqlite3"
HEADER = Header("tatort-tonne", ("Ann", "Bob", "Cy"), {}, 7)
FIRST = {"type": "choose", "player": "Bob", "card": "accuse"}


def disk_full() -> None:
    """In the child: no file may grow (SQLite sees every write fail, as on a full card)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))


def sim_on_a_full_disk(state: Path, *commands: str) -> tuple[list[dict], str]:
    """``spielleiter sim --headless`` with a full disk: the answers and stderr."""
    config = english_config(state.parent)  # written before the disk is full
    proc = subprocess.run(
        [sys.executable, "-m", "spielleiter.device.cli", "sim", "--headless", "--state-dir",
         str(state), "--config", str(config)],
        input="".join(c + "\n" for c in commands), capture_output=True, text=True, timeout=60,
        preexec_fn=disk_full, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def test_a_fresh_state_directory_on_a_full_disk_starts_and_plays_from_memory(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    answers, err = sim_on_a_full_disk(state, "new tatort-tonne Ann Bob Cy", "tap s2.A")
    assert "Traceback" not in err and "no such table" not in err, err
    assert "Saving is off!" in answers[0]["view"]
    assert answers[1]["mode"] == "game" and answers[2]["actions"] == 1


def test_a_cleanly_closed_journal_on_a_full_disk_resumes_its_game(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    with Journal(state / NAME) as journal:  # closed cleanly: no -wal, no -shm left
        Session.new(journal, HEADER).apply(FIRST)
    assert sorted(p.name for p in state.iterdir()) == [NAME]
    answers, err = sim_on_a_full_disk(state, "show")
    assert "Traceback" not in err, err
    assert answers[0]["mode"] == "game" and answers[0]["actions"] == 1
    assert "Saving is off!" in answers[0]["view"]
    with Journal(state / NAME) as journal:  # the file is untouched: the game is still there
        assert Session.resume(journal).actions == [FIRST]


def test_an_in_memory_journal_always_has_its_tables(tmp_path, monkeypatch):
    from spielleiter.device.journal import file as journal_file

    (tmp_path / NAME).write_bytes(b"")  # what a full disk leaves: the file, empty
    real = journal_file.connect
    monkeypatch.setattr(journal_file, "connect", lambda where, name: real(where, name)
                        if where == ":memory:" else (_ for _ in ()).throw(
                            journal_file.JournalError("cannot open: database or disk is full")))
    with Journal(tmp_path / NAME) as journal:
        assert journal.degraded and "disk is full" in journal.degraded
        assert Session.resume(journal) is None
        Session.new(journal, HEADER).apply(FIRST)
        assert Session.resume(journal).actions == [FIRST]


def test_a_directory_where_the_shared_memory_file_belongs_is_moved_aside(box_factory, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / f"{NAME}-shm").mkdir()
    (state / f"{NAME}-shm" / "keep.txt").write_text("mine")
    box = box_factory(state_dir=state)
    assert box.journal.degraded is None  # saving works again
    assert [n.kind for n in box.journal.notices] == ["tidied"]
    [aside] = state.glob(f"{NAME}-shm.bad-*")
    assert (aside / "keep.txt").read_text() == "mine"
    session = Session.new(box.journal, HEADER)
    session.apply(FIRST)
    box.close()
    with Journal(state / NAME) as journal:
        assert Session.resume(journal).actions == [FIRST]


def test_a_directory_where_the_log_file_belongs_is_moved_aside_with_a_saved_game(tmp_path):
    with Journal(tmp_path / NAME) as journal:
        Session.new(journal, HEADER).apply(FIRST)
    (tmp_path / f"{NAME}-wal").mkdir()
    with Journal(tmp_path / NAME) as journal:
        assert journal.degraded is None
        assert [n.kind for n in journal.notices] == ["tidied"]
        assert Session.resume(journal).actions == [FIRST]


def test_the_service_starts_and_stops_cleanly_on_a_full_disk(tmp_path):
    """``run`` no longer fails at every start (systemd restarted it every 3 s for ever)."""
    state = tmp_path / "state"
    state.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "spielleiter.device.cli", "run", "--sim", "--state-dir",
         str(state)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        preexec_fn=disk_full, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    seen = []
    for line in proc.stderr:  # the service logs "ready" once the box is up
        seen.append(line)
        if "ready:" in line:
            break
    proc.send_signal(signal.SIGTERM)
    rest = proc.stderr.read()
    assert proc.wait(timeout=30) == 0, "".join(seen) + rest
    assert "Traceback" not in "".join(seen) + rest
    assert any("playing from memory" in line for line in seen)
