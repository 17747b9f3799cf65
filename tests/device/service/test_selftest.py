"""``spielleiter selftest`` on the simulated twins, and the service's self-test at start.

The CLI checks run the real luma driver over a RecordingBus, SimScale on virtual time, gpiozero's
MockFactory and a NullModem end; every fault flag must fail exactly its own part. The service's
probe looks at a built box on a ManualClock, so its second of readings is virtual too.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

from spielleiter.device.config import core as config_mod
from spielleiter.device.box import Box
from spielleiter.device.cli import main
from spielleiter.device.runtime import ManualClock
from spielleiter.device.service import check_cells, checks
from spielleiter.device.service.loop import Service, run_service
from spielleiter.device.service.notify import Notifier
from spielleiter.device.service.report import Report, Row
from spielleiter.drivers.buttons import mock_factory
from spielleiter.drivers.display import RecordingBus, open_device
from spielleiter.drivers.loadcell import ReaderStats

PARTS = ["config", "OLED", "left pan", "right pan", "thermo", "buttons", "link"]


def verdicts(report: Report) -> dict[str, str]:
    return {row.part: row.verdict for row in report.rows}


def detail(report: Report, part: str) -> str:
    return next(row.detail for row in report.rows if row.part == part)


# -- the command ----------------------------------------------------------------------------------
def test_everything_passes_in_sim(capsys):
    assert main(["selftest", "--lang", "en", "--sim", "--config", os.devnull]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Spielleiter self-test (simulated hardware)"
    for part in PARTS:
        assert any(line.startswith(part) and " PASS " in line for line in lines), part
    assert "verdict: PASS (7 passed)" in out
    assert "10 samples in 1.0 s (rate 10), no rail or saturated values" in out


FAULTS = {  # flag -> (part, words the detail must hold, the OLED's word)
    "display": ("OLED", "I2C device not found on address: 0x3C", "no answer"),
    "left": ("left pan", "no answer from the HX711", "no signal"),
    "right:stuck": ("right pan", "DOUT stuck low", "DOUT stuck"),
    "left:saturated": ("left pan", "saturated values", "saturated"),
    "buttons": ("buttons", "held at start: s1.A (GPIO4)", "s1.A held"),
    "buttons:host.ok": ("buttons", "held at start: host.ok (GPIO6)", "host.ok held"),
    "link": ("link", "cannot open /dev/spielleiter-sim-link-unplugged", "port not open"),
    "thermo": ("thermo", "no answer from the thermometer", "no reading"),
}


@pytest.mark.parametrize("flag", list(FAULTS))
def test_each_fault_fails_exactly_its_part(flag):
    part, words, short = FAULTS[flag]
    report = checks.run(None, sim=True, faults=checks.parse_faults(flag))
    assert {p: v for p, v in verdicts(report).items() if v != "PASS"} == {part: "FAIL"}
    assert words in detail(report, part)
    assert report.exit_code == 1
    assert report.screen().lines[0] == f"{part}: {short}"
    assert report.screen().title == "Self-test: 1 failed"


def test_several_faults_at_once_exit_1_with_a_table(capsys):
    code = main(["selftest", "--lang", "en", "--sim", "--config", os.devnull, "--fail", "display,left,link"])
    assert code == 1
    out = capsys.readouterr().out
    assert "verdict: FAIL (4 passed, 3 failed)" in out
    assert "failed: OLED, left pan, link" in out


def test_json_output(capsys):
    assert main(["selftest", "--lang", "en", "--sim", "--json", "--config", os.devnull, "--fail", "right"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"verdict", "ok", "parts"}
    assert doc["verdict"] == "FAIL" and doc["ok"] is False
    assert [p["part"] for p in doc["parts"]] == PARTS
    assert all(set(p) == {"part", "verdict", "detail"} for p in doc["parts"])
    assert [p["verdict"] for p in doc["parts"]] == ["PASS", "PASS", "PASS", "FAIL", "PASS", "PASS", "PASS"]


def test_fault_flags_are_checked(capsys):
    assert main(["selftest", "--lang", "en", "--fail", "left"]) == 2  # faults only in the simulation
    assert "--fail needs --sim" in capsys.readouterr().err
    assert main(["selftest", "--lang", "en", "--sim", "--fail", "toaster"]) == 2
    assert "unknown part 'toaster'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="left:wobbly"):
        checks.parse_faults("left:wobbly")
    assert checks.parse_faults("display, right:stuck,") == {"display": "fail", "right": "stuck"}


def test_unconfigured_parts_are_skipped_and_skips_pass(tmp_path):
    site = tmp_path / "config.toml"
    site.write_text('[loadcells.right]\nreader = "none"\n[link]\nenabled = false\n')
    report = checks.run(site, sim=True)
    assert verdicts(report) == {"config": "PASS", "OLED": "PASS", "left pan": "PASS",
                                "right pan": "SKIP", "thermo": "PASS", "buttons": "PASS",
                                "link": "SKIP"}
    assert report.exit_code == 0
    assert report.summary() == "self-test passed (right pan, link skipped)"
    assert 'loadcells.right.reader = "none"' in detail(report, "right pan")


def test_a_bad_config_fails_and_skips_the_rest(tmp_path, capsys):
    site = tmp_path / "config.toml"
    site.write_text('[display]\ndriver = "lcd"\n[buzzer]\npin = 4\n')
    assert main(["selftest", "--lang", "en", "--sim", "--config", str(site)]) == 1
    out = capsys.readouterr().out
    assert "config     FAIL     " in out
    assert "display.driver: 'lcd' is not ssd1306 or sh1106" in out
    assert "stations[1].a and buzzer.pin: both on GPIO4" in out
    assert out.count("SKIP     not checked: fix the config first") == 5


def test_too_few_samples_point_at_the_rate_pin():
    stats = ReaderStats(samples=9, settling=1)
    row = check_cells.evaluate_loadcell("left", 80, stats, 1.0, True)  # RATE on GND, config 80
    assert row.verdict == "FAIL"
    assert "10 samples in 1.0 s (rate 80), expected about 80" in row.detail
    assert "RATE pin" in row.detail
    ok = check_cells.evaluate_loadcell("left", 10, stats, 1.0, True)
    assert ok.verdict == "PASS"
    rail = check_cells.evaluate_loadcell("left", 10, ReaderStats(samples=10, rail=2), 1.0,
                                      True)
    assert (rail.verdict, rail.short) == ("FAIL", "rail values")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_oled_screen_shows_every_line_above_its_footer_in_either_language(language):
    """Also every part's short word beside its name, whole, in both languages."""
    from spielleiter.device import i18n
    from spielleiter.device.screen.render import misfits

    i18n.use(language)
    try:
        report = checks.run(None, sim=True)
        view = report.screen()
        assert misfits(view) == []
        assert len(view.lines) == 3 and view.lines[1].startswith("ok: ")
        many = checks.run(None, sim=True, faults=checks.parse_faults(
            "display,left,right,buttons,link")).screen()
        assert misfits(many) == []
        words = {"config": "{n} problem(s)", "OLED": "frame failed", "left pan": "rail values",
                 "right pan": "cannot start", "thermo": "no reading", "buttons": "GPIO busy",
                 "link": "console on it", "journal": "bad backup"}
        for part, word in words.items():
            line = Row(part, "FAIL", "", i18n._(word).format(n=30)).screen_line()
            assert len(line) <= 21 and line.endswith(i18n._(word).format(n=30)), line
    finally:
        i18n.use("en")
    if language == "en":
        assert (view.title, view.lines[0]) == ("Self-test OK", "All parts OK")
        assert many.lines == ("OLED: no answer", "left pan: no signal", "+3 more: see log")
    else:
        assert (view.title, view.lines[0]) == ("Selbsttest OK", "Alles in Ordnung")
        assert many.lines == ("OLED: keine Antwort", "links: kein Signal", "+3 mehr: siehe Log")


