"""``spielleiter sim``: the whole device in a terminal, on gpiozero's ``MockFactory``.

Interactive (``cli/terminal.py``): the OLED drawn with text characters as large as the terminal
allows (an 80x24 terminal shows all of it and the key legend), the keyboard pressing
the mock pins, the real runtime on its own thread in real time. Headless (``--headless``,
``cli/headless.py``): commands on stdin, one JSON line out per command, on a ``ManualClock``;
this is how scripts and tests drive the device.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..i18n import N_, _
from .common import EXIT_UNUSABLE, add_config, add_lang, load_config, say

EPILOG = N_("""\
Headless commands (one a line; each answered with one JSON line, an error as {{"error": ...}}):
  tap BUTTON...           press and release buttons (host.back, host.ok, host.next, s1.A ...)
  hold BUTTON SECONDS     hold a button down (0 < SECONDS <= {max_s:g})
  idle SECONDS            let time pass (0 <= SECONDS <= {max_s:g}; repeat for longer)
  keys KEY...             the interactive keyboard's keys (u: hold BACK, undo)
  put PAN GRAMS           set GRAMS down on a configured pan; negative takes off
                          (at most {max_g:g} g on a pan)
  empty [PAN]             lift everything off every pan (or PAN)
  new GAME PLAYER... [key=value...]
                          start a game as the serial link's "new" does; values are JSON
                          (scale_rows=[5,15]); seed=N sets the seed
  show                    report without doing anything
""")


def register(sub: argparse._SubParsersAction) -> None:
    from ..pans.simulated import SIM_CELLS
    from .headless import MAX_SECONDS
    from .pan_load import PAN_LIMIT_G

    p = sub.add_parser("sim", help=_("the whole device simulated in this terminal"),
                       description=_("The whole device simulated: the screen drawn in the "
                                     "terminal, the keyboard as its buttons."),
                       epilog=_(EPILOG).format(max_s=MAX_SECONDS, max_g=PAN_LIMIT_G),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                   help=_("where the journal lives (default: $XDG_STATE_HOME/spielleiter-sim, "
                          "that is ~/.local/state/spielleiter-sim)"))
    add_config(p, default=_("the shipped defaults"))
    add_lang(p)
    p.add_argument("--headless", action="store_true",
                   help=_("commands on stdin, one JSON line per command on stdout (for "
                          "scripts)"))
    p.add_argument("--link", metavar="URL", default=None,
                   help=_("serve the serial link on this port (a tty path or a pyserial URL)"))
    p.add_argument("--link-pty", action="store_true",
                   help=_("serve the link on a simulated cable; prints the path to watch"))
    p.add_argument("--cells", choices=SIM_CELLS, default="real",
                   help=_("what the simulated pans sit on: real (default) load cells as "
                          "published figures describe them (warm-up, the box warming, creep, a "
                          "bent output, the overload stop) or ideal ones (none of that, only the "
                          "HX711's own noise: for scripts)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return run_sim(state_dir=args.state_dir, headless=args.headless, config_path=args.config,
                   link=args.link, link_pty=args.link_pty, language=args.lang, cells=args.cells)


def run_sim(state_dir: Path | None = None, headless: bool = False,
            config_path: Path | None = None, link: str | None = None,
            link_pty: bool = False, language: str | None = None, cells: str = "real") -> int:
    from ..config.paths import sim_state_dir

    config = load_config("sim", config_path)
    if config is None:
        return EXIT_UNUSABLE
    state_dir = sim_state_dir(state_dir, os.environ)
    if not headless and not (sys.stdin.isatty() and sys.stdout.isatty()):
        # its screen is drawn in the terminal: piped (``| tee log``) it would fail half-drawn
        say("sim", _("needs a terminal for its screen (to keep a log: --headless)"))
        return EXIT_UNUSABLE
    cable = None
    if link_pty:
        from ...drivers.link import NullModem

        cable = NullModem()
        link = cable.ends[0]
        print(f"spielleiter sim: link on a simulated cable; follow it with: "
              f"spielleiter watch {cable.ends[1]}", file=sys.stderr, flush=True)
    try:
        if headless:
            from .headless import run_headless

            return run_headless(config, state_dir, link, language=language, cells=cells)
        from .terminal import run_terminal

        return run_terminal(config, state_dir, link, cable.ends[1] if cable else None,
                            language=language, cells=cells)
    finally:
        if cable is not None:
            cable.close()
