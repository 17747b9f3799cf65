"""Correcting a finished game on the box: a die value entered wrongly (NEXT steps through the
die's faces) or a wrong weighing (the thing goes on the pan again). It asks once, then the
journal keeps a correction row beside the original action (``past_games.PastGames.correct``),
the result is replayed, and the box says whether it changed and why."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ....games import GAMES
from ...journal.header import Header
from ...i18n import _, decimal
from ...inputs import Weight
from ...past.records import GameRecord
from ...screen.render import View, first_fit, wrap
from ...text import InputError
from ...ui.screen import Question, Screen, Shell
from .outcome import outcome_view

if TYPE_CHECKING:
    from .rewatch import ReplayScreen


def die_faces(header: Header, action: dict[str, Any]) -> tuple[str, tuple[int, ...]] | None:
    """(the field, the faces) when ``action`` carries a die value: the engine's ``chance``, or
    a roll whose field the engine gives whole-number values (Tante Trudel's die, which the
    referee rolls or the table enters)."""
    info = GAMES.get(header.game)
    if info is None:
        return None
    kind = str(action.get("type"))
    chance = info.chance.get(kind)
    if chance is not None and chance.field in action:
        return chance.field, tuple(chance.values)
    if kind == "roll":
        for field, values in info.values.items():
            if field in action and values and all(
                    isinstance(v, int) and not isinstance(v, bool) for v in values):
                return field, tuple(values)
    return None


def what_to_correct(header: Header, action: dict[str, Any]) -> tuple[str, str] | None:
    """("die" or "weight", the field) when ``action`` carries a die value or a measurement."""
    die = die_faces(header, action)
    if die is not None:
        return "die", die[0]
    info = GAMES.get(header.game)
    measurement = info.measurements.get(str(action.get("type"))) if info else None
    if measurement is not None and measurement.field in action:
        return "weight", measurement.field
    return None


def correctable(record: GameRecord, header: Header, actions: Sequence[dict[str, Any]],
                step: int) -> tuple[str, ...] | None:
    """None when step ``step`` (1-based) can be corrected here, else the reason, in lines."""
    if record.status != "over":
        return (_("Only a finished"), _("game can be corrected"))
    if not 1 <= step <= len(actions) or what_to_correct(header, actions[step - 1]) is None:
        return tuple(wrap(_("Only a die value or a weighing can be corrected.")))
    return None


def start_correction(shell: Shell, replay: "ReplayScreen", seq: int) -> None:
    """Open the correction of action ``seq`` (0-based): the die, or the pan."""
    action = replay.actions[seq]
    found = what_to_correct(replay.header, action)
    assert found is not None
    kind, field = found
    if kind == "die":
        shell.push(DieScreen(shell, replay, seq, field))
    elif getattr(shell, "secret_grams", lambda: False)():
        shell.beep("error")  # the pan would show what a waiting game keeps secret
        shell.flash(_("A game is waiting:"), _("its grams are secret."), _("End it first."),
                    seconds=4.0)
    elif not getattr(shell.scales, "pans", None):
        shell.beep("error")
        shell.flash(*wrap(_("This needs a pan to weigh it again.")))
    else:
        shell.push(WeighAgainScreen(shell, replay, seq, field))


def question_view(step: int, new: str, old: str) -> View:
    return View(_("Correct step {n}?").format(n=step),
                (first_fit(_("{new} instead of {old}").format(new=new, old=old), new),),
                footer=_("OK correct  BACK no"))


def die_view(value: Any, old: Any) -> View:
    """The die's face NEXT has reached, big, and what was entered."""
    return View(_("The die showed"), (_("entered: {old}").format(old=old),), big=str(value),
                footer=_("NEXT other  OK take"))


def weigh_view(grams: str | None, was: str) -> View:
    """Waiting for the pan to settle (``grams`` None), or its weight, big."""
    line = (_("was {g}").format(g=was),)
    if grams is None:
        return View(_("Put it on the pan"), line, big=_("WAIT"), footer=_("BACK keep"))
    return View(_("Weighed again"), line, big=grams, footer=_("OK take  BACK keep"))


