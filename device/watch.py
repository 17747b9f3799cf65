"""``spielleiter watch PORT``: follow a game from a laptop at the table, over the serial link."""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import serial


def describe_state(state: dict[str, Any] | None) -> list[str]:
    """A game's public state as a few lines of text, whatever the game."""
    if state is None:
        return ["(no game running)"]
    head = [state.get("game", "?"), f"phase {state.get('phase', '?')}"]
    if "round" in state:
        head.append(f"round {state['round']}")
    if state.get("turn"):
        head.append(f"turn: {state['turn']}")
    lines = ["== " + " | ".join(head)]
    for player in state.get("players", []):
        details = ", ".join(f"{k} {v}" for k, v in player.items()
                            if k != "name" and isinstance(v, (int, float, bool, str)))
        lines.append(f"   {player.get('name', '?'):12} {details}")
    waiting = state.get("waiting_for")
    if waiting:
        lines.append("   waiting for: " + ", ".join(waiting))
    for key in ("trash_left", "coins_left", "large_coin"):
        if key in state:
            lines.append(f"   {key.replace('_', ' ')}: {state[key]}")
    if state.get("winners"):
        lines.append("   WINNER: " + " & ".join(state["winners"]))
    return lines


def describe(message: dict[str, Any]) -> list[str]:
    kind = message.get("type")
    if kind == "hello":
        return [f"connected: {message.get('app')} {message.get('version')} "
                f"(protocol {message.get('protocol')}; games: {', '.join(message['games'])})"]
    if kind == "state":
        lines = describe_state(message.get("state"))
        if message.get("screen"):
            lines += ["   screen: " + line for line in message["screen"].splitlines()]
        return lines
    if kind == "event":
        return [f" * {message['event'].get('text', message['event'])}"]
    if kind == "error":
        return [f" ! {message.get('error')}"]
    return []


ONCE_TIMEOUT_S = 5.0


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
            except (json.JSONDecodeError, UnicodeDecodeError):
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
