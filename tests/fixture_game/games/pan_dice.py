"""Pan Dice: a fixture game written by the recipe in docs/adding-a-game.md, to prove that a game
is one engine module and one mode folder. It has each kind of input a game can need: a die
(chance), a choice, and a weighing (a measurement from a pan).

In turn, a player rolls the die, then aims (the target is ten grams a pip) or passes. Aiming, the
player puts something on the pan: within ``band_g`` of the target scores a point. The first to
``goal`` points wins; after ``rounds`` rounds the most points share the win.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .core import (
    Action,
    Chance,
    Event,
    GameInfo,
    Measurement,
    Option,
    State,
    check_options,
    check_players,
    field_of,
    ranking,
    require,
)

DIE = (1, 2, 3, 4, 5, 6)
OPTIONS = (
    Option("goal", 3, "Points to win", (2, 3, 4, 5), hints=("first there wins",) * 4),
    Option("rounds", 5),
    Option("band_g", 5.0),
)


@dataclass
class PanDice(State):
    ACTIONS = ("roll", "aim", "pass", "weigh")
    game = "pan-dice"

    players: tuple[str, ...]
    goal: int
    rounds: int
    band_g: float
    seed: int = 0
    turn: int = 0                # seat whose turn it is
    round: int = 1
    phase: str = "roll"          # roll, aim, weigh, over
    rolled: int = 0              # rolls so far (the state's generator draws the next from it)
    pips: int = 0
    points: dict[str, int] = field(default_factory=dict)
    won_by: tuple[str, ...] = ()

    def waiting_for(self) -> tuple[str, ...]:
        return () if self.is_over else (self.players[self.turn],)

    def legal_actions(self, player: str) -> list[dict[str, Any]]:
        if player not in self.waiting_for():
            return []
        if self.phase == "roll":
            return [{"type": "roll", "player": player}]
        if self.phase == "aim":
            return [{"type": "aim", "player": player}, {"type": "pass", "player": player}]
        return [{"type": "weigh", "player": player}]

    def draw(self, action_type: str) -> Any:
        require(action_type == "roll", "nothing to draw for {kind}", kind=action_type)
        return random.Random(f"{self.game}:{self.seed}:{self.rolled}").choice(DIE)

    def standings(self) -> list[tuple[int, str, Any]]:
        return ranking((p, self.points[p], self.points[p]) for p in self.players)

    def public(self) -> dict[str, Any]:
        return {"game": self.game, "phase": self.phase, "round": self.round,
                "turn": self.players[self.turn], "pips": self.pips,
                "target_g": 10 * self.pips, "points": dict(self.points),
                "winners": list(self.won_by), "waiting_for": list(self.waiting_for())}

    # -- actions ---------------------------------------------------------------------------------
    def _mine(self, action: Action, phase: str) -> str:
        player = field_of(action, "player", str)
        turn = self.players[self.turn]
        require(player == turn, "{turn}'s turn, not {name}'s", turn=turn, name=player)
        require(self.phase == phase, "not {phase} now", phase=phase)
        return player

    def _roll(self, action: Action) -> list[Event]:
        player = self._mine(action, "roll")
        value = field_of(action, "value", int)
        require(value in DIE, "the die shows 1 to 6")
        self.pips, self.rolled, self.phase = value, self.rolled + 1, "aim"
        return [Event("rolled", f"{player} rolled {value}", {"player": player, "value": value})]

    def _aim(self, action: Action) -> list[Event]:
        player = self._mine(action, "aim")
        self.phase = "weigh"
        return [Event("aim", f"{player} aims at {10 * self.pips} g",
                      {"player": player, "target_g": 10 * self.pips})]

    def _pass(self, action: Action) -> list[Event]:
        player = self._mine(action, "aim")
        return [Event("passed", f"{player} passed", {"player": player}), *self._next()]

    def _weigh(self, action: Action) -> list[Event]:
        player = self._mine(action, "weigh")
        grams = field_of(action, "grams", (int, float))
        require(0 <= grams < 1e6, "a weight is 0 or more")
        hit = abs(grams - 10 * self.pips) <= self.band_g
        self.points[player] += hit
        events = [Event("hit" if hit else "miss", f"{player} weighed {grams:g} g",
                        {"player": player, "grams": grams, "target_g": 10 * self.pips})]
        if self.points[player] >= self.goal:
            self.phase, self.won_by = "over", (player,)
            return events + [Event("winner", f"{player} wins", {"winners": [player]})]
        return events + self._next()

    def _next(self) -> list[Event]:
        self.turn = (self.turn + 1) % len(self.players)
        self.phase, self.pips = "roll", 0
        if self.turn == 0:
            self.round += 1
            if self.round > self.rounds:
                best = max(self.points.values())
                self.phase = "over"
                self.won_by = tuple(p for p in self.players if self.points[p] == best)
                return [Event("winner", "most points", {"winners": list(self.won_by)})]
        return []


def new_game(players: Sequence[str], options: Mapping[str, Any] | None = None,
             seed: int = 0) -> PanDice:
    names = check_players(players, 1, 4)
    opts = check_options(options, OPTIONS)
    return PanDice(players=names, goal=int(opts["goal"]), rounds=int(opts["rounds"]),
                   band_g=float(opts["band_g"]), seed=seed, points={p: 0 for p in names})


INFO = GameInfo(
    "pan-dice", "Pan Dice", 1, 4, new_game, options=OPTIONS,
    chance={"roll": Chance("value", DIE)},
    measurements={"weigh": Measurement("grams", 0.0, 70.0, role="item")},
    labels={"roll": "Roll the die", "aim": "Aim", "pass": "Pass", "weigh": "Weigh"},
)
