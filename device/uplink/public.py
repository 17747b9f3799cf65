"""What of a game may leave the box: the engine's public view, its events and a redacted action.

The journal keeps every action whole, secrets included (Tatort Tonne's card choices, the grams
Trödel weighs). Engines promise that ``State.secrets()`` never shows in ``public()`` or in an
event; the action itself carries no such promise, so it is redacted here, by field and never by
value: the fields a game declares hidden for the action's type (``GameInfo.hidden_fields``: its
secret fields and private measurements) are always left out, whatever they hold, and nothing
else is (a value that only equals a secret, a die of 6 beside a Purchase of 6.0 g, shows as it
is, so its showing tells nothing). The names of the fields left out are kept (``hidden``), so
the room can say "Anna chose" without saying what.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ...games import Event, GameInfo, State


def redact(info: GameInfo, action: Mapping[str, Any]) -> dict[str, Any]:
    """The action as the table may learn of it (see the module doc): the fields the game
    declares hidden for its type are left out whatever they hold, the rest kept as they are."""
    hidden = info.hidden_fields(str(action.get("type")))
    out = {key: value for key, value in action.items() if key not in hidden}
    left_out = sorted(str(key) for key in action if key in hidden)
    if left_out:
        out["hidden"] = left_out
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


__all__ = ["redact", "standings", "view"]
