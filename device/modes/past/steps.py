"""A finished game told again, step by step, as the table saw it: the frames of a replay.

Each action of the journal is one step. Where the game's referee showed pages after that
action (a reveal, a scoring, a verdict), the step shows those same pages: the referee is built
over a ``QuietTable`` that neither commits, saves, sounds nor times anything, and told each
action's events as if they had come from the serial link. So the replay shows only what the
game showed when it was played (Tatort Tonne's cards at the reveal, never before; Tante Trudel's
grams only at the end). A step without pages says who did what in one line, and what an engine
holds secret at that moment (``State.secrets``, a private measurement) is left out of it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Callable, Sequence

from ....games import GAMES, GameError, State
from ...journal.header import Header
from ...i18n import N_, _
from .. import GAME_MODES
from ..base import Referee, standings_view
from ...replay import start, steps
from ...screen.render import PAGE_LINES, View, first_fit, misfits

log = logging.getLogger(__name__)

# What a step without pages says, by action type; a field named in braces is filled from the
# action (a secret one never: then the step says the player acted in secret). An action type not
# here (a new game's) says what the engine's ``labels`` call it.
DOING = {
    "choose": N_("chose a card"), "point": N_("points at {target}"), "move": N_("moves"),
    "take": N_("takes one"), "return": N_("puts one back"), "exchange": N_("exchanges"),
    "roll": N_("rolls {value}"), "weigh": N_("weighs"), "weigh_potd": N_("weighs"),
    "weigh_basket": N_("weighs"), "coupon_shop": N_("pays with a coupon"),
    "coupon_player": N_("pays with a coupon"), "end_turn": N_("is done"),
    "bid": N_("bids {count}"), "pass": N_("passes"), "place": N_("places a piece"),
    "collapse": N_("the stack fell"), "drop": N_("a piece fell"),
}
BIG_NAME = 10  # a name longer than this goes in a line, not big


class _QuietJournal:
    """The journal as a replay's referee sees it: nothing is read or written."""

    def notes(self, kind: str, limit: int = 100) -> list[dict[str, Any]]:
        return []

    def add_note(self, kind: str, data: dict[str, Any]) -> None:
        pass


class QuietTable:
    """A ``Table`` for a referee that only tells: no pans, no sound, no timers, hot seat."""

    scales = None
    journal = _QuietJournal()

    def apply(self, action: dict[str, Any],
              notes: Sequence[tuple[str, dict[str, Any]]] = ()) -> list[Any] | None:
        return None  # a replay takes no action

    def flash(self, *lines: str, seconds: float = 0.0) -> None:
        pass

    def beep(self, pattern: str) -> None:
        pass

    def call_later(self, delay: float, callback: Callable[[], None]) -> Any:
        return None

    def cancel(self, timer: Any) -> None:
        pass

    def station_of(self, seat: int) -> int | None:
        return None

    def station_name(self, station: int) -> str:
        return _("Station {n}").format(n=station + 1)

    def page_seconds(self, seconds: float) -> float | None:
        return None

    def undo(self) -> dict[str, Any] | None:
        return None


@dataclass(frozen=True)
class Frame:
    """One screen of a replay: ``step`` is the action it belongs to (1-based; 0 before the
    first, ``steps + 1`` for the standings at the end)."""

    view: View
    step: int


def _secret(state: State, action: dict[str, Any], field: str) -> bool:
    """Whether ``action``'s ``field`` is hidden from the table in ``state`` (after it)."""
    info = GAMES[state.game]
    measurement = info.measurements.get(str(action.get("type")))
    if measurement is not None and measurement.field == field and \
            getattr(measurement, "private", False) and not state.is_over:
        return True
    value = action.get(field)
    return any(value == hidden and type(value) is type(hidden) for hidden in state.secrets())


def step_view(state: State, action: dict[str, Any], step: int, steps: int) -> View:
    """A step the game showed no page for: who, big, and what they did, secrets left out."""
    player = action.get("player")
    kind = str(action.get("type"))
    template = DOING.get(kind) or GAMES[state.game].labels.get(kind)  # else the engine's label
    fields = {k: v for k, v in action.items() if k not in ("type", "player")}
    if any(_secret(state, action, k) for k in fields):
        doing = _("acted in secret") if kind != "choose" else _("chose in secret")
    elif template is None:
        doing = kind.replace("_", " ")
    else:
        try:
            doing = _(template).format(**{k: _("nobody") if v is None else v
                                          for k, v in fields.items()})
        except (KeyError, IndexError, ValueError):
            doing = _(template)
    title = _("Step {n} of {total}").format(n=step, total=steps)
    name = str(player) if isinstance(player, str) else ""
    if name and len(name) <= BIG_NAME and not misfits(View(title, (doing,), big=name)):
        return View(title, (doing,), big=name)
    return View(title, tuple(line for line in (name, doing) if line))


