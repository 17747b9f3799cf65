"""The ``spielleiter`` command line: one parser built from one module per command group, every
option explained, no raw markup in any ``--help``, the entry points alike."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from spielleiter.device import __version__, i18n
from spielleiter.device.cli import build_parser, main

HIDDEN = {("run", "--sim")}  # the service on mock pins: for tests, not for the table


def parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """Every parser and sub-parser, with the words that reach it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, (*path, name))


def test_the_design_cards_commands_are_there():
    names = {" ".join(path) for path, _ in parsers(build_parser()) if path}
    assert {"run", "sim", "demo", "replay", "watch", "weigh", "scale", "calibrate",
            "config check", "selftest"} <= names


def test_every_option_has_help_text():
    missing, hidden = [], set()
    for path, parser in parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            name = action.option_strings[-1] if action.option_strings else action.dest
            if action.help == argparse.SUPPRESS:
                hidden.add((" ".join(path), name))
            elif not action.help:
                missing.append(f"{' '.join(path) or 'spielleiter'} {name}")
    assert missing == []
    assert hidden == HIDDEN


def test_no_help_shows_raw_markup():
    for path, parser in parsers(build_parser()):
        text = parser.format_help()
        for markup in ("``", "%(", ":func:", ":class:", "\\n", "**"):
            assert markup not in text, (path, markup)
        assert len(text.strip()) > 40, path


def test_the_module_and_the_console_script_are_one_command():
    result = subprocess.run([sys.executable, "-m", "spielleiter.device.cli", "--version"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout == f"spielleiter {__version__}\n"
    result = subprocess.run([sys.executable, "-m", "spielleiter.device.cli"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "COMMAND" in result.stderr and "Traceback" not in \
        result.stderr


def test_every_commands_help_names_each_option_and_shows_no_markup(capsys):
    """``spielleiter ... --help`` as a user types it, for every command and sub-command."""
    for path, parser in parsers(build_parser()):
        with pytest.raises(SystemExit) as done:
            main([*path, "--help"])
        assert done.value.code == 0, path
        text = capsys.readouterr().out
        assert text.startswith(f"usage: spielleiter {' '.join(path)}".rstrip()), path
        for markup in ("``", "%(", ":func:", ":class:", "\\n", "**", "{max_", "\x1b"):
            assert markup not in text, (path, markup)
        for action in parser._actions:
            if action.help == argparse.SUPPRESS:
                continue
            for option in action.option_strings:
                assert option in text, (path, option)


def test_version_prints_the_installed_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == f"spielleiter {__version__}\n"


@pytest.mark.parametrize("argv, lang", [(["sim", "--lang", "de", "--help"], "C.UTF-8"),
                                        (["sim", "--help"], "de_DE.UTF-8"),
                                        (["sim", "--help"], "C.UTF-8")])
def test_the_sims_help_speaks_german_for_lang_de_or_a_german_locale(capsys, monkeypatch, argv,
                                                                      lang):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)
    with pytest.raises(SystemExit):
        main(argv)
    text = capsys.readouterr().out
    german = "--lang" in argv or lang.startswith("de")
    assert ("Die ganze Box simuliert" in text) == german
    assert ("höchstens 5000 g auf einer Schale" in text) == german
    assert ("The whole device simulated" in text) != german
    assert i18n.language() == "en"  # the command itself then speaks its own language
