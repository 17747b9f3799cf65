"""``spielleiter sim --headless``: scripted commands on stdin, one JSON line out per command.

The box runs on a ``ManualClock``: time passes only through ``tap``, ``hold`` and ``idle``, so a
script is exactly repeatable. The first line out is the box as it started (``"command":
"start"``); then every line in is answered with one JSON line (a script may wait for each): the
box's mode, screen and public state after it, or ``{"error": ...}`` for a command that was
refused (nothing changed then), in the box's language as its screens are (only a JSON option's
syntax error stays in English). A blank line or a ``#`` comment changes nothing and is answered
as ``show`` is. Bounds keep a script from hanging the simulator or breaking its pans:
``MAX_SECONDS`` per ``idle`` or ``hold`` (about 5 s of wall time; idle longer in several steps)
and ``pan_load.PAN_LIMIT_G`` on a pan after a ``put``.
"""

from __future__ import annotations

import json
import math
import shlex
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Iterable, TextIO

from ..exc import DeviceError
from ..i18n import _, refusal
from ..pans.words import pan_name
from ..text import bad_char
from .common import emit
from .keys import UNDO_KEY, key_map
from .pan_load import grams_text, too_heavy

if TYPE_CHECKING:  # the box is imported when a simulation runs, not to build the parser
    from ..box import Box
    from ..config.core import Config

MAX_SECONDS = 600.0  # virtual seconds per idle/hold: a few seconds of wall time with two pans
LIFT_SLACK_G = 1e-3  # a put that lifts this much more than lies on the pan lifts what is there
SETTLE_S = 0.5  # after new, as after a tap: past the guard of the new screen, as a person reads
SPACES = "".join(ch for ch in map(chr, range(0x3001)) if ch.isspace())  # as str.split's


def trim_pin_history(factory: Any) -> None:
    """gpiozero's ``MockPin`` appends every state change to ``states`` (for ``assert_states``
    in tests) and never forgets one: a simulator left running grows by it. ``clear_states`` is
    gpiozero's own way to start that list afresh (it keeps the pin's present state)."""
    for pin in list(getattr(factory, "pins", {}).values()):
        clear = getattr(pin, "clear_states", None)
        if clear is not None:
            clear()


class CommandError(DeviceError, ValueError):
    """A refused command; the message is the error answer."""


def seconds_of(word: str, *, zero: bool) -> float:
    """A duration in virtual seconds, finite and within ``MAX_SECONDS``: ``zero`` for an idle
    (0 lets no time pass), else a hold's (0 would hold nothing). The refusal says which."""
    value = number(word)
    if not (0 <= value <= MAX_SECONDS) or (value == 0 and not zero):
        if zero:
            raise CommandError(_("{word} s: use 0 to {most} s (idle longer in steps)").format(
                word=word, most=f"{MAX_SECONDS:g}"))
        raise CommandError(_("{word} s: a hold keeps the button down for more than 0 s, at most "
                             "{most} s (tap BUTTON is a short press)").format(
            word=word, most=f"{MAX_SECONDS:g}"))
    return value


def number(word: str) -> float:
    try:
        value = float(word)
    except ValueError:
        raise CommandError(_("{word} is not a number").format(word=repr(word))) from None
    if not math.isfinite(value):
        raise CommandError(_("{word} is not a finite number").format(word=repr(word)))
    return value


def json_value(key: str, text: str) -> Any:
    """An option's value as JSON (``text.loads``: no NaN or Infinity, no lone surrogates, no
    integer too long to convert, no nesting too deep)."""
    from ..text import InputError, loads

    try:
        return loads(text, key)
    except InputError as exc:
        raise CommandError(f"{key}: {exc}") from None


def split(line: str) -> list[str]:
    """A line's words, split on spaces except within quotes that begin a word: a player with a
    space in the name is quoted (``new tatort-tonne "Maria Luise" Ben``), an option's JSON keeps
    its own quotes (``x="text"``). ValueError for an unclosed quote."""
    words = shlex.shlex(line, posix=False)
    words.whitespace_split, words.commenters, words.whitespace = True, "", SPACES
    return list(words)


def unquoted(word: str) -> str:
    """A word without the quotes around it (``"Maria Luise"`` is ``Maria Luise``)."""
    return word[1:-1] if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'" else word


