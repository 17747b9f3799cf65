"""What a box and the room agree on over MQTT: the box id, the topics, the message envelope.

Every box publishes under ``spielleiter/<box>/``:

- ``status``: ``online`` / ``offline`` (retained; ``offline`` is the uplink's last will, so the
  broker says it when the uplink vanishes);
- ``state``: the public state of the latest game (retained: a room that starts late sees it);
- ``events``: ``start``, ``action``, ``undo`` and ``end`` of every game (QoS 1);
- ``learning``: every answer at the learning station, and ``forget`` when a child's answers were
  cleared on the box (QoS 1);
- ``games``: each finished game's record (``device.records``, QoS 1).

The room answers on ``spielleiter/<box>/have`` (retained): ``{"stream": ..., "n": N}``, every
message of that stream up to ``N`` is in its database. Only then does the uplink let a message go
from its outbox: the broker's own acknowledgement says it has the message, not that it will
survive a crash of the broker or reach a room that was not listening yet. A message sent and not
covered by ``have`` after a while is sent again.

The stream topics (events, learning, games) carry the envelope ``box``, ``stream``, ``n``,
``journal``, ``kind``: ``n`` numbers every stream message of a box from 1 without gaps and is
never reused, so the receiver de-duplicates by (box, stream, n) and orders by ``n``. ``stream``
names the uplink's own state (a new one only when that state was lost and everything is
published again); ``journal`` counts the box's journal files (a damaged journal moved aside is
followed by a new one, whose game ids start again at 1).
"""

from __future__ import annotations

import re

PREFIX = "spielleiter"
BOX_ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?\Z")  # a topic level, a file name
STATUS, STATE, EVENTS, LEARNING, GAMES = "status", "state", "events", "learning", "games"
HAVE = "have"  # the room's acknowledgement (see the module doc)
STREAMS = (EVENTS, LEARNING, GAMES)  # QoS 1, numbered, kept by the room
TOPICS = (STATUS, STATE, *STREAMS)
ONLINE, OFFLINE = "online", "offline"
FORMAT = 1  # the envelope's ``v``: a room reading a newer format says so instead of guessing


def box_id_problem(value: object) -> str | None:
    """Why ``value`` cannot be a box id (None when it can): 1-32 of a-z, 0-9 and ``-``,
    starting and ending with a letter or digit, so it is one MQTT topic level and a file name."""
    if not isinstance(value, str) or not BOX_ID.match(value):
        return ("1-32 lowercase letters, digits or -, starting and ending with a letter or "
                "digit (e.g. \"tisch-3\")")
    return None


def topic(box: str, name: str) -> str:
    """``spielleiter/<box>/<name>``."""
    return f"{PREFIX}/{box}/{name}"


def parse_topic(text: str) -> tuple[str, str] | None:
    """(box, name) of one of our topics, or None for anything else on the broker."""
    parts = text.split("/")
    if len(parts) != 3 or parts[0] != PREFIX or parts[2] not in (*TOPICS, HAVE) \
            or box_id_problem(parts[1]):
        return None
    return parts[1], parts[2]


__all__ = ["BOX_ID", "EVENTS", "FORMAT", "GAMES", "HAVE", "LEARNING", "OFFLINE", "ONLINE", "PREFIX",
           "STATE", "STATUS", "STREAMS", "TOPICS", "box_id_problem", "parse_topic", "topic"]
