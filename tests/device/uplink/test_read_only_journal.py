"""The uplink reads the box's journal through a read-only mount while the box writes, as its
unit runs it (``ProtectSystem=strict``: the -wal and -shm files cannot be written, so SQLite
keeps the WAL index in the uplink's memory). Linux's ``unshare`` makes the mount for one child
process; without the right to do so (not root) the test skips."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from roomkit import TableBox

FOLLOW = """
import json, sys, time
sys.path.insert(0, {tests!r})
from roomkit import follower, taken
f = follower({journal!r}, {state!r})
seen, deadline = [], time.monotonic() + 60
while len(seen) < {want} and time.monotonic() < deadline:
    f.scan()
    seen += [m["seq"] for m in taken(f.outbox) if m["kind"] == "action"]
    try:
        open({journal!r} + ".probe", "w")
        print("WROTE", flush=True)
    except OSError:
        pass
print(json.dumps(seen), flush=True)
"""


def can_unshare() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not can_unshare(), reason="needs unshare -m (root) for a read-only mount")
def test_the_uplink_follows_through_a_read_only_mount_while_the_box_writes(tmp_path):
    box = TableBox(tmp_path / "box", seed=4)
    box.new("currency-torraku", ("Anna", "Ben", "Cem", "Dora"))
    box.play(1)
    want = 120
    script = FOLLOW.format(tests=str(Path(__file__).parents[2]), journal=str(box.path),
                           state=str(tmp_path / "uplink"), want=want)
    folder = str(box.state_dir)
    command = ["unshare", "-m", "sh", "-c",
               'mount --bind -o ro "$1" "$1" && exec "$2" -c "$3"', "sh", folder,
               sys.executable, script]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    writer = threading.Thread(target=lambda: [box.new("currency-torraku", ("Anna", "Ben"))
                                              if box.session.state.is_over else box.play(1)
                                              for _ in range(want * 2)])
    writer.start()
    out, err = child.communicate(timeout=120)
    writer.join()
    assert child.returncode == 0, err
    assert "WROTE" not in out, "the uplink could write beside the journal"
    seen = json.loads(out.strip().splitlines()[-1])
    assert len(seen) >= want
    assert all(b == 0 or b == a + 1 for a, b in zip(seen, seen[1:])), "in order, none left out"
    assert not (box.state_dir / "journal.sqlite3.probe").exists()
