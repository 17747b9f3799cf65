"""The uplink's MQTT side: paho-mqtt 2.x, reconnecting on its own, draining the outbox.

paho's network loop runs on its own thread (``loop_start``) and reconnects with a growing delay
when the broker goes away. Everything else happens on the uplink's thread: ``drain`` hands at
most ``window`` outbox messages to paho at a time (QoS 1); ``acknowledged`` frees the window as
the broker confirms them, and ``room_marks`` passes on the room's ``have`` (``fleet``), which is
what lets a message leave the outbox. paho sends again, after a reconnect, what the broker did
not confirm; the uplink sends again what the room has not confirmed.

``status`` is retained with the last will ``offline``, so the broker announces an uplink that
vanished (power cut, network gone) by itself; ``publish_state`` keeps the retained live state.
"""

from __future__ import annotations

import json
import logging
import queue
import socket
import ssl
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import paho.mqtt.client as mqtt

from .. import fleet
from .outbox import Pending

log = logging.getLogger(__name__)

KEEPALIVE_S = 30  # the broker says "offline" about 45 s after the uplink fell silent
WINDOW = 50  # messages handed to paho and not yet confirmed
HAVE_BYTES = 256  # a room's ``have`` is about 40 bytes


@dataclass(frozen=True)
class Broker:
    """Where and how to reach the broker (``[fleet]`` in the config, or the command line)."""

    host: str
    port: int = 1883
    username: str | None = None
    password_file: Path | None = None
    tls: bool = False
    ca_file: Path | None = None
    reconnect_s: tuple[float, float] = (1.0, 60.0)  # paho's wait before trying again: the
    #   first, doubling up to the second (the room's tests wait less for a broker they restart)

    def password(self) -> str | None:
        if self.password_file is None:
            return None
        return self.password_file.read_text(encoding="utf-8").strip()


def tls_problem(broker: Broker, timeout: float = 5.0) -> str:
    """Why a TLS connection to ``broker`` fails, as the TLS library says it (a certificate from
    another CA, a name that does not match, an expired one); "" when the handshake succeeds or
    TLS is not asked for. paho retries a failed handshake without saying why, so the uplink and
    the room ask once themselves when a connection fails."""
    if not broker.tls:
        return ""
    try:
        context = ssl.create_default_context(
            cafile=str(broker.ca_file) if broker.ca_file else None)
        with socket.create_connection((broker.host, broker.port), timeout=timeout) as raw:
            with context.wrap_socket(raw, server_hostname=broker.host):
                return ""
    except ssl.SSLError as exc:
        return f"TLS: {exc.reason or exc}"
    except OSError as exc:
        return f"TLS: {exc.strerror or exc}"


