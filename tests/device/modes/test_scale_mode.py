"""The pans on the device: the Scale screen, tare, calibration on the host panel and in the
terminal, a pulled load-cell cable, and ``spielleiter weigh``."""

from __future__ import annotations

from types import SimpleNamespace

import json

import pytest
from support import assert_frame

from spielleiter.device.config import core as config
from spielleiter.device.cli import main
from spielleiter.device.journal.store import Journal
from spielleiter.drivers.weighing import CALIBRATION_HOLD_S, JUDGE_S


def grams(line: str) -> float:
    return float(line.split()[1])


def warm(box) -> None:
    """Let the empty pans show their zeros steady (the warm-up notice ends, ``WarmUp``)."""
    for _ in range(200):
        if not any(shot.warming for shot in box.scales.snapshots().values()):
            return
        box.idle(1.0)
    raise AssertionError("the pans never became warm")


def open_scale(box) -> None:
    """Walk the home menu to the Scale and open it, then wait until 10 s of box time have passed
    since the walk began: what the pans read next does not depend on how many entries the menu
    has (one more game is one more tap)."""
    began = box.runtime.clock()
    while box.last_view.lines[box.app.cursor] != "Scale":
        box.tap("host.next")
    box.tap("host.ok")
    box.idle(began + 10.0 - box.runtime.clock())


def test_scale_screen_shows_both_pans_stable_marks_and_which_is_heavier(box_factory):
    box = box_factory()
    warm(box)
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
    warm(box)
    open_scale(box)
    box.tap("host.next")                          # calibrate...
    assert box.last_view.title == "Calibrate"
    box.tap("host.ok")                            # ...the left pan
    assert_frame(box.frame(), "scale_calibrate_empty")
    box.tap("host.ok")                            # it is empty (and has been still a while,
    assert "Hold still..." in box.last_view.lines or box.last_view.big == "200 g"  # or not yet)
    waited = 0.0
    while box.last_view.big != "200 g" and waited < CALIBRATION_HOLD_S + 1:
        box.idle(0.1)
        waited += 0.1
    assert box.last_view.big == "200 g"
    box.idle(0.5)                                 # keys count again after a screen change
    box.tap("host.ok")                            # OK first, then the mass goes on
    assert "Waiting for the mass" in box.last_view.lines
    box.put("left", 200)
    box.idle(CALIBRATION_HOLD_S + 2.0)
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
    assert set(result) == {"left", "right", "verdict", "judged_after_s"}
    assert abs(result["left"]["grams"] - 12.3) <= 0.05 and result["verdict"] == "left-lighter"
    assert 0 < result["left"]["stable_after_s"] <= 1.5
    both_stable = max(result["left"]["stable_after_s"], result["right"]["stable_after_s"])
    assert both_stable + JUDGE_S - 0.11 <= result["judged_after_s"] <= both_stable + 3
    assert main(["weigh", "--sim", "100", "--json", "--rate", "80"]) == 0
    single = json.loads(capsys.readouterr().out)
    assert set(single) == {"left"} and single["left"]["stable_after_s"] <= 0.5


def test_weigh_without_sim_or_with_an_absurd_mass_is_refused(capsys):
    assert main(["weigh", "5"]) == 2
    assert main(["weigh", "--sim", "-4"]) == 2
    assert "a mass weighs 0 g or more" in capsys.readouterr().err


