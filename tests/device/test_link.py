"""The serial link: JSON lines over real pyserial ports (loop:// and pty pairs)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time

import pytest
import serial

from spielleiter.drivers.buttons import Edge
from spielleiter.drivers.link import LinkLine, LinkStatus, NullModem, SerialLink
from support import english_config

EXAMPLE = ["Alexandra", "Melanie", "Ulrike", "Birgit", "Sarah"]


def flood(port: serial.Serial, lines: int) -> threading.Thread:
    """Write ``lines`` commands from another thread: back-pressure may block the writer."""
    def write() -> None:
        try:
            port.write(b'{"cmd":"state"}\n' * lines)
        except (serial.SerialException, OSError, TypeError):  # TypeError: closed mid-write
            pass  # the cable was pulled while the flood still waited in the buffers

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def wait_for(predicate, timeout: float = 5.0) -> None:
    """Wait for another thread's work (reader threads, subprocesses): not a fixed sleep."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.005)


class Peer:
    """The laptop's end of the cable: a real pyserial port on the other pty."""

    def __init__(self, path: str, box) -> None:
        self.port = serial.Serial(path, timeout=0.05)
        self.box = box
        self.buffer = b""

    def write(self, data: bytes) -> None:
        self.port.write(data)

    def messages(self, until=lambda msgs: bool(msgs), timeout: float = 5.0) -> list[dict]:
        """Pump the box and collect messages until ``until(messages)`` holds."""
        got: list[dict] = []
        deadline = time.monotonic() + timeout
        while True:
            self.box.runtime.posted.wait(0.02)
            self.box.runtime.posted.clear()
            self.box.runtime.pump()
            # what has come, or the first byte still on its way (up to the port's timeout)
            self.buffer += self.port.read(self.port.in_waiting or 1)
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                got.append(json.loads(line))
            if until(got):
                return got
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; got {got}")

    def ask(self, command: dict) -> dict:
        command = {**command, "id": command.get("id", 1)}
        self.write(json.dumps(command).encode() + b"\n")
        msgs = self.messages(lambda m: any(x.get("id") == command["id"] for x in m))
        return next(x for x in msgs if x.get("id") == command["id"])

    def close(self) -> None:
        self.port.close()


@pytest.fixture
def linked(box_factory):
    cable = NullModem()
    box = box_factory(EXAMPLE)
    peer = Peer(cable.ends[1], box)
    box.attach_link(cable.ends[0])
    hello = peer.messages(lambda m: any(x["type"] == "hello" for x in m))
    yield box, peer, cable, hello
    peer.close()
    box.close()
    cable.close()


def test_loop_url_carries_lines_both_ways():
    events: queue.Queue = queue.Queue()
    with SerialLink("loop://", events.put) as link:
        link.start()
        assert events.get(timeout=5) == LinkStatus(True, "loop://")
        assert link.send_line('{"cmd":"state"}')
        assert events.get(timeout=5) == LinkLine('{"cmd":"state"}')


def test_hello_names_versions_and_games_when_the_link_comes_up(linked):
    _box, _peer, _cable, hello = linked
    msg = next(m for m in hello if m["type"] == "hello")
    assert msg["app"] == "spielleiter" and msg["protocol"] == 1
    assert "tatort-tonne" in msg["games"] and msg["version"]


def test_list_games_start_a_game_act_and_undo_over_the_link(linked):
    box, peer, _cable, _ = linked
    games = peer.ask({"cmd": "games"})
    assert {"name": "tatort-tonne", "title": "Tatort Tonne", "min_players": 2,
            "max_players": 10} in games["games"]
    reply = peer.ask({"cmd": "new", "game": "tatort-tonne", "players": EXAMPLE, "seed": 3,
                      "id": 2})
    assert reply["type"] == "ok" and box.app.mode == "game"
    reply = peer.ask({"cmd": "action", "id": 3,
                      "action": {"type": "choose", "player": "Sarah", "card": "steal"}})
    assert reply["events"][0]["kind"] == "chosen"
    assert box.last_view.big == "4 of 5"                       # the OLED follows the link
    state = peer.ask({"cmd": "state", "id": 4})
    assert state["state"]["waiting_for"] == EXAMPLE[:4] and "4 of 5" in state["screen"]
    undo = peer.ask({"cmd": "undo", "id": 5})
    assert undo == {"type": "ok", "cmd": "undo", "player": "Sarah", "id": 5}
    assert box.app.session.actions == []


