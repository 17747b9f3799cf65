"""Whole simulated devices (``spielleiter sim --headless``, each with its own state directory)
reporting through ``spielleiter uplink`` processes with their own box ids: the commands a person
runs on a laptop. One box loses its power mid-game and comes back; the room keeps up."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from support import HeadlessSim
from roomkit import Room, wait_for


def uplink(state_dir, box_id: str, port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "spielleiter.device.cli", "uplink", "--state-dir", str(state_dir),
         "--box-id", box_id, "--name", box_id.replace("-", " ").title(),
         "--broker", f"127.0.0.1:{port}"],
        stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))


def live(room: Room, box: str) -> dict:
    rows = room.read("SELECT state FROM boxes WHERE box = ?", (box,))
    return json.loads(rows[0][0]) if rows and rows[0][0] else {}


def test_simulated_boxes_report_to_one_room(tmp_path, broker):
    room = Room(tmp_path / "room.sqlite3", broker.port).start()
    dirs = {box: tmp_path / box for box in ("tisch-1", "tisch-2")}
    sims = {box: HeadlessSim(d) for box, d in dirs.items()}
    uplinks = {box: uplink(d, box, broker.port) for box, d in dirs.items()}
    try:
        sims["tisch-1"].send("new bunte-runde Anna Ben")
        sims["tisch-2"].send("new tatort-tonne Cem Dora Emil")
        wait_for(lambda: live(room, "tisch-1").get("title") == "Bunte Runde"
                 and live(room, "tisch-2").get("title") == "Tatort Tonne", what="both games")
        assert live(room, "tisch-1")["name"] == "Tisch 1"
        assert live(room, "tisch-2")["waiting_for"] == ["Cem", "Dora", "Emil"]

        before = sims["tisch-2"].send("tap s1.A")["actions"]  # Cem's secret choice
        assert before == 1
        wait_for(lambda: live(room, "tisch-2").get("actions") == 1, what="the choice")
        message = room.read("SELECT payload FROM messages WHERE box = 'tisch-2' AND "
                            "kind = 'action'")[0][0]
        assert json.loads(message)["action"]["hidden"] == ["card"]  # which card: never said

        sims["tisch-2"].kill()  # the box's power cut mid-game
        sims["tisch-2"] = HeadlessSim(dirs["tisch-2"])  # it resumes from its journal
        assert sims["tisch-2"].last["actions"] == 1
        sims["tisch-2"].send("tap s2.A")
        wait_for(lambda: live(room, "tisch-2").get("actions") == 2, what="after the restart")
        assert room.numbers("tisch-2") == list(range(1, len(room.numbers("tisch-2")) + 1))
    finally:
        for sim in sims.values():
            sim.close()
        for proc in uplinks.values():
            proc.send_signal(signal.SIGTERM)
        for proc in uplinks.values():
            assert proc.wait(timeout=20) == 0, proc.stderr.read()
            proc.stderr.close()
        room.stop()
