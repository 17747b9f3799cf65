"""A journal restored from its backup is the same journal in another file: the uplink keeps
following it as that journal (its games keep their place), so the room lists each finished
game once; a journal started anew is still followed as a new one (test_follower)."""

from __future__ import annotations

import json
import os

from spielleiter.device.room import views
from spielleiter.device.room.store import Store
from roomkit import TableBox, feed, follower


def restore(box: TableBox, copy) -> TableBox:
    """What the box does at start with a journal it had to set aside: the backup in its
    place (another file), then the box opens it again."""
    box.close()
    for side in ("", "-wal", "-shm"):
        path = box.path.with_name(box.path.name + side)
        if path.exists():
            os.remove(path)
    os.replace(copy, box.path)
    return TableBox(box.state_dir)


def test_a_journal_restored_from_its_backup_lists_each_game_once(tmp_path):
    store = Store(tmp_path / "room.sqlite3")
    box = TableBox(tmp_path / "box", seed=3)
    f = follower(box.path, tmp_path / "uplink")
    for game in ("bunte-runde", "tatort-tonne"):
        box.new(game, ("Anna", "Ben", "Cem"))
        box.finish()
    f.scan()
    feed(store, f)
    copy = tmp_path / "backup.sqlite3"
    box.journal.db.execute("VACUUM INTO ?", (str(copy),))
    box.new("bunte-runde", ("Anna", "Ben"))
    box.play(3)
    f.scan()
    feed(store, f)
    box = restore(box, copy)
    scan = f.scan()
    assert any("restored" in note for note in scan.notes)
    assert all(json.loads(p.payload)["journal"] == 1 for p in f.outbox.pending(0, 10**9))
    box.session = None
    box.new("tatort-tonne", ("Anna", "Ben", "Cem"))  # game 3 again, played anew
    box.finish()
    f.scan()
    feed(store, f)
    with store.reader() as read:
        listed = [(g["game_id"], g["title"]) for g in views.games(read)]
    assert sorted(listed) == [(1, "Bunte Runde"), (2, "Tatort Tonne"), (3, "Tatort Tonne")]
    store.close()