def test_button_presses_are_sent_out_as_events_and_state(linked):
    box, peer, _cable, _ = linked
    peer.ask({"cmd": "new", "game": "tatort-tonne", "players": EXAMPLE, "seed": 3})
    box.idle(1.0)  # past the guard after the screen change, as a player reads the new screen
    box.tap("s1.A")
    msgs = peer.messages(lambda m: any(x["type"] == "state" for x in m))
    event = next(m for m in msgs if m["type"] == "event")["event"]
    assert event["kind"] == "chosen" and event["player"] == "Alexandra"
    assert "steal" not in json.dumps(msgs)                      # secret choices stay secret


@pytest.mark.parametrize("line, error", [
    (b'{"cmd": "state"', "malformed JSON"),
    (b'["state"]', "a command is a JSON object"),
    (b'{"cmd": "format-disk"}', "unknown command 'format-disk'"),
    (b'{"cmd": "new", "game": "chess", "players": ["a", "b"]}', "unknown game"),
    (b'{"cmd": "action", "action": {"type": "choose", "player": "Zoe", "card": "steal"}}',
     "no game is running"),
    (b"\xff\xfe{}", "not UTF-8"),
])
def test_bad_lines_get_an_error_line_and_change_nothing(linked, line, error):
    box, peer, _cable, _ = linked
    peer.write(line + b"\n")
    msgs = peer.messages()
    assert msgs[0]["type"] == "error" and error in msgs[0]["error"]
    assert box.app.session is None and box.app.mode == "home"


def test_an_illegal_action_gets_an_error_and_leaves_the_game_as_it_was(linked):
    box, peer, _cable, _ = linked
    peer.ask({"cmd": "new", "game": "tatort-tonne", "players": EXAMPLE, "seed": 3})
    reply = peer.ask({"cmd": "action", "id": 9,
                      "action": {"type": "choose", "player": "Zoe", "card": "steal"}})
    assert reply == {"type": "error", "error": "no player 'Zoe'", "id": 9}
    assert box.app.session.actions == []


def test_a_line_over_4_kib_is_refused_whole_and_the_next_line_works(linked):
    box, peer, _cable, _ = linked
    huge = json.dumps({"cmd": "state", "pad": "x" * 5000}).encode()
    peer.write(huge + b"\n" + b'{"cmd": "games", "id": 7}\n')
    msgs = peer.messages(lambda m: any(x.get("id") == 7 for x in m))
    assert msgs[0]["type"] == "error" and "longer than 4096" in msgs[0]["error"]
    assert msgs[1]["type"] == "games"
    assert box.link.lines_refused == 1


def test_a_flood_waits_in_the_port_not_in_the_queue():
    cable = NullModem()
    events: queue.Queue = queue.Queue()
    link = SerialLink(cable.ends[0], events.put, window=8)
    link.start()
    peer = serial.Serial(cable.ends[1], write_timeout=5)
    flood(peer, 2000)
    wait_for(lambda: events.qsize() >= 9)
    time.sleep(0.2)  # give the reader every chance to overrun the window (it must not)
    lines = [e for e in list(events.queue) if isinstance(e, LinkLine)]
    assert len(lines) == 8
    link.done()
    wait_for(lambda: link.lines_in == 9)
    peer.close()
    link.close()
    cable.close()


def test_a_flood_cannot_starve_the_buttons(linked):
    box, peer, _cable, _ = linked
    peer.ask({"cmd": "new", "game": "tatort-tonne", "players": EXAMPLE, "seed": 3})
    box.idle(1.0)  # past the guard after the screen change
    order: list[str] = []
    routes = box.runtime.routes

    def spy(kind, name):
        handle = routes[kind]
        routes[kind] = lambda event: (order.append(name), handle(event))[1]

    spy(Edge, "button")
    spy(LinkLine, "link")
    peer.port.write_timeout = 5
    flood(peer.port, 500)
    wait_for(lambda: box.runtime.queue.qsize() >= 8)
    box._pin("s1.A").drive_low()
    box.runtime.pump()
    assert order.index("button") <= 8  # behind at most one window of link lines
    assert box.app.session.state.choices == {"Alexandra": "steal"}
    box._pin("s1.A").drive_high()


