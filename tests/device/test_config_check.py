"""``spielleiter config check``: every problem at once, each with its key and its fix."""

from __future__ import annotations

import pytest

from spielleiter.device.config import core as config
from spielleiter.device.cli import main


def problems_of(text: str, tmp_path) -> list[str]:
    site = tmp_path / "config.toml"
    site.write_text(text)
    with pytest.raises(config.ConfigError) as info:
        config.load(site)
    return info.value.problems


def test_defaults_are_ok(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(config, "SITE_CONFIG", tmp_path / "absent.toml")
    monkeypatch.delenv("CONFIGURATION_DIRECTORY", raising=False)
    assert main(["config", "check"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "config OK: shipped defaults" and out[1].startswith("  GPIO chip (auto): ")
    site = tmp_path / "config.toml"
    site.write_text("[display]\ndriver = \"sh1106\"\n")
    assert main(["config", "check", "--config", str(site)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"config OK: {site}"


def test_every_problem_at_once_with_key_and_fix(tmp_path, capsys):
    site = tmp_path / "config.toml"
    site.write_text("\n".join([
        "[display]",
        'driver = "lcd"',
        "i2c_address = 0x3F",
        "rotate = 5",
        "[buzzer]",
        "pin = 14",          # the UART's TX
        "volume = 3",        # unknown key
        "[host]",
        "back = 3",          # I2C SCL
        "ok = 13",           # host.next's pin
        "[loadcells.right]",
        "rate = 20",
        "[[stations]]",
        'name = "Red"',
        "a = 10",            # SPI0 MOSI: the left pan's clock
        "b = 8",             # SPI0 CE0: the kernel's
        "c = 22",
    ]))
    assert main(["config", "check", "--config", str(site)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{site}: 10 problems"
    body = "\n".join(out[1:])
    for expected in [
        "buzzer.volume: unknown key (remove it or check the spelling; known: enabled, pin)",
        "display.driver: 'lcd' is not ssd1306 or sh1106",
        "display.rotate: 5 (use 0, 1, 2 or 3)",
        "display.i2c_address: 0x3F (SSD1306/SH1106 use 0x3C or 0x3D)",
        "host.back: GPIO3 is reserved for I2C SCL (the OLED); pick a free pin",
        ("buzzer.pin: GPIO14 is the UART TX (serial link); pick another pin or set "
         "link.enabled = false"),
        "loadcells.right.rate: 20 (10 or 80, as the HX711 RATE pin is wired)",
        "host.ok and host.next: both on GPIO13; give each its own pin",
        "stations[1].b and loadcells.left (SPI0 CE0): both on GPIO8; give each its own pin",
        "stations[1].a and loadcells.left (SPI0 MOSI): both on GPIO10; give each its own pin",
    ]:
        assert f"  {expected}" in body, expected


def test_gaps_wrong_types_missing_keys_and_sections(tmp_path):
    problems = problems_of("\n".join([
        "buttons = 5",
        "[display]",
        'i2c_address = "0x3C"',
        'i2c_port = "one"',
        "[link]",
        'baud = "fast"',
        "[buzzer]",
        'enabled = "yes"',
        "[[stations]]",
        "name = 7",
        "a = 4",
        "b = 17",
    ]), tmp_path)
    assert problems == [
        "buttons: expected a table ([buttons] with keys), got 5",
        "stations[1].c: missing; set it to a free BCM pin (4-27)",
        "stations[1].name: 7 (use a short text, e.g. \"Red\")",
        "display.i2c_address: expected int, got '0x3C' (e.g. i2c_address = 0x3C)",
        "display.i2c_port: expected int, got 'one' (e.g. i2c_port = 1)",
        "buzzer.enabled: expected bool, got 'yes' (e.g. enabled = true)",
        "link.baud: expected int, got 'fast' (e.g. baud = 115200)",
    ]


def test_bad_values_for_the_link_and_the_spi_reader(tmp_path):
    problems = problems_of("[link]\nbaud = 1234\n[loadcells.left]\nspeed_hz = 5000000\n"
                           "device = 7\n", tmp_path)
    assert problems == [
        "loadcells.left.device: 7 (0: /dev/spidevB.0; the HX711 has no chip select)",
        "loadcells.left.speed_hz: 5000000 (use 20000-2000000; default 500000)",
        "link.baud: 1234 (use one of 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)",
    ]


def test_switching_a_pan_to_another_reader_drops_the_shipped_spi_keys(tmp_path):
    site = tmp_path / "config.toml"
    site.write_text('[loadcells.left]\nreader = "none"\n'
                    '[loadcells.right]\nreader = "serial"\nport = "/dev/ttyACM0"\nbaud = 57600\n')
    cfg = config.load(site)
    assert [(c.pan, c.reader, c.settings) for c in cfg.loadcells] == [
        ("right", "serial", {"port": "/dev/ttyACM0", "baudrate": 57600})]
    # The reader accepts what the config hands it.
    from spielleiter.drivers.loadcell import make_reader
    reader = make_reader("serial", "right", on_event=lambda ev: None, rate=10,
                         **cfg.loadcells[0].settings)
    assert reader.baudrate == 57600
    reader.close()
    # Overriding a key of the same reader still merges with the shipped table.
    site.write_text("[loadcells.right]\nspeed_hz = 250000\n")
    right = config.load(site).loadcells[1]
    assert right.settings == {"bus": 1, "device": 0, "speed_hz": 250000}


def test_wrong_types_and_unreadable_files_are_listed_not_crashed(tmp_path):
    from spielleiter.device.config import core as config_mod

    site = tmp_path / "config.toml"
    site.write_text('[loadcells.left]\nreader = ["spi"]\n[loadcells.right]\nbus = [0]\n'
                    '[players]\nnames = ["A", "A ", "B", "C", "D", "E", "F", "G", "H", "I"]\n')
    with pytest.raises(config_mod.ConfigError) as info:
        config_mod.load(site)
    problems = "\n".join(info.value.problems)
    assert "loadcells.left.reader: ['spi']" in problems
    assert "loadcells.right.bus: [0]" in problems
    assert "players.names" in problems
    for bad in (tmp_path, tmp_path / "latin1.toml"):
        if bad != tmp_path:
            bad.write_bytes(b"name = \"\xe4\"\n")
        with pytest.raises(config_mod.ConfigError) as info:
            config_mod.load(bad)
        assert "cannot be read" in info.value.problems[0]


def test_pans_are_named_in_the_config_and_one_pan_alone_works(tmp_path):
    site = tmp_path / "config.toml"
    assert config.load(None).pan_names == ("left", "right")  # the shipped pans
    site.write_text('[loadcells.scale]\nreader = "spi"\nbus = 1\nrate = 80\n')
    cfg = config.load(site)
    assert cfg.pan_names == ("scale",)  # a pan of its own replaces the shipped ones
    assert cfg.loadcells[0].settings == {"bus": 1, "device": 0} and cfg.loadcells[0].rate == 80
    site.write_text('[loadcells.right]\nreader = "none"\n')
    assert config.load(site).pan_names == ("left",)  # or switch a shipped one off
    site.write_text('[loadcells]\njudge_s = 2.5\n[loadcells.gold]\nreader = "spi"\nbus = 0\n'
                    '[loadcells.silver]\nreader = "gpio"\ndout_pin = 20\nsck_pin = 21\n')
    cfg = config.load(site)
    assert cfg.pan_names == ("gold", "silver") and cfg.judge_s == 2.5


def test_bad_pan_names_and_judge_s_are_reported(tmp_path):
    problems = problems_of('[loadcells]\njudge_s = -1\ntie_band = 3\n'
                           '[loadcells.Big-Pan]\nreader = "spi"\n', tmp_path)
    text = "\n".join(problems)
    assert "loadcells.judge_s: -1 (use 0 to 10 seconds" in text
    assert "loadcells.tie_band: expected a table [loadcells.tie_band] (a pan)" in text
    assert "loadcells.Big-Pan: a pan's name is 1-10 lowercase letters" in text
    assert "nan" in "\n".join(problems_of('[loadcells]\njudge_s = nan\n', tmp_path))


# Issue 18, point 3: a table where a number belongs (with keys a pan's table has, so the loader
# took it for a pan) was an AttributeError in `config check`, `sim` and `run`.
TABLES_WHERE_VALUES_BELONG = {
    "tie_band_g as a pan": "[loadcells.tie_band_g]\nreader = \"gpio\"\n",
    "judge_s as a pan": "[loadcells.judge_s]\nreader = \"spi\"\nbus = 0\n",
    "tie_band_g inline": "[loadcells]\ntie_band_g = {reader = \"serial\"}\n",
    "a pan's rate": "[loadcells.left.rate]\nreader = \"gpio\"\n",
    "a pin": "[host.back]\nreader = \"gpio\"\n",
    "a display value": "[display]\nrotate = {reader = \"spi\"}\n",
    "the player names": "[players.names]\nreader = \"gpio\"\n",
    "a station's name": "[[stations]]\na = 4\nb = 17\nc = 27\n[stations.name]\nreader = 1\n",
}


@pytest.mark.parametrize("case", TABLES_WHERE_VALUES_BELONG)
def test_a_table_where_a_value_belongs_is_a_problem_not_a_traceback(tmp_path, capsys, case):
    site = tmp_path / "config.toml"
    site.write_text(TABLES_WHERE_VALUES_BELONG[case])
    assert problems_of(site.read_text(), tmp_path)
    assert main(["config", "check", "--config", str(site)]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "problem" in out + err
