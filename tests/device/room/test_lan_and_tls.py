"""What protects the children's names on the network: ``--lan`` asks every other machine for
the page's password; a TLS connection that fails is logged with the reason (a certificate from
another CA said nothing before)."""

from __future__ import annotations

import base64
import logging
import subprocess
import urllib.request

import pytest

from spielleiter.device.cli import main
from spielleiter.device.room.store import Store
from spielleiter.device.room.web import RoomServer
from spielleiter.device.uplink.publisher import Broker, Publisher, tls_problem
from mosquitto import BINARY, Mosquitto
from roomkit import wait_for


def fetch(url: str, password: str | None = None) -> int:
    request = urllib.request.Request(url)
    if password is not None:
        token = base64.b64encode(f"teacher:{password}".encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        assert exc.code != 401 or "Basic" in exc.headers["WWW-Authenticate"]
        return exc.code


def test_the_page_on_the_network_asks_for_its_password(tmp_path):
    store = Store(tmp_path / "room.sqlite3")
    server = RoomServer(store, "127.0.0.1", 0, password="kreide-42",
                        ask_this_machine=True).start()  # as another machine is asked
    try:
        assert fetch(server.url) == 401
        assert fetch(server.url + "history.csv", "wrong") == 401
        assert fetch(server.url + "history.csv", "kreide-42") == 200
        assert server.allowed("192.168.1.20", None) is False
        open_server = RoomServer(store, "127.0.0.1", 0, password="kreide-42")
        assert open_server.allowed("127.0.0.1", None)  # this machine itself: no password
        assert not open_server.allowed("::ffff:192.168.1.20", "Basic !!!")
        open_server.httpd.server_close()
    finally:
        server.stop()
        store.close()


def test_a_page_password_file_without_lan_is_refused(tmp_path, capsys):
    secret = tmp_path / "pw"
    secret.write_text("x")
    assert main(["room", "--broker", "localhost", "--page-password-file", str(secret)]) == 2
    assert "--page-password-file is for --lan" in capsys.readouterr().err


def certificate(folder, name: str):
    key, cert = folder / f"{name}.key", folder / f"{name}.crt"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "2", "-subj", f"/CN={name}",
                    "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


def test_a_tls_failure_is_logged_with_the_reason(tmp_path, caplog):
    if BINARY is None:
        pytest.skip("no mosquitto")
    caplog.set_level(logging.WARNING)
    served = certificate(tmp_path, "broker")
    other, _key = certificate(tmp_path, "other-ca")
    with Mosquitto(tmp_path / "broker", tls=served) as broker:
        right = Broker("127.0.0.1", broker.port, tls=True, ca_file=served[0])
        wrong = Broker("127.0.0.1", broker.port, tls=True, ca_file=other,
                       reconnect_s=(0.05, 0.5))
        assert tls_problem(right) == ""
        assert "CERTIFICATE_VERIFY_FAILED" in tls_problem(wrong)
        publisher = Publisher(wrong, "tisch-1")
        publisher.start()
        try:
            wait_for(lambda: "CERTIFICATE_VERIFY_FAILED" in caplog.text, what="the reason")
            assert not publisher.connected.is_set()
        finally:
            publisher.stop()