# -- the service ----------------------------------------------------------------------------------
def manual_box(state_dir: Path, *, bus: RecordingBus | None = None, link: object = None) -> Box:
    device = open_device("ssd1306", bus=bus) if bus is not None else open_device("dummy")
    box = Box.build(config_mod.load(None), state_dir, pin_factory=mock_factory(),
                    display_device=device, clock=ManualClock(), seed_source=lambda: 7)
    if link is not None:
        box.link = link  # type: ignore[assignment]
    box.runtime.pump()
    return box


class FakeLink:
    def __init__(self, up: bool) -> None:
        self.up = up
        self.url = "/dev/serial0"

    def close(self) -> None:
        pass


def test_service_self_test_all_fine(tmp_path):
    with manual_box(tmp_path, bus=RecordingBus(), link=FakeLink(True)) as box:
        service = Service(box, Notifier(None), selftest=True)
        service.start()
        box.thermometer.read_once()  # its thread does this on a real clock
        box.idle(1.4)
        assert service.selftest_report is None  # 0.5 s to settle, then a one-second window
        box.idle(0.2)
        report = service.selftest_report
        assert report is not None and report.ok
        assert verdicts(report) == dict.fromkeys(PARTS, "PASS")
        assert "10 samples in 1.0 s" in detail(report, "left pan")
        assert box.last_view.title == "Self-test OK"
        assert service.describe() == "Refereeing: main menu; self-test passed"
        note = box.journal.notes("selftest")[0]
        assert note["source"] == "service" and note["verdict"] == "PASS"
        box.idle(3.5)
        assert box.last_view.title == "Spielleiter"  # the screen returns to the menu