class CorrectionScreen(Screen):
    """What both ways share: the old value, the new one, the question and the saving."""

    name = "correct"
    why = ""

    def __init__(self, shell: Shell, replay: "ReplayScreen", seq: int, field: str) -> None:
        super().__init__(shell)
        self.replay, self.seq, self.field = replay, seq, field
        self.action = dict(replay.actions[seq])
        self.old = self.action[field]
        self.value: Any = None

    def shown_value(self, value: Any) -> str:
        return str(value)

    def ask(self) -> None:
        if self.value is None:
            self.shell.beep("error")
            self.shell.flash(*wrap(_("First the new value, then OK.")))
            return
        if self.value == self.old:
            self.shell.beep("error")
            self.shell.flash(*wrap(_("That is what the game already has.")))
            return
        self.shell.push(Question(self.shell, question_view(
            self.seq + 1, self.shown_value(self.value), self.shown_value(self.old)), self.save,
            "confirm_correct"))

    def save(self) -> None:
        games = self.replay.past.past
        game_id = self.replay.record.game_id
        before = games.record(game_id)
        try:
            games.correct(game_id, self.seq, {**self.action, self.field: self.value}, self.why)
        except InputError as exc:
            self.shell.beep("error")
            self.shell.flash(*wrap(str(exc))[:4], seconds=6.0)
            return
        self.shell.pop()  # this screen: back to the replay, read again
        self.replay.corrected(self.seq)
        self.shell.push(PagesScreen(self.shell, [
            View(_("Corrected: step {n}").format(n=self.seq + 1),
                 (first_fit(_("{new} instead of {old}").format(
                     new=self.shown_value(self.value), old=self.shown_value(self.old)),
                     self.shown_value(self.value)), *wrap(self.why)[:2])),
            outcome_view(before, self.replay.record)]))


class DieScreen(CorrectionScreen):
    """The die's faces: NEXT the next one, OK asks, BACK leaves it as it was."""

    def __init__(self, shell: Shell, replay: "ReplayScreen", seq: int, field: str) -> None:
        super().__init__(shell, replay, seq, field)
        found = die_faces(replay.header, self.action)
        assert found is not None
        self.faces = found[1]
        self.value = self.old if self.old in self.faces else self.faces[0]
        self.why = _("Die value entered wrongly")

    def on_host(self, key: str, hold: bool) -> None:
        if key == "next":
            at = self.faces.index(self.value) if self.value in self.faces else -1
            self.value = self.faces[(at + 1) % len(self.faces)]
        elif key == "ok":
            self.ask()
        elif key == "back":
            self.shell.pop()

    def view(self) -> View:
        return die_view(self.value, self.old)


class WeighAgainScreen(CorrectionScreen):
    """The thing on the pan again: its settled weight is the new value; OK asks."""

    def __init__(self, shell: Shell, replay: "ReplayScreen", seq: int, field: str) -> None:
        super().__init__(shell, replay, seq, field)
        info = GAMES[replay.header.game]
        self.measurement = info.measurements[str(self.action.get("type"))]
        self.why = _("Weighed wrongly")

    def shown_value(self, value: Any) -> str:
        places = getattr(self.measurement, "decimals", 1)
        return _("{g} g").format(g=decimal(float(value), places))

    def on_weight(self, weight: Weight) -> bool:
        if weight.kind == "stable" and weight.grams is not None:
            places = getattr(self.measurement, "decimals", 1)
            self.value = round(max(0.0, float(weight.grams)), places)
            return True
        if weight.kind in ("moving", "removed"):
            self.value = None
            return True
        return False

    def on_host(self, key: str, hold: bool) -> None:
        if key == "ok":
            self.ask()
        elif key == "back":
            self.shell.pop()

    def view(self) -> View:
        return weigh_view(None if self.value is None else self.shown_value(self.value),
                          self.shown_value(self.old))


class PagesScreen(Screen):
    """A few pages that wait for OK (or NEXT); BACK or the last OK closes them."""

    name = "pages"

    def __init__(self, shell: Shell, views: list[View]) -> None:
        super().__init__(shell)
        self.views, self.at = views, 0

    def on_host(self, key: str, hold: bool) -> None:
        if key in ("ok", "next") and self.at < len(self.views) - 1:
            self.at += 1
        else:
            self.shell.pop()

    def view(self) -> View:
        page = self.views[self.at]
        footer = _("OK: next") if self.at < len(self.views) - 1 else _("OK back")
        return View(page.title, page.lines, page.big, footer=footer)


__all__ = ["CorrectionScreen", "DieScreen", "die_view", "weigh_view", "PagesScreen", "WeighAgainScreen", "correctable",
           "question_view", "start_correction", "what_to_correct"]
