"""The header's GPIO chip is found by its label, never by its number (Pi 5 kernels moved it
between gpiochip4 and gpiochip0; a virtual machine's own controller comes first)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spielleiter.drivers.gpio_chip import (GPIO_GET_CHIPINFO_IOCTL, ChipNotFound, chips,
                                           find_chip, read_label)


def listing(tmp_path: Path, labels: dict[str, str]) -> tuple[Path, object]:
    """A /dev with these gpiochips, and the labels their chip info would give."""
    dev = tmp_path / "dev"
    dev.mkdir()
    for name in (*labels, "gpiomem", "i2c-1", "ttyAMA0"):
        (dev / name).touch()

    def label_of(path: str) -> tuple[str, int]:
        name = Path(path).name
        if name not in labels:
            raise FileNotFoundError(2, "No such file or directory", path)
        return labels[name], 54
    return dev, label_of


@pytest.mark.parametrize("labels, found", [
    ({"gpiochip0": "pinctrl-rp1"}, "gpiochip0"),                                   # Pi 5, 6.6+
    ({"gpiochip0": "gpio-brcmstb@107d508500", "gpiochip4": "pinctrl-rp1"}, "gpiochip4"),  # Pi 5, 6.1
    ({"gpiochip0": "pinctrl-bcm2711", "gpiochip1": "raspberrypi-exp-gpio"}, "gpiochip0"),  # Pi 4
    ({"gpiochip0": "pinctrl-bcm2835", "gpiochip1": "raspberrypi-exp-gpio"}, "gpiochip0"),  # Pi 3
    ({"gpiochip0": "9030000.pl061", "gpiochip1": "pinctrl-bcm2711"}, "gpiochip1"),  # a VM
])
def test_auto_finds_the_header_chip_by_its_label_whatever_its_number(tmp_path, labels, found):
    dev, label_of = listing(tmp_path, labels)
    chip = find_chip("auto", dev, label_of)
    assert chip.path == str(dev / found)
    assert chip.number == int(found.removeprefix("gpiochip"))


def test_a_label_setting_picks_that_chip(tmp_path):
    dev, label_of = listing(tmp_path, {"gpiochip0": "pinctrl-bcm2711", "gpiochip2": "gpio-sim.0-node0"})
    assert find_chip("gpio-sim.0-node0", dev, label_of).number == 2


def test_a_path_setting_opens_that_device(tmp_path):
    dev, label_of = listing(tmp_path, {"gpiochip7": "whatever"})
    chip = find_chip(str(dev / "gpiochip7"), dev, label_of)
    assert (chip.number, chip.label, chip.lines) == (7, "whatever", 54)


def test_no_header_chip_says_which_chips_there_are(tmp_path):
    dev, label_of = listing(tmp_path, {"gpiochip0": "9030000.pl061"})
    with pytest.raises(ChipNotFound) as caught:
        find_chip("auto", dev, label_of)
    assert "pinctrl-rp1" in str(caught.value) and "gpiochip0 (9030000.pl061)" in str(caught.value)
    assert isinstance(caught.value, FileNotFoundError)


def test_no_chips_at_all_is_said_plainly(tmp_path):
    dev, label_of = listing(tmp_path, {})
    with pytest.raises(ChipNotFound, match="chips here: none"):
        find_chip("auto", dev, label_of)


def test_a_missing_path_is_chip_not_found(tmp_path):
    with pytest.raises(ChipNotFound, match="gpiochip9"):
        find_chip(str(tmp_path / "gpiochip9"))


def test_chips_lists_in_number_order_and_skips_unreadable_ones(tmp_path):
    dev, label_of = listing(tmp_path, {"gpiochip10": "b", "gpiochip2": "a"})
    (dev / "gpiochip3").touch()  # listed, but its info cannot be read
    assert [c.number for c in chips(dev, label_of)] == [2, 10]


def test_the_chip_info_ioctl_number_is_the_kernels():
    # _IOR(0xB4, 0x01, struct gpiochip_info): 68 bytes, read direction (linux/gpio.h)
    assert GPIO_GET_CHIPINFO_IOCTL == 0x8044B401


@pytest.mark.skipif(not any(n.startswith("gpiochip") for n in os.listdir("/dev")),
                    reason="this machine has no GPIO chip")
def test_a_real_chip_answers_with_its_label():
    chip = chips()[0]
    assert chip.label and chip.lines > 0
    assert read_label(chip.path) == (chip.label, chip.lines)


def test_config_check_says_which_chip_it_would_use(tmp_path, monkeypatch):
    from spielleiter.device.cli import config_check
    from spielleiter.device.config import load
    from spielleiter.drivers import gpio_chip

    dev, label_of = listing(tmp_path, {"gpiochip0": "9030000.pl061", "gpiochip1": "pinctrl-bcm2711"})
    real = find_chip
    monkeypatch.setattr(gpio_chip, "find_chip", lambda setting: real(setting, dev, label_of))
    line = config_check.hardware_line(load(None))
    assert line == f"GPIO chip (auto): {dev}/gpiochip1 (pinctrl-bcm2711, 54 lines)"
    site = tmp_path / "site.toml"
    site.write_text('[hardware]\ngpio_chip = "gpio-sim.0-node0"\n')
    assert "not found here" in config_check.hardware_line(load(site))
    site.write_text('[hardware]\nsimulated = true\n')
    assert config_check.hardware_line(load(site)).startswith("hardware: simulated")


@pytest.mark.parametrize("value", ["", "two words", "/etc/gpiochip0"])
def test_a_bad_gpio_chip_setting_is_a_config_problem(tmp_path, value):
    from spielleiter.device.config import ConfigError, load

    site = tmp_path / "site.toml"
    site.write_text(f'[hardware]\ngpio_chip = "{value}"\n')
    with pytest.raises(ConfigError, match="hardware.gpio_chip"):
        load(site)


def test_a_chip_not_found_is_said_in_the_boxs_language_and_survives_a_pickle(tmp_path):
    import pickle

    from spielleiter.device.i18n import refusal, use

    with pytest.raises(ChipNotFound) as caught:
        find_chip("auto", tmp_path, lambda path: ("9030000.pl061", 8))
    exc = caught.value
    assert str(exc) == ("no GPIO chip with a header label (pinctrl-rp1, pinctrl-bcm2711, "
                        "pinctrl-bcm2835); chips here: none")
    again = pickle.loads(pickle.dumps(exc))
    assert type(again) is ChipNotFound and str(again) == str(exc)
    try:
        use("de")
        said = refusal(exc)
    finally:
        use("en")
    assert said == ("kein GPIO-Chip mit der Bezeichnung einer Stiftleiste (pinctrl-rp1, "
                    "pinctrl-bcm2711, pinctrl-bcm2835); Chips hier: keine")