class Headless:
    """Runs the commands of one script against a box (on the caller's thread)."""

    def __init__(self, box: Box, out: TextIO | None = None) -> None:
        self.box = box
        self.keys = key_map(len(box.config.stations))
        self.out = out

    # -- answers ---------------------------------------------------------------------------------
    def answer(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, ensure_ascii=False)
        if bad_char(text):  # whatever got in, the answer itself never fails
            text = json.dumps(message)
        emit(text, self.out)

    def report(self, command: str) -> None:
        box = self.box
        session = box.app.session
        self.answer({
            "command": command,
            "mode": box.app.mode,
            "view": box.last_view.as_text(),
            "state": session.state.public() if session else None,
            "actions": len(session.actions) if session else 0,
            "frames": box.display.frames_sent,
            # what lies on each simulated pan, piece by piece (what a restart brings back)
            "pans": {pan: list(box.pieces.get(pan, ())) for pan in box.scales.pans}
            if box.scales is not None and box.scales.sim is not None else {},
        })

    def line(self, line: str) -> None:
        """One line of the script: run it and answer."""
        try:
            words = split(line)
        except ValueError:  # shlex: "No closing quotation", said in the box's words
            self.answer({"error": _("bad command {line}: {why}").format(
                line=repr(line.strip()), why=_("no closing quotation"))})
            return
        if not words or words[0].startswith("#"):
            self.report(line.strip())  # nothing to do; answered all the same, so a script
            return                     # that waits for each line's answer never hangs
        try:
            self.command(words)
        except CommandError as exc:
            self.answer({"error": _("bad command {line}: {why}").format(
                line=repr(line.strip()), why=exc)})
            return
        finally:
            trim_pin_history(self.box.pin_factory)
        self.report(line.strip())

    # -- commands --------------------------------------------------------------------------------
    def command(self, words: list[str]) -> None:
        verb, args = words[0], words[1:]
        handler = getattr(self, f"_cmd_{verb}", None)
        if handler is None:
            raise CommandError(_("use tap, hold, idle, keys, put, empty, new or show"))
        handler(args)

    def _button(self, name: str) -> str:
        if name not in self.box.config.button_pins():
            raise CommandError(_("unknown button {name} (host.back, host.ok, host.next, "
                                 "s1.A ...)").format(name=repr(name)))
        return name

    def _cmd_tap(self, args: list[str]) -> None:
        if not args:
            raise CommandError(_("tap BUTTON... (host.back, host.ok, host.next, s1.A ...)"))
        for name in [self._button(n) for n in args]:
            self.box.tap(name)

    def _cmd_hold(self, args: list[str]) -> None:
        if len(args) != 2:
            raise CommandError(_("hold BUTTON SECONDS"))
        name, seconds = self._button(args[0]), seconds_of(args[1], zero=False)
        self.box.hold(name, seconds)
        self.box.idle(0.2)

    def _cmd_idle(self, args: list[str]) -> None:
        if len(args) != 1:
            raise CommandError(_("idle SECONDS"))
        self.box.idle(seconds_of(args[0], zero=True))

    def _cmd_keys(self, args: list[str]) -> None:
        if not args:
            raise CommandError(_("keys KEY... (the interactive sim's keys: o n b u 1 2 3 ...)"))
        unknown = [k for k in args if k != UNDO_KEY and k not in self.keys]
        if unknown:
            raise CommandError(_("unknown key {key}: keys presses the buttons' keys (o n b u, "
                                 "stations 1 2 3 ...); the pans take put and empty").format(
                key=repr(unknown[0])))
        for key in args:
            if key == UNDO_KEY:
                self.box.hold("host.back", self.box.config.hold_s + 0.2)
                self.box.idle(0.2)
            else:
                self.box.tap(self.keys[key])

    def _cmd_put(self, args: list[str]) -> None:
        scales = self.box.scales
        if scales is None or scales.sim is None:
            raise CommandError(_("no simulated pans on this box"))
        if len(args) != 2:
            raise CommandError(_("put PAN GRAMS (negative takes off)"))
        pan, grams = args[0], number(args[1])
        if pan not in scales.pans:
            raise CommandError(_("unknown pan {pan}; configured: {pans}").format(
                pan=repr(pan), pans=", ".join(scales.pans)))
        on_pan = scales.sim.load_g(pan)
        problem = too_heavy(grams, on_pan) if grams > 0 else None
        if grams < 0 and -grams > on_pan + LIFT_SLACK_G:  # a hand lifts what lies there, no more
            problem = _("{grams} g: {on_pan} g lies on the {pan} pan, lift at most that").format(
                grams=args[1], on_pan=grams_text(round(on_pan, 3)), pan=pan_name(pan))
        if problem is not None:
            raise CommandError(problem)
        self.box.put(pan, max(grams, -on_pan))
        self.box.idle(0.1)

    def _cmd_empty(self, args: list[str]) -> None:
        """Lift everything off every pan (or the one named), as the interactive sim's 0 key."""
        scales = self.box.scales
        if scales is None or scales.sim is None:
            raise CommandError(_("no simulated pans on this box"))
        if len(args) > 1 or args and args[0] not in scales.pans:
            raise CommandError(_("empty [PAN]; configured: {pans}").format(
                pans=", ".join(scales.pans)))
        for pan in args or scales.pans:
            load = scales.sim.load_g(pan)
            if load > 0:
                self.box.put(pan, -load)
        self.box.idle(0.1)

    def _cmd_new(self, args: list[str]) -> None:
        from ...games import GAMES, GameError
        from ..replay import parse_header
        from ..journal.roster import clean_players

        if not args:
            raise CommandError(_("new GAME PLAYER... [key=value...]"))
        if args[0] not in GAMES:
            raise CommandError(_("unknown game {game}; known: {games}").format(
                game=repr(args[0]), games=", ".join(sorted(GAMES))))
        doc: dict[str, Any] = {"game": args[0], "players": [], "options": {}}
        for word in args[1:]:
            key, eq, text = ("", "", "") if word[:1] in "\"'" else word.partition("=")
            if not eq:
                if doc["options"] or "seed" in doc:
                    raise CommandError(_("player {word} after the options: players "
                                         "first").format(word=repr(word)))
                doc["players"].append(unquoted(word))
            elif key == "seed":
                doc["seed"] = json_value(key, text)
            else:
                doc["options"][key] = json_value(key, text)
        doc.setdefault("seed", self.box.app.new_seed())
        try:
            doc["players"] = clean_players(doc["players"])  # the set-up's rules for names
            header = parse_header(doc)
        except (DeviceError, ValueError) as exc:
            raise CommandError(str(exc)) from None
        refused: list[Exception] = []

        def start() -> None:  # on the loop, as a link line is handled: then the screen redraws
            try:
                self.box.app.start_game(header)
            except (DeviceError, GameError, ValueError, TypeError) as exc:
                refused.append(exc)

        self.box.runtime.post(start)
        self.box.runtime.pump()
        if refused:
            cause = getattr(refused[0], "refused", None) or refused[0]  # the engine's words
            raise CommandError(_("cannot start {game}: {why}").format(
                game=header.game, why=refusal(cause)) if cause is not refused[0] else
                refusal(cause))
        self.box.idle(SETTLE_S)

    def _cmd_show(self, args: list[str]) -> None:
        if args:
            raise CommandError(_("show takes nothing after it"))


