"""The laptop command speaks the box's language: argparse's own words (usage, headings, errors)
and the help of the box's commands come from the catalogue, German and English."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest

from spielleiter.device import i18n
from spielleiter.device.cli import build_parser

COMMAND = [sys.executable, "-m", "spielleiter.device.cli"]
# Commands whose help is another part's (they follow the same catalogue once it has them).
ELSEWHERE = {"games", "stats", "players", "replay"}


def spielleiter(*args: str, lang_env: str = "C.UTF-8") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    return subprocess.run(COMMAND + list(args), capture_output=True, text=True, timeout=60,
                          env={**env, "LANG": lang_env})


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def test_argparse_errors_speak_german_with_lang_de():
    done = spielleiter("config", "check", "--bogus", "--lang", "de")
    assert done.returncode == 2
    assert "Aufruf: spielleiter" in done.stderr
    assert "Fehler: unbekannte Argumente: --bogus" in done.stderr


def test_the_help_follows_the_locale():
    german = spielleiter("--help", lang_env="de_DE.UTF-8").stdout
    assert "Aufruf:" in german and "Optionen:" in german
    assert "Jeder Befehl hat sein eigenes --help." in german
    english = spielleiter("--help").stdout
    assert "usage:" in english and "options:" in english


def test_config_check_answers_in_the_language_asked():
    german = spielleiter("config", "check", "--lang", "de").stdout.splitlines()
    english = spielleiter("config", "check", "--lang", "en").stdout.splitlines()
    assert german[0] == "Konfiguration in Ordnung: mitgelieferte Vorgaben"
    assert english[0] == "config OK: shipped defaults"
    # the second line names the GPIO chip the config finds here, in the same language
    assert german[1].lstrip().startswith(("GPIO-Chip", "Hardware:"))
    assert english[1].lstrip().startswith(("GPIO chip", "hardware:"))


def helps(parser: argparse.ArgumentParser, skip=ELSEWHERE) -> list[tuple[str, str]]:
    """Every help text of the command tree as (where, text), but the commands ``skip``s."""
    out = [("spielleiter", parser.description or "")]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.dest not in skip:
                    out.append((choice.dest, choice.help or ""))
            for name, sub in action.choices.items():
                if name not in skip:
                    out += [(f"{name} {w}", t) for w, t in helps(sub, skip)]
        elif action.help and action.help != argparse.SUPPRESS:
            out.append((str(action.option_strings or action.dest), action.help))
    return [(w, t) for w, t in out if t]


def test_every_help_of_the_box_commands_is_german_under_lang_de():
    i18n.use("en")
    english = dict(helps(build_parser()))
    i18n.use("de")
    german = dict(helps(build_parser()))
    same = {where: text for where, text in german.items()
            if text == english.get(where) and any(c.isalpha() for c in text)}
    assert same == {}
