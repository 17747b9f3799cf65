"""The pans on the device: the Scale screen, tare, calibration on the host panel and in the
terminal, a pulled load-cell cable, and ``spielleiter weigh``."""

from __future__ import annotations

import json

import pytest
from conftest import assert_frame

from spielleiter.device import config
from spielleiter.device.cli import main
from spielleiter.device.journal import Journal


def grams(line: str) -> float:
    return float(line.split()[1])


def open_scale(box) -> None:
    while box.last_view.lines[box.app.cursor] != "Scale":
        box.tap("host.next")
    box.tap("host.ok")
    box.idle(1.5)


def test_scale_screen_shows_both_pans_stable_marks_and_which_is_heavier(box_factory):
    box = box_factory()
    open_scale(box)
    box.put("left", 12.3)
    box.put("right", 12.4)
    box.idle(2.0)
    view = box.last_view
    assert view.lines[0].startswith("L") and view.lines[0].endswith("*")
    assert abs(grams(view.lines[0]) - 12.3) <= 0.05 and abs(grams(view.lines[1]) - 12.4) <= 0.05
    assert view.lines[2] == "Left is lighter"
    assert_frame(box.frame(), "scale_live")
    box.put("right", -0.1)                       # now 12.3 g on both: within the tie band
    box.idle(2.0)
    assert box.last_view.lines[2] == "Balanced"


def test_scale_screen_is_not_stable_while_something_wobbles(box_factory):
    box = box_factory()
    open_scale(box)
    box.put("left", 50)
    box.idle(0.3)
    assert not box.last_view.lines[0].endswith("*")
    assert box.last_view.lines[2] == "weighing..."


def test_tare_zeroes_the_pans_and_is_kept(box_factory, tmp_path):
    box = box_factory(state_dir=tmp_path / "tare")
    open_scale(box)
    box.put("left", 7.0)
    box.idle(2.0)
    box.tap("host.ok")
    box.idle(2.0)
    assert "0.00 g" in box.last_view.lines[0] or "-0.00 g" in box.last_view.lines[0]
    assert box.journal.calibration("left") is not None


def test_calibration_on_the_host_panel_is_saved_and_survives_a_restart(box_factory, tmp_path):
    state = tmp_path / "cal"
    box = box_factory(state_dir=state)
    open_scale(box)
    box.tap("host.next")                          # calibrate...
    assert box.last_view.title == "Calibrate"
    box.tap("host.ok")                            # ...the left pan
    assert_frame(box.frame(), "scale_calibrate_empty")
    box.tap("host.ok")                            # it is empty
    box.idle(1.0)
    assert box.last_view.big == "200 g"
    box.tap("host.ok")                            # OK first, then the mass goes on
    assert "Waiting for the mass" in box.last_view.lines
    box.put("left", 200)
    box.idle(3.0)
    assert "Left pan calibrated" in box.last_view.as_text()
    saved = Journal(state / "journal.sqlite3").calibration("left")
    assert saved["points"][1][0] == 200.0 and saved["counts_per_gram"] > 100
    box.close()
    again = box_factory(state_dir=state)
    assert again.scales.pans["left"].channel.calibration.counts_per_gram == \
        saved["counts_per_gram"]


def test_a_pulled_load_cell_cable_shows_no_signal_and_recovers(box_factory):
    box = box_factory()
    open_scale(box)
    chip = box.scales.sim.cells["left"].chip
    chip.disconnect()
    box.idle(1.0)
    assert "no signal" in box.last_view.lines[0]
    assert box.last_view.lines[2] == "weighing..."
    chip.reconnect()
    box.idle(2.0)
    assert "no signal" not in box.last_view.lines[0]


def test_weigh_prints_the_documented_json(capsys):
    assert main(["weigh", "--sim", "12.3", "12.4", "--json", "--seed", "3"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"left", "right", "verdict"}
    assert abs(result["left"]["grams"] - 12.3) <= 0.05 and result["verdict"] == "left-lighter"
    assert 0 < result["left"]["stable_after_s"] <= 1.5
    assert main(["weigh", "--sim", "100", "--json", "--rate", "80"]) == 0
    single = json.loads(capsys.readouterr().out)
    assert set(single) == {"left"} and single["left"]["stable_after_s"] <= 0.5


def test_weigh_without_sim_or_with_an_absurd_mass_is_refused(capsys):
    assert main(["weigh", "5"]) == 2
    assert main(["weigh", "--sim", "-4"]) == 2
    assert "outside" in capsys.readouterr().err


def test_calibrate_in_the_terminal_saves_per_pan(tmp_path, capsys):
    assert main(["calibrate", "--sim", "--pan", "right", "--mass", "100",
                 "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "right pan calibrated" in out
    with Journal(tmp_path / "journal.sqlite3") as journal:
        assert journal.calibration("right")["points"][1][0] == 100.0
        assert journal.calibration("left") is None


def test_scale_in_the_terminal_shows_grams_and_the_verdict(tmp_path, capsys):
    assert main(["scale", "--sim", "--put", "left=30", "--put", "right=20", "--seconds", "2",
                 "--state-dir", str(tmp_path)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert "left:    29.9" in last or "left:    30.0" in last
    assert "left is heavier" in last
    assert main(["scale", "--sim", "--put", "middle=3", "--state-dir", str(tmp_path)]) == 2


def test_loadcell_pins_are_checked_against_the_rest():
    raw = config.read(None)
    raw["loadcells"]["left"] = {"reader": "gpio", "dout_pin": 5, "sck_pin": 99, "rate": 20}
    raw["stations"][0]["a"] = 20                     # SPI1 MOSI is the right pan's clock
    with pytest.raises(config.ConfigError) as info:
        config.validate(raw)
    problems = "\n".join(info.value.problems)
    assert "loadcells.left.rate: 20" in problems
    assert "loadcells.left.sck_pin: 99 is not a BCM pin" in problems
    assert "host.back and loadcells.left.dout_pin: both on GPIO5" in problems
    assert "stations[1].a and loadcells.right (SPI1 MOSI): both on GPIO20" in problems


def test_taring_an_uncalibrated_pan_is_not_saved_as_a_calibration(box_factory):
    box = box_factory()
    pan = box.scales.pans["left"]
    pan.calibrated = False
    box.idle(1.5)
    box.scales.tare()
    assert box.journal.calibration("left") is None


def test_masses_beyond_the_cells_or_not_numbers_are_refused(tmp_path, capsys):
    assert main(["weigh", "--sim", "4000", "4000"]) == 2
    assert main(["calibrate", "--sim", "--mass", "-5", "--state-dir", str(tmp_path)]) == 2
    assert main(["calibrate", "--sim", "--mass", "nan", "--state-dir", str(tmp_path)]) == 2
    assert main(["scale", "--sim", "--put", "left=99999", "--state-dir", str(tmp_path)]) == 2
    assert main(["scale", "--sim", "--put", "left=heavy", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "0-1000 g" in err and "1-1000 g" in err and "must be a number" in err
    assert "Traceback" not in err
