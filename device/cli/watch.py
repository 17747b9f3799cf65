"""``spielleiter watch PORT``: follow a game from a laptop at the table, over the serial link."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

import serial

from ..i18n import _
from .common import emit


# Fields with a place of their own in the summary; every other scalar field is listed by name, so
# a new game's counters show up without touching this module.
_SHOWN = {"game", "phase", "round", "turn", "players", "waiting_for", "winners", "game_id",
          "actions"}
_SCALAR = (int, float, bool, str)


def describe_state(state: dict[str, Any] | None) -> list[str]:
    """A game's public state as a few lines of text, whatever the game."""
    if state is None:
        return ["(no game running)"]
    head = [str(state.get("game", "?")), f"phase {state.get('phase', '?')}"]
    if "round" in state:
        head.append(f"round {state['round']}")
    if state.get("turn"):
        head.append(f"turn: {state['turn']}")
    lines = ["== " + " | ".join(head)]
    for player in state.get("players", []):
        if not isinstance(player, dict):
            continue
        details = ", ".join(f"{k} {v}" for k, v in player.items()
                            if k != "name" and isinstance(v, _SCALAR))
        lines.append(f"   {player.get('name', '?'):12} {details}")
    waiting = state.get("waiting_for")
    if waiting:
        lines.append("   waiting for: " + ", ".join(map(str, waiting)))
    for key, value in state.items():
        if key not in _SHOWN and isinstance(value, _SCALAR):
            lines.append(f"   {key.replace('_', ' ')}: {value}")
    if state.get("winners"):
        lines.append("   WINNER: " + " & ".join(map(str, state["winners"])))
    return lines


def describe(message: dict[str, Any]) -> list[str]:
    """One message from the box as lines of text (a message this version does not know: none)."""
    kind = message.get("type")
    if kind == "hello":
        games = message.get("games") or []
        return [f"connected: {message.get('app')} {message.get('version')} (protocol "
                f"{message.get('protocol')}; games: {', '.join(map(str, games))})"]
    if kind == "state":
        state = message.get("state")
        lines = describe_state(state if isinstance(state, dict) else None)
        if isinstance(message.get("screen"), str):
            lines += ["   screen: " + line for line in message["screen"].splitlines()]
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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return run_watch(args.port, args.baud, out=emit, once=args.once)


def run_watch(port: str, baud: int = 115200, out: Callable[[str], None] = print,
              once: bool = False) -> int:
    try:
        link = serial.serial_for_url(port, baudrate=baud,
                                     timeout=ONCE_TIMEOUT_S if once else None)
    except (serial.SerialException, OSError, ValueError) as exc:
        print(f"spielleiter watch: cannot open {port}: {exc}", file=sys.stderr)
        return 2
    try:
        link.write(b'{"cmd":"hello"}\n{"cmd":"state"}\n')
        while True:
            try:
                raw = link.read_until(b"\n", 65536)
            except (serial.SerialException, OSError) as exc:
                out(f"link closed: {exc}")
                return 0
            if not raw.endswith(b"\n"):
                if once:
                    print(f"spielleiter watch: no answer from {port} within "
                          f"{ONCE_TIMEOUT_S:g} s", file=sys.stderr)
                    return 1
                out("link closed")
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
