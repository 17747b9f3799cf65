"""The wiring picture (hardware/wiring.svg) is drawn from the pin map the config check and the
pinout table use; a test fails when the committed picture is not what the shipped config draws."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree
from xml.sax.saxutils import escape

import pytest

from spielleiter.device.cli import main as cli_main
from spielleiter.device.config import core as config, pinout, wiring

pytestmark = pytest.mark.shipped_language  # the picture shows the box as it ships
PICTURE = Path(__file__).resolve().parents[2] / "hardware" / "wiring.svg"


def test_the_committed_picture_is_what_the_shipped_config_draws():
    assert PICTURE.read_text(encoding="utf-8") == wiring.render(config.load(None)), (
        "hardware/wiring.svg is out of date: spielleiter pinout --svg "
        "--output hardware/wiring.svg")
    assert cli_main(["pinout", "--svg", "--check", str(PICTURE)]) == 0


def test_every_pin_is_drawn_once_with_what_the_pin_map_puts_there():
    svg = PICTURE.read_text(encoding="utf-8")
    ElementTree.fromstring(svg)  # well-formed
    labels = {int(n) for n in re.findall(r'fill="#777777">(\d+)</text>', svg)}
    assert labels == set(range(1, 41))
    table = wiring.pins(config.load(None))
    for bcm, part in pinout.assignments(config.load(None)).items():
        assert table[pinout.PHYSICAL[bcm]][:2] == (f"GPIO{bcm}", part)
        assert f">GPIO{bcm}</tspan>  <tspan" in svg and escape(part) in svg
    for pin in wiring.GROUND:
        assert table[pin][0] == "GND"


def test_a_changed_config_draws_another_picture(tmp_path):
    site = tmp_path / "config.toml"
    site.write_text("[buzzer]\npin = 18\n[loadcells.right]\nreader = \"none\"\n")
    assert cli_main(["pinout", "--svg", "--check", str(PICTURE), "--config", str(site)]) == 1
    out = tmp_path / "wiring.svg"
    assert cli_main(["pinout", "--svg", "--update", str(out), "--config", str(site)]) == 0
    table = wiring.pins(config.load(site))
    assert table[12][1] == "buzzer (transistor base via 1 kOhm)"  # GPIO18 on pin 12
    assert table[32][1] == ""                                     # GPIO12 now free
    assert cli_main(["pinout", "--svg", "--check", str(out), "--config", str(site)]) == 0
