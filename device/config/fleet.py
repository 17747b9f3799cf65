"""``[fleet]`` of the config: the room this box reports to through the uplink (docs/room.md),
checked apart from the rest of the config because only the uplink and the installer read it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..text import shown


@dataclass(frozen=True)
class Fleet:
    """``[fleet]``: the room this box reports to through the uplink (docs/room.md). Configured
    only when both ``box_id`` and ``broker`` are set; empty paths and names are None."""

    box_id: str
    broker: str
    port: int = 1883
    name: str | None = None
    username: str | None = None
    password_file: Path | None = None
    tls: bool = False
    ca_file: Path | None = None
    homeassistant: str = ""  # Home Assistant's discovery prefix ("": not announced there)


def check_fleet(c: Any, section: Any) -> Fleet | None:
    """Check ``[fleet]`` with the config's checker ``c`` (its ``get`` and ``problems``); None
    when no room is configured (box_id and broker both empty)."""
    if not isinstance(section, dict):
        return None  # reported by validate: a section that is not a table
    from ..fleet import box_id_problem

    box_id = c.get("fleet", "box_id", str, "")
    broker = c.get("fleet", "broker", str, "")
    port = c.get("fleet", "port", int, 1883)
    texts = {key: c.get("fleet", key, str, "")
             for key in ("name", "username", "password_file", "ca_file", "homeassistant")}
    tls = c.get("fleet", "tls", bool, False)
    if not box_id and not broker:
        return None
    if not box_id or not broker:
        missing = "box_id" if not box_id else "broker"
        c.problems.append(f"fleet.{missing}: missing; a room needs both box_id and broker "
                          "(or leave both empty)")
        return None
    problem = box_id_problem(box_id)
    if problem:
        c.problems.append(f"fleet.box_id: {shown(box_id)} ({problem})")
    if not 1 <= port <= 65535:
        c.problems.append(f"fleet.port: {port} (use 1-65535; 1883, or 8883 with tls)")
    if broker != broker.strip() or any(ch.isspace() for ch in broker):
        c.problems.append(f"fleet.broker: {shown(broker)} (a host name or address, no spaces)")
    for key in ("password_file", "ca_file"):
        if texts[key] and not Path(texts[key]).is_absolute():
            c.problems.append(f"fleet.{key}: {shown(texts[key])} (an absolute path)")
    prefix = texts["homeassistant"]
    if prefix and (any(ch in prefix for ch in "+#") or any(ch.isspace() for ch in prefix)
                   or prefix.startswith("/") or prefix.endswith("/")):
        c.problems.append(f"fleet.homeassistant: {shown(prefix)} (a topic prefix such as "
                          "\"homeassistant\": no spaces, + or #, no / at either end)")
    return Fleet(box_id, broker, port, texts["name"] or None, texts["username"] or None,
                 Path(texts["password_file"]) if texts["password_file"] else None, tls,
                 Path(texts["ca_file"]) if texts["ca_file"] else None, prefix)


__all__ = ["Fleet", "check_fleet"]
