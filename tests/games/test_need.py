"""``need``: what the game wants from the player it waits for, read off its legal actions and
its declarations, so one referee can ask for a choice, a die or a weight."""

from __future__ import annotations

from dataclasses import dataclass

from spielleiter.games.core import Chance, GameInfo, Measurement, State, need


@dataclass
class Fixed(State):
    """A state that lists whatever it is given, for ``need`` alone."""

    game = "fixed"
    players: tuple[str, ...] = ("Ann", "Ben")
    listed: tuple[dict, ...] = ()
    phase: str = "play"
    won_by: tuple[str, ...] = ()

    def waiting_for(self):
        return ("Ann",) if self.listed else ()

    def legal_actions(self, player):
        return [dict(a) for a in self.listed] if player == "Ann" else []


INFO = GameInfo("fixed", "Fixed", 2, 2, lambda *a: Fixed(),
                measurements={"weigh": Measurement("grams", 1, 10, role="item")},
                chance={"roll": Chance("value")})


def test_a_lone_action_with_a_die_left_out_needs_chance():
    got = need(INFO, Fixed(listed=({"type": "roll", "player": "Ann"},)), "Ann")
    assert got.kind == "chance" and got.action == {"type": "roll", "player": "Ann"}
    assert got.chance.values == (1, 2, 3, 4, 5, 6)


def test_a_lone_action_with_a_weight_left_out_needs_the_pan_of_its_role():
    got = need(INFO, Fixed(listed=({"type": "weigh", "player": "Ann"},)), "Ann")
    assert got.kind == "measurement" and got.measurement.role == "item"


def test_several_actions_are_a_choice_among_them():
    listed = ({"type": "weigh", "player": "Ann"}, {"type": "pass", "player": "Ann"})
    got = need(INFO, Fixed(listed=listed), "Ann")
    assert got.kind == "choice" and got.actions == listed


def test_a_player_not_waited_for_needs_nothing():
    assert need(INFO, Fixed(listed=({"type": "pass", "player": "Ann"},)), "Ben").kind == "nothing"
    assert need(INFO, Fixed(), "Ann").kind == "nothing"


def test_a_label_fills_its_template_from_the_action():
    info = GameInfo("x", "X", 1, 1, lambda *a: None, labels={"move": "Move {steps}"})
    assert info.label({"type": "move", "steps": 2}) == "Move 2"
    assert info.label({"type": "move"}) == "Move {steps}"
    assert info.label({"type": "jump"}) == "jump"
