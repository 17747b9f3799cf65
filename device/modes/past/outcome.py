"""What a correction did, in words: the change of one step, the pages of every correction of
a game, and whether the result changed. Read by the replay and by the correction screens."""

from __future__ import annotations

from typing import Any, Sequence

from ...i18n import _
from ...past.records import GameRecord
from ...screen.render import View, first_fit, wrap


def change_text(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """What a correction changed in an action, short: "3, was 5"; "removed"."""
    if after is None:
        return _("removed")
    before = before or {}
    changed = [k for k in after if k not in ("type", "player") and before.get(k) != after[k]]
    if not changed:
        return _("changed")
    key = changed[0]
    return _("{now}, was {then}").format(now=_value(after[key]), then=_value(before.get(key)))


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return "-" if value is None else str(value)


def winners_text(winners: Sequence[str]) -> str:
    return " & ".join(winners) if winners else _("no one")


def outcome_view(original: GameRecord, now: GameRecord) -> View:
    """Whether the result changed: who wins now, and who won before."""
    if tuple(original.winners) == tuple(now.winners):
        return View(_("Result unchanged"), (first_fit(_("Won: {names}").format(
            names=winners_text(now.winners)), winners_text(now.winners)),))
    return View(_("Result changed!"), (
        first_fit(_("Now: {names}").format(names=winners_text(now.winners)),
                  winners_text(now.winners)),
        first_fit(_("Before: {names}").format(names=winners_text(original.winners)),
                  winners_text(original.winners))))


def correction_views(corrections: Sequence[Any], original: GameRecord,
                     now: GameRecord) -> list[View]:
    """What was corrected afterwards (one page each: the step, the change, why), then whether
    the result changed."""
    if not corrections:
        return []
    latest: dict[int, Any] = {}
    for correction in corrections:  # a later correction of the same action wins
        latest[correction.seq] = correction
    views = []
    for seq in sorted(latest):
        c = latest[seq]
        why = wrap(c.why)
        views.append(View(_("Corrected: step {n}").format(n=seq + 1),
                          (change_text(c.before, c.after), *why[:2])))
    return views + [outcome_view(original, now)]


__all__ = ["change_text", "correction_views", "outcome_view", "winners_text"]
