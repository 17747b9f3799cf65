"""A tool never acts under a game, and a game's secret grams reach nobody:
starting or resuming a game closes an armed calibration; while a Trödel game waits, the Scale and
the learning station stay closed; the link can neither read nor send the secret grams."""

from __future__ import annotations

import json
import re

from support import act, start_header

from spielleiter.device.journal.store import Journal
from spielleiter.device.link import LinkProtocol
from spielleiter.device.screen.render import misfits
from spielleiter.drivers.link import LinkLine
from spielleiter.drivers.weighing import CALIBRATION_HOLD_S

TRUDEL = "tante-trudels-troedel"
POTD_G = 14.2


def open_entry(box, title: str) -> None:
    box.app.home()
    box.idle(0.5)
    while box.app.flash_view is not None:  # a message over the menu goes by itself
        box.idle(0.5)
    while box.last_view.lines[box.app.cursor] != title:
        box.tap("host.next")
    box.tap("host.ok")
    box.idle(1.5)


def arm_calibration(box) -> None:
    """The Scale tool waiting for the known mass on the left pan, as a person leaves it."""
    open_entry(box, "Scale")
    box.tap("host.next")                      # calibrate...
    box.tap("host.ok")                        # ...the left pan
    box.tap("host.ok")                        # it is empty
    waited = 0.0
    while box.last_view.big != "200 g" and waited < CALIBRATION_HOLD_S + 1:
        box.idle(0.1)
        waited += 0.1
    box.idle(0.5)
    box.tap("host.ok")                        # OK: the mass goes on next
    assert "Waiting for the mass" in box.last_view.lines


def assert_frame_fits(box) -> None:
    assert not misfits(box.last_view), misfits(box.last_view)


def calibration_of(box, pan: str = "left"):
    return box.scales.pans[pan].channel.calibration


class LinkPeer:
    """The link's protocol on the box with its replies collected, as the cable would carry them."""

    def __init__(self, box) -> None:
        self.box, self.sent = box, []
        self.protocol = LinkProtocol(box.app, self._send, lambda: None)

    def _send(self, line: str) -> bool:
        self.sent.append(json.loads(line))
        return True

    def ask(self, message: dict) -> dict:
        self.protocol.on_line(LinkLine(json.dumps(message)))
        self.box.runtime.pump()
        return self.sent[-1]


def test_a_game_started_over_the_link_closes_an_armed_calibration(box_factory, tmp_path):
    box = box_factory(["Anna", "Ben"], state_dir=tmp_path / "s")
    before = calibration_of(box).counts_per_gram
    arm_calibration(box)
    start_header(box, "tatort-tonne", ["Anna", "Ben"], {})
    assert box.app.mode == "game"
    box.put("left", 12.0)                     # a game piece on the pan that was waiting
    box.idle(CALIBRATION_HOLD_S + 2.0)
    assert calibration_of(box).counts_per_gram == before
    assert Journal(tmp_path / "s" / "journal.sqlite3").calibration("left") is None


def test_a_waiting_game_brought_back_by_the_link_closes_an_armed_calibration(box_factory):
    box = box_factory(["Anna", "Ben"])
    before = calibration_of(box).counts_per_gram
    start_header(box, "tatort-tonne", ["Anna", "Ben"], {})
    box.app.pause_game()
    arm_calibration(box)
    act(box, type="choose", player="Anna", card="steal")  # the link's move resumes the game
    assert box.app.mode == "game"
    box.put("left", 12.0)
    box.idle(CALIBRATION_HOLD_S + 2.0)
    assert calibration_of(box).counts_per_gram == before


def paused_trudel(box) -> None:
    start_header(box, TRUDEL, ["Anna", "Ben"], {})
    maker = box.app.session.state.potd_maker
    for value in (6, 4, 3):
        act(box, type="roll", player=maker, value=value)
    box.put("left", POTD_G)                   # the Purchase of the Day lies on its pan
    act(box, type="weigh_potd", player=maker, grams=POTD_G)
    box.app.pause_game()
    box.idle(0.5)


def test_a_paused_troedel_keeps_the_scale_and_the_learning_station_closed(box_factory):
    box = box_factory(["Anna", "Ben"])
    paused_trudel(box)
    peer = LinkPeer(box)
    for title in ("Scale", "Learning"):
        open_entry(box, title)
        assert box.app.mode == "home", title
        shown = box.last_view.as_text()
        assert "secret" in shown and "End it first." in shown, shown
        assert_frame_fits(box)
        screen = peer.ask({"cmd": "state"})["screen"]
        assert not re.search(r"\d\s*g\b", screen), screen
    box.app.end_game()
    box.idle(2.0)
    open_entry(box, "Scale")                  # the game is over: the Scale is the table's again
    assert box.app.mode == "tool"


def test_the_link_cannot_send_a_secret_weighing_to_halve_its_way_to_the_grams(box_factory):
    box = box_factory(["Anna", "Ben"])
    start_header(box, TRUDEL, ["Anna", "Ben"], {})
    maker = box.app.session.state.potd_maker
    peer = LinkPeer(box)
    for value in (6, 4, 3):
        assert peer.ask({"cmd": "action", "action": {"type": "roll", "player": maker,
                                                     "value": value}})["type"] == "ok"
    actions = len(box.app.session.actions)
    reply = peer.ask({"cmd": "action", "action": {"type": "weigh_potd", "player": maker,
                                                  "grams": 10.0}})
    assert reply["type"] == "error" and "secret" in reply["error"], reply
    assert len(box.app.session.actions) == actions


def test_the_scale_opens_while_a_game_without_secret_grams_waits(box_factory):
    box = box_factory(["Anna", "Ben"])
    start_header(box, "tatort-tonne", ["Anna", "Ben"], {})
    box.app.pause_game()
    open_entry(box, "Scale")
    assert box.app.mode == "tool"
