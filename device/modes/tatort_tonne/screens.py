"""Tatort Tonne's screens: the reveal in the rulebook's order, the standings, the end."""

from __future__ import annotations

from ....games.core import Event
from ....games.tatort_tonne import TatortTonne
from ...screens import CHARS, View, pack, wrap

SHORT = {"steal": "STEAL", "accuse": "ACCUSE", "alibi": "ALIBI"}


def _names(names: list[str]) -> str:
    return ", ".join(names)


def reveal_pages(events: list[Event], state: TatortTonne) -> list[View]:
    """The reveal as screens, in the rulebook's order (accusations, accused, the rest, result)."""
    pages: list[View] = []
    pointed = [e for e in events if e.kind == "pointed_at"]
    for first in range(0, len(pointed), 4):
        lines = tuple(f"{e.data['player']} > {e.data['target'] or 'nobody'}"
                      for e in pointed[first:first + 4])
        pages.append(View("Accusations", lines))
    reveals: list[tuple[Event, list[Event]]] = []
    for event in events:
        if event.kind == "reveal":
            reveals.append((event, []))
        elif event.kind in ("out", "trash", "no_trash") and reveals and \
                event.data.get("why") != "playoff":
            reveals[-1][1].append(event)
    for reveal, after in reveals:
        player, card = reveal.data["player"], reveal.data["card"]
        accused = bool(reveal.data["accused_by"])
        outs = [e.data["player"] for e in after if e.kind == "out"]
        if card == "steal" and accused:
            line = "Caught! Out of game"
        elif card == "alibi" and outs:
            line = f"Out: {_names(outs)}"
            if len(line) > CHARS:
                line = f"{len(outs)} accusers are out"
        elif card == "accuse":
            line = "Accused: no effect" if accused else "No trash"
        elif card == "steal":
            got = [e for e in after if e.kind == "trash"]
            line = f"Takes trash ({got[0].data['trash']})" if got else "Pile empty: nothing"
        else:
            line = "Safe. No trash."
        title = f"{player} {'was accused' if accused else 'reveals'}"
        pages.append(View(title if len(title) <= CHARS else player, (line,), big=SHORT[card]))
    for event in events:
        if event.kind == "playoff":
            pages.append(View("Play-off!", tuple(wrap("Only " + _names(event.data["players"]) +
                                                      " play on until one leads.")[:4])))
    if any(e.kind == "round" for e in events):
        pages.append(standings_view(state, f"Round {state.round} next"))
    return pages


def standings_view(state: TatortTonne, title: str) -> View:
    """Who is still in and how much trash each holds, packed into four lines."""
    lines = pack([f"{p} {state.trash[p]}" for p in state.still_in()])  # a name keeps its number
    lines = ["Trash:"] + lines[:2] + [f"Pile: {state.trash_left} left"]
    return View(title, tuple(lines))


def final_view(state: TatortTonne) -> View:
    winners = list(state.winners())
    if len(winners) == 1:
        name = winners[0]
        return View("Game over: winner", (f"{state.trash[name]} trash",), big=name,
                    footer="OK: menu")
    return View("Shared win!", tuple(wrap(" & ".join(winners))[:3]) +
                (f"{state.trash[winners[0]]} trash each",), footer="OK: menu")
