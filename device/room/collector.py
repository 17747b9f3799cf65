"""The room's MQTT side: subscribe to every box, keep each message in the store, then confirm it.

The room keeps one session at the broker (a fixed client id, ``clean_session`` off, QoS 1), so
what boxes publish while the room's laptop is closed waits at the broker. paho's thread only
queues what arrives; the collector's thread writes it to the store in batches (one transaction)
and only then acknowledges each message (paho's manual acks) and tells each uplink how far its
stream is kept (``have``, retained): only that lets a message leave the box's outbox, so neither
a crash of the broker nor of the room loses anything.
"""

from __future__ import annotations

import json
import logging
import queue
import socket
import threading
import time
from typing import Callable

import paho.mqtt.client as mqtt

from .. import fleet
from ..uplink.publisher import Broker, make_client, tls_problem
from .probe import anonymous_allowed
from .store import Store

log = logging.getLogger(__name__)

BATCH = 500
HAVE_S = 1.0  # each uplink hears at most this often how far the room keeps its stream


def client_id() -> str:
    """One session per laptop: the broker keeps its messages while the room is closed."""
    host = "".join(ch for ch in socket.gethostname().lower() if ch.isalnum() or ch == "-")
    return f"spielleiter-room-{host or 'laptop'}"[:64]


