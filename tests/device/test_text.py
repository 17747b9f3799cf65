"""Text that enters the box is checked once (device/text.py), and the replay
parser refuses what Python's json would let through or crash on."""

from __future__ import annotations

import json

import pytest

from spielleiter.device.journal.header import Header
from spielleiter.device.replay import ReplayError, parse_header, parse_json, run
from spielleiter.device.text import InputError, check, dumps, loads, problem

BIG = "1" + "0" * 4400  # over Python's 4300-digit limit for int("...")


@pytest.mark.parametrize("text, message", [
    (r'["\ud800x"]', "lone surrogate \\ud800"),
    (r'{"\udfff": 1}', "in a key"),
    (r'{"a": [{"b": "ok\udc83"}]}', "a[0].b"),
    ('NaN', "NaN"),
    ('[-Infinity]', "-Infinity"),
    ('{"id": 1e999}', "out of range"),  # found by tests/fuzz: it echoed back as Infinity
    (BIG, "4300"),
    ('[' * 100_000, "nested too deeply"),
    ('{"a" 1}', "malformed JSON"),
])
def test_loads_refuses_with_one_line(text, message):
    with pytest.raises(InputError) as caught:
        loads(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    str(caught.value).encode("utf-8")  # the message itself can always be sent


def test_a_surrogate_pair_and_ordinary_text_pass():
    assert loads(r'["\ud83d\ude00", "Ärger"]') == ["\U0001f600", "Ärger"]
    assert problem({"a": ["b", {"c": 1.5}]}) is None


def test_a_deep_value_is_checked_without_recursion():
    deep: list = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    inner.append("\ud800")
    with pytest.raises(InputError, match="lone surrogate"):
        check(deep)


def test_dumps_always_gives_utf8():
    assert dumps({"name": "\ud800x"}).encode("utf-8") == b'{"name":"\\ud800x"}'


@pytest.mark.parametrize("field", ["seed", "option", "action"])
def test_a_replay_integer_over_4300_digits_is_a_replay_error(field):
    doc = {"game": "tatort-tonne", "players": ["a", "b"], "seed": 1, "options": {},
           "actions": []}
    if field == "seed":
        doc["seed"] = 0
    elif field == "option":
        doc["options"] = {"rounds": 0}
    else:
        doc["actions"] = [{"type": "choose", "player": "a", "card": 0}]
    text = json.dumps(doc).replace(": 0", ": " + BIG, 1)
    with pytest.raises(ReplayError, match="4300"):
        run(text)


@pytest.mark.parametrize("doc", [
    {"game": "tatort-tonne", "players": ["\ud800x", "b"]},
    {"game": "tatort-tonne", "players": ["a", "b"], "options": {"\udfff": 1}},
])
def test_parse_header_refuses_lone_surrogates(doc):
    with pytest.raises(ReplayError, match="not valid Unicode"):
        parse_header(doc)


def test_a_lone_surrogate_in_a_replay_document_is_refused():
    with pytest.raises(ReplayError, match="not valid Unicode"):
        parse_json(r'{"game": "tatort-tonne", "players": ["\ud800x", "b"]}')


def test_header_round_trips_and_checks_shapes():
    header = Header("tatort-tonne", ("a", "b"), {"x": 1}, 7)
    assert Header.from_json(header.to_json()) == header
    for doc, message in [([], "JSON object"), ({"game": 3}, "'game'"),
                         ({"game": "g", "players": "ab"}, "'players'"),
                         ({"game": "g", "players": [], "options": []}, "'options'"),
                         ({"game": "g", "players": [], "seed": True}, "'seed'")]:
        with pytest.raises(InputError, match=message):
            Header.from_json(doc)
