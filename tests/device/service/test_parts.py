"""A box that cannot find a part never restart-loops: it starts without it, says what is missing
(STATUS=, the screen, the self-test), tries again slowly, and logs once per change."""

from __future__ import annotations

import logging

import pytest

from spielleiter.device.config import core as config_mod
from spielleiter.device.runtime import ManualClock
from spielleiter.device.service.loop import Service, hardware_box
from spielleiter.device.service.notify import Notifier
from spielleiter.device.screen.render import View
from spielleiter.device.service.parts import GPIO, OLED, RETRY_S, Parts
from spielleiter.drivers.buttons import mock_factory
from spielleiter.drivers.display import open_device
from spielleiter.drivers.gpio_chip import Chip, ChipNotFound
from support import english_config


class Hardware:
    """The header chip and the OLED as a test switches them on and off."""

    def __init__(self) -> None:
        self.chip_there = False
        self.oled_there = False
        self.factory = mock_factory()
        self.pin_tries = 0

    def open_pins(self, config):
        self.pin_tries += 1
        if not self.chip_there:
            raise ChipNotFound("no GPIO chip with a header label; chips here: none")
        return self.factory, Chip("/dev/gpiochip4", 4, "pinctrl-rp1", 54)

    def open_oled(self, config):
        if not self.oled_there:
            raise OSError(2, "No such file or directory: '/dev/i2c-1'")
        return open_device("dummy")


@pytest.fixture
def config(tmp_path):
    path = english_config(tmp_path / "conf")
    path.write_text(path.read_text() + "[link]\nenabled = false\n"
                    "[loadcells.left]\nreader = \"none\"\n[loadcells.right]\nreader = \"none\"\n")
    return config_mod.load(path)


class Statuses(Notifier):
    def __init__(self) -> None:
        super().__init__(None)
        self.sent: list[str] = []

    def ready(self, status: str | None = None) -> None:
        self.sent.append(f"READY {status}")

    def status(self, text: str) -> None:
        self.sent.append(text)


def start(config, tmp_path, hw):
    parts = Parts(config, open_pins=hw.open_pins, open_oled=hw.open_oled)
    box, notes = hardware_box(config, tmp_path / "state", parts=parts)
    clock = ManualClock()
    box.runtime.clock = clock
    notifier = Statuses()
    service = Service(box, notifier, notes=notes)
    service.start()
    return box, service, notifier, clock


def test_without_gpio_and_oled_the_service_is_ready_and_says_what_is_missing(config, tmp_path):
    hw = Hardware()
    box, service, notifier, _clock = start(config, tmp_path, hw)
    with box:
        assert notifier.sent[0].startswith("READY Refereeing:")
        assert "no buttons (GPIO: no GPIO chip" in notifier.sent[0]
        assert "no screen (OLED: No such file" in notifier.sent[0]
        assert set(box.parts.missing) == {GPIO, OLED}


def test_a_missing_part_is_tried_slowly_and_taken_when_it_comes(config, tmp_path, caplog):
    hw = Hardware()
    caplog.set_level(logging.INFO, "spielleiter")
    box, service, notifier, clock = start(config, tmp_path, hw)
    with box:
        tries = hw.pin_tries
        box.runtime.run_until(clock.t + RETRY_S * 3 + 1)
        assert hw.pin_tries == tries + 3  # once per RETRY_S, no faster
        hw.chip_there = True
        box.runtime.run_until(clock.t + RETRY_S)
        assert GPIO not in box.parts.missing and OLED in box.parts.missing
        assert box.buttons.buttons  # real (here: the test's) pins now
        assert "no buttons" not in notifier.sent[-1] and "no screen" in notifier.sent[-1]
        hw.oled_there = True
        box.runtime.run_until(clock.t + RETRY_S)
        assert not box.parts.missing
        assert "no screen" not in notifier.sent[-1]
    lines = [r.getMessage() for r in caplog.records if r.name.endswith("service.parts")]
    assert len([m for m in lines if m.startswith("gpio missing")]) == 1
    assert len([m for m in lines if m.startswith("gpio found")]) == 1
    assert len([m for m in lines if m.startswith("oled missing")]) == 1
    assert len([m for m in lines if m.startswith("oled found")]) == 1
    assert not any(r.exc_info for r in caplog.records)  # no traceback per attempt


def test_a_press_on_the_found_chip_reaches_the_referee(config, tmp_path):
    hw = Hardware()
    box, service, notifier, clock = start(config, tmp_path, hw)
    with box:
        hw.chip_there = True
        box.runtime.run_until(clock.t + RETRY_S + 1)
        pin = hw.factory.pin(config.button_pins()["host.next"])
        before = box.runtime.queue.qsize()
        pin.drive_low()
        pin.drive_high()
        assert box.runtime.queue.qsize() == before + 2  # the press and the release


def test_the_self_test_fails_the_buttons_without_a_chip(config, tmp_path):
    from spielleiter.device.service.probe import BoxProbe

    hw = Hardware()
    hw.oled_there = True
    box, service, notifier, clock = start(config, tmp_path, hw)
    with box:
        report = BoxProbe(box).finish()
        row = next(r for r in report.rows if r.part == "buttons")
        assert row.verdict == "FAIL" and "no GPIO chip" in row.detail


