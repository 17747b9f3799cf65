"""``spielleiter room --broker HOST``: every box of a classroom or a club in one place.

Collects what every box's uplink publishes into one SQLite file on this laptop and serves a
page: every box live, the finished games, each child's answers and levels per quiz as plots,
the whole class's history as CSV (docs/room.md). The page listens on 127.0.0.1 unless ``--lan``
is given; it never changes anything on a box.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import threading
from pathlib import Path

from ..i18n import _
from .common import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, add_lang, lacks_extra, say, speak

DB_NAME = "room.sqlite3"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("room", help=_("collect every box into one place and serve its page"),
                       description=_("Collects the games and learning answers of every box that "
                                   "reports to the MQTT broker into one database on this "
                                   "machine, and serves a page with every box live and the "
                                   "class's progress (docs/room.md)."),
                       epilog=_("Exit status: 0 stopped with Ctrl-C or SIGTERM; 1 the database or "
                               "the page's port cannot be used; 2 bad usage."))
    p.add_argument("--broker", default=None, metavar="HOST[:PORT]",
                   help=_("the MQTT broker the boxes report to (port 1883 unless given)"))
    p.add_argument("--username", default=None, help=_("the broker's user name, if it asks"))
    p.add_argument("--password-file", type=Path, default=None, metavar="FILE",
                   help=_("a file holding the broker's password"))
    p.add_argument("--tls", action="store_true", help=_("TLS to the broker (port 8883 unless "
                                                      "given)"))
    p.add_argument("--ca-file", type=Path, default=None, metavar="FILE",
                   help=_("the broker's CA certificate (default: the system's)"))
    p.add_argument("--db", type=Path, default=None, metavar="FILE",
                   help=_("the room's database (default: {path})").format(
                       path=f"$XDG_STATE_HOME/spielleiter-room/{DB_NAME}"))
    p.add_argument("--port", type=int, default=8080, help=_("the page's port (default: 8080)"))
    p.add_argument("--listen", default="127.0.0.1", metavar="ADDRESS",
                   help=_("the page's address (default: 127.0.0.1, this machine only)"))
    p.add_argument("--lan", action="store_true",
                   help=_("serve the page to the local network too (listen on every address); "
                          "other machines are asked for a password: a new one printed at start, "
                          "or the one in --page-password-file"))
    p.add_argument("--page-password-file", type=Path, default=None, metavar="FILE",
                   help=_("with --lan: a file holding the page's password (any user name)"))
    p.add_argument("--schema", action="store_true",
                   help=_("print the JSON Schema of every message the room takes, and exit"))
    p.add_argument("--stale", type=float, default=None, metavar="SECONDS",
                   help=_("mark a box stale after this long without a word (default: 180)"))
    add_lang(p, _("the page's language"), settings=False)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if lacks_extra("room"):
        return EXIT_UNUSABLE
    from ..config.paths import user_state_dir
    from ..room import schema
    from ..room.collector import Collector
    from ..room.store import Store
    from ..room.views import STALE_S
    from ..room.web import RoomServer
    from ..uplink.publisher import Broker
    from .uplink import host_port

    if args.schema:
        print(json.dumps(schema.documents(), indent=2, ensure_ascii=False))
        return EXIT_OK
    if not args.broker:
        say("room", "--broker HOST[:PORT] is needed: the MQTT broker the boxes report to")
        return EXIT_UNUSABLE
    try:
        host, port = host_port(args.broker, 8883 if args.tls else 1883)
    except ValueError as exc:
        say("room", f"--broker: {exc}")
        return EXIT_UNUSABLE
    if args.page_password_file is not None and not args.lan:
        say("room", "--page-password-file is for --lan (this machine needs none)")
        return EXIT_UNUSABLE
    if not 0 <= args.port <= 65535:
        say("room", f"--port {args.port}: use 1-65535")
        return EXIT_UNUSABLE
    speak(args.lang)  # the box's language: --lang, else the config's [ui] language
    password = None
    if args.lan:
        if args.page_password_file is not None:
            try:
                password = args.page_password_file.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError) as exc:
                say("room", f"--page-password-file: {exc}")
                return EXIT_UNUSABLE
            if not password:
                say("room", f"--page-password-file {args.page_password_file}: empty")
                return EXIT_UNUSABLE
        else:
            password = secrets.token_urlsafe(9)
    db = args.db or user_state_dir("spielleiter-room", os.environ) / DB_NAME
    try:
        store = Store(db)
    except Exception as exc:  # sqlite3.Error, OSError: one line, not a traceback
        say("room", f"cannot use {db}: {exc}")
        return EXIT_PROBLEMS
    listen = "0.0.0.0" if args.lan else args.listen
    collector = Collector(store, Broker(host, port, args.username, args.password_file,
                                        args.tls, args.ca_file))
    try:
        server = RoomServer(store, listen, args.port,
                            stale_s=args.stale if args.stale is not None else STALE_S,
                            collector=collector, password=password)
    except OSError as exc:
        say("room", f"cannot serve on {listen}:{args.port}: {exc.strerror or exc}")
        store.close()
        return EXIT_PROBLEMS
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    collector.start()
    server.start()
    say("room", f"collecting from {host}:{port} into {db}; the page: {server.url}")
    if args.lan:
        shown = "in " + str(args.page_password_file) if args.page_password_file else password
        say("room", f"other machines are asked for a password (any user name): {shown}")
    try:
        stop.wait()
    finally:
        server.stop()
        collector.stop()
        store.close()
    return EXIT_OK
