"""[display]'s bus settings: the SH1106's column offset and the I2C speed the
installer writes into config.txt, checked like every other key, and passed to the driver."""

from __future__ import annotations

import pytest

from spielleiter.device.config import core as config
from spielleiter.device.config.board import Board
from spielleiter.device.service.checks import i2c_speed_note


def load(tmp_path, text: str) -> config.Config:
    site = tmp_path / "config.toml"
    site.write_text(text)
    return config.load(site)


def problems(tmp_path, text: str) -> list[str]:
    with pytest.raises(config.ConfigError) as info:
        load(tmp_path, text)
    return info.value.problems


def test_the_shipped_display_runs_the_bus_at_400_khz_with_luma_s_offset():
    cfg = config.load(None)
    assert (cfg.i2c_speed_hz, cfg.column_offset) == (400_000, 2)
    assert cfg.display_options() == {"port": 1, "address": 0x3C, "rotate": 0, "column_offset": 2}


def test_an_sh1106_module_that_starts_at_column_0(tmp_path):
    cfg = load(tmp_path, '[display]\ndriver = "sh1106"\ncolumn_offset = 0\ni2c_speed_hz = 100000\n')
    assert cfg.display_options()["column_offset"] == 0 and cfg.i2c_speed_hz == 100_000


@pytest.mark.parametrize("text, problem", [
    ('driver = "sh1106"\ncolumn_offset = 7', "display.column_offset: 7 (0-4: the SH1106 memory"),
    ('driver = "sh1106"\ncolumn_offset = "two"', "display.column_offset: expected int, got 'two'"),
    ("column_offset = 0", "display.column_offset: 0, but only the sh1106 has a column offset; "
                          'set display.driver = "sh1106" or remove column_offset'),
    ("i2c_speed_hz = 5000000", "display.i2c_speed_hz: 5000000 (use 10000-1000000"),
    ("i2c_speed_hz = true", "display.i2c_speed_hz: expected int, got True"),
])
def test_bad_bus_settings_are_reported_with_the_fix(tmp_path, text, problem):
    found = problems(tmp_path, f"[display]\n{text}\n")
    assert any(p.startswith(problem) for p in found), found


def test_the_self_test_reports_the_bus_speed_the_kernel_has(tmp_path):
    board = Board(tmp_path)
    assert i2c_speed_note(board, 1, 400_000) == ""  # not readable: nothing said
    node = tmp_path / "sys/class/i2c-adapter/i2c-1/of_node"
    node.mkdir(parents=True)
    (node / "clock-frequency").write_bytes((100_000).to_bytes(4, "big"))
    assert i2c_speed_note(board, 1, 100_000) == "; I2C at 100 kHz"
    assert i2c_speed_note(board, 1, 400_000) == (
        "; I2C at 100 kHz, but display.i2c_speed_hz = 400000: sudo bash scripts/install.sh sets "
        "dtparam=i2c_arm_baudrate, then reboot")
