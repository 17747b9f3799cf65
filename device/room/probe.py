"""Whether the room's broker lets anyone in: a second, short connection without a user name.

A broker that takes a client without a password lets anyone on the network publish as any box
(docs/room.md sets up per-box passwords and an ACL instead); the room cannot tell a box's word
from a stranger's, so its page says so. Mosquitto may still restrict what an anonymous client
may write; this asks only whether it gets in, which is what the page can honestly say.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import replace

import paho.mqtt.client as mqtt

from ..uplink.publisher import Broker, make_client


def anonymous_allowed(broker: Broker, timeout: float = 10.0) -> bool | None:
    """True when the broker accepts a client with no user name, False when it refuses one,
    None when it gave no answer within ``timeout``."""
    answer: list[bool] = []
    done = threading.Event()
    client = make_client(replace(broker, username=None, password_file=None),
                         f"spielleiter-room-probe-{secrets.token_hex(4)}")

    def on_connect(client: mqtt.Client, userdata: object, flags: object,
                   reason_code: mqtt.ReasonCode, properties: object) -> None:
        answer.append(not reason_code.is_failure)
        done.set()

    def on_gone(*_args: object) -> None:
        done.set()

    client.on_connect = on_connect
    client.on_connect_fail = on_gone
    client.on_disconnect = on_gone
    try:
        client.connect_async(broker.host, broker.port, keepalive=10)
        client.loop_start()
        done.wait(timeout)
    finally:
        client.disconnect()
        client.loop_stop()
    return answer[0] if answer else None


__all__ = ["anonymous_allowed"]
