"""The room's local web server: the standard library's ``ThreadingHTTPServer``, read-only.

Routes: ``/`` the boxes live and the finished games, ``/fragment/boxes`` the boxes alone (what
the overview swaps in every few seconds), ``/class`` every child's answers per quiz as plots,
``/child?name=NAME`` one child, ``/history.csv`` the whole class's answers. Nothing is ever
written through the page. It listens on 127.0.0.1 unless told otherwise (``--lan``); then every
other machine is asked for a password (HTTP Basic, any user name).
"""

from __future__ import annotations

import base64
import csv
import hmac
import ipaddress
import io
import logging
import re
import selectors
import socket
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

from ...games.learning import Attempt
from ..journal.learning import COLUMNS, Record
from . import pages, views
from .store import Store

log = logging.getLogger(__name__)


FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may read as a formula
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?\Z")


def cell(value: Any) -> Any:
    """A text cell a spreadsheet shows as text: one that begins like a formula gets a leading
    apostrophe (what spreadsheets read as "text follows"); a plain number such as -2.5 stays."""
    if isinstance(value, str) and value.startswith(FORMULA) and not PLAIN_NUMBER.match(value):
        return "'" + value
    return value


def history_csv(rows: list[views.AnswerView]) -> str:
    """The class's answers in the columns of ``spielleiter history --csv``, the box first;
    every text cell as text (``cell``), a time no calendar holds left empty."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=("box", *COLUMNS), lineterminator="\n")
    writer.writeheader()
    for a in rows:
        attempt = Attempt(a.quiz, a.level, a.truth_g or 0.0, a.guess or "", a.error or 0.0,
                          a.correct, a.retry)
        try:
            row = Record(a.at, a.child, attempt).row()
        except (ValueError, OverflowError, OSError):  # kept by an older room: year 33658
            row = Record(None, a.child, attempt).row()
        writer.writerow({key: cell(value) for key, value in {"box": a.box, **row}.items()})
    return out.getvalue()


class RoomServer:
    """Serves ``store`` on ``host``:``port`` (0: any free port) on its own thread."""

    def __init__(self, store: Store, host: str = "127.0.0.1", port: int = 8080, *,
                 stale_s: float = views.STALE_S, clock: Callable[[], float] = time.time,
                 collector: Any = None, password: str | None = None,
                 ask_this_machine: bool = False) -> None:
        self.store = store
        self.password = password  # asked of every client but this machine (``--lan``) ...
        self.ask_this_machine = ask_this_machine  # ... and of this one too (tests)
        self.collector = collector  # its ``trouble`` and ``broker``, shown above the tables
        self.stale_s = stale_s
        self.clock = clock
        self.httpd = ThreadingHTTPServer((host, port), self._handler())
        self.httpd.daemon_threads = True
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = socket.socketpair()  # stop's word to the serving thread

    @property
    def url(self) -> str:
        host, port = (str(part) for part in self.httpd.server_address[:2])
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def start(self) -> "RoomServer":
        self._thread = threading.Thread(target=self._serve, name="room-page", daemon=True)
        self._thread.start()
        return self

    def _serve(self) -> None:
        """Requests until ``stop``: woken by a connection or by stop's byte, never by a timer
        (``serve_forever`` looks for its stop every half second, so a stop took that long)."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.httpd, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while True:
                ready = [key.fileobj for key, _events in selector.select()]
                if self._wake_r in ready:
                    return
                self.httpd.handle_request()  # ready: accepts at once, a thread per request

    def stop(self) -> None:
        self._wake_w.send(b"x")
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.httpd.server_close()
        self._wake_r.close()
        self._wake_w.close()

    def page(self, path: str, query: dict[str, list[str]]) -> tuple[int, str, str]:
        """(status, content type, body) for one request."""
        html = "text/html; charset=utf-8"
        with self.store.reader() as read:
            if path == "/":
                return 200, html, pages.overview(self._boxes(read), views.games(read),
                                                 *self._trouble())
            if path == "/fragment/boxes":
                return 200, html, pages.boxes_fragment(self._boxes(read), *self._trouble())
            if path == "/class":
                return 200, html, pages.class_page(views.by_child(views.answers(read)))
            if path == "/child":
                name = (query.get("name") or [""])[0]
                grouped = views.by_child(views.answers(read, name))
                found = next(iter(grouped.items()), (name, {}))
                return 200, html, pages.child_page(*found)
            if path == "/history.csv":
                return 200, "text/csv; charset=utf-8", history_csv(views.answers(read))
        return 404, "text/plain; charset=utf-8", "not found\n"

    def _boxes(self, read: Any) -> list[views.BoxView]:
        away = self.collector is not None and self.collector.trouble is not None
        return views.boxes(read, self.clock(), self.stale_s, away=away,
                           refused=dict(self.store.refused))

    def _trouble(self) -> tuple[tuple[str, str] | None, str, bool]:
        collector = self.collector
        if collector is None:
            return None, "", False
        return (collector.trouble, f"{collector.broker.host}:{collector.broker.port}",
                bool(collector.open_broker))

    def allowed(self, client: str, authorization: str | None) -> bool:
        """This machine always; another only with the password (any user name) when one is set:
        the page holds children's names and answers."""
        if self.password is None or (ipaddress.ip_address(client.split("%")[0]).is_loopback
                                     and not self.ask_this_machine):
            return True
        scheme, _sep, value = (authorization or "").partition(" ")
        if scheme.lower() != "basic":
            return False
        try:
            _user, _colon, given = base64.b64decode(value, validate=True).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            return False
        return hmac.compare_digest(given.encode(), self.password.encode())

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                if not server.allowed(self.client_address[0], self.headers.get("Authorization")):
                    data = b"the room's password, please\n"
                    self.send_response(HTTPStatus.UNAUTHORIZED)
                    self.send_header("WWW-Authenticate",
                                     'Basic realm="Spielleiter room", charset="UTF-8"')
                    self.send_header("Content-Type", "text/plain; charset=utf-8")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                parts = urlsplit(self.path)
                try:
                    status, kind, body = server.page(parts.path, parse_qs(parts.query))
                except Exception:
                    log.exception("page %s failed", parts.path)
                    status, kind, body = 500, "text/plain; charset=utf-8", "room error\n"
                data = body.encode("utf-8")
                self.send_response(HTTPStatus(status))
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("Content-Security-Policy",
                                 "default-src 'self'; style-src 'unsafe-inline'; "
                                 "script-src 'unsafe-inline'; img-src 'self' data:")
                if kind.startswith("text/csv"):
                    self.send_header("Content-Disposition",
                                     'attachment; filename="class-history.csv"')
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                log.debug("page: " + format, *args)

        return Handler


__all__ = ["RoomServer", "history_csv"]