def _referee(header: Header, state: State) -> tuple[Referee | None, Any]:
    """The game's referee over a quiet table, and the session it reads (None: no mode)."""
    mode = GAME_MODES.get(header.game)
    session = SimpleNamespace(header=header, state=state, actions=[], game_id=0,
                              last_events=[], journal=QuietTable.journal)
    if mode is None or mode.referee is None:
        return None, session
    try:
        return mode.referee(QuietTable(), session), session  # type: ignore[arg-type]
    except Exception:  # a referee that cannot tell: the steps still can
        log.exception("no replay pages for %s", header.game)
        return None, session


def _pages(referee: Referee | None, events: list[Any]) -> list[View]:
    if referee is None:
        return []
    try:
        referee.react(events)
        views = [page.view for page in referee.pages.queue]
        referee.pages.stop()
    except Exception:
        log.exception("replay pages failed")
        return []
    return views


def end_views(referee: Referee | None, state: State) -> list[View]:
    """The end: the game's own last screen when it finished, then the standings."""
    views: list[View] = []
    if referee is not None and state.is_over:
        try:
            views.append(referee.end_view())
        except Exception:
            log.exception("no end screen")
    score = referee.score_text if referee is not None else None
    rows = state.standings()
    kwargs = {"score": score} if score is not None else {}
    for first in range(0, len(rows), PAGE_LINES):  # pages of three, turned as any frame
        views.append(standings_view(rows[first:first + PAGE_LINES], 0, "", "", **kwargs))
    return views


@dataclass(frozen=True)
class Replay:
    """A game's frames, from its header and actions (the journal's, corrections applied);
    ``error`` names an action the engine refused (the frames stop before it)."""

    frames: tuple[Frame, ...]
    steps: int
    state: State
    error: str | None = None

    @classmethod
    def build(cls, header: Header, actions: Sequence[dict[str, Any]],
              notes: Sequence[View] = ()) -> "Replay":
        """Replay ``actions`` from ``header``, ``notes`` after the standings (what was
        corrected); ReplayError when the game cannot start."""
        state = start(header)
        referee, session = _referee(header, state)
        frames: list[Frame] = []
        error = None
        done = 0
        try:
            for applied in steps(state, actions, first=1):
                state = session.state = applied.after
                session.actions.append(dict(applied.action))
                session.last_events = applied.events
                views = _pages(referee, applied.events) or [
                    step_view(state, applied.action, applied.index, len(actions))]
                frames += [Frame(view, applied.index) for view in views]
                done = applied.index
        except GameError as exc:
            error = f"action {done}: {exc}"
        except Exception as exc:  # an engine bug: the replay stops there, the box goes on
            log.exception("replay of %s stopped at action %d", header.game, done)
            error = f"action {done}: {type(exc).__name__}"
        frames += [Frame(view, done + 1) for view in [*end_views(referee, state), *notes]]
        if referee is not None:
            referee.close()
        return cls(tuple(frames), done, state, error)

    def footer(self, index: int) -> str:
        """What a frame's footer says: where in the game, and the keys."""
        frame = self.frames[index]
        at = min(frame.step, self.steps)
        where = f"{at}/{self.steps}"
        if index == len(self.frames) - 1:
            return first_fit(_("{at}  OK list  BACK menu").format(at=where),
                             _("{at} OK list BACK menu").format(at=where),
                             _("OK list  BACK menu"))
        return first_fit(_("{at}  OK on  BACK menu").format(at=where),
                         _("{at} OK on BACK menu").format(at=where), _("OK on  BACK menu"))

    def view(self, index: int) -> View:
        frame = self.frames[index].view
        return View(frame.title, frame.lines, frame.big, footer=self.footer(index),
                    cursor=frame.cursor, blank=frame.blank)


__all__ = ["DOING", "Frame", "QuietTable", "Replay", "end_views", "step_view"]