def test_service_reports_failed_parts_and_keeps_refereeing(tmp_path):
    bus = RecordingBus()
    with manual_box(tmp_path, bus=bus, link=FakeLink(False)) as box:
        service = Service(box, Notifier(None), selftest=True)
        service.start()
        box.scales.sim.cells["left"].chip.disconnect()
        box.pin_factory.pin(17).drive_low()  # s1.B stuck
        box.idle(0.6)
        bus.fail = True  # the OLED's cable comes loose
        box.idle(1.0)
        report = service.selftest_report
        assert report is not None
        assert verdicts(report) == {"config": "PASS", "OLED": "FAIL", "left pan": "FAIL",
                                    "right pan": "PASS", "thermo": "PASS", "buttons": "FAIL",
                                    "link": "FAIL"}  # thermo: the twin, read as idle passes
        assert box.last_view.title == "Self-test: 4 failed"
        assert box.last_view.lines == ("OLED: no answer", "left pan: no signal",
                                       "+2 more: see log")  # three lines above the footer
        status = service.describe()
        assert status.startswith("Refereeing: main menu; self-test FAILED: OLED (no answer), "
                                 "left pan (no signal), buttons (s1.B held), link (port not "
                                 "open)")
        saved = box.journal.notes("selftest")[0]
        assert {p["part"]: p["verdict"] for p in saved["parts"]}["left pan"] == "FAIL"
        # The rest keeps working: the right pan weighs, the host panel answers.
        box.put("right", 50)
        box.idle(2.0)
        assert box.scales.reading("right").grams == pytest.approx(50, abs=0.5)
        box.tap("host.back")  # dismisses the self-test screen (BACK does nothing at home)
        assert box.app.flash_view is None and box.app.mode == "home"
        cursor = box.app.cursor
        box.tap("host.next")
        assert box.app.cursor == cursor + 1


def test_service_without_an_oled_says_so(tmp_path):
    with manual_box(tmp_path) as box:
        service = Service(box, Notifier(None), selftest=True,
                          notes=["no OLED (ssd1306 at I2C 1/0x3C: not found)"],
                          config_source="/etc/spielleiter/config.toml")
        service.start()
        box.idle(1.6)
        report = service.selftest_report
        assert report is not None
        assert detail(report, "config") == "/etc/spielleiter/config.toml: valid"
        assert detail(report, "OLED").startswith("no OLED (ssd1306 at I2C 1/0x3C: not found); "
                                                 "refereeing goes on over the link")
        assert verdicts(report)["link"] == "SKIP"  # no link attached to this box