def make_client(broker: Broker, client_id: str, *, clean_session: bool = True) -> mqtt.Client:
    """A paho client set up for ``broker`` (credentials, TLS), not yet connected;
    ``clean_session=False`` asks the broker to keep the session (and its QoS 1 messages)."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=mqtt.MQTTv311, clean_session=clean_session)
    if broker.username:
        client.username_pw_set(broker.username, broker.password())
    if broker.tls:
        client.tls_set(ca_certs=str(broker.ca_file) if broker.ca_file else None,
                       cert_reqs=ssl.CERT_REQUIRED)
    first, most = broker.reconnect_s  # paho hints int seconds, and sleeps floats
    client.reconnect_delay_set(min_delay=first, max_delay=most)  # type: ignore[arg-type]
    return client


class Publisher:
    """One box's connection to the broker (see the module doc)."""

    def __init__(self, broker: Broker, box_id: str, wake: Callable[[], None] = lambda: None,
                 window: int = WINDOW, discovery: Sequence[tuple[str, str]] = ()) -> None:
        self.box_id = box_id
        self.discovery = tuple(discovery)  # Home Assistant's sensor configs, sent on connect
        self.broker = broker
        self.window = window
        self._wake = wake
        self._acks: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._marks: queue.SimpleQueue[tuple[str, int]] = queue.SimpleQueue()
        self._inflight: dict[int, int] = {}  # paho's mid -> the outbox's n (uplink thread)
        self.sent_up_to = 0  # the highest n handed to paho since start
        self.connected = threading.Event()
        self._announced = False
        self._leaving = False
        self._last_state: str | None = None
        self.client = make_client(broker, f"spielleiter-uplink-{box_id}")
        self.client.will_set(fleet.topic(box_id, fleet.STATUS), fleet.OFFLINE, qos=1, retain=True)
        # ours, plus status, state and the sensor configs
        self.client.max_inflight_messages_set(window + 4 + len(self.discovery))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self.client.on_connect_fail = self._on_connect_fail
        self._failing = ""  # the reason last logged for failing connections (once a streak)

    def start(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE_S)
        self.client.loop_start()

    # -- paho's thread ---------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object,
                    reason_code: mqtt.ReasonCode, properties: object) -> None:
        if reason_code.is_failure:
            log.warning("broker %s:%d refused the uplink: %s", self.broker.host, self.broker.port,
                        reason_code)
            return
        log.info("connected to %s:%d", self.broker.host, self.broker.port)
        self._failing = ""
        client.subscribe(fleet.topic(self.box_id, fleet.HAVE), qos=1)
        self._announced = False
        self.connected.set()
        self._wake()

    def _on_connect_fail(self, client: mqtt.Client, userdata: object) -> None:
        """The broker cannot be reached, or TLS fails: said once a streak, with the reason."""
        why = tls_problem(self.broker) or "cannot be reached"
        if why != self._failing:
            log.warning("broker %s:%d: %s; messages wait in the outbox, trying again",
                        self.broker.host, self.broker.port, why)
            self._failing = why

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object,
                       reason_code: mqtt.ReasonCode, properties: object) -> None:
        if self.connected.is_set() and not self._leaving:
            log.warning("broker connection lost (%s); messages wait in the outbox", reason_code)
        self.connected.clear()

    def _on_publish(self, client: mqtt.Client, userdata: object, mid: int,
                    reason_code: mqtt.ReasonCode, properties: object) -> None:
        # Called with paho's message lock held: no lock of ours here (publish takes paho's),
        # only a hand-over to the uplink's thread, which owns ``_inflight``.
        self._acks.put(mid)
        self._wake()

    def _on_message(self, client: mqtt.Client, userdata: object,
                    message: mqtt.MQTTMessage) -> None:
        """The room's ``have``: how far it keeps this box's stream. Anything else, or a number
        no stream can reach, is logged and ignored: nothing the broker says stops the uplink."""
        try:
            if len(message.payload) > HAVE_BYTES:
                raise ValueError(f"{len(message.payload)} bytes")
            doc = json.loads(message.payload.decode("utf-8"))
            stream, n = doc["stream"], doc["n"]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError) as exc:
            log.warning("not a have message on %s: %s", message.topic, str(exc)[:80])
            return
        if not (isinstance(stream, str) and len(stream) <= 40 and isinstance(n, int)
                and not isinstance(n, bool) and 0 <= n < 2**62):
            log.warning("a have message on %s that no stream can have: %.80r", message.topic,
                        doc)
            return
        self._marks.put((stream, n))
        self._wake()

    # -- the uplink's thread ---------------------------------------------------------------------
    def room_marks(self) -> list[tuple[str, int]]:
        """The room's ``have`` answers since the last call, as (stream, n)."""
        marks = []
        while True:
            try:
                marks.append(self._marks.get_nowait())
            except queue.Empty:
                return marks

    @property
    def in_flight(self) -> int:
        """Messages handed to paho that the broker has not acknowledged yet."""
        return len(self._inflight)

    def acknowledged(self) -> list[int]:
        """The ``n`` the broker confirmed since the last call."""
        done: list[int] = []
        while True:
            try:
                mid = self._acks.get_nowait()
            except queue.Empty:
                return done
            n = self._inflight.pop(mid, None)
            if n is not None:
                done.append(n)

    def room(self) -> int:
        """How many more messages ``drain`` may hand to paho now."""
        if not self.connected.is_set():
            return 0
        return max(0, self.window - len(self._inflight))

    def drain(self, pending: list[Pending]) -> int:
        """Hand ``pending`` (oldest first, above ``sent_up_to``) to paho; returns how many."""
        handed = 0
        for message in pending:
            info = self.client.publish(message.topic, message.payload, qos=1)
            if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
                log.warning("publish of %d refused: %s", message.n, mqtt.error_string(info.rc))
                break
            self._inflight[info.mid] = message.n  # NO_CONN: paho sends it on reconnect
            self.sent_up_to = max(self.sent_up_to, message.n)
            handed += 1
        return handed

    @property
    def announced(self) -> bool:
        """Whether ``announce`` has nothing to do (already done since the last connect, or not
        connected): the uplink asks before it makes the live state for it."""
        return self._announced or not self.connected.is_set()

    def announce(self, state: str) -> None:
        """After a (re)connect: Home Assistant's sensor configs (if any), status ``online`` and
        the live state, all retained."""
        if self._announced or not self.connected.is_set():
            return
        for topic, config in self.discovery:
            self.client.publish(topic, config, qos=1, retain=True)
        self.client.publish(fleet.topic(self.box_id, fleet.STATUS), fleet.ONLINE, qos=1,
                            retain=True)
        self._announced = True
        self._last_state = None
        self.publish_state(state)

    def heartbeat(self) -> None:
        if self.connected.is_set():
            self.client.publish(fleet.topic(self.box_id, fleet.STATUS), fleet.ONLINE, qos=0,
                                retain=True)

    def publish_state(self, state: str) -> None:
        """The retained live state, when it changed (sent again on every reconnect)."""
        if state == self._last_state or not self.connected.is_set():
            return
        self.client.publish(fleet.topic(self.box_id, fleet.STATE), state, qos=1, retain=True)
        self._last_state = state

    def stop(self) -> None:
        """Say ``offline`` (retained) and leave; what was not confirmed stays in the outbox."""
        self._leaving = True
        if self.connected.is_set():
            info = self.client.publish(fleet.topic(self.box_id, fleet.STATUS), fleet.OFFLINE,
                                       qos=1, retain=True)
            try:
                info.wait_for_publish(timeout=2)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()


__all__ = ["Broker", "KEEPALIVE_S", "Publisher", "WINDOW", "make_client", "tls_problem"]
