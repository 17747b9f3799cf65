"""One place for where the device keeps things: the config it reads, the state directory of the
service and of the simulator, the journal's file name."""

from __future__ import annotations

from pathlib import Path

import pytest

from spielleiter.device.config import core as config_mod
from spielleiter.device.config import paths
from spielleiter.device.config.paths import find_config, find_state_dir, sim_state_dir


def test_state_and_config_locations(tmp_path, monkeypatch):
    monkeypatch.setattr(config_mod, "SITE_CONFIG", tmp_path / "etc" / "config.toml")
    assert find_state_dir(None, {}) == Path("/var/lib/spielleiter")
    assert find_state_dir(None, {"STATE_DIRECTORY": "/var/lib/a:/var/lib/b"}) == Path("/var/lib/a")
    assert find_state_dir(tmp_path, {"STATE_DIRECTORY": "/x"}) == tmp_path
    assert find_state_dir(None, {"XDG_STATE_HOME": str(tmp_path)}, sim=True) == \
        tmp_path / "spielleiter-run-sim"
    assert find_config(None, {}) is None
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "config.toml").write_text("")
    assert find_config(None, {}) == tmp_path / "etc" / "config.toml"
    conf = tmp_path / "conf"
    conf.mkdir()
    assert find_config(None, {"CONFIGURATION_DIRECTORY": str(conf)}) == \
        tmp_path / "etc" / "config.toml"
    (conf / "config.toml").write_text("")
    assert find_config(None, {"CONFIGURATION_DIRECTORY": str(conf)}) == conf / "config.toml"
    assert find_config(tmp_path / "x.toml", {}) == tmp_path / "x.toml"


def test_the_simulator_never_uses_the_appliances_journal(tmp_path, monkeypatch):
    env = {"XDG_STATE_HOME": str(tmp_path), "STATE_DIRECTORY": "/var/lib/spielleiter"}
    assert sim_state_dir(None, env) == tmp_path / "spielleiter-sim"
    assert sim_state_dir(tmp_path / "mine", env) == tmp_path / "mine"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert sim_state_dir(None, {}) == tmp_path / "home" / ".local" / "state" / "spielleiter-sim"


def test_the_box_keeps_its_journal_under_the_one_name(box_factory, tmp_path):
    box = box_factory(state_dir=tmp_path / "state")
    assert box.journal.path == tmp_path / "state" / paths.JOURNAL_NAME


@pytest.mark.parametrize("text, reason", [
    ("x = " + "[" * 2000 + "]" * 2000, "values nested too deeply"),
    ("x = " + "1" * 5000, "an integer longer than 4300 digits"),
])
def test_what_the_toml_parser_raises_is_a_config_error(tmp_path, text, reason):
    site = tmp_path / "config.toml"
    site.write_text(text)
    with pytest.raises(config_mod.ConfigError) as info:
        paths.load_config(site)
    assert info.value.problems == [f"{site}: cannot be read: {reason}"]