def lines_of(stdin: TextIO | BinaryIO) -> Iterable[str | None]:
    """The script's lines; None for a line that is not UTF-8 (answered as an error)."""
    raw = getattr(stdin, "buffer", stdin)
    for line in raw:
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                yield None
                continue
        yield None if bad_char(line) else line


def run_headless(config: Config, state_dir: Path, link: str | None,
                 stdin: TextIO | BinaryIO | None = None, out: TextIO | None = None,
                 language: str | None = None, cells: str = "real") -> int:
    from ...drivers.buttons import mock_factory
    from ...drivers.display import open_device
    from ..box import Box
    from ..runtime import ManualClock

    stdin = stdin if stdin is not None else sys.stdin
    with Box.build(config, state_dir, pin_factory=mock_factory(),
                   display_device=open_device("dummy"), clock=ManualClock(),
                   link_url=link, language=language, sim_cells=cells) as box:
        script = Headless(box, out)
        lock = threading.Lock()
        done = threading.Event()
        if link:
            # Link lines arrive on their own thread: handle them between stdin commands.
            def pump_link() -> None:
                while not done.is_set():
                    box.runtime.posted.wait()
                    with lock:
                        box.runtime.posted.clear()
                        box.runtime.pump()

            threading.Thread(target=pump_link, name="link pump", daemon=True).start()
        with lock:
            box.runtime.pump()
            script.report("start")
        for line in lines_of(stdin):
            with lock:
                if line is None:
                    script.answer({"error": "bad command: not UTF-8 text"})
                else:
                    script.line(line)
        done.set()
        box.runtime.posted.set()
    return 0
