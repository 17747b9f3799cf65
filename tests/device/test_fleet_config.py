"""``[fleet]`` in the config: the room a box reports to, named by its box id and broker."""

from __future__ import annotations

import pytest

from spielleiter.device.config import core as config
from spielleiter.device.fleet import box_id_problem, parse_topic, topic


def fleet(**values):
    raw = config.read(None)
    raw["fleet"].update(values)
    return config.validate(raw).fleet


def test_no_room_by_default():
    assert config.load().fleet is None


def test_a_room_needs_a_box_id_and_a_broker():
    got = fleet(box_id="tisch-3", broker="lehrer-laptop.local", name="Tisch 3")
    assert (got.box_id, got.broker, got.port, got.name) == ("tisch-3", "lehrer-laptop.local",
                                                             1883, "Tisch 3")
    with pytest.raises(config.ConfigError, match="fleet.broker: missing"):
        fleet(box_id="tisch-3")


@pytest.mark.parametrize("box_id", ["Tisch 3", "-a", "a-", "ä", "a/b", "+", "x" * 33, ""])
def test_a_box_id_is_one_topic_level(box_id):
    assert box_id_problem(box_id)
    if box_id:
        with pytest.raises(config.ConfigError, match="fleet.box_id"):
            fleet(box_id=box_id, broker="b")


def test_every_problem_of_the_section_is_said():
    with pytest.raises(config.ConfigError) as caught:
        fleet(box_id="t", broker="has space", port=0, password_file="rel/path", tls="yes")
    text = "; ".join(caught.value.problems)
    for key in ("fleet.broker", "fleet.port", "fleet.password_file", "fleet.tls"):
        assert key in text


def test_topics_name_the_box():
    assert topic("tisch-3", "events") == "spielleiter/tisch-3/events"
    assert parse_topic("spielleiter/tisch-3/events") == ("tisch-3", "events")
    assert parse_topic("spielleiter/Tisch/events") is None
    assert parse_topic("spielleiter/tisch-3/other") is None
