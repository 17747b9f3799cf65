"""``spielleiter uplink --check`` (the unit's ExecCondition=) and its refusals."""

from __future__ import annotations

import pytest

from spielleiter.device.cli import main


def config(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_check_says_whether_a_room_is_configured(tmp_path, capsys):
    assert main(["uplink", "--lang", "en", "--check", "--config", config(tmp_path, "")]) == 1  # skip the unit
    assert "no room configured" in capsys.readouterr().err
    room = config(tmp_path, '[fleet]\nbox_id = "tisch-3"\nbroker = "laptop"\n')
    assert main(["uplink", "--lang", "en", "--check", "--config", room]) == 0
    assert "tisch-3 reports to laptop:1883" in capsys.readouterr().err


def test_a_config_it_cannot_use_fails_the_unit(tmp_path, capsys):
    bad = config(tmp_path, '[fleet]\nbox_id = "Tisch 3"\nbroker = "laptop"\n')
    assert main(["uplink", "--lang", "en", "--check", "--config", bad]) == 255
    assert "fleet.box_id" in capsys.readouterr().err


def test_the_command_line_names_the_room_for_a_simulated_box(tmp_path, capsys):
    empty = config(tmp_path, "")
    assert main(["uplink", "--lang", "en", "--check", "--config", empty, "--box-id", "tisch-1",
                 "--broker", "127.0.0.1:1884"]) == 0
    assert "tisch-1 reports to 127.0.0.1:1884" in capsys.readouterr().err
    assert main(["uplink", "--lang", "en", "--check", "--config", empty, "--box-id", "Tisch",
                 "--broker", "x"]) == 2
    assert main(["uplink", "--lang", "en", "--check", "--config", empty, "--box-id", "t",
                 "--broker", "x:99999"]) == 2
    assert main(["uplink", "--lang", "en", "--check", "--config", empty, "--box-id", "t"]) == 2


def test_room_and_uplink_without_the_room_extra_say_how_to_get_it(tmp_path, capsys, monkeypatch):
    import sys

    for name in [m for m in sys.modules if m == "paho" or m.startswith("paho.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "paho", None)      # importing paho fails, as in [sim] only
    assert main(["room", "--broker", "localhost:1", "--port", "0",
                 "--db", str(tmp_path / "room.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert "needs paho, the room extra: pip install 'spielleiter[room]'" in err
    assert "Traceback" not in err
    assert main(["uplink", "--sim", "--box-id", "tisch-1", "--broker", "127.0.0.1:1884",
                 "--config", config(tmp_path, "")]) == 2
    assert "needs paho, the room extra" in capsys.readouterr().err


@pytest.mark.shipped_language
def test_uplink_speaks_the_config_language_german_as_shipped(tmp_path, capsys):
    room = config(tmp_path, '[fleet]\nbox_id = "tisch-3"\nbroker = "laptop"\n')
    assert main(["uplink", "--check", "--config", room]) == 0
    assert "Box tisch-3 meldet an laptop:1883" in capsys.readouterr().err
    assert main(["uplink", "--check", "--config", config(tmp_path, "")]) == 1
    assert "kein Raum eingerichtet" in capsys.readouterr().err
