"""The serial link's protocol: JSON lines in (commands), JSON lines out (replies, events, state).

Runs on the loop thread like every other input, so a command changes the game exactly as a button
would, through the App and the journal. Documented in ``docs/link.md``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from . import __version__
from ..drivers.link import LinkLine, LinkStatus
from ..games import GAMES, GameError
from .journal.store import JournalError
from .modes import GAME_MODES
from .replay import parse_header
from .journal.roster import Roster, clean_players
from .text import InputError, dumps, loads, shown

if TYPE_CHECKING:
    from .app import App

log = logging.getLogger(__name__)

PROTOCOL = 1
COMMANDS = ("hello", "games", "new", "action", "undo", "state", "players")


class LinkProtocol:
    """Turns link lines into App calls and App changes into lines for the link."""

    def __init__(self, app: "App", send_line: Callable[[str], bool],
                 done: Callable[[], None]) -> None:
        self.app = app
        self.send_line = send_line
        self.done = done
        self.commands = 0
        self.errors = 0
        self.failures = 0  # commands that hit a bug (logged with a traceback); tests expect 0
        app.listeners.append(self._on_app)

    # -- out -------------------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        """One JSON line out; a message JSON cannot hold is logged, never raised to the loop."""
        try:
            line = dumps(message)
        except (TypeError, ValueError, RecursionError) as exc:
            log.error("link message not sent (%s): %.200r", exc, message)
            return
        self.send_line(line)

    def _on_app(self, kind: str, payload: dict[str, Any]) -> None:
        self.send({"type": kind, **payload})

    def hello(self) -> dict[str, Any]:
        return {"type": "hello", "app": "spielleiter", "version": __version__,
                "protocol": PROTOCOL, "games": sorted(GAMES), "commands": list(COMMANDS)}

    # -- in --------------------------------------------------------------------------------------
    def on_status(self, status: LinkStatus) -> None:
        log.info("link %s: %s", "up" if status.up else "down", status.detail)
        if status.up:
            self.send(self.hello())

    def on_line(self, line: LinkLine) -> None:
        try:
            self._line(line)
        finally:
            self.done()

    def _line(self, line: LinkLine) -> None:
        if line.error:
            self._error(line.error)
            return
        try:
            message = loads(line.text, "the line")  # lone surrogates, huge integers, NaN: refused
        except InputError as exc:
            self._error(str(exc))
            return
        if not isinstance(message, dict):
            self._error("a command is a JSON object")
            return
        ident = message.get("id")
        cmd = message.get("cmd")
        if cmd not in COMMANDS:
            self._error(f"unknown command {shown(cmd)}; known: {', '.join(COMMANDS)}", ident)
            return
        self.commands += 1
        try:
            reply = getattr(self, f"_cmd_{cmd}")(message)
        except (GameError, InputError, JournalError) as exc:
            self._error(str(exc), ident)
            return
        except Exception:  # a bug behind the link must not silence it: logged, answered, counted
            self.failures += 1
            log.exception("link command %s failed", cmd)
            self._error(f"internal error in {cmd!r}; see the log", ident)
            return
        if ident is not None:
            reply["id"] = ident
        self.send(reply)

    def _error(self, text: str, ident: Any = None) -> None:
        self.errors += 1
        message: dict[str, Any] = {"type": "error", "error": text}
        if ident is not None:
            message["id"] = ident
        self.send(message)

    def _cmd_hello(self, message: dict[str, Any]) -> dict[str, Any]:
        return self.hello()

    def _cmd_games(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"type": "games", "games": [
            {"name": g.name, "title": g.title, "min_players": g.min_players,
             "max_players": g.max_players} for g in GAMES.values()]}

    def _cmd_new(self, message: dict[str, Any]) -> dict[str, Any]:
        doc = {k: message[k] for k in ("game", "players", "options", "seed") if k in message}
        doc.setdefault("seed", self.app.new_seed())
        if "players" in doc:  # by the set-up's rules: the screen shows every name, each its own
            doc["players"] = clean_players(doc["players"])
        header = parse_header(doc)
        if header.game not in GAME_MODES:  # an engine without its mode folder yet
            raise InputError(f"this box cannot referee {header.game} yet")
        self.app.start_game(header)
        assert self.app.session is not None  # start_game either raised or set it
        return {"type": "ok", "cmd": "new", "game_id": self.app.session.game_id,
                "players": list(header.players)}  # as kept ("Ｍia" plays as "Mia"): act as them

    def _cmd_action(self, message: dict[str, Any]) -> dict[str, Any]:
        action = message.get("action")
        if not isinstance(action, dict):
            raise InputError("'action' must be a JSON object")
        self._refuse_secret(action)
        events = self.app.external_action(action)
        return {"type": "ok", "cmd": "action", "events": [e.to_json() for e in events]}

    def _refuse_secret(self, action: dict[str, Any]) -> None:
        """A secret measurement (Trödel's grams) comes from the box's own pans, never the link:
        a peer that could send chosen grams and undo them would find the secret by halving."""
        session = self.app.session
        info = GAMES.get(session.header.game) if session is not None else None
        measurement = info.measurements.get(str(action.get("type"))) if info else None
        if measurement is not None and measurement.private:
            raise InputError(f"{shown(action.get('type'))}: its {measurement.field} are secret and "
                             "come from the box's pans, never from the link")

    def _cmd_undo(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.app.session is None:
            raise InputError("no game is running")
        undone = self.app.undo()
        if undone is None:
            raise InputError("nothing to undo")
        return {"type": "ok", "cmd": "undo", "player": undone.get("player")}  # never the card

    def _cmd_state(self, message: dict[str, Any]) -> dict[str, Any]:
        return {"type": "state", "state": self.app.public_state(),
                "screen": self.app.public_view().as_text()}

    def _cmd_players(self, message: dict[str, Any]) -> dict[str, Any]:
        """The roster, as ``spielleiter players`` manages it: no field lists the names, ``add``
        or ``remove`` (a name) changes it; a bad, known or unknown name is refused unchanged."""
        change = [key for key in ("add", "remove") if key in message]
        if len(change) > 1:
            raise InputError("players: add or remove, one at a time")
        roster = Roster(self.app.journal)
        if not change:
            return {"type": "players", "players": roster.names()}
        if change == ["add"]:
            done = {"added": roster.add(message["add"])}
        else:
            done = {"removed": roster.remove(message["remove"])}
        return {"type": "ok", "cmd": "players", **done, "players": roster.names()}
