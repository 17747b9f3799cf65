"""A real Mosquitto for the room's and the uplink's tests, on 127.0.0.1 at a free port (skipped
without it)."""

from __future__ import annotations

import pytest

from mosquitto import BINARY, SKIP_REASON, Mosquitto


@pytest.fixture
def broker(tmp_path):
    if BINARY is None:
        pytest.skip(SKIP_REASON)
    server = Mosquitto(tmp_path / "broker").start()
    yield server
    server.stop()
