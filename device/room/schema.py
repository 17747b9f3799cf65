"""The room's door: what a message on each topic may look like, as JSON Schema (version 1).

Every message is checked here before anything of it is stored: its size in bytes first (a
message over its topic's limit is not even parsed), then its shape against the schema of its
topic and kind (types, lengths, ranges, how many items). The schemas are plain JSON Schema
documents (draft 2020-12), checked by the ``jsonschema`` library: the same documents describe
the topics to anyone writing another client (``spielleiter room --schema`` prints them), and no
hand-written check can drift from what they say.

Stream messages are checked twice: the envelope (``ENVELOPE``: box, stream, n, journal, kind)
decides whether the message takes its place in the box's numbered stream (so a message this
room cannot show still leaves no hole, and the uplink stops sending it); the body decides
whether the page may use it.
"""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from .. import fleet
from ..exc import DeviceError

VERSION = 1  # of these schemas; ``fleet.FORMAT`` is the envelope's ``v`` they read

# bytes of one message on each topic (the largest state a shipped game sends is about 4 KB)
LIMITS = {fleet.STATUS: 16, fleet.STATE: 64 * 1024, fleet.EVENTS: 64 * 1024,
          fleet.LEARNING: 4 * 1024, fleet.GAMES: 64 * 1024}

MOMENT = {"type": ["number", "null"], "minimum": 0, "maximum": 32503680000}  # up to year 3000
NAME = {"type": "string", "minLength": 1, "maxLength": 60}
NAMES = {"type": "array", "maxItems": 32, "items": NAME}
WORD = {"type": "string", "maxLength": 40}
ID = {"type": "integer", "minimum": 1, "maximum": 2**53}
COUNT = {"type": "integer", "minimum": 0, "maximum": 2**53}
SCORE = {"anyOf": [{"type": "number", "minimum": -1e12, "maximum": 1e12},
                   {"type": "string", "maxLength": 40}, {"type": "null"}]}
STANDINGS = {"type": "array", "maxItems": 32, "items": {
    "type": "object", "required": ["rank", "player"],
    "properties": {"rank": {"type": "integer", "minimum": 1, "maximum": 32}, "player": NAME,
                   "score": SCORE, "seat": {"type": "integer"}, "winner": {"type": "boolean"}}}}
STREAM = {"type": "string", "pattern": "^[0-9a-z-]{1,40}$"}
BOX = {"type": "string", "pattern": "^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$"}

ENVELOPE: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "the envelope of every message on events, learning and games",
    "type": "object", "required": ["v", "box", "stream", "n", "journal", "kind"],
    "properties": {"v": {"const": fleet.FORMAT}, "box": BOX, "stream": STREAM, "n": ID,
                   "journal": {"type": "integer", "minimum": 1, "maximum": 2**31},
                   "kind": {"type": "string", "maxLength": 20}}}


def _body(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties}


RECORD = {
    "type": "object", "required": ["game_id", "title", "players", "standings", "winners", "box"],
    "properties": {
        "game_id": ID, "game": WORD, "title": {"type": "string", "maxLength": 80},
        "status": WORD, "started": {"type": ["string", "null"], "maxLength": 40},
        "ended": {"type": ["string", "null"], "maxLength": 40},
        "duration_s": {"type": ["number", "null"], "minimum": 0, "maximum": 1e9},
        "players": NAMES, "standings": STANDINGS, "winners": NAMES, "actions": COUNT,
        "box": {"type": "object", "required": ["id"],
                "properties": {"id": BOX, "name": {"type": ["string", "null"],
                                                   "maxLength": 60}}},
        "changes": {"type": "array", "maxItems": 200}}}

