"""``spielleiter config check`` exit statuses, and config files the TOML parser itself chokes on:
a clear line, never a traceback, in every command that reads the config."""

from __future__ import annotations

import pytest

from spielleiter.device.cli import main
from spielleiter.device.cli.common import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE

DEEP = "[display]\nrotate = " + "[" * 2000 + "]" * 2000 + "\n"
LONG = "[display]\nrotate = " + "9" * 5000 + "\n"


def write(tmp_path, name: str, data: str | bytes):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def test_ok_problems_and_unreadable_have_their_own_statuses(tmp_path, capsys):
    good = write(tmp_path, "good.toml", '[display]\ndriver = "sh1106"\n')
    wrong = write(tmp_path, "wrong.toml", "[display]\nrotate = 5\n")
    assert main(["config", "check", "--config", str(good)]) == EXIT_OK == 0
    assert main(["config", "check", "--config", str(wrong)]) == EXIT_PROBLEMS == 1
    out = capsys.readouterr().out
    assert "config OK" in out and "display.rotate: 5" in out
    for bad in (tmp_path / "absent.toml", tmp_path,
                write(tmp_path, "latin1.toml", b'[display]\ndriver = "\xe4"\n'),
                write(tmp_path, "broken.toml", "[display\n")):
        assert main(["config", "check", "--config", str(bad)]) == EXIT_UNUSABLE == 2, bad
        lines = capsys.readouterr().out.splitlines()
        assert lines[0] == f"{bad}: 1 problem" and len(lines) == 2, lines


@pytest.mark.parametrize("text, reason", [(DEEP, "nested too deeply"),
                                          (LONG, "longer than 4300 digits")])
def test_deep_nesting_and_long_integers_are_a_clear_message(tmp_path, capsys, text, reason):
    path = write(tmp_path, "site.toml", text)
    assert main(["config", "check", "--config", str(path)]) == EXIT_UNUSABLE
    out = capsys.readouterr().out
    assert out == f"{path}: 1 problem\n  {path}: cannot be read: values {reason}\n" or \
        out == f"{path}: 1 problem\n  {path}: cannot be read: an integer {reason}\n", out


@pytest.mark.parametrize("text", [DEEP, LONG], ids=["deep", "long"])
@pytest.mark.parametrize("command", [
    ["sim", "--headless"],
    ["calibrate", "--sim", "--yes"],
    ["scale", "--sim", "--seconds", "1"],
    ["run", "--sim"],
    ["selftest", "--sim", "--lang", "en"],
])
def test_every_command_that_reads_the_config_says_so_in_one_line(tmp_path, capsys, text,
                                                                  command):
    path = write(tmp_path, "site.toml", text)
    state = ["--state-dir", str(tmp_path / "state")] if command[0] != "selftest" else []
    code = main([*command, "--config", str(path), *state])
    captured = capsys.readouterr()
    said = captured.err + captured.out
    assert "Traceback" not in said and "cannot be read" in said, said
    assert code == (1 if command[0] == "selftest" else EXIT_UNUSABLE)
    if command[0] != "selftest":
        assert captured.err.count("\n") == 1 and captured.out == ""
    assert not (tmp_path / "state").exists()  # nothing was started


def test_the_help_documents_the_exit_statuses(capsys):
    with pytest.raises(SystemExit):
        main(["config", "check", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "0 the configuration is fine" in text
    assert "1 the file was read and has problems" in text
    assert "2 the file could not be read" in text