def test_calibrate_in_the_terminal_saves_per_pan(tmp_path, capsys):
    assert main(["calibrate", "--sim", "--pan", "right", "--mass", "100",
                 "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "right pan calibrated" in out
    with Journal(tmp_path / "journal.sqlite3") as journal:
        assert journal.calibration("right")["points"][1][0] == 100.0
        assert journal.calibration("left") is None
        assert 20.0 < journal.calibration("right")["temp_c"] < 22.0  # the twin's room, read


def test_calibrating_again_warmer_learns_the_span_coefficient(tmp_path, capsys, monkeypatch):
    from spielleiter.drivers.sim import thermometer

    three = ["--mass", "200", "--mass", "500", "--mass", "100"]
    assert main(["calibrate", "--sim", "--pan", "left", *three,
                 "--state-dir", str(tmp_path)]) == 0
    # the same box 10 K warmer:
    monkeypatch.setattr(thermometer.SimThermometer.__init__, "__kwdefaults__",
                        {"room_c": 31.0, "lag_s": 60.0, "seed": 0})
    assert main(["calibrate", "--sim", "--pan", "left", *three,
                 "--state-dir", str(tmp_path)]) == 0
    with Journal(tmp_path / "journal.sqlite3") as journal:
        saved = journal.calibration("left")
    assert [round(t) for t, _ in saved["spans"]] == [21, 31]  # one a calibration, not a mass
    out = capsys.readouterr().out
    assert "calibrate it again once the box is 5 K warmer" in out  # the first time
    assert "% per 10 K, learned from calibrations at 2" in out  # the second
    assert abs(saved["span_per_k"]) < 2e-5  # the twin's cell warms with its time on, not
    #                                          with the room: its span is as it was


def test_the_calibration_note_gives_the_span_drift_in_percent_per_10_kelvin():
    from dataclasses import replace

    from spielleiter.device.pans.thermometer import warmth_note
    from spielleiter.drivers.weighing import Calibration

    learned = replace(Calibration(counts_per_gram=420.0).made_at(30.0), span_per_k=5e-5,
                      spans=((21.0, 420.0), (30.0, 420.19)))
    assert "its span moves +0.050 % per 10 K, learned from calibrations at 21.0, 30.0" in \
        warmth_note(learned)  # 5e-5 per K: the bar-cell sheets' 0.05 % per 10 K
    assert "no thermometer" in warmth_note(Calibration())


class _Terminal:
    """A stdin that is a terminal."""

    def isatty(self) -> bool:
        return True


def test_calibrate_sim_on_a_terminal_waits_for_enter_at_each_step(tmp_path, capsys,
                                                                    monkeypatch):
    asked = []
    monkeypatch.setattr("sys.stdin", _Terminal())
    monkeypatch.setattr("builtins.input", lambda prompt="": asked.append(prompt) or "")
    assert main(["calibrate", "--sim", "--pan", "left", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert len(asked) == 2 and out.count("Press Enter when done.") == 2
    assert out.index("Empty it. Press Enter") < out.index("Put 200 g on the left pan. Press")
    assert main(["calibrate", "--sim", "--yes", "--pan", "left",
                 "--state-dir", str(tmp_path)]) == 0
    assert len(asked) == 2  # --yes: no waiting


def test_scale_in_the_terminal_shows_grams_and_the_verdict(tmp_path, capsys):
    from tests.device.cli.test_scale_cli import scale  # on a fake clock: no real 2 s wait

    code, lines, _ = scale(tmp_path, "left=30", "right=20", seconds=2.0)
    last = lines[-1]
    assert code == 0 and ("left:    29.9" in last or "left:    30.0" in last)
    assert "Left is heavier" in last
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
    assert main(["weigh", "--sim", "6000", "6000"]) == 2
    assert main(["calibrate", "--sim", "--mass", "-5", "--state-dir", str(tmp_path)]) == 2
    assert main(["calibrate", "--sim", "--mass", "nan", "--state-dir", str(tmp_path)]) == 2
    assert main(["scale", "--sim", "--put", "left=99999", "--state-dir", str(tmp_path)]) == 2
    assert main(["scale", "--sim", "--put", "left=heavy", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "the simulator sets at most 5000 g on a pan" in err and "1-500 g" in err and "must be a number" in err
    assert "Traceback" not in err


# --- named pans, the judged verdict, commands without hardware ------------------------------------


def _scales(tmp_path, site_text):
    """Simulated Scales for a site config, and a pump that runs them and feeds the samples."""
    import queue

    from spielleiter.device.pans.scales import Scales

    site = tmp_path / "config.toml"
    site.write_text(site_text)
    cfg = config.load(site)
    journal = Journal(tmp_path / "journal.sqlite3")
    events: queue.Queue = queue.Queue()
    scales = Scales.build(cfg, journal, events.put, simulated=True)

    def run(seconds):
        from spielleiter.drivers.loadcell import LoadCellSample

        scales.sim.run_for(seconds)
        while not events.empty():
            event = events.get()
            (scales.on_sample if isinstance(event, LoadCellSample) else scales.on_status)(event)

    return cfg, journal, scales, run


def test_one_pan_alone_shows_just_that_pan_and_no_verdict(tmp_path):
    from spielleiter.device.modes.scale import ScaleMode

    cfg, journal, scales, run = _scales(tmp_path, '[loadcells.scale]\nreader = "spi"\nbus = 0\n')
    assert cfg.pan_names == ("scale",)
    run(1.0)
    scales.sim.put("scale", 42.0)
    run(2.0)
    view = ScaleMode(SimpleNamespace(scales=scales)).view()
    assert len(view.lines) == 1 and view.lines[0].startswith("S ")
    assert abs(grams(view.lines[0]) - 42.0) <= 0.05
    assert scales.judge is None and scales.verdict() is None
    scales.close()
    journal.close()


def test_named_pans_are_judged_and_the_verdict_is_worded_once(tmp_path):
    from spielleiter.device.modes.scale import ScaleMode
    from spielleiter.device.pans.scales import verdict_text

    cfg, journal, scales, run = _scales(
        tmp_path, '[loadcells.gold]\nreader = "spi"\nbus = 0\n'
                  '[loadcells.silver]\nreader = "spi"\nbus = 1\n')
    assert cfg.pan_names == ("gold", "silver")
    heard = []
    scales.listeners.append(lambda w: heard.append(w.judgement) if w.kind == "judged" else None)
    run(1.0)
    scales.sim.put("gold", 10.0)
    scales.sim.put("silver", 10.2)
    run(3.0)
    judgement = scales.judgement()
    assert judgement.verdict == "gold-lighter" and heard[-1].verdict == "gold-lighter"
    assert judgement.t - judgement.since >= cfg.judge_s - 1e-6
    assert ScaleMode(SimpleNamespace(scales=scales)).view().lines[-1] == verdict_text("gold-lighter") == \
        "Gold is lighter"
    assert verdict_text("balanced") == "Balanced"
    scales.close()
    journal.close()


def test_the_scale_screen_gives_the_verdict_only_after_judge_s_of_joint_stability(box_factory):
    box = box_factory()
    open_scale(box)
    box.put("left", 20.0)
    box.put("right", 10.0)
    seen = []
    for _ in range(30):
        box.idle(0.1)
        seen.append((box.scales.pans["left"].channel.settled_since,
                     box.scales.pans["right"].channel.settled_since, box.last_view.lines[2]))
    first = next(i for i, (_, _, line) in enumerate(seen) if line == "Left is heavier")
    both = seen[first][:2]
    before = [line for _, _, line in seen[:first]]  # the empty pans' verdict, then motion
    assert None not in both and "weighing..." in before
    assert set(before) <= {"Balanced", "weighing..."}
    assert box.scales.judgement().t - max(both) >= box.config.judge_s - 1e-6


def test_calibrate_without_the_hardware_modules_fails_at_once_and_says_why(
        tmp_path, capsys, monkeypatch, caplog):
    import sys
    import time

    monkeypatch.setitem(sys.modules, "spidev", None)  # importing it fails, as off the Pi
    site = tmp_path / "config.toml"
    site.write_text("")
    started = time.monotonic()
    code = main(["calibrate", "--yes", "--config", str(site), "--state-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and time.monotonic() - started < 5
    assert "cannot read the left pan" in err and "spidev is missing" in err
    assert "never held still" not in err and "Traceback" not in err
    assert not [r for r in caplog.records if "spidev" in r.getMessage()]  # said once, not logged too
    assert not list(tmp_path.glob("journal.sqlite3*"))   # no empty journal left behind
    state = tmp_path / "kept"                            # a journal already there stays
    assert main(["calibrate", "--yes", "--mass", "100", "--sim", "--state-dir", str(state)]) == 0
    assert main(["calibrate", "--yes", "--config", str(site), "--state-dir", str(state)]) == 1
    assert (state / "journal.sqlite3").exists()


@pytest.mark.parametrize("seconds", ["nan", "-1", "0", "inf"])
def test_scale_seconds_that_are_no_duration_are_refused(tmp_path, capsys, seconds):
    assert main(["scale", "--sim", "--seconds", seconds, "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "--seconds" in err and "above 0" in err


def test_scale_put_names_the_configured_pans(tmp_path, capsys):
    assert main(["scale", "--sim", "--put", "middle=3", "--state-dir", str(tmp_path)]) == 2
    assert "left, right" in capsys.readouterr().err


# --- calibration with more than one mass ------------------------------------------------------

def _calibrate_left_to_the_mass_screen(box):
    open_scale(box)
    box.tap("host.next")
    box.tap("host.ok")                            # the left pan
    box.tap("host.ok")                            # it is empty
    box.idle(CALIBRATION_HOLD_S + 1)
    assert box.last_view.big == "200 g"
    box.idle(0.5)


def _weigh(box, grams):
    box.tap("host.ok")                            # it's on (confirmed)
    box.put("left", grams)
    box.idle(CALIBRATION_HOLD_S + 2.0)


def test_three_masses_on_the_host_panel_are_fitted_and_saved(box_factory, tmp_path):
    box = box_factory(state_dir=tmp_path / "cal3")
    warm(box)
    _calibrate_left_to_the_mass_screen(box)
    _weigh(box, 200)
    assert box.last_view.title == "Left pan calibrated"
    assert box.last_view.footer == "OK another  BACK stop"
    assert_frame(box.frame(), "scale_calibrate_more")
    box.put("left", -200)
    box.idle(2.0)
    box.tap("host.ok")                            # another mass: 500 g is offered first
    assert box.last_view.big == "500 g"
    box.idle(0.5)
    _weigh(box, 500)
    box.put("left", -500)
    box.idle(2.0)
    box.tap("host.ok")
    assert box.last_view.big == "100 g"           # then 100 g: 200 and 500 are weighed
    box.idle(0.5)
    _weigh(box, 100)
    view = box.last_view                          # the third ends it: its screen stays
    assert view.title == "Left pan calibrated" and view.footer == "OK done"
    assert view.lines == ("with 200, 500, 100 g.", "Take the 100 g off.")
    assert_frame(box.frame(), "scale_calibrate_done")
    box.idle(10.0)
    assert box.last_view == view                  # no timer takes it away
    box.tap("host.ok")
    assert box.last_view.title == "Scale  (* = stable)"
    saved = box.journal.calibration("left")
    assert saved["version"] == 2 and [p[0] for p in saved["points"]] == [0, 200, 500, 100]


def test_back_after_the_first_mass_keeps_the_one_mass_calibration(box_factory, tmp_path):
    box = box_factory(state_dir=tmp_path / "cal1")
    _calibrate_left_to_the_mass_screen(box)
    _weigh(box, 200)
    box.tap("host.back")                          # done: back to the live pans at once
    assert box.last_view.footer == "OK tare  NEXT calibr."
    saved = box.journal.calibration("left")
    assert [p[0] for p in saved["points"]] == [0, 200] and saved["version"] == 1
    box.idle(0.5)
    box.tap("host.back")                          # only a second BACK leaves the tool
    assert box.last_view.title == "Spielleiter" and "Scale" in box.last_view.lines


def test_a_mass_is_never_taken_before_the_person_confirmed_it(box_factory, tmp_path):
    box = box_factory(state_dir=tmp_path / "calc")
    _calibrate_left_to_the_mass_screen(box)
    box.put("left", 200)                          # on the pan, but OK not pressed
    box.idle(CALIBRATION_HOLD_S + 3.0)
    assert box.last_view.big == "200 g" and box.journal.calibration("left") is None


def test_a_pan_at_its_stop_says_too_heavy_and_never_a_number(box_factory):
    box = box_factory()
    open_scale(box)
    box.put("left", 1200.0)
    for _ in range(30):                          # not even before the overload is confirmed:
        box.idle(0.1)                            # no number past the range (550 g)
        shown = box.last_view.lines[0].split()[1]
        assert not shown[0].isdigit() or float(shown) <= 550.0, box.last_view.lines
    box.idle(3.0)
    left = box.last_view.lines[0]
    assert left == "L too heavy" and not any(c.isdigit() for c in left)
    assert box.last_view.lines[2] == "Take some off"   # no verdict, and it says why


def test_calibrate_in_the_terminal_with_three_masses_fits_the_bow(tmp_path, capsys):
    assert main(["calibrate", "--sim", "--pan", "left", "--mass", "200", "--mass", "500",
                 "--mass", "100", "--yes", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Take the 200 g off, then put 500 g on the left pan." in out
    assert "left pan calibrated with 200, 500, 100 g" in out
    with Journal(tmp_path / "journal.sqlite3") as journal:
        saved = journal.calibration("left")
    assert [p[0] for p in saved["points"]] == [0, 200, 500, 100]


@pytest.mark.parametrize("masses, why", [(["200", "200"], "different"),
                                         (["100", "200", "300", "400"], "at most 3"),
                                         (["1000"], "1-500 g"),
                                         (["550"], "beyond the pan's range")])
def test_calibrate_refuses_masses_it_cannot_use_with_the_reason(tmp_path, capsys, masses, why):
    args = [a for m in masses for a in ("--mass", m)]
    assert main(["calibrate", "--sim", "--yes", *args, "--state-dir", str(tmp_path)]) == 2
    assert why in capsys.readouterr().err
    assert not (tmp_path / "journal.sqlite3").exists()


def test_weigh_says_too_heavy_past_the_range_and_prints_no_number(capsys):
    assert main(["weigh", "--sim", "1200"]) == 1
    captured = capsys.readouterr()
    assert "too heavy for the left pan" in captured.err and "up to 550 g" in captured.err
    assert "never settled" not in captured.err and not captured.out


def test_weigh_says_a_mass_under_the_limit_that_read_past_it_read_over(capsys, monkeypatch):
    from spielleiter.device.cli import pans

    past = {"left": {"grams": None, "stable_after_s": None, "overload": True}}
    monkeypatch.setattr(pans, "weigh_sim", lambda *a, **k: past)  # a cell that reads 549.9 high
    assert main(["weigh", "--sim", "549.9", "--cells", "real", "--lang", "en"]) == 1
    captured = capsys.readouterr()
    assert "the left pan read past 550 g" in captured.err and "bends" in captured.err
    assert "too heavy" not in captured.err and not captured.out


def test_weigh_json_past_the_range_is_still_json_with_the_pan_overloaded(capsys):
    assert main(["weigh", "--sim", "700", "--json"]) == 1
    captured = capsys.readouterr()
    got = json.loads(captured.out)
    assert got["left"] == {"grams": None, "stable_after_s": None, "overload": True}
    assert "too heavy for the left pan" in captured.err


def test_weigh_on_real_cells_calibrates_their_bow_away_so_equal_masses_balance(capsys):
    # one mass (200 g) left a bent pair 500.22 / 499.78 g apart: "Left is heavier"
    assert main(["weigh", "--sim", "500", "500", "--cells", "real", "--lang", "en",
                 "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["verdict"] == "balanced" and abs(got["left"]["grams"] - 500) < 0.05


def test_a_tare_taken_with_a_load_on_is_set_right_by_a_tare_of_the_empty_pan(box_factory):
    """The trial's lock: tared with 50 g on, then emptied, the pan read "below zero" for good
    (never still, so every tare was refused as "moving" and the zero stayed saved)."""
    box = box_factory()
    warm(box)
    open_scale(box)
    box.put("left", 50)
    box.idle(2.0)
    box.tap("host.ok")                            # tare, with 50 g on
    box.idle(2.0)
    box.put("left", -50)
    box.idle(3.0)
    assert box.last_view.lines[0] == "L below zero"
    assert box.last_view.lines[-1] == "Empty? OK tares"   # what to do, not "weighing..."
    box.tap("host.ok")                            # tare the empty pan
    assert box.app.flash_view.lines[0] == "Tared"
    box.idle(3.0)
    assert grams(box.last_view.lines[0]) == pytest.approx(0.0, abs=0.03)
    saved = box.journal.calibration("left")
    box.put("left", 20)
    box.idle(2.0)
    assert grams(box.last_view.lines[0]) == pytest.approx(20.0, abs=0.05)
    assert saved["offset"] == pytest.approx(box.scales.pans["left"].channel.calibration.offset,
                                            abs=0.05 * saved["counts_per_gram"])
