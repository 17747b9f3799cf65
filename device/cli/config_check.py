"""``spielleiter config check``: every problem of the configuration at once, each with its fix."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from .common import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, add_config, emit

if TYPE_CHECKING:
    from ..config import Config

EPILOG = """\
Exit status: 0 the configuration is fine; 1 the file was read and has problems (each is listed
with its key and its fix); 2 the file could not be read (missing, unreadable, not UTF-8, not
valid TOML), with the reason.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("config", help="check the configuration",
                       description="Work with the configuration file.")
    config_sub = p.add_subparsers(dest="config_command", required=True, metavar="COMMAND")
    c = config_sub.add_parser("check", help="list every problem of the config, with its fix",
                              description="Read the config over the shipped defaults and list "
                                          "every problem, each with its key and its fix.",
                              epilog=EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    add_config(c, "the file to check over the defaults")
    c.set_defaults(func=run)


def _listing(where: str, problems: list[str]) -> None:
    count = len(problems)
    emit(f"{where}: {count} problem{'s' if count != 1 else ''}")
    for problem in problems:
        emit(f"  {problem}")


def run(args: argparse.Namespace) -> int:
    from ..config import ConfigError, validate
    from ..paths import find_config, read_config

    path = find_config(args.config, os.environ)
    where = str(path) if path is not None else "shipped defaults"
    try:
        raw = read_config(path)
    except ConfigError as exc:
        _listing(where, exc.problems)
        return EXIT_UNUSABLE
    try:
        config = validate(raw)
    except ConfigError as exc:
        _listing(where, exc.problems)
        return EXIT_PROBLEMS
    emit(f"config OK: {where}")
    emit(f"  {hardware_line(config)}")
    return EXIT_OK


def hardware_line(config: "Config") -> str:
    """Which parts this config drives: simulated ones, or the GPIO chip it finds here."""
    if config.hardware.simulated:
        return "hardware: simulated ([hardware] simulated = true)"
    from ...drivers.gpio_chip import ChipNotFound, find_chip

    try:
        chip = find_chip(config.hardware.gpio_chip)
    except ChipNotFound as exc:
        return f"GPIO chip ({config.hardware.gpio_chip}): not found here: {exc}"
    return f"GPIO chip ({config.hardware.gpio_chip}): {chip.describe()}"