def test_the_status_says_a_part_the_self_test_missed_was_found_since(config, tmp_path):
    from spielleiter.device.service.probe import BoxProbe

    hw = Hardware()
    hw.oled_there = True
    box, service, notifier, clock = start(config, tmp_path, hw)
    with box:
        probe = BoxProbe(box)
        probe.begin()
        service._finish_selftest(probe)  # the end of the service's own self-test window
        assert "buttons (no GPIO)" in service.describe()
        assert "found since" not in service.describe()
        hw.chip_there = True
        box.runtime.run_until(clock.t + RETRY_S + 1)
        status = notifier.sent[-1]
        assert "self-test FAILED: buttons (no GPIO) (found since: buttons)" in status
        assert "no buttons" not in status


def test_a_missing_chip_is_said_in_the_boxs_language_and_logged_in_english(config, tmp_path,
                                                                              caplog):
    from spielleiter.device.i18n import use

    caplog.set_level(logging.WARNING, "spielleiter")

    def no_chip(config):
        raise ChipNotFound("no GPIO chip with a header label ({labels}); chips here: none",
                           labels="pinctrl-rp1")

    parts = Parts(config, open_pins=no_chip, open_oled=Hardware().open_oled)
    box, _notes = hardware_box(config, tmp_path / "state", parts=parts)
    with box:
        try:
            use("de")
            said = " ".join(parts.notes())
        finally:
            use("en")
    assert "kein GPIO-Chip mit der Bezeichnung einer Stiftleiste (pinctrl-rp1); Chips hier: " \
        "keine" in said
    assert "no GPIO chip" not in said
    assert any("no GPIO chip with a header label (pinctrl-rp1)" in r.getMessage()
               for r in caplog.records)


def test_a_simulated_box_is_a_setting(tmp_path):
    path = english_config(tmp_path / "conf")
    path.write_text(path.read_text() + "[hardware]\nsimulated = true\n")
    config = config_mod.load(path)
    box, notes = hardware_box(config, tmp_path / "state")
    with box:
        assert notes == ["simulated hardware"]
        assert box.parts is None and box.scales is not None and box.scales.sim is not None


def test_status_speaks_the_box_language(tmp_path):
    from spielleiter.device.i18n import use

    path = english_config(tmp_path / "conf")
    path.write_text(path.read_text().replace('language = "en"', 'language = "de"')
                    + "[hardware]\nsimulated = true\n")
    config = config_mod.load(path)
    box, notes = hardware_box(config, tmp_path / "state")
    try:
        with box:
            use("de")
            service = Service(box, Statuses(), notes=notes)
            assert service.describe().startswith("Spielleitung: Hauptmenü")
            from spielleiter.device.service.report import FAIL, PASS, SKIP, Report, Row
            failed = Report((Row("OLED", FAIL, "", "no answer"), Row("left pan", FAIL, ""),
                             Row("link", PASS, "")))
            assert failed.summary() == ("Selbsttest FEHLGESCHLAGEN: OLED (keine Antwort), "
                                        "Schale links (Fehler)")
            passed = Report((Row("right pan", SKIP, ""), Row("link", SKIP, "")))
            assert passed.summary() == "Selbsttest bestanden (Schale rechts, Kabel übersprungen)"
    finally:
        use("en")


def test_a_pan_that_cannot_start_is_said_and_tried_again(tmp_path, caplog):
    path = english_config(tmp_path / "conf")
    path.write_text(path.read_text() + "[link]\nenabled = false\n"
                    "[loadcells.left]\nreader = \"serial\"\nport = \"/dev/ttyNOPE0\"\n"
                    "[loadcells.right]\nreader = \"none\"\n")
    config = config_mod.load(path)
    hw = Hardware()
    hw.chip_there = hw.oled_there = True
    caplog.set_level(logging.INFO, "spielleiter")
    box, service, notifier, clock = start(config, tmp_path, hw)
    with box:
        assert "cells:left" in box.parts.missing
        assert "no left pan" in notifier.sent[0]
        box.runtime.run_until(clock.t + RETRY_S * 2 + 1)
        assert "cells:left" in box.parts.missing  # still no such port: tried, not found
    assert not any(r.exc_info for r in caplog.records)


def test_the_screen_says_what_is_missing_in_short_lines_that_fit(config, tmp_path):
    from spielleiter.device.i18n import use
    from spielleiter.device.screen.render import render

    hw = Hardware()
    hw.oled_there = True
    box, service, notifier, clock = start(config, tmp_path, hw)
    with box:
        assert box.parts.screen_lines() == ("No buttons found", "Retry every 30 s")
        try:
            for language in ("en", "de"):
                use(language)
                lines = box.parts.screen_lines()
                assert all(len(line) <= 21 for line in lines), lines  # 21 cells of 6 px
                render(View("Missing part", lines))
        finally:
            use("en")
