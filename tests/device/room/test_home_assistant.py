"""Home Assistant's MQTT discovery: with ``[fleet] homeassistant`` set, the
uplink announces the box's sensors, retained, pointing at the state it publishes anyway; without
it, nothing under the prefix; a prefix a topic cannot hold is refused by the config check."""

from __future__ import annotations

import json
import re
import threading

import paho.mqtt.client as mqtt
import pytest
from roomkit import FAST, TableBox, local_broker, wait_for

from spielleiter.device.config import core as config
from spielleiter.device.uplink.follower import Identity
from spielleiter.device.uplink.service import Uplink


class Listener:
    """A client that keeps the last message of every topic under ``pattern``."""

    def __init__(self, port: int, pattern: str) -> None:
        self.seen: dict[str, bytes] = {}
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="ha-under-test")
        self.client.on_message = self._message
        self.client.on_connect = lambda c, *_: c.subscribe(pattern, qos=1)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _message(self, client, userdata, message) -> None:
        with self.lock:
            self.seen[message.topic] = message.payload

    def topics(self) -> dict[str, bytes]:
        with self.lock:
            return dict(self.seen)

    def stop(self) -> None:
        self.client.disconnect()  # first: it wakes paho's loop, which loop_stop then joins
        self.client.loop_stop()


BOXES: list[TableBox] = []  # the box stays on while its uplink runs (closed, it takes its WAL)


@pytest.fixture(autouse=True)
def _boxes_closed_after():
    yield
    while BOXES:
        BOXES.pop().close()


def run_uplink(tmp_path, port: int, prefix: str) -> tuple[Uplink, threading.Thread]:
    box = TableBox(tmp_path / "box", seed=3)
    BOXES.append(box)
    box.new("tatort-tonne", ("Anna", "Ben", "Cem"), seed=3)
    box.play(2)
    uplink = Uplink(box.path, tmp_path / "uplink", Identity("tisch-1", "Tisch 1", prefix),
                    local_broker(port), timing=FAST)
    thread = threading.Thread(target=uplink.run, daemon=True)
    thread.start()
    return uplink, thread


def test_home_assistant_finds_the_box_and_its_game_from_the_public_state(tmp_path, broker):
    uplink, thread = run_uplink(tmp_path, broker.port, "homeassistant")
    listener = Listener(broker.port, "#")
    try:
        wait_for(lambda: len([t for t in listener.topics() if t.startswith("homeassistant/")])
                 == 4 and json.loads(listener.topics().get("spielleiter/tisch-1/state", "{}"))
                 .get("game"), what="discovery and the game's state")
        seen = listener.topics()
    finally:
        listener.stop()
        uplink.stop()
        thread.join(timeout=20)
    state = json.loads(seen["spielleiter/tisch-1/state"])
    configs = {t: json.loads(p) for t, p in seen.items() if t.startswith("homeassistant/")}
    assert set(configs) == {f"homeassistant/sensor/spielleiter_tisch_1/{s}/config"
                            for s in ("game", "phase", "waiting_for", "winners")}
    for sensor in configs.values():
        assert sensor["state_topic"] == "spielleiter/tisch-1/state"
        assert sensor["availability_topic"] == "spielleiter/tisch-1/status"
        assert sensor["device"]["name"] == "Tisch 1"
        for path in re.findall(r"value_json\.([\w.]+)", sensor["value_template"]):
            value = state
            for key in path.split("."):                       # each field the box publishes
                assert key in value, (path, sorted(value))
                value = value[key]
    assert state["title"] == "Tatort Tonne" and state["public"]["phase"] in ("choose", "point")


def test_without_a_prefix_nothing_is_announced_to_home_assistant(tmp_path, broker):
    uplink, thread = run_uplink(tmp_path, broker.port, "")
    listener = Listener(broker.port, "#")
    try:
        wait_for(lambda: "spielleiter/tisch-1/state" in listener.topics(), what="the state")
        assert not [t for t in listener.topics() if not t.startswith("spielleiter/")]
    finally:
        listener.stop()
        uplink.stop()
        thread.join(timeout=20)


@pytest.mark.parametrize("prefix", ["home assistant", "ha/#", "/homeassistant", "ha/"])
def test_a_discovery_prefix_a_topic_cannot_hold_is_refused(prefix):
    raw = config.read(None)
    raw["fleet"].update(box_id="tisch-1", broker="localhost", homeassistant=prefix)
    with pytest.raises(config.ConfigError) as refused:
        config.validate(raw)
    assert any("fleet.homeassistant" in p for p in refused.value.problems)
