"""The ``spielleiter`` command: the device (run, sim, demo) and its scripting and maintenance tools."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Sequence


def _replay(args: argparse.Namespace) -> int:
    from .replay import ReplayError, run

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"spielleiter replay: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        state, error = run(text)
    except ReplayError as exc:
        print(f"spielleiter replay: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(state, indent=2, ensure_ascii=False))
    if error:
        print(f"spielleiter replay: {error}", file=sys.stderr)
        return 1
    return 0


def _sim(args: argparse.Namespace) -> int:
    from .sim import run_sim

    return run_sim(state_dir=args.state_dir, headless=args.headless, config_path=args.config,
                   link=args.link, link_pty=args.link_pty)


def _watch(args: argparse.Namespace) -> int:
    from .watch import run_watch

    return run_watch(args.port, args.baud, out=lambda line: print(line, flush=True),
                     once=args.once)


def _demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(game=args.game, frames=args.frames, seed=args.seed)


def _run(args: argparse.Namespace) -> int:
    from .service import run_service

    # Lifecycle messages (ready, no OLED, stopped) reach journald; -v adds debug.
    logging.getLogger("spielleiter").setLevel(logging.DEBUG if args.verbose else logging.INFO)
    return run_service(config_path=args.config, state_dir=args.state_dir, sim=args.sim)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spielleiter", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a JSON game document, print the final state")
    p.add_argument("file", help="the document, or - for standard input")
    p.set_defaults(func=_replay)

    p = sub.add_parser("sim", help="the whole device simulated in this terminal")
    p.add_argument("--state-dir", type=Path, default=None,
                   help="where the journal lives (default: ~/.local/state/spielleiter-sim)")
    p.add_argument("--config", type=Path, default=None, help="a config.toml over the defaults")
    p.add_argument("--headless", action="store_true",
                   help="commands on stdin, one JSON line per command on stdout (for scripts)")
    p.add_argument("--link", metavar="URL", default=None,
                   help="serve the serial link on this port (a tty path or a pyserial URL)")
    p.add_argument("--link-pty", action="store_true",
                   help="serve the link on a simulated cable; prints the path to watch")
    p.set_defaults(func=_sim)

    p = sub.add_parser("watch", help="follow a game over the serial link")
    p.add_argument("port", help="the serial port (e.g. /dev/ttyUSB0) or a pyserial URL")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--once", action="store_true", help="print the current state and exit")
    p.set_defaults(func=_watch)

    p = sub.add_parser("demo", help="play a scripted game on simulated hardware")
    p.add_argument("game", nargs="?", default="tatort-tonne")
    p.add_argument("--frames", type=Path, default=None, help="save each frame as PNG here")
    p.add_argument("--seed", type=int, default=7)
    p.set_defaults(func=_demo)

    p = sub.add_parser("run", help="the device on real hardware (systemd runs this)")
    p.add_argument("--config", type=Path, default=None,
                   help="config.toml over the defaults (default: /etc/spielleiter/config.toml"
                        " if present)")
    p.add_argument("--state-dir", type=Path, default=None,
                   help="where the journal lives (default: $STATE_DIRECTORY or"
                        " /var/lib/spielleiter)")
    # Hidden: the same service on MockFactory pins and a dummy display (tests, notify checks).
    p.add_argument("--sim", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=_run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
