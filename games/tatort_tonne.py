"""Tatort Tonne (Amigo): secret simultaneous choices, accusations, trash (rulings T1-T7, docs/games.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Sequence

from .core import (
    Action,
    Event,
    GameInfo,
    SetupError,
    State,
    Option,
    check_options,
    check_players,
    field_of,
    ranking,
    require,
)

CARDS = ("steal", "accuse", "alibi")
CARD_NAMES = {"steal": "Steal trash", "accuse": "You did it!", "alibi": "Airtight alibi"}
WIN_TRASH = 3
OPTIONS = (
    Option("trash", 25, "Trash pile", (10, 15, 20, 25, 30, 40), hints=("cards in the pile",) * 6,
           ruling="T1"),
)

Phase = Literal["choose", "point", "over"]  # the game's phases, in the order they come


@dataclass
class TatortTonne(State):
    ACTIONS = ("choose", "point")
    game = "tatort-tonne"

    players: tuple[str, ...]
    trash_total: int
    in_game: dict[str, bool] = field(default_factory=dict)
    trash: dict[str, int] = field(default_factory=dict)
    trash_left: int = 0
    round: int = 1
    phase: Phase = "choose"
    choices: dict[str, str] = field(default_factory=dict)
    targets: dict[str, str | None] = field(default_factory=dict)
    playoff: bool = False
    won_by: tuple[str, ...] = ()

    # -- queries ---------------------------------------------------------------------------------
    def still_in(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if self.in_game[p])

    def accusers(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if self.choices.get(p) == "accuse")

    def waiting_for(self) -> tuple[str, ...]:
        if self.phase == "choose":
            return tuple(p for p in self.still_in() if p not in self.choices)
        if self.phase == "point":
            return tuple(p for p in self.accusers() if p not in self.targets)
        return ()

    def legal_actions(self, player: str) -> list[dict[str, Any]]:
        """T2: a player still in may choose (or change to) any card while choices are open;
        T3: an accuser names another player still in, or nobody (and may name again until the
        last accuser has named)."""
        if not self.in_game.get(player):
            return []
        if self.phase == "choose":
            return [{"type": "choose", "player": player, "card": c} for c in CARDS]
        if self.phase == "point" and self.choices.get(player) == "accuse":
            targets: list[str | None] = [p for p in self.still_in() if p != player]
            return [{"type": "point", "player": player, "target": t} for t in targets + [None]]
        return []

    def standings(self) -> list[tuple[int, str, Any]]:
        """(rank, player, trash): winners first, then players still in, each by trash."""
        return ranking((p, (p in self.won_by, self.in_game[p], self.trash[p]), self.trash[p])
                       for p in self.players)

    def secrets(self) -> tuple[Any, ...]:
        """T2: the cards chosen and not yet revealed (accusers show theirs when pointing)."""
        return tuple(sorted({c for p, c in self.choices.items()
                             if self.phase == "choose" or c != "accuse"}))

    def public(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "phase": self.phase,
            "round": self.round,
            "players": [
                {"name": p, "in_game": self.in_game[p], "trash": self.trash[p]} for p in self.players
            ],
            "trash_left": self.trash_left,
            "winners": list(self.won_by),
            "waiting_for": list(self.waiting_for()),
            "accusers": list(self.accusers()) if self.phase == "point" else [],
            "playoff": self.playoff,
            "standings": [list(row) for row in self.standings()],
        }

    # -- actions ---------------------------------------------------------------------------------
    def _player(self, action: Action) -> str:
        name = field_of(action, "player", str)
        require(name in self.in_game, "no player {name!r}", name=name)
        require(self.in_game[name], "{name} is out", name=name)
        return name

    def _choose(self, action: Action) -> list[Event]:
        player = self._player(action)
        require(self.phase == "choose", "not choosing now")
        card = field_of(action, "card", str)
        require(card in CARDS, "no card {value!r}", value=card)
        self.choices[player] = card  # T2: a player may change their mind until the last choice
        if self.waiting_for():
            return [Event("chosen", f"{player} has chosen", {"player": player,
                                                            "left": len(self.waiting_for())})]
        events = [Event("all_chosen", "All cards are down", {})]
        accusers = self.accusers()
        if accusers:
            self.phase = "point"
            events.append(Event("accusers", "You did it! " + ", ".join(accusers),
                                {"players": list(accusers)}))
            return events
        return events + self._resolve()

    def _point(self, action: Action) -> list[Event]:
        require(self.phase == "point", "no pointing now")
        player = self._player(action)
        require(self.choices.get(player) == "accuse", "{name} did not accuse", name=player)
        require("target" in action, "action needs '{field}'", field="target")
        target = action["target"]
        if target is not None:
            target = field_of(action, "target", str)
            require(target in self.in_game, "no player {name!r}", name=target)
            require(target != player, "cannot accuse oneself")
            require(self.in_game[target], "{name} is out", name=target)
        self.targets[player] = target  # T3: any order; the round resolves with the last one
        if self.waiting_for():
            return [Event("pointed", f"{player} has pointed", {"player": player})]
        return self._resolve()

    # -- resolution (T4, T5, T6) -----------------------------------------------------------------
    def _out(self, player: str, why: str) -> Event:
        self.in_game[player] = False
        return Event("out", f"{player} is out", {"player": player, "why": why})

    def _resolve(self) -> list[Event]:
        events: list[Event] = []
        accusers = self.accusers()
        for accuser in accusers:
            target = self.targets.get(accuser)
            events.append(Event("pointed_at", f"{accuser} accused {target or 'nobody'}",
                                {"player": accuser, "target": target}))
        accused = [p for p in self.players if p in self.targets.values()]
        for player in accused:  # T4: every accused player turns over, in seat order
            card = self.choices[player]
            names = [a for a in accusers if self.targets[a] == player]
            events.append(Event("reveal", f"{player}: {CARD_NAMES[card]}",
                                {"player": player, "card": card, "accused_by": names}))
            if card == "steal":
                events.append(self._out(player, "caught"))
            elif card == "alibi":
                for accuser in names:
                    if self.in_game[accuser]:
                        events.append(self._out(accuser, "alibi"))
        for player in self.players:  # then the cards still face down
            if player in self.choices and player not in accusers and player not in accused:
                card = self.choices[player]
                events.append(Event("reveal", f"{player}: {CARD_NAMES[card]}",
                                    {"player": player, "card": card, "accused_by": []}))
                if card == "steal":
                    if self.trash_left > 0:
                        self.trash_left -= 1
                        self.trash[player] += 1
                        events.append(Event("trash", f"{player} takes trash",
                                            {"player": player, "trash": self.trash[player]}))
                    else:
                        events.append(Event("no_trash", "The pile is empty", {"player": player}))
        events += self._end_of_round()
        return events

    def _end_of_round(self) -> list[Event]:
        events: list[Event] = []
        still_in = self.still_in()
        rich = [p for p in still_in if self.trash[p] >= WIN_TRASH]
        winners: tuple[str, ...] = ()
        if len(still_in) == 1:
            winners = still_in
        elif not self.playoff and len(rich) == 1:
            winners = (rich[0],)
        else:
            if not self.playoff and len(rich) > 1:  # T5: only they play on
                self.playoff = True
                for p in still_in:
                    if p not in rich:
                        events.append(self._out(p, "playoff"))
                events.append(Event("playoff", "Play-off: " + ", ".join(rich),
                                    {"players": rich}))
                still_in = self.still_in()
            if self.playoff:
                top = max(self.trash[p] for p in still_in)
                leaders = [p for p in still_in if self.trash[p] == top]
                if len(leaders) == 1:
                    winners = (leaders[0],)
            if not winners and self.trash_left == 0:  # T6: the empty pile shares the win
                top = max(self.trash[p] for p in still_in)
                winners = tuple(p for p in still_in if self.trash[p] == top)
        self.choices = {}
        self.targets = {}
        if winners:
            self.phase = "over"
            self.won_by = winners
            text = " & ".join(winners) + (" wins" if len(winners) == 1 else " win")
            events.append(Event("winner", text, {"players": list(winners)}))
        else:
            self.round += 1
            self.phase = "choose"
            events.append(Event("round", f"Round {self.round}", {"round": self.round}))
        return events


def new_game(players: Sequence[str], options: Mapping[str, Any] | None = None,
             seed: int = 0) -> TatortTonne:
    """Start a game (T1). Tatort Tonne has no chance, so ``seed`` is only recorded."""
    names = check_players(players, 2, 10)
    opts = check_options(options, OPTIONS)
    trash = opts["trash"]
    if isinstance(trash, bool) or not isinstance(trash, int) or not 1 <= trash <= 99:
        raise SetupError("trash: 1 to 99 cards")
    return TatortTonne(
        players=names,
        trash_total=trash,
        in_game={p: True for p in names},
        trash={p: 0 for p in names},
        trash_left=trash,
    )


INFO = GameInfo("tatort-tonne", "Tatort Tonne", 2, 10, new_game, options=OPTIONS,
                values={"card": CARDS}, secret_fields={"choose": ("card",)})  # T2