BODIES: dict[tuple[str, str], dict[str, Any]] = {
    (fleet.EVENTS, "start"): _body(["game_id", "game", "title", "players"], {
        "game_id": ID, "game": WORD, "title": {"type": "string", "maxLength": 80},
        "players": NAMES, "options": {"type": "object", "maxProperties": 40}, "at": MOMENT}),
    (fleet.EVENTS, "action"): _body(["game_id", "game", "seq", "action", "events"], {
        "game_id": ID, "game": WORD, "seq": COUNT, "at": MOMENT,
        "action": {"type": "object", "maxProperties": 40,
                   "properties": {"hidden": {"type": "array", "maxItems": 40, "items": WORD}}},
        "events": {"type": "array", "maxItems": 200, "items": {"type": "object"}}}),
    (fleet.EVENTS, "undo"): _body(["game_id", "seq"], {"game_id": ID, "seq": COUNT}),
    (fleet.EVENTS, "status"): _body(["game_id", "status"], {
        "game_id": ID, "status": {"type": "string", "maxLength": 20}, "at": MOMENT}),
    (fleet.EVENTS, "unreadable"): _body(["game_id"], {
        "game_id": ID, "seq": {"type": ["integer", "null"], "minimum": 0}}),
    (fleet.LEARNING, "answer"): _body(
        ["id", "at", "child", "quiz", "level", "correct", "retry"], {
            "id": ID, "at": {**MOMENT, "type": "number"}, "child": NAME,
            "quiz": {"type": "string", "maxLength": 20},
            "level": {"type": "integer", "minimum": 1, "maximum": 99},
            "truth_g": {"type": ["number", "null"], "minimum": -1e6, "maximum": 1e6},
            "guess": {"type": ["string", "null"], "maxLength": 40},
            "error": {"type": ["number", "null"], "minimum": -1e6, "maximum": 1e6},
            "correct": {"type": "boolean"}, "retry": {"type": "boolean"}}),
    (fleet.LEARNING, "forget"): _body(["ids"], {
        "ids": {"type": "array", "maxItems": 10000, "items": ID}}),
    (fleet.GAMES, "game"): _body(["game_id", "record"], {"game_id": ID, "record": RECORD}),
}

STATE: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "the retained live state of a box",
    "type": "object", "required": ["v", "box", "stream", "n", "game"],
    "properties": {
        "v": {"const": fleet.FORMAT}, "box": BOX, "name": NAME, "stream": STREAM, "n": COUNT,
        "game": {"anyOf": [{"type": "null"}, WORD]}, "game_id": ID,
        "journal": {"type": "integer", "minimum": 1, "maximum": 2**31},
        "title": {"type": "string", "maxLength": 80}, "players": NAMES,
        "actions": COUNT, "at": MOMENT, "public": {"type": "object"},
        "waiting_for": NAMES, "standings": STANDINGS, "over": {"type": "boolean"},
        "winners": NAMES},
    # a game named needs what the card shows of it
    "if": {"properties": {"game": {"type": "string"}}},
    "then": {"required": ["title", "players", "waiting_for", "standings", "over", "winners",
                          "actions"]}}


def _validator(schema: dict[str, Any]) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


_ENVELOPE = _validator(ENVELOPE)
_STATE = _validator(STATE)
_RECORD = _validator(RECORD)
_BODIES = {key: _validator(schema) for key, schema in BODIES.items()}


class Refused(DeviceError, ValueError):
    """A message that does not pass the door; ``str`` says why (for the log)."""


def _check(validator: Draft202012Validator, doc: Any) -> None:
    if validator.is_valid(doc):  # the common case, without gathering errors
        return
    error = best_match(validator.iter_errors(doc))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the message"
        raise Refused(f"{where}: {error.message[:160]}")


def parse(topic: str, payload: bytes) -> Any:
    """The payload as JSON, once its size fits the topic (Refused otherwise)."""
    limit = LIMITS.get(topic, 0)
    if len(payload) > limit:
        raise Refused(f"{len(payload)} bytes, over the {limit} a {topic} message may have")
    try:
        return json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Refused(f"not JSON: {str(exc)[:80]}") from None


def envelope(doc: Any, box: str) -> None:
    """A stream message's envelope, and that it names the box of its topic."""
    _check(_ENVELOPE, doc)
    if doc["box"] != box:
        raise Refused(f"box {doc['box']!r} on {box}'s topic")


def body(name: str, doc: dict[str, Any]) -> None:
    """What the page uses of a stream message (its envelope already checked)."""
    validator = _BODIES.get((name, doc["kind"]))
    if validator is None:
        raise Refused(f"unknown kind {doc['kind']!r} on {name}")
    _check(validator, doc)


def state(doc: Any, box: str) -> None:
    """A retained state, and that it names the box of its topic."""
    _check(_STATE, doc)
    if doc["box"] != box:
        raise Refused(f"box {doc['box']!r} on {box}'s topic")


def state_ok(doc: Any) -> bool:
    """Whether a state as stored still passes (a database kept from an older room)."""
    return _STATE.is_valid(doc)


def record_ok(doc: Any) -> bool:
    return _RECORD.is_valid(doc)


def documents() -> dict[str, Any]:
    """Every schema, by topic and kind: what ``spielleiter room --schema`` prints."""
    return {"version": VERSION, "limits_bytes": LIMITS, "envelope": ENVELOPE, "state": STATE,
            **{f"{name}/{kind}": schema for (name, kind), schema in BODIES.items()}}


__all__ = ["BODIES", "ENVELOPE", "LIMITS", "Refused", "STATE", "VERSION", "body", "documents",
           "envelope", "parse", "record_ok", "state", "state_ok"]
