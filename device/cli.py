"""The ``spielleiter`` command: the device (run, sim, demo) and its scripting and maintenance tools."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Sequence

from . import DeviceError, __version__


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


def _paths(args: argparse.Namespace) -> tuple[Path | None, Path]:
    """The config file and state directory a maintenance command works on."""
    import os

    from .service import find_config, find_state_dir
    from .sim import default_state_dir

    config = find_config(args.config, os.environ)
    if args.state_dir is None and getattr(args, "sim", False):
        return config, default_state_dir()  # the same journal `spielleiter sim` uses
    return config, find_state_dir(args.state_dir, os.environ)


def _weigh(args: argparse.Namespace) -> int:
    from .weigh_cli import run_weigh

    return run_weigh(args.left, args.right, sim=args.sim, seed=args.seed, rate=args.rate,
                     as_json=args.json)


def _calibrate(args: argparse.Namespace) -> int:
    from .config import ConfigError
    from .weigh_cli import run_calibrate

    config, state_dir = _paths(args)
    try:
        return run_calibrate([args.pan] if args.pan else None, sim=args.sim, mass_g=args.mass,
                             state_dir=state_dir, config_path=config, yes=args.yes)
    except ConfigError as exc:
        print("\n".join(f"spielleiter calibrate: {p}" for p in exc.problems), file=sys.stderr)
        return 2


def _scale(args: argparse.Namespace) -> int:
    from .config import ConfigError
    from .weigh_cli import run_scale

    config, state_dir = _paths(args)
    try:
        return run_scale(sim=args.sim, puts=args.put, seconds=args.seconds, state_dir=state_dir,
                         config_path=config, out=lambda line: print(line, flush=True))
    except ConfigError as exc:
        print("\n".join(f"spielleiter scale: {p}" for p in exc.problems), file=sys.stderr)
        return 2


def _selftest(args: argparse.Namespace) -> int:
    import os

    from . import selftest
    from .service import find_config

    if args.fail is not None and not args.sim:
        print("spielleiter selftest: --fail needs --sim", file=sys.stderr)
        return 2
    try:
        faults = selftest.parse_faults(args.fail)
    except ValueError as exc:
        print(f"spielleiter selftest: {exc}", file=sys.stderr)
        return 2
    if not args.verbose:  # the table says it; the drivers' warnings would only repeat it
        logging.getLogger("spielleiter.drivers").setLevel(logging.ERROR)
    report = selftest.run(find_config(args.config, os.environ), sim=args.sim, faults=faults)
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print(report.table())
    return report.exit_code


def _config_check(args: argparse.Namespace) -> int:
    import os

    from .config import ConfigError, load
    from .service import find_config

    path = find_config(args.config, os.environ)
    where = str(path) if path is not None else "shipped defaults"
    try:
        load(path)
    except ConfigError as exc:
        count = len(exc.problems)
        print(f"{where}: {count} problem{'s' if count != 1 else ''}")
        for problem in exc.problems:
            print(f"  {problem}")
        return 1
    print(f"config OK: {where}")
    return 0


def _maintenance(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sim", action="store_true", help="simulated load cells on virtual time")
    p.add_argument("--config", type=Path, default=None)
    p.add_argument("--state-dir", type=Path, default=None,
                   help="the journal's directory (calibration lives there)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spielleiter", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
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

    p = sub.add_parser("weigh", help="weigh masses on the simulated pans (a scriptable check)")
    p.add_argument("left", type=float, help="grams on the left pan")
    p.add_argument("right", type=float, nargs="?", default=None, help="grams on the right pan")
    p.add_argument("--sim", action="store_true", help="use simulated pans (required for now)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rate", type=int, choices=(10, 80), default=10)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_weigh)

    p = sub.add_parser("calibrate", help="calibrate a pan with a known mass")
    p.add_argument("--pan", choices=("left", "right"), default=None, help="default: every pan")
    p.add_argument("--mass", type=float, default=200.0, help="the reference mass in grams")
    p.add_argument("--yes", action="store_true", help="do not wait for Enter between steps")
    _maintenance(p)
    p.set_defaults(func=_calibrate)

    p = sub.add_parser("scale", help="show both pans live in grams")
    p.add_argument("--put", action="append", default=[], metavar="PAN=GRAMS",
                   help="with --sim: set a mass down (repeatable)")
    p.add_argument("--seconds", type=float, default=None, help="stop after this long")
    _maintenance(p)
    p.set_defaults(func=_scale)

    p = sub.add_parser("selftest", help="check every part: OLED, load cells, buttons, link",
                       description="Check every part and print a table with a verdict per part; "
                                   "exit 1 if any part failed. Stop the service first on the "
                                   "box (it holds the pins).")
    p.add_argument("--sim", action="store_true",
                   help="the simulated twins instead of the hardware")
    p.add_argument("--config", type=Path, default=None,
                   help="config.toml over the defaults (default: /etc/spielleiter/config.toml"
                        " if present)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--fail", metavar="PARTS", default=None,
                   help="with --sim: break these parts to see a failure; comma-separated: "
                        "display, left, right (left:stuck, left:saturated), buttons "
                        "(buttons:host.ok), link")
    p.set_defaults(func=_selftest)

    p = sub.add_parser("config", help="check the configuration")
    config_sub = p.add_subparsers(dest="config_command", required=True)
    c = config_sub.add_parser("check", help="list every problem of the config, with its fix")
    c.add_argument("--config", type=Path, default=None,
                   help="the file to check over the defaults (default: "
                        "/etc/spielleiter/config.toml if present)")
    c.set_defaults(func=_config_check)

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
    except DeviceError as exc:  # a journal that cannot be opened, and the like: one line
        print(f"spielleiter {args.command}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
