"""One box a state directory: a second sim on the same journal referees nothing twice (a trial
ran two and both said "Game resumed" on one game), and no lock ever stops a box that could run."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spielleiter.device.journal.lock import LOCK_NAME, InstanceLock, StateDirInUse
from support import HeadlessSim, build_box


def test_a_second_box_on_the_same_state_directory_is_refused_and_names_the_first(tmp_path):
    first = build_box(tmp_path / "state")
    try:
        with pytest.raises(StateDirInUse) as refused:
            build_box(tmp_path / "state")
        assert f"pid {os.getpid()}" in str(refused.value)
        assert str(tmp_path / "state") in str(refused.value) and "--state-dir" in str(refused.value)
        other = build_box(tmp_path / "elsewhere")     # another directory: no conflict
        other.close()
    finally:
        first.close()
    again = build_box(tmp_path / "state")             # closed: the next one starts
    again.close()


def test_a_box_killed_without_closing_leaves_no_lock_behind(tmp_path):
    state = tmp_path / "state"
    sim = HeadlessSim(state)
    sim.kill()                                         # a power cut: the kernel drops the lock
    assert (state / LOCK_NAME).exists()
    build_box(state).close()


def test_a_second_sim_on_the_same_state_directory_exits_with_the_reason(tmp_path):
    state = tmp_path / "state"
    sim = HeadlessSim(state)
    try:
        second = subprocess.run(
            [sys.executable, "-m", "spielleiter.device.cli", "sim", "--headless",
             "--state-dir", str(state)], input="show\n", capture_output=True, text=True,
            timeout=60)
        assert second.returncode == 1 and second.stdout == ""
        assert "another Spielleiter (pid" in second.stderr and "quit it first" in second.stderr
        assert sim.send("show")["mode"] == "home"     # the first plays on
    finally:
        sim.close()


def test_a_lock_that_cannot_be_made_never_stops_the_box(tmp_path, caplog, monkeypatch):
    from spielleiter.device.journal import lock as module

    state = tmp_path / "state"
    (state / LOCK_NAME).mkdir(parents=True)            # the lock's name taken by a folder
    real_open = os.open

    def nothing_opens(path, *args, **kwargs):          # a card that refuses every open here
        if str(path).startswith(str(state)):
            raise OSError(5, "Input/output error")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(module, "_move_aside", lambda path: False)
    monkeypatch.setattr(module.os, "open", nothing_opens)
    lock = InstanceLock(state).acquire()
    assert "starting without it" in caplog.text
    lock.close()
    monkeypatch.undo()
    build_box(state).close()


def test_a_lock_file_this_user_may_not_write_still_locks(tmp_path, monkeypatch):
    """A lock file a sudo run made belongs to root: the service's user opens it to read, and
    flock on that descriptor still keeps a second box out."""
    from spielleiter.device.journal import lock as instance_lock

    real_open = os.open

    def no_write(path, flags, *args):
        if flags & (os.O_RDWR | os.O_WRONLY):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    state = tmp_path / "state"
    state.mkdir()
    (state / LOCK_NAME).write_text("1\n")
    monkeypatch.setattr(instance_lock.os, "open", no_write)
    first = InstanceLock(state).acquire()
    try:
        with pytest.raises(StateDirInUse):
            InstanceLock(state).acquire()
    finally:
        first.close()
    InstanceLock(state).acquire().close()  # released with the first


@pytest.mark.parametrize("thing", ["directory", "dangling link", "link to a file", "fifo"])
def test_whatever_is_at_the_lock_file_a_second_box_is_still_refused(tmp_path, thing):
    state = tmp_path / "state"
    state.mkdir()
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    where = state / LOCK_NAME
    if thing == "directory":
        where.mkdir()
    elif thing == "dangling link":
        where.symlink_to(tmp_path / "nowhere")
    elif thing == "link to a file":
        where.symlink_to(victim)
    else:
        os.mkfifo(where)
    first = InstanceLock(state).acquire()
    try:
        with pytest.raises(StateDirInUse):
            InstanceLock(state).acquire()
        assert victim.read_text() == "keep me\n"       # never written through a link
        assert not where.is_symlink() and where.is_file()
        assert list(state.glob(f"{LOCK_NAME}.bad-*"))  # what was there is kept, aside
    finally:
        first.close()
    InstanceLock(state).acquire().close()


def test_a_lock_file_that_cannot_be_replaced_locks_the_directory_and_still_refuses_a_second(
        tmp_path, monkeypatch):
    from spielleiter.device.journal import lock

    state = tmp_path / "state"
    (state / LOCK_NAME).mkdir(parents=True)
    monkeypatch.setattr(lock, "_move_aside", lambda path: False)  # a folder it may not rename
    first = InstanceLock(state).acquire()
    try:
        with pytest.raises(StateDirInUse):
            InstanceLock(state).acquire()
    finally:
        first.close()