def test_no_self_test_unless_asked(tmp_path):
    with manual_box(tmp_path) as box:
        service = Service(box, Notifier(None))
        service.start()
        box.idle(2.0)
        assert service.selftest_report is None
        assert box.journal.notes("selftest") == []


def test_run_service_sends_the_self_test_in_status(tmp_path):
    directory = tempfile.mkdtemp(prefix="sl-st-")  # AF_UNIX paths must stay short
    path = os.path.join(directory, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    boxes: list[Box] = []
    seen: list[str] = []

    def factory(cfg, state_dir):
        boxes.append(Box.build(cfg, state_dir, pin_factory=mock_factory(),
                               display_device=open_device("dummy")))
        return boxes[0], ["simulated hardware"]

    def stop_after_self_test():
        deadline = time.monotonic() + 10
        try:
            while time.monotonic() < deadline:
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                message = sock.recv(4096).decode()
                seen.append(message)
                if "self-test" in message:
                    break
        finally:
            if boxes:  # built before READY; absent only if the factory failed
                boxes[0].runtime.stop("test")

    stopper = threading.Thread(target=stop_after_self_test)
    stopper.start()
    try:
        code = run_service(None, tmp_path / "state", box_factory=factory,
                           env={"NOTIFY_SOCKET": path})
    finally:
        stopper.join(10)
        sock.close()
        shutil.rmtree(directory, ignore_errors=True)
    assert code == 0
    assert ("STATUS=Refereeing: main menu; simulated hardware; self-test passed (OLED, link "
            "skipped)") in seen[-1]


def test_the_oled_fails_with_the_fix_when_the_screens_font_is_missing(monkeypatch):
    from spielleiter.device.service import checks

    monkeypatch.setattr(checks, "font_problem", lambda: "Terminus font missing (gone)")
    row, device = checks.check_display(checks.check_config(None)[1], sim=True)
    checks._cleanup(device)
    assert row.verdict == "FAIL" and "fonts-terminus-otb" in row.detail


def test_a_box_without_a_thermometer_skips_it_and_a_found_one_is_read(tmp_path):
    row = check_cells.check_thermometer(devices=str(tmp_path), hwmon=str(tmp_path))
    assert row.verdict == "SKIP" and "optional" in row.detail
    sensor = tmp_path / "hwmon3"
    sensor.mkdir()
    (sensor / "name").write_text("lm75\n")
    (sensor / "temp1_input").write_text("25500\n")
    row = check_cells.check_thermometer(devices=str(tmp_path), hwmon=str(tmp_path))
    assert row.verdict == "PASS" and "25.50 degrees C" in row.detail
    (sensor / "temp1_input").write_text("85000\n")  # read before its first conversion
    row = check_cells.check_thermometer(devices=str(tmp_path), hwmon=str(tmp_path))
    assert row.verdict == "FAIL" and "not a reading" in row.detail


def test_the_table_speaks_german_with_the_decimal_comma_and_the_json_keeps_its_names(capsys):
    assert main(["selftest", "--lang", "de", "--sim", "--config", os.devnull,
                 "--fail", "left"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Spielleiter-Selbsttest (simulierte Hardware)"
    assert lines[2].split()[:3] == ["Teil", "Urteil", "Einzelheiten"]
    assert any(line.startswith("Schale links") and " FEHLER " in line for line in lines)
    assert "10 Messwerte in 1,0 s (Rate 10), keine Anschlag- oder übersteuerten Werte" in out
    assert "Urteil: FEHLER (6 bestanden, 1 fehlgeschlagen)" in out
    assert "fehlgeschlagen: Schale links" in out
    assert not any(word in out for word in ("PASS", "samples", "verdict", "left pan"))
    assert main(["selftest", "--lang", "de", "--sim", "--json", "--config", os.devnull]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == "PASS" and doc["parts"][2]["part"] == "left pan"