class Collector:
    """Messages from ``broker`` into ``store`` until ``stop``."""

    def __init__(self, store: Store, broker: Broker, *, session: str | None = None,
                 on_batch: Callable[[int], None] | None = None, have_s: float = HAVE_S,
                 probe: bool = True, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.have_s = have_s  # the uplinks hear how far the room keeps at most this often
        self.broker = broker
        self.on_batch = on_batch
        self._inbox: queue.SimpleQueue[mqtt.MQTTMessage | None] = queue.SimpleQueue()
        self.connected = threading.Event()
        # what keeps the room from hearing the boxes: ("unreachable", ""), ("unanswered", why)
        # or ("refused", why); None once connected. The page shows it: a mistyped broker is
        # not a quiet room.
        self.trouble: tuple[str, str] | None = None
        self.troubled = threading.Event()  # set whenever ``trouble`` is set
        self.away_since: float | None = None  # the broker not heard since (the page's clock)
        self.open_broker: bool | None = None  # the broker lets in clients without a password
        self.probe = probe  # asks that once, after the first connection
        self.clock = clock
        self._answered = False  # the broker answered this connection's CONNECT (CONNACK)
        self.client = make_client(broker, session or client_id(), clean_session=False)
        self.client.manual_ack_set(True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_socket_open = self._on_socket_open
        self.client.on_message = self._on_message
        self._writer = threading.Thread(target=self._write, name="room-writer", daemon=True)
        self.stored = 0
        self._due: set[tuple[str, str]] = set()
        self._said = 0.0

    def start(self) -> None:
        self._writer.start()
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        self.client.loop_start()

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object,
                    reason_code: mqtt.ReasonCode, properties: object) -> None:
        self._answered = True
        if reason_code.is_failure:
            self._say(("refused", str(reason_code)))
            return
        if self.away_since is not None:
            log.warning("broker %s:%d is back (away %d min)", self.broker.host,
                        self.broker.port, max(0.0, self.clock() - self.away_since) // 60)
        self.trouble, self.away_since = None, None
        client.subscribe([(fleet.topic("+", name), 1) for name in fleet.TOPICS])
        self.connected.set()
        self._have(self.store.have())  # an uplink waiting for word hears it now
        log.info("room connected to %s:%d", self.broker.host, self.broker.port)
        if self.probe and self.open_broker is None:
            threading.Thread(target=self._probe, name="room-probe", daemon=True).start()

    def _probe(self) -> None:
        self.open_broker = anonymous_allowed(self.broker)
        if self.open_broker:
            log.warning("broker %s:%d lets in clients without a password: anyone on the "
                        "network can speak for a box (docs/room.md: a password per box)",
                        self.broker.host, self.broker.port)

    def _on_socket_open(self, client: mqtt.Client, userdata: object, sock: object) -> None:
        self._answered = False  # a new connection: no answer on it yet

    def _on_connect_fail(self, client: mqtt.Client, userdata: object) -> None:
        why = tls_problem(self.broker)  # paho says nothing of a failed TLS handshake
        if not why and self.trouble is not None and self.trouble[0] == "away":
            return  # still away: said once
        self._say(("refused", why) if why else ("unreachable", ""))  # paho tries again

    def _say(self, trouble: tuple[str, str]) -> None:
        if trouble != self.trouble:  # once a streak, not at every retry
            kind, why = trouble
            log.warning("broker %s:%d %s%s", self.broker.host, self.broker.port, {
                "unreachable": "cannot be reached: trying again",
                "unanswered": "closed the connection without an MQTT answer (is it a broker? "
                              "TLS needs --tls): ",
                "away": "went away: the boxes keep their messages; trying again: ",
            }.get(kind, "refused the room: "), why)
        self.trouble = trouble
        if self.away_since is None:
            self.away_since = self.clock()
        self.troubled.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object,
                       reason_code: mqtt.ReasonCode, properties: object) -> None:
        if not self._answered:  # dropped before any MQTT answer: not a broker there
            self._say(("unanswered", str(reason_code)))  # (a web server, TLS without --tls)
        elif self.connected.is_set():  # a broker that was there went away
            self._say(("away", str(reason_code)))
        self.connected.clear()

    def _on_message(self, client: mqtt.Client, userdata: object,
                    message: mqtt.MQTTMessage) -> None:
        self._inbox.put(message)

    def _write(self) -> None:
        while True:
            try:
                first = self._inbox.get(timeout=self._have_due_in())
            except queue.Empty:
                self._say_have()
                continue
            if first is None:
                self._say_have(force=True)
                return
            batch = [first]
            while len(batch) < BATCH:
                try:
                    item = self._inbox.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._inbox.put(None)
                    break
                batch.append(item)
            try:
                self.store.ingest_many([(m.topic, bytes(m.payload)) for m in batch])
            except Exception:  # the database failed: confirm nothing, the broker sends again
                log.exception("room database: %d messages not kept", len(batch))
                continue
            for message in batch:
                if message.qos > 0:
                    self.client.ack(message.mid, message.qos)
            self._due |= self.store.changed_streams()
            self._say_have()
            self.stored += len(batch)
            if self.on_batch is not None:
                self.on_batch(len(batch))

    def _have_due_in(self) -> float:
        """How long the writer may wait for a message: until the held-back ``have`` is due
        (``have_s`` after the last one), so the last batch of a burst is confirmed then and not
        a whole ``have_s`` after it arrived; ``have_s`` when nothing is held back."""
        if not self._due:
            return self.have_s
        return min(self.have_s, max(0.0, self._said + self.have_s - time.monotonic()))

    def _say_have(self, force: bool = False) -> None:
        """The ``have`` of the streams that moved, at most every ``have_s``."""
        now = time.monotonic()
        if not self._due or (not force and now - self._said < self.have_s):
            return
        have = self.store.have()
        self._have({key: have[key] for key in self._due if key in have})
        self._due.clear()
        self._said = now

    def _have(self, marks: dict[tuple[str, str], int]) -> None:
        """Tell each uplink how far its stream is kept (retained, so it hears it on connect)."""
        for (box, stream), n in marks.items():
            self.client.publish(fleet.topic(box, fleet.HAVE),
                                json.dumps({"stream": stream, "n": n}), qos=1, retain=True)

    def stop(self, timeout: float = 10.0) -> None:
        """Keep what has arrived (for up to ``timeout``), say how far, then leave; what is not
        kept by then was not confirmed, so the broker keeps it for the next start."""
        self._inbox.put(None)
        self._writer.join(timeout=timeout)
        self.connected.clear()  # the room leaves: its own disconnect is no broker going away
        self.client.disconnect()
        self.client.loop_stop()


__all__ = ["Collector", "client_id"]
