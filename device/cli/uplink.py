"""``spielleiter uplink``: publish this box's games and answers to the room's MQTT broker.

What systemd's ``spielleiter-uplink`` unit starts beside the box (docs/room.md). It reads the
box's journal (``--state-dir``; the box's own by default, ``--sim`` the simulator's) and never
writes it; its own cursor and outbox live in ``--uplink-dir`` (default: ``$STATE_DIRECTORY``
under systemd, else ``uplink/`` inside the box's state directory). The room comes from
``[fleet]`` in the config; ``--box-id`` and ``--broker`` set or override it (several simulated
boxes on one laptop). ``--check`` only says whether a room is configured: the unit's
``ExecCondition=`` skips the uplink on a box without one.
"""

from __future__ import annotations

import argparse
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _
from .common import (EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, add_config, add_lang, lacks_extra,
                     load_config, say, speak)

if TYPE_CHECKING:
    from ..config.core import Fleet

EXIT_NOT_CONFIGURED = 1  # ExecCondition=: skip the unit, do not fail it
EXIT_CONDITION_BROKEN = 255  # ExecCondition=: fail the unit (a config it cannot read)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("uplink", help=_("publish this box's games to the room's MQTT broker"),
                       description=_("Publishes the box's games, actions and learning answers to "
                                   "an MQTT broker for `spielleiter room` (docs/room.md). Secret "
                                   "choices and hidden grams never leave the box."),
                       epilog=_("Exit status: 0 stopped on SIGTERM or Ctrl-C; 1 no room "
                              "configured (--check: none; --check exits 0 when there is one); "
                              "2 bad usage or config (255 with --check)."))
    add_config(p)
    add_lang(p, _("the lines' language"), settings=False)
    p.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                   help=_("the box's state directory, whose journal is read (default: "
                        "/var/lib/spielleiter; with --sim the simulator's)"))
    p.add_argument("--sim", action="store_true", help=_("follow the simulator's journal"))
    p.add_argument("--uplink-dir", type=Path, default=None, metavar="DIR",
                   help=_("the uplink's own cursor and outbox (default: $STATE_DIRECTORY, else "
                        "DIR/uplink of the box's state directory)"))
    p.add_argument("--box-id", default=None, metavar="ID",
                   help=_("this box's id in the room (over [fleet] box_id)"))
    p.add_argument("--name", default=None, help=_("the name the room shows (over [fleet] name)"))
    p.add_argument("--broker", default=None, metavar="HOST[:PORT]",
                   help=_("the MQTT broker (over [fleet] broker and port)"))
    p.add_argument("--check", action="store_true",
                   help=_("only say whether a room is configured (exit 0) or not (exit 1)"))
    p.set_defaults(func=run)


def host_port(text: str, default_port: int) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port``; ValueError for a bad port."""
    if text.startswith("["):
        host, _sep, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, ""
    number = int(port) if port else default_port
    if not host or not 1 <= number <= 65535:
        raise ValueError(_("{text!r} is not HOST or HOST:PORT").format(text=text))
    return host, number


def run(args: argparse.Namespace) -> int:
    from ..config.core import Fleet
    from ..fleet import box_id_problem
    from ..config.paths import JOURNAL_NAME, find_config, find_state_dir, first_dir, sim_state_dir

    speak(getattr(args, "lang", None), args.config)
    config = load_config("uplink", find_config(args.config, os.environ))
    if config is None:
        return EXIT_CONDITION_BROKEN if args.check else EXIT_UNUSABLE
    fleet = config.fleet
    if args.box_id or args.broker:
        base = fleet or Fleet("", "")
        try:
            host, port = host_port(args.broker, base.port) if args.broker else (base.broker,
                                                                                 base.port)
        except ValueError as exc:
            say("uplink", f"--broker: {exc}")
            return EXIT_UNUSABLE
        fleet = Fleet(args.box_id or base.box_id, host, port, base.name, base.username,
                      base.password_file, base.tls, base.ca_file, base.homeassistant)
        if not fleet.box_id or not fleet.broker:
            say("uplink", _("a room needs both a box id and a broker ([fleet] or --box-id and "
                            "--broker)"))
            return EXIT_UNUSABLE
        problem = box_id_problem(fleet.box_id)
        if problem:
            say("uplink", f"--box-id {fleet.box_id!r}: {problem}")
            return EXIT_UNUSABLE
    if fleet is None:
        say("uplink", _("no room configured ([fleet] box_id and broker in the config; "
                        "docs/room.md)"))
        return EXIT_NOT_CONFIGURED
    if args.check:
        say("uplink", _("box {box} reports to {broker}:{port} (the config only: --check does "
                        "not connect)").format(box=fleet.box_id, broker=fleet.broker,
                                               port=fleet.port))
        return EXIT_OK
    if lacks_extra("uplink"):
        return EXIT_UNUSABLE
    if args.state_dir is not None or not args.sim:
        box_dir = find_state_dir(args.state_dir, {})  # not $STATE_DIRECTORY: that is ours
    else:
        box_dir = sim_state_dir(None, os.environ)
    own = args.uplink_dir or first_dir(os.environ.get("STATE_DIRECTORY")) or box_dir / "uplink"
    return serve(box_dir / JOURNAL_NAME, own, fleet, args.name or fleet.name)


def serve(journal: Path, own: Path, fleet: "Fleet", name: str | None) -> int:
    """Run the uplink until SIGTERM or Ctrl-C."""
    from ..service.notify import Notifier
    from ..uplink.follower import Identity
    from ..uplink.publisher import Broker
    from ..uplink.service import Uplink

    broker = Broker(fleet.broker, fleet.port, fleet.username, fleet.password_file, fleet.tls,
                    fleet.ca_file)
    box_id = fleet.box_id
    try:
        uplink = Uplink(journal, own, Identity(box_id, name or "", fleet.homeassistant), broker,
                        notifier=Notifier.from_env())
    except OSError as exc:
        say("uplink", _("cannot use {path}: {why}").format(path=own, why=exc.strerror or exc))
        return EXIT_PROBLEMS
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: uplink.stop())
    say("uplink", _("box {box}: {journal} -> {broker}:{port}").format(
        box=box_id, journal=journal, broker=broker.host, port=broker.port))
    uplink.run()
    return EXIT_OK
