"""What of a game may leave the box: the engine's public view, its events and a redacted action.

The journal keeps every action whole, secrets included (Tatort Tonne's card choices, the grams
Trödel weighs). Engines promise that ``State.secrets()`` never shows in ``public()`` or in an
event; the action itself carries no such promise, so it is redacted here: a measurement the game
calls private is always left out, and so is any field whose value is a secret of the state before
or after the action. The names of the fields left out are kept (``hidden``), so the room can say
"Anna chose" without saying what.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ...games import Event, GameInfo, State

ALWAYS_SHOWN = ("type", "player")  # who did what kind of thing is public in every game


def _leaves(value: Any) -> Iterable[Any]:
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, Mapping):
            todo.extend(item.values())
        elif isinstance(item, (list, tuple)):
            todo.extend(item)
        else:
            yield item


def shows(value: Any, secrets: Iterable[Any]) -> bool:
    """Whether ``value`` (any JSON value) shows one of ``secrets``: a leaf equal to one (3 and
    3.0 alike), or a text holding a secret text or a secret number written out."""
    hidden = [s for s in secrets if s is not None]
    if not hidden:
        return False
    for leaf in _leaves(value):
        for secret in hidden:
            if isinstance(leaf, bool) or isinstance(secret, bool):
                if leaf is secret:
                    return True
                continue
            if leaf == secret:
                return True
            if isinstance(leaf, str) and (
                    (isinstance(secret, str) and secret and secret in leaf)
                    or (isinstance(secret, (int, float)) and f"{secret}" in leaf)):
                return True
    return False


def redact(info: GameInfo, action: Mapping[str, Any], before: State, after: State
           ) -> dict[str, Any]:
    """The action as the table may learn of it (see the module doc)."""
    kind = action.get("type")
    measurement = info.measurements.get(str(kind))
    private = {measurement.field} if measurement is not None and measurement.private else set()
    secrets = (*before.secrets(), *after.secrets())
    out: dict[str, Any] = {}
    hidden: list[str] = []
    for key, value in action.items():
        if key in ALWAYS_SHOWN and not shows(value, secrets):
            out[key] = value
        elif key in private or shows(value, secrets):
            hidden.append(str(key))
        else:
            out[key] = value
    if hidden:
        out["hidden"] = sorted(hidden)
    return out


def events(caused: Iterable[Event]) -> list[dict[str, Any]]:
    return [event.to_json() for event in caused]


def standings(state: State) -> list[dict[str, Any]]:
    return [{"rank": rank, "player": player, "score": score}
            for rank, player, score in state.standings()]


def view(state: State) -> dict[str, Any]:
    """The public state with whom it waits for and the standings (what the room shows live)."""
    return {"public": state.public(), "waiting_for": list(state.waiting_for()),
            "standings": standings(state), "over": state.is_over,
            "winners": list(state.winners()) if state.is_over else []}


__all__ = ["redact", "shows", "standings", "view"]