def test_a_cable_pulled_mid_line_discards_the_partial_line(box_factory):
    cable = NullModem()
    box = box_factory(EXAMPLE)
    peer = Peer(cable.ends[1], box)
    statuses: list[LinkStatus] = []
    box.attach_link(cable.ends[0])
    box.runtime.route(LinkStatus, statuses.append)
    wait_for(lambda: box.link.up)
    peer.write(b'{"cmd": "new", "game": "tatort-tonne", "players": ["a", "b"]')
    time.sleep(0.05)
    cable.pull()

    def told_down() -> bool:  # the reader posts the status; the loop must handle it
        box.runtime.pump()
        return any(not s.up for s in statuses)

    wait_for(told_down)
    assert box.app.session is None and box.link.lines_in == 0 and not box.link.up
    peer.close()
    box.close()


def test_watch_follows_a_sim_game_over_a_pty_pair(tmp_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    sim = subprocess.Popen([sys.executable, "-m", "spielleiter.device.cli", "sim", "--headless",
                            "--link-pty", "--state-dir", str(tmp_path),
                            "--config", str(english_config(tmp_path))],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=env)
    try:
        banner = sim.stderr.readline()
        path = banner.rsplit(" ", 1)[-1].strip()
        assert path.startswith("/dev/"), banner
        sim.stdout.readline()
        watch = subprocess.Popen([sys.executable, "-m", "spielleiter.device.cli", "watch", path,
                                  "--lang", "en"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env=env)
        lines: list[str] = []

        def read_until(text: str) -> None:
            timer = threading.Timer(30, watch.kill)  # a missing line fails, never hangs
            timer.start()
            try:
                while not any(text in line for line in lines):
                    line = watch.stdout.readline()
                    assert line, f"no {text!r} in {lines}"
                    lines.append(line)
            finally:
                timer.cancel()

        read_until("(no game running)")
        # Tatort Tonne, its menu's "New game", 5 players, 25 cards, start; Red chooses
        for command in ("tap host.ok", "tap host.ok", "tap host.next", "tap host.ok",
                        "tap host.ok", "tap host.ok", "tap s1.A"):
            sim.stdin.write(command + "\n")
            sim.stdin.flush()
            sim.stdout.readline()
        read_until("Red has chosen")
        read_until("waiting for: Blue")
        watch.terminate()
        watch.wait(timeout=10)
        watch.stdout.close()
        watch.stderr.close()
    finally:
        sim.stdin.close()
        sim.wait(timeout=10)
        sim.stdout.close()
        sim.stderr.close()
    assert any("tatort-tonne | phase choose | round 1" in line for line in lines)


def test_a_hot_seat_card_never_reaches_the_link(linked):
    box, peer, _cable, _ = linked
    peer.ask({"cmd": "new", "game": "tatort-tonne", "players": [f"P{i}" for i in range(10)]})
    box.idle(1.0)  # past the guard after the screen change
    box.tap("host.ok")                                  # the first hot seat is called up
    box.tap("host.ok")                                  # ...and shown the cards
    box.tap("host.next")                                # cursor on "You did it!"
    assert box.last_view.cursor == 1                    # the box itself shows the pick
    screen = peer.ask({"cmd": "state", "id": 5})["screen"]
    assert "You did it" not in screen and "Steal" not in screen and "private" in screen


def test_a_peer_that_stops_reading_never_blocks_the_sender():
    cable = NullModem()
    events: queue.Queue = queue.Queue()
    link = SerialLink(cable.ends[0], events.put)
    link.start()
    wait_for(lambda: link.up)
    peer = serial.Serial(cable.ends[1])                 # opened, never read
    sender = threading.Thread(target=lambda: [link.send_line("x" * 200) for _ in range(5000)])
    sender.start()
    sender.join(timeout=10)
    assert not sender.is_alive()                        # 1 MB queued or dropped, never blocked
    wait_for(lambda: link.lines_dropped > 0)
    peer.close()
    link.close()
    cable.close()


def test_watch_once_gives_up_when_nothing_answers(monkeypatch, capsys):
    from spielleiter.device.cli import watch

    monkeypatch.setattr(watch, "ONCE_TIMEOUT_S", 0.2)
    assert watch.run_watch("loop://", once=True) == 1
    assert "no answer" in capsys.readouterr().err


# -- text that UTF-8 cannot hold ------------------------------------------------
@pytest.mark.parametrize("line", [
    r'{"cmd": "new", "game": "tatort-tonne", "players": ["\ud800x", "B", "C"], "id": 1}',
    r'{"cmd": "new", "game": "tatort-tonne", "players": ["A", "B", "C"], "id": "\ud800x"}',
    r'{"cmd": "nope", "id": "\udfff"}',
    r'{"cmd": "state", "\udfff": 1}',
    r'{"cmd": "new", "game": "tatort-tonne", "players": ["A", "B"], "options": {"x": "\udc83"}}',
])
def test_a_lone_surrogate_is_refused_with_an_error_line_and_the_link_keeps_answering(linked,
                                                                                      line):
    box, peer, _cable, _ = linked
    peer.write(line.encode() + b"\n")
    [reply] = peer.messages()
    assert reply["type"] == "error" and "not valid Unicode" in reply["error"]
    assert "id" not in reply  # the id itself may be the bad text: never echoed
    assert box.app.session is None and box.journal.latest() is None
    assert peer.ask({"cmd": "state", "id": 8})["type"] == "state"


def test_a_surrogate_pair_is_ordinary_text(linked):
    box, peer, _cable, _ = linked
    reply = peer.ask({"cmd": "new", "game": "tatort-tonne", "players": ["Zo\u00eb", "B", "C"]})
    assert reply["type"] == "ok" and box.app.session.header.players[0] == "Zo\u00eb"
    reply = peer.ask({"cmd": "new", "game": "tatort-tonne",
                      "players": ["Mia\U0001f600", "B", "C"]})
    assert reply["type"] == "error"  # decoded (no "not valid Unicode"), then the roster's rule:
    assert "the screen cannot show \U0001f600: use Latin letters" in reply["error"]
    assert box.app.session.header.players[0] == "Zo\u00eb"  # the game goes on


def test_a_new_game_over_the_link_takes_the_names_the_set_up_would(linked):
    """A name the OLED cannot draw, or too long for its line, is refused as the roster does."""
    box, peer, _cable, _ = linked
    for name, why in (("\u0412\u0435\u0440\u0430", "the screen cannot show"),
                      ("A" * 13, "at most 12 characters")):
        reply = peer.ask({"cmd": "new", "game": "tatort-tonne", "players": [name, "B"]})
        assert reply["type"] == "error" and why in reply["error"] and box.app.session is None
    reply = peer.ask({"cmd": "new", "game": "tatort-tonne", "players": ["Anna", "anna"]})
    assert reply["type"] == "error" and "look the same on the screen" in reply["error"]
    reply = peer.ask({"cmd": "new", "game": "tatort-tonne", "players": ["\uff2dia", "Ben"]})
    assert reply["type"] == "ok" and box.app.session.header.players[0] == "Mia"  # as the roster
    assert reply["players"] == ["Mia", "Ben"]                  # the names the actions must use


@pytest.mark.parametrize("line, error", [
    ('{"cmd": "new", "game": "tatort-tonne", "players": ["A", "B"], "seed": NaN}', "NaN"),
    ('{"cmd": "action", "action": {"grams": Infinity}}', "Infinity"),
])
def test_nan_and_infinity_are_not_json(linked, line, error):
    box, peer, _cable, _ = linked
    peer.write(line.encode() + b"\n")
    [reply] = peer.messages()
    assert reply["type"] == "error" and error in reply["error"]


def test_send_line_never_raises_on_encoding():
    events: queue.Queue = queue.Queue()
    with SerialLink("loop://", events.put) as link:
        link.start()
        assert events.get(timeout=5).up
        assert link.send_line('{"name":"\ud800x"}')
        assert events.get(timeout=5) == LinkLine('{"name":"?x"}')


def test_a_failing_command_is_answered_and_counted_never_raised(box_factory, monkeypatch):
    from spielleiter.device.link import LinkProtocol

    box = box_factory(EXAMPLE)
    sent: list[str] = []
    protocol = LinkProtocol(box.app, sent.append, lambda: None)
    monkeypatch.setattr(box.app, "public_state", lambda: 1 / 0)
    protocol.on_line(LinkLine('{"cmd": "state", "id": 4}'))
    assert json.loads(sent[-1]) == {"type": "error", "error": "internal error in 'state'; see the log",
                                    "id": 4}
    assert protocol.failures == 1
    protocol.on_line(LinkLine('{"cmd": "hello", "id": 5}'))
    assert json.loads(sent[-1])["type"] == "hello"


# -- the roster over the link ---------------------------------------------------------------------
def roster_rows(box) -> list:
    return box.journal.db.execute("SELECT name, added FROM roster ORDER BY name").fetchall()


def test_players_lists_adds_and_removes_names_on_the_roster(linked):
    box, peer, _cable, _ = linked
    assert peer.ask({"cmd": "players", "id": 1}) == {"type": "players", "players": [], "id": 1}
    reply = peer.ask({"cmd": "players", "add": "  Zoë  Marie ", "id": 2})
    assert reply == {"type": "ok", "cmd": "players", "added": "Zoë Marie",
                     "players": ["Zoë Marie"], "id": 2}
    peer.ask({"cmd": "players", "add": "Ben", "id": 3})
    assert peer.ask({"cmd": "players", "id": 4})["players"] == ["Zoë Marie", "Ben"]
    reply = peer.ask({"cmd": "players", "remove": "zoë marie", "id": 5})  # case makes no one new
    assert reply == {"type": "ok", "cmd": "players", "removed": "Zoë Marie", "players": ["Ben"],
                     "id": 5}
    from spielleiter.device.journal.roster import Roster
    assert Roster(box.journal).names() == ["Ben"]              # the box's own roster, kept


def test_a_name_added_over_the_link_is_offered_at_set_up(linked):
    box, peer, _cable, _ = linked
    peer.ask({"cmd": "players", "add": "Zoë"})
    box.idle(1.0)
    box.tap("host.ok")                                         # Tatort Tonne: its own menu
    box.tap("host.ok")                                         # New game: who plays
    assert "Zoë" in box.last_view.as_text()


@pytest.mark.parametrize("request_, error", [
    ({"add": "Ben"}, "Ben is already on the roster"),
    ({"add": "BEN"}, "Ben is already on the roster"),
    ({"add": "Maximiliane Ann"}, "a name has at most 12 characters"),
    ({"add": "   "}, "a name needs a letter"),
    ({"add": "Be\u200bn"}, "a name holds letters, digits and spaces"),     # zero-width space
    ({"add": "Ben\x07"}, "a name holds letters, digits and spaces"),       # a control character
    ({"add": "Ben\u202e"}, "a name holds letters, digits and spaces"),     # right-to-left override
    ({"add": 7}, "a name is text"),
    ({"add": None}, "a name is text"),
    ({"add": ["Ben"]}, "a name is text"),
    ({"remove": "Zoe"}, "Zoe is not on the roster"),
    ({"remove": "Ben\x00"}, "a name holds letters, digits and spaces"),
    ({"add": "Zoe", "remove": "Ben"}, "players: add or remove, one at a time"),
])
def test_a_bad_players_request_is_refused_with_the_reason_and_changes_nothing(linked, request_,
                                                                              error):
    box, peer, _cable, _ = linked
    peer.ask({"cmd": "players", "add": "Ben"})
    before = roster_rows(box)
    reply = peer.ask({"cmd": "players", **request_, "id": 6})
    assert reply == {"type": "error", "error": error, "id": 6}
    assert roster_rows(box) == before
    assert peer.ask({"cmd": "players", "id": 7})["players"] == ["Ben"]   # still answering


def test_a_lone_surrogate_in_a_players_name_is_refused_before_the_roster(linked):
    box, peer, _cable, _ = linked
    peer.write(b'{"cmd": "players", "add": "Be\\ud800n", "id": 1}\n')
    [reply] = peer.messages()
    assert reply["type"] == "error" and "not valid Unicode" in reply["error"]
    assert peer.ask({"cmd": "players"})["players"] == []


def test_the_hello_names_the_players_command(linked):
    _box, _peer, _cable, hello = linked
    assert "players" in next(m for m in hello if m["type"] == "hello")["commands"]
