"""hardware/README.md and the shipped config are one source of truth: the pinout is rendered from
the config, and the wiring tables that repeat pins must agree with it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spielleiter.device.cli import main as cli_main
from spielleiter.device.config import core as config, pinout
from spielleiter.device.config.cells import SPI_PINS

pytestmark = pytest.mark.shipped_language  # the table documents the box as it ships

README = Path(__file__).resolve().parents[2] / "hardware" / "README.md"


def text() -> str:
    return README.read_text(encoding="utf-8")


def test_the_pinout_table_is_what_the_shipped_config_renders():
    assert pinout.block_in(text()) == pinout.render(config.load(None)), (
        "hardware/README.md is out of date: spielleiter pinout "
        "--update hardware/README.md")
    assert cli_main(["pinout", "--check", str(README)]) == 0


def test_the_pinout_covers_every_configured_pin_once():
    cfg = config.load(None)
    parts = pinout.assignments(cfg)
    for name, pin in cfg.button_pins().items():
        assert name.split(".")[1].upper() in parts[pin].upper()
    assert "buzzer" in parts[cfg.buzzer_pin]
    for cell in cfg.loadcells:
        bus = cell.settings["bus"]
        assert parts[SPI_PINS[bus]["MOSI"]] == f"{cell.pan} HX711 PD_SCK (SPI{bus} MOSI)"
        assert parts[SPI_PINS[bus]["MISO"]] == f"{cell.pan} HX711 DOUT (SPI{bus} MISO)"
    assert sorted(pinout.PHYSICAL) == list(range(28))
    assert len(set(pinout.PHYSICAL.values())) == 28


def test_a_changed_config_renders_a_different_table(tmp_path):
    raw = config.read(None)
    raw["buzzer"]["pin"] = 18
    raw["loadcells"]["right"] = {"reader": "none"}
    block = pinout.render(config.validate(raw))
    assert "| 12 | GPIO18 | buzzer (transistor base via 1 kOhm) |" in block
    assert "GPIO12 (pin 32)" in block  # now free
    readme = tmp_path / "README.md"
    readme.write_text(text())
    assert cli_main(["pinout", "--check", str(readme)]) == 0
    site = tmp_path / "config.toml"
    site.write_text("[buzzer]\npin = 18\n[loadcells.right]\nreader = \"none\"\n")
    assert cli_main(["pinout", "--check", str(readme), "--config", str(site)]) == 1
    assert cli_main(["pinout", "--update", str(readme), "--config", str(site)]) == 0
    assert pinout.block_in(readme.read_text()) == block


def test_the_station_wiring_table_matches_the_config():
    cfg = config.load(None)
    rows = re.findall(r"^\| (\d) \| ([ABC]) \| (.+) \|$", text(), re.MULTILINE)
    assert [key for _, key, _ in rows] == ["A", "B", "C"]
    for _, key, cells in rows:
        pins = [int(p) for p in re.findall(r"GPIO(\d+), pin \d+", cells)]
        assert pins == [station.pins[key] for station in cfg.stations]
        for bcm, phys in re.findall(r"GPIO(\d+), pin (\d+)", cells):
            assert pinout.PHYSICAL[int(bcm)] == int(phys)


def test_the_docs_name_what_the_shipped_config_needs():
    doc = text()
    buses = {cell.settings["bus"] for cell in config.load(None).loadcells}
    if 1 in buses:
        assert "dtoverlay=spi1-1cs" in doc
    assert "RATE to GND = 10 SPS, RATE to VCC (DVDD) =\n80 SPS" in doc
    for word in ("Bill of materials", "SPI mode", "GPIO mode", "Mounting two pans",
                 "Station button boxes", "Buzzer", "0x3C", "SH1106", "Power",
                 "child-proofing"):
        assert word in doc, word
