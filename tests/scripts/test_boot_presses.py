"""The booted check presses a whole Tatort Tonne game through a gpio-sim chip's lines: its plan
is the game's demo, played on a simulated box with the booted box's config."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from spielleiter.device.config import core as config_mod

ROOT = Path(__file__).resolve().parents[2]


def test_the_plan_is_every_press_of_a_game_that_ends(tmp_path):
    spec = importlib.util.spec_from_file_location("boot_presses", ROOT / "scripts" / "boot_presses.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    site = tmp_path / "config.toml"
    site.write_text('[players]\nnames = ["Alexandra", "Melanie", "Ulrike", "Birgit", "Sarah", '
                    '"Rot", "Blau", "Grün", "Gelb", "Lila"]\n'
                    '[loadcells.left]\nreader = "none"\n[loadcells.right]\nreader = "none"\n')
    config = config_mod.load(site)
    plan = module.presses(config, 7)
    pins = config.button_pins()
    presses = [s for s in plan["steps"] if s[0] == "press"]
    assert presses and all(pins[name] == pin for _, name, pin, _hold in presses)
    assert any(hold > config.hold_s for *_, hold in presses)  # the undo: a long press of BACK
    assert plan["actions"] > 0 and plan["winners"]
    assert module.presses(config, 8)["steps"] == plan["steps"]  # the seed changes no press


def test_the_troedel_plan_stops_where_a_basket_goes_on_the_serial_pan(tmp_path):
    spec = importlib.util.spec_from_file_location("boot_presses", ROOT / "scripts" / "boot_presses.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    site = tmp_path / "config.toml"
    site.write_text('[loadcells.left]\nreader = "serial"\nport = "1b36:0002"\n'
                    '[loadcells.right]\nreader = "none"\n')
    config = config_mod.load(site)
    plan = module.presses(config, 7, until_basket=True)
    assert plan["game"] == "tante-trudels-troedel" and plan["pan"] == "left"
    assert plan["actions"] == 3  # the Purchase of the Day's three rolls
    _press, name, pin, _hold = plan["all_on"]
    assert name == "s1.B" and config.button_pins()[name] == pin
