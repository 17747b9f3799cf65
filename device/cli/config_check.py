"""``spielleiter config check``: every problem of the configuration at once, each with its fix."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _, ngettext, refusal
from .common import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, add_config, add_lang, emit, speak

if TYPE_CHECKING:
    from ..config import Config

EPILOG = """\
Exit status: 0 the configuration is fine; 1 the file was read and has problems (each is listed
with its key and its fix); 2 the file could not be read (missing, unreadable, not UTF-8, not
valid TOML), with the reason.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("config", help=_("check the configuration"),
                       description=_("Work with the configuration file."))
    config_sub = p.add_subparsers(dest="config_command", required=True, metavar="COMMAND")
    c = config_sub.add_parser("check", help=_("list every problem of the config, with its fix"),
                              description=_("Read the config over the shipped defaults and list "
                                          "every problem, each with its key and its fix."),
                              epilog=EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    add_config(c, _("the file to check over the defaults"))
    add_lang(c, _("the language of its lines"), settings=False)
    c.set_defaults(func=run)


def _listing(where: str, problems: list[str]) -> None:
    count = len(problems)
    emit(ngettext("{where}: {n} problem", "{where}: {n} problems", count).format(where=where,
                                                                                  n=count))
    for problem in problems:
        emit(f"  {problem}")


def run(args: argparse.Namespace) -> int:
    from ..config.core import ConfigError, validate
    from ..config.paths import find_config, read_config

    speak(getattr(args, "lang", None), args.config)
    path = find_config(args.config, os.environ)
    where = str(path) if path is not None else _("shipped defaults")
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
    emit(_("config OK: {where}").format(where=where))
    emit(f"  {hardware_line(config)}")
    for line in uart_lines(config):
        emit(f"  {line}")
    return EXIT_OK


def hardware_line(config: "Config") -> str:
    """Which parts this config drives: simulated ones, or the GPIO chip it finds here."""
    if config.hardware.simulated:
        return _("hardware: simulated ([hardware] simulated = true)")
    from ...drivers.gpio_chip import ChipNotFound, find_chip

    try:
        chip = find_chip(config.hardware.gpio_chip)
    except ChipNotFound as exc:
        return _("GPIO chip ({wanted}): not found here: {reason}").format(
            wanted=config.hardware.gpio_chip, reason=refusal(exc))
    return _("GPIO chip ({wanted}): {chip}").format(wanted=config.hardware.gpio_chip,
                                                    chip=chip.describe())


def uart_lines(config: "Config", root: Path = Path("/")) -> list[str]:
    """Which UART each serial port setting names on the system under ``root``: a serial pan's,
    and the link's."""
    if config.hardware.simulated:
        return []
    from ...drivers.uart import UartNotFound, find_uart, is_label
    from ..config.board import Board

    ports = [(f"loadcells.{cell.pan}.port", str(cell.settings.get("port")))
             for cell in config.loadcells if cell.reader == "serial"]
    if config.link_enabled:
        ports.append(("link.port", config.link_port))
    lines = []
    for key, wanted in ports:
        device = Board(root).device(wanted)  # "header": the UART on GPIO 14/15 of this model
        if is_label(device):
            try:
                device = find_uart(device, root).describe()
            except UartNotFound as exc:
                lines.append(_("UART for {key} ({wanted}): not found here: {reason}").format(
                    key=key, wanted=wanted, reason=exc))
                continue
        lines.append(_("UART for {key} ({wanted}): {uart}").format(key=key, wanted=wanted,
                                                                  uart=device))
    return lines
