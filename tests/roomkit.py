"""Helpers for the room's tests (not a test module): a box's journal played at random, the
uplink's follower without a broker, an uplink and a room on a real broker, and waiting for them.
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any, Callable

from spielleiter.device.journal.header import Header
from spielleiter.device.journal.store import Journal
from spielleiter.device.session import Session
from spielleiter.device.uplink.follower import Identity, Follower
from spielleiter.device.uplink.outbox import Outbox
from spielleiter.device.uplink.publisher import Broker
from spielleiter.device.uplink.reader import JournalReader
from spielleiter.device.uplink.service import Timing, Uplink
from spielleiter.games import GAMES, complete

# settle_s: how long data_version is asked after the watch saw a write (the -shm follows the
# -wal within microseconds; the rescan every rescan_s catches what a short settle might miss);
# trim_s and the room's HAVE_S: the same rate limits as the box's and the laptop's, ten times as
# often, so an outbox drains in a tenth of a second after the room has it, not in one to two
FAST = Timing(poll_s=0.01, settle_s=0.1, rescan_s=1.0, retry_s=0.2, heartbeat_s=60.0,
              resend_s=0.5, resend_max_s=2.0, trim_s=0.1)
HAVE_S = 0.1
RECONNECT_S = (0.05, 0.5)  # paho's wait before it tries a broker again (the box's: 1 s .. 60 s)


def local_broker(port: int) -> Broker:
    """The test's Mosquitto on the loopback, tried again quickly when it was killed."""
    return Broker("127.0.0.1", port, reconnect_s=RECONNECT_S)


class TableBox:
    """A box's journal and session, played by a seeded random hand (no screens: the uplink
    only ever sees the journal)."""

    def __init__(self, state_dir: Path, seed: int = 1, **journal: Any) -> None:
        self.state_dir = Path(state_dir)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.journal = Journal(self.state_dir / "journal.sqlite3", **journal)
        self.rng = random.Random(seed)
        self.session: Session | None = None

    @property
    def path(self) -> Path:
        return self.state_dir / "journal.sqlite3"

    def new(self, game: str = "tatort-tonne", players: tuple[str, ...] = ("Anna", "Ben", "Cem"),
            options: dict[str, Any] | None = None, seed: int = 7) -> Session:
        self.session = Session.new(self.journal, Header(game, players, options or {}, seed))
        return self.session

    def play(self, count: int = 1) -> int:
        """Up to ``count`` random legal actions (fewer when the game ends); how many."""
        session = self.session
        assert session is not None
        info = GAMES[session.header.game]
        done = 0
        while done < count and not session.state.is_over:
            player = self.rng.choice(session.state.waiting_for())
            session.apply(complete(info, self.rng.choice(session.state.legal_actions(player)),
                                   self.rng))
            done += 1
        return done

    def finish(self) -> None:
        while self.session is not None and not self.session.state.is_over:
            self.play(50)

    def close(self) -> None:
        self.journal.close()


def random_play():
    """``tests/games/play.py`` (the random play helpers) as a module, from any test folder."""
    import importlib.util
    import sys

    if "play" not in sys.modules:
        path = Path(__file__).parent / "games" / "play.py"
        spec = importlib.util.spec_from_file_location("play", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["play"] = module
        spec.loader.exec_module(module)
    return sys.modules["play"]


def follower(journal: Path, state_dir: Path, box: str = "tisch-1") -> Follower:
    return Follower(JournalReader(journal), Outbox(state_dir, box), Identity(box, box.title()))


def taken(outbox: Outbox) -> list[dict[str, Any]]:
    """Every message in the outbox (oldest first), taken out as if the broker confirmed it."""
    pending = outbox.pending(0, 10**9)
    outbox.delivered(p.n for p in pending)
    return [{"topic": p.topic, **json.loads(p.payload)} for p in pending]


def wait_for(condition: Callable[[], Any], timeout: float = 20.0, what: str = "") -> Any:
    """Poll ``condition`` until it is truthy (a bounded wait for other processes and threads)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what or condition}")


class RunningUplink:
    """An ``Uplink`` on its own thread, as the unit runs it."""

    def __init__(self, journal: Path, state_dir: Path, box: str, port: int,
                 name: str = "") -> None:
        self.uplink = Uplink(journal, state_dir, Identity(box, name or box), local_broker(port),
                             timing=FAST)
        self.thread = threading.Thread(target=self.uplink.run, daemon=True)

    def start(self) -> "RunningUplink":
        self.thread.start()
        return self

    def pending(self) -> int:
        return self.uplink.outbox.count()

    def stop(self) -> None:
        self.uplink.stop()
        self.thread.join(timeout=20)
        assert not self.thread.is_alive()


class Room:
    """The room's database and collector on a broker (a session of its own per test)."""

    def __init__(self, path: Path, port: int, session: str = "room-under-test") -> None:
        from spielleiter.device.room.collector import Collector
        from spielleiter.device.room.store import Store

        self.store = Store(path)
        self.collector = Collector(self.store, local_broker(port), session=session,
                                   have_s=HAVE_S)

    def start(self) -> "Room":
        self.collector.start()
        wait_for(self.collector.connected.is_set, what="the room to connect")
        assert self.collector.trouble is None  # a broker that answers: no note on the page
        return self

    def read(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self.store.reader() as read:
            return read(sql, args)

    def actions(self, box: str) -> list[tuple[int, int, str]]:
        """(game_id, seq, action JSON) the room shows for ``box``, in the box's order."""
        from spielleiter.device.room import views

        with self.store.reader() as read:
            return [(g, seq, json.dumps(a)) for _j, g, seq, a in views.actions(read, box)]

    def numbers(self, box: str) -> list[int]:
        return [n for (n,) in self.read("SELECT n FROM messages WHERE box = ? ORDER BY n",
                                        (box,))]

    def stop(self) -> None:
        self.collector.stop()
        self.store.close()


def published_actions(box: TableBox) -> list[tuple[int, int, str]]:
    """What the room should show of a box's journal: every action, redacted as the uplink does."""
    from spielleiter.device.replay import start
    from spielleiter.device.uplink import public

    out = []
    journal = box.journal
    for (game_id,) in journal.db.execute("SELECT id FROM games ORDER BY id"):
        saved = journal.load(game_id)
        state = start(saved.header)
        for seq, action in enumerate(saved.actions):
            after, _ = state.apply(action)
            out.append((game_id, seq, json.dumps(public.redact(GAMES[saved.header.game],
                                                               action))))
            state = after
    return out


def feed(store, f: Follower) -> int:
    """Hand what the follower made to the room's store as the broker would (no broker)."""
    pending = f.outbox.pending(0, 10**9)
    f.outbox.delivered(p.n for p in pending)
    messages = [(p.topic, p.payload.encode()) for p in pending]
    from spielleiter.device import fleet

    messages.append((fleet.topic(f.box.id, fleet.STATE), json.dumps(f.live()).encode()))
    messages.append((fleet.topic(f.box.id, fleet.STATUS), b"online"))
    return store.ingest_many(messages)


def get(url: str) -> tuple[int, str, str]:
    """(status, content type, body) of a GET on the room's page (loopback only)."""
    import urllib.error
    import urllib.request

    assert url.startswith("http://127.0.0.1:"), url
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["Content-Type"], exc.read().decode()
