"""Fuzz the link protocol on a whole simulated box: lines a laptop, a bad cable or a curious child
might send. Every line is answered; a refused one changes nothing; the box answers afterwards."""

from __future__ import annotations

import json
import queue
import random
import tempfile
from pathlib import Path

from fuzz_strategies import CHARS, NAMES, VALUES, fuzz_settings, headers, to_text
from hypothesis import event, given
from hypothesis import strategies as st

from spielleiter.device.link import COMMANDS, LinkProtocol
from spielleiter.device.text import loads
from spielleiter.drivers.link import LinkLine, SerialLink
from spielleiter.games import GAMES, complete

IDS = st.one_of(st.none(), st.integers(), NAMES, VALUES)


def snapshot(box) -> tuple:
    """What a refused line must leave as it was: the game, the screen mode, the journal."""
    db = box.journal.db
    return (json.dumps(box.app.public_state(), sort_keys=True), box.app.mode,
            db.execute("SELECT COUNT(*), MAX(id) FROM games").fetchone(),
            db.execute("SELECT COUNT(*) FROM actions").fetchone())


def a_line(data, box) -> str:
    """One line: often a fitting command for the game being played, often not."""
    kind = data.draw(st.integers(0, 12), label="kind")
    ident = data.draw(IDS, label="id")
    session = box.app.session
    if kind == 0:
        return data.draw(st.one_of(st.text(CHARS, max_size=60), VALUES.map(to_text)))
    if kind in (1, 2) or session is None:
        message = {"cmd": "new", **data.draw(headers())}
    elif kind in (3, 4, 5, 6, 10, 11, 12):
        state = session.state
        legal = [a for p in state.waiting_for() for a in state.legal_actions(p)]
        if legal and kind != 6:
            action = data.draw(st.sampled_from(legal))
            action = complete(GAMES[session.header.game], action,
                              random.Random(data.draw(st.integers(0, 99))))
            if kind == 5 and action:
                key = data.draw(st.sampled_from(sorted(action)))
                action = {**action, key: data.draw(VALUES)}
        else:
            action = data.draw(VALUES)
        message = {"cmd": "action", "action": action}
    elif kind == 7:
        message = {"cmd": data.draw(st.sampled_from(COMMANDS))}
    else:
        message = {"cmd": data.draw(st.one_of(st.sampled_from(COMMANDS), VALUES)),
                   **data.draw(st.dictionaries(st.sampled_from(
                       ["game", "players", "options", "seed", "action", "x"]), VALUES, max_size=3))}
    if data.draw(st.booleans()):
        message["id"] = ident
    return to_text(message, data.draw(st.booleans()))


@fuzz_settings()
@given(data=st.data())
def test_any_line_is_answered_and_a_refused_one_changes_nothing(box_factory, tmp_path, data):
    box = box_factory(["Alexandra", "Melanie", "Ulrike"],
                      state_dir=Path(tempfile.mkdtemp(dir=tmp_path)))
    sent: list[str] = []
    protocol = LinkProtocol(box.app, sent.append, lambda: None)
    try:
        for _ in range(data.draw(st.integers(1, 12), label="lines")):
            line = a_line(data, box)
            before = snapshot(box)
            del sent[:]
            protocol.on_line(LinkLine(line))
            box.runtime.pump()
            assert protocol.failures == 0, line
            assert sent, f"no answer to {line!r}"
            replies = [loads(s) for s in sent]  # strict JSON, valid UTF-8: the peer can read it
            for s in sent:
                s.encode("utf-8")
            last = replies[-1]
            event(f"reply: {last['type']}" + (f" {last.get('cmd')}" if last["type"] == "ok"
                                               else ""))
            if last["type"] == "error":
                assert snapshot(box) == before, f"refused {line!r} changed the box"
                assert all(r["type"] == "error" for r in replies)
        protocol.on_line(LinkLine('{"cmd": "state", "id": "end"}'))
        assert loads(sent[-1])["id"] == "end"  # still answering
    finally:
        box.close()


@fuzz_settings()
@given(st.lists(st.binary(max_size=80), min_size=1, max_size=6))
def test_the_transport_turns_any_bytes_into_lines_or_refusals(chunks):
    """Raw bytes on pyserial's loop://: every line arrives as text or as a refusal, in order."""
    events: queue.Queue = queue.Queue()
    with SerialLink("loop://", events.put, max_line=64) as link:
        link.start()
        assert events.get(timeout=5).up
        wire = b"".join(c.replace(b"\n", b"") + b"\n" for c in chunks)
        link._port.write(wire)
        link._port.write(b'{"cmd":"end"}\n')
        got = []
        while not got or got[-1] != LinkLine('{"cmd":"end"}'):
            line = events.get(timeout=5)
            got.append(line)
            link.done()
        for line in got:
            assert isinstance(line, LinkLine) and (line.text or line.error)
        assert link.up
