"""``spielleiter watch PORT``: follow a game from a laptop at the table, over the serial link, in
the box's language (``--lang``, else the config's ``[ui] language``): its words through the
catalogue, yes and no for a flag, numbers with the language's decimal mark. A field this module
does not know (a new game's) is shown by its name."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

import serial

from ..i18n import N_, _, language
from .common import add_config, add_lang, emit, speak


# Fields with a place of their own in the summary; every other scalar field is listed by name, so
# a new game's counters show up without touching this module.
_SHOWN = {"game", "phase", "round", "turn", "players", "waiting_for", "winners", "game_id",
          "actions"}
_SCALAR = (int, float, bool, str)
# The fields the shipped games send, as the table says them; any other by its name.
FIELDS = {
    "bid": N_("bid"), "coins": N_("coins"), "coupons": N_("coupons"), "in_game": N_("in game"),
    "items": N_("items"), "passed": N_("passed"), "pieces": N_("pieces"),
    "position": N_("position"), "row": N_("row"), "small_coins": N_("small coins"),
    "trash": N_("trash"), "pieces_left": N_("pieces left"), "coins_left": N_("coins left"),
    "trash_left": N_("trash left"), "stage": N_("stage"), "goal": N_("goal"),
    "roll": N_("roll"), "first": N_("first"), "highest": N_("highest"),
}


def field_name(key: str) -> str:
    return _(FIELDS[key]) if key in FIELDS else key.replace("_", " ")


def value_text(value: Any) -> str:
    """A field's value as the box writes it: yes/no for a flag, a decimal comma in German."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float):
        text = f"{value:g}"
        return text.replace(".", ",") if language() == "de" else text
    return str(value)


def describe_state(state: dict[str, Any] | None) -> list[str]:
    """A game's public state as a few lines of text, whatever the game."""
    if state is None:
        return [_("(no game running)")]
    head = [str(state.get("game", "?")), _("phase {phase}").format(phase=state.get("phase", "?"))]
    if "round" in state:
        head.append(_("round {n}").format(n=state["round"]))
    if state.get("turn"):
        head.append(_("turn: {player}").format(player=state["turn"]))
    lines = ["== " + " | ".join(head)]
    for player in state.get("players", []):
        if not isinstance(player, dict):
            continue
        details = ", ".join(f"{field_name(k)} {value_text(v)}" for k, v in player.items()
                            if k != "name" and isinstance(v, _SCALAR))
        lines.append(f"   {player.get('name', '?'):12} {details}")
    waiting = state.get("waiting_for")
    if waiting:
        lines.append("   " + _("waiting for: {names}").format(names=", ".join(map(str, waiting))))
    for key, value in state.items():
        if key not in _SHOWN and isinstance(value, _SCALAR):
            lines.append(f"   {field_name(key)}: {value_text(value)}")
    if state.get("winners"):
        lines.append("   " + _("WINNER: {names}").format(
            names=" & ".join(map(str, state["winners"]))))
    return lines


def describe(message: dict[str, Any]) -> list[str]:
    """One message from the box as lines of text (a message this version does not know: none)."""
    kind = message.get("type")
    if kind == "hello":
        games = message.get("games") or []
        return [_("connected: {app} {version} (protocol {protocol}; games: {games})").format(
            app=message.get("app"), version=message.get("version"),
            protocol=message.get("protocol"), games=", ".join(map(str, games)))]
    if kind == "state":
        state = message.get("state")
        lines = describe_state(state if isinstance(state, dict) else None)
        if isinstance(message.get("screen"), str):
            lines += ["   " + _("screen: {line}").format(line=line)
                      for line in message["screen"].splitlines()]
        return lines
    if kind == "event":
        event = message.get("event")
        return [f" * {event.get('text', event) if isinstance(event, dict) else event}"]
    if kind == "error":
        return [f" ! {message.get('error')}"]
    return []


ONCE_TIMEOUT_S = 5.0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("watch", help=_("follow a game over the serial link"),
                       description=_("Follow a game from a laptop at the table: the box's state "
                                   "and events as they come over the serial link."))
    p.add_argument("port", metavar="PORT",
                   help=_("the serial port (e.g. /dev/ttyUSB0) or a pyserial URL"))
    p.add_argument("--baud", type=int, default=115200, help=_("the link's speed (default: 115200)"))
    p.add_argument("--once", action="store_true",
                   help=_("print the current state and exit (give up after {s} s)").format(
                       s=f"{ONCE_TIMEOUT_S:g}"))
    add_config(p, _("the config.toml whose [ui] language the lines speak"))
    add_lang(p, _("the lines' language"), settings=False)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    speak(args.lang, args.config)
    return run_watch(args.port, args.baud, out=emit, once=args.once)


def run_watch(port: str, baud: int = 115200, out: Callable[[str], None] = print,
              once: bool = False) -> int:
    try:
        link = serial.serial_for_url(port, baudrate=baud,
                                     timeout=ONCE_TIMEOUT_S if once else None)
    except (serial.SerialException, OSError, ValueError) as exc:
        print("spielleiter watch: " + _("cannot open {port}: {why}").format(port=port, why=exc),
              file=sys.stderr)
        return 2
    try:
        link.write(b'{"cmd":"hello"}\n{"cmd":"state"}\n')
        while True:
            try:
                raw = link.read_until(b"\n", 65536)
            except (serial.SerialException, OSError) as exc:
                out(_("link closed: {why}").format(why=exc))
                return 0
            if not raw.endswith(b"\n"):
                if once:
                    print("spielleiter watch: " + _("no answer from {port} within {s} s").format(
                        port=port, s=value_text(float(ONCE_TIMEOUT_S))), file=sys.stderr)
                    return 1
                out(_("link closed"))
                return 0
            try:
                message = json.loads(raw)
            except (ValueError, RecursionError):  # not JSON, not UTF-8, a number too long
                message = None
            if not isinstance(message, dict):
                out(f" ? {raw[:80]!r}")
                continue
            for line in describe(message):
                out(line)
            if once and message.get("type") == "state":
                return 0
    except KeyboardInterrupt:
        return 130
    finally:
        link.close()
