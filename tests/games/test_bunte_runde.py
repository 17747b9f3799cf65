"""Bunte Runde engine: one test per ruling (B1-B7), illegal actions and whole games."""

from __future__ import annotations

import copy
import json
import random

import pytest

from spielleiter.games import GAMES
from spielleiter.games.bunte_runde import (
    COLOURS,
    INFO,
    SHAPES,
    BunteRunde,
    full_set,
    landing,
    new_game,
)
from spielleiter.games.core import Event, IllegalAction, SetupError

TWO = ["Anna", "Ben"]


def take(state: BunteRunde, colour: str, shape: str) -> tuple[BunteRunde, list[Event]]:
    """The player to move takes (colour, shape) in a free layout."""
    return state.apply({"type": "take", "player": state.turn(), "colour": colour, "shape": shape})


def move(state: BunteRunde, steps: int) -> tuple[BunteRunde, list[Event]]:
    return state.apply({"type": "move", "player": state.turn(), "steps": steps})


def take_all(state: BunteRunde, pieces: list[tuple[str, str]]) -> tuple[BunteRunde, list[Event]]:
    events: list[Event] = []
    for colour, shape in pieces:
        state, evs = take(state, colour, shape)
        events += evs
    return state, events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def coins(state: BunteRunde) -> dict[str, int]:
    return {p["name"]: p["coins"] for p in state.public()["players"]}


def small(state: BunteRunde) -> dict[str, int]:
    return {p["name"]: p["small_coins"] for p in state.public()["players"]}


def tiles_free(players: list[str]) -> BunteRunde:
    return new_game(players, {"set": "tiles", "layout": "free"}, 1)


# Tiles, free layout: red, yellow, green score (takes 4, 9, 14), cat scores (take 19), then take 21
# (blue frog) is a double scoring (blue and frog) with only 5 small coins left. The position of each
# colour's cat decides who holds the cats.
RED = [("red", a) for a in ("cat", "dog", "fish", "bird", "frog")]
YELLOW2 = [("yellow", a) for a in ("cat", "dog", "fish", "bird", "frog")]  # 2 seats: cat to Ben
GREEN2 = [("green", a) for a in ("dog", "cat", "fish", "bird", "frog")]  # 2 seats: cat to Ben
YELLOW5 = [("yellow", a) for a in ("dog", "cat", "fish", "bird", "frog")]  # 5 seats: cat to B
GREEN5 = [("green", a) for a in ("dog", "fish", "cat", "bird", "frog")]  # 5 seats: cat to C
TAIL = [("purple", "frog"), ("blue", "dog"), ("blue", "fish"), ("blue", "cat"),
        ("purple", "cat"), ("blue", "bird")]
LAST = ("blue", "frog")


# -- registry and set-up ---------------------------------------------------------------------------
def test_registered_in_games():
    assert GAMES["bunte-runde"] is INFO
    assert (INFO.min_players, INFO.max_players, INFO.title) == (2, 6, "Bunte Runde")


def test_B1_two_to_six_players():
    for count in (1, 7):
        with pytest.raises(SetupError, match=f"2-6 players, not {count}"):
            new_game([f"P{i}" for i in range(count)], {}, 0)
    for count in (2, 6):
        assert len(new_game([f"P{i}" for i in range(count)], {}, 0).players) == count


@pytest.mark.parametrize("set_name,n", [("pieces", 6), ("tiles", 5)])
def test_B1_set_sizes_coins_and_large_coin_value(set_name, n):
    pub = new_game(TWO, {"set": set_name}, 3).public()
    assert pub["set"] == set_name
    assert len(pub["layout"]) == n * n
    assert pub["coins_left"] == n * n
    assert pub["large_coin_value"] == n
    assert pub["large_coin"] is None
    assert len(pub["colours"]) == len(pub["shapes"]) == n
    assert sorted((c, s) for c, s, _ in pub["layout"]) == sorted(full_set(set_name))


def test_B1_default_set_is_pieces():
    assert new_game(TWO, None, 0).public()["set"] == "pieces"


def test_B1_unknown_set_is_refused():
    with pytest.raises(SetupError, match="set"):
        new_game(TWO, {"set": "cards"}, 0)


def test_unknown_option_is_refused():
    with pytest.raises(SetupError, match="unknown option 'colour'"):
        new_game(TWO, {"colour": "red"}, 0)


def test_B2_dealt_layout_is_determined_by_the_seed():
    a = new_game(TWO, {}, 42).public()["layout"]
    assert a == new_game(["X", "Y", "Z"], {}, 42).public()["layout"]
    assert a != new_game(TWO, {}, 43).public()["layout"]
    expected = full_set("pieces")
    random.Random(42).shuffle(expected)
    assert [(c, s) for c, s, _ in a] == expected


def test_B2_given_layout_is_used_verbatim_with_free_names():
    layout = [[f"C{c}", f"S{(c + s) % 5}"] for c in range(5) for s in range(5)]
    state = new_game(TWO, {"set": "tiles", "layout": layout, "start": 7}, 0)
    pub = state.public()
    assert [[c, s] for c, s, _ in pub["layout"]] == layout
    assert pub["colours"] == [f"C{i}" for i in range(5)]
    assert pub["figure"] == 7
    state, events = move(state, 1)
    assert events[0].data["colour"] == "C1" and events[0].data["shape"] == "S4"


def test_B2_figure_starts_on_the_start_piece_which_stays():
    state = new_game(TWO, {"layout": [list(p) for p in full_set("pieces")], "start": 5}, 0)
    pub = state.public()
    assert pub["figure"] == 5 and pub["layout"][5][2] is False
    state, events = move(state, 1)
    assert events[0].data["index"] == 6
    assert state.public()["layout"][5][2] is False  # the start piece is still on the board
    assert state.public()["pieces_left"] == 35


@pytest.mark.parametrize("layout,message", [
    ([["red", "cat"]] * 25, "5 colours"),
    ([list(p) for p in full_set("tiles")][:24], "25 pairs"),
    ([list(p) for p in full_set("pieces")], "25 pairs"),
    ([[c, f"x{i}"] for i, (c, _) in enumerate(full_set("tiles"))], "5 animals"),
    ([[f"c{i}", s] for i, (_, s) in enumerate(full_set("tiles"))], "5 colours"),
    ([list(p) for p in full_set("tiles")][:24] + [["red"]], "pairs"),
    ([list(p) for p in full_set("tiles")][:24] + [["red", ""]], "pairs"),
    ([list(p) for p in full_set("tiles")][:24] + [["red", 3]], "pairs"),
    ("round", "pairs"),
    (5, "pairs"),
])
def test_B2_layout_must_be_a_full_set_each_pair_once(layout, message):
    with pytest.raises(SetupError, match=message):
        new_game(TWO, {"set": "tiles", "layout": layout}, 0)


def test_B2_layout_with_a_duplicate_pair_and_a_missing_one_is_refused():
    layout = [list(p) for p in full_set("pieces")]
    layout[1] = layout[0]
    with pytest.raises(SetupError, match="pair twice"):
        new_game(TWO, {"layout": layout}, 0)


@pytest.mark.parametrize("start", [-1, 36, True, "0", 1.0, None])
def test_B2_start_must_be_an_index_into_the_layout(start):
    with pytest.raises(SetupError, match="start"):
        new_game(TWO, {"start": start}, 0)


def test_B2_start_range_follows_the_set():
    assert new_game(TWO, {"start": 35}, 0).figure == 35
    with pytest.raises(SetupError, match="start: 0 to 24"):
        new_game(TWO, {"set": "tiles", "start": 25}, 0)


# -- turn order and illegal actions ---------------------------------------------------------------
def test_turns_go_round_in_seat_order_from_the_first_player():
    state = new_game(["Ida", "Jo", "Kim"], {}, 5)
    seen = []
    for _ in range(6):
        seen.append(state.turn())
        assert state.waiting_for() == (state.turn(),)
        state, _ = move(state, 1)
    assert seen == ["Ida", "Jo", "Kim"] * 2


def test_only_the_player_to_move_may_act_and_the_message_names_them():
    state = new_game(TWO, {}, 0)
    with pytest.raises(IllegalAction, match="Anna's turn, not Ben's"):
        state.apply({"type": "move", "player": "Ben", "steps": 1})
    with pytest.raises(IllegalAction, match="no player 'Zoe'"):
        state.apply({"type": "move", "player": "Zoe", "steps": 1})


@pytest.mark.parametrize("steps", [0, 4, -1, "2", True, 2.0, None])
def test_B3_steps_must_be_1_2_or_3(steps):
    state = new_game(TWO, {}, 0)
    before = state.public()
    with pytest.raises(IllegalAction, match="steps"):
        state.apply({"type": "move", "player": "Anna", "steps": steps})
    assert state.public() == before


@pytest.mark.parametrize("action,message", [
    ({"type": "move", "player": "Anna"}, "needs 'steps'"),
    ({"type": "move", "steps": 1}, "needs 'player'"),
    ({"type": "jump", "player": "Anna", "steps": 1}, "unknown action"),
    ({"type": "take", "player": "Anna", "colour": "red", "shape": "star"}, "free layout only"),
])
def test_malformed_or_misplaced_actions_are_illegal(action, message):
    state = new_game(TWO, {}, 0)
    with pytest.raises(IllegalAction, match=message):
        state.apply(action)


def test_an_action_must_be_an_object():
    with pytest.raises(IllegalAction):
        new_game(TWO, {}, 0).apply(["move", 1])  # type: ignore[arg-type]


def test_illegal_actions_leave_the_state_unchanged():
    state, _ = move(new_game(TWO, {}, 9), 2)
    before = copy.deepcopy(state.public())
    for action in ({"type": "move", "player": "Anna", "steps": 1},
                   {"type": "move", "player": "Ben", "steps": 4},
                   {"type": "take", "player": "Ben", "colour": "red", "shape": "star"}):
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert state.public() == before
    free, _ = take(tiles_free(TWO), "red", "cat")
    before = copy.deepcopy(free.public())
    for action in ({"type": "take", "player": "Ben", "colour": "red", "shape": "cat"},
                   {"type": "take", "player": "Ben", "colour": "pink", "shape": "cat"},
                   {"type": "move", "player": "Ben", "steps": 1}):
        with pytest.raises(IllegalAction):
            free.apply(action)
        assert free.public() == before


def test_apply_never_changes_the_state_it_is_given():
    state = new_game(TWO, {}, 3)
    before = copy.deepcopy(state.public())
    state.apply({"type": "move", "player": "Anna", "steps": 3})
    assert state.public() == before


# -- B3: moving ----------------------------------------------------------------------------------
def test_B3_move_takes_the_piece_the_given_steps_ahead():
    layout = [list(p) for p in full_set("pieces")]
    state = new_game(TWO, {"layout": layout, "start": 10}, 0)
    assert state.public()["next_landing"] == [11, 12, 13]
    assert state.public()["next_pieces"] == [layout[11], layout[12], layout[13]]
    state, events = move(state, 3)
    assert events[0].kind == "take"
    assert events[0].data == {"player": "Anna", "colour": layout[13][0], "shape": layout[13][1],
                              "index": 13, "steps": 3}
    assert state.public()["players"][0]["pieces"] == [layout[13]]
    assert state.public()["figure"] == 13  # the figure stays on the empty place
    assert state.public()["layout"][13][2] is True


def test_B3_move_counts_only_places_still_holding_a_piece():
    layout = [list(p) for p in full_set("pieces")]  # colour by colour: index = 6 * colour + shape
    state = new_game(TWO, {"layout": layout, "start": 0}, 0)
    for _ in range(12):  # 3, 6, ..., 33, then 34, 35 and round to the start piece 0
        state, _ = move(state, 3)
    pub = state.public()
    assert pub["figure"] == 0 and pub["layout"][0][2] is True  # the start piece is taken at last
    assert [i for i, (_, _, t) in enumerate(pub["layout"]) if t] == [0, 3, 6, 9, 12, 15, 18, 21,
                                                                    24, 27, 30, 33]
    state, _ = move(state, 1)
    assert state.figure == 1
    assert landing(state, 1) == 2
    assert landing(state, 2) == 4  # place 3 is empty and does not count
    assert landing(state, 3) == 5
    assert state.public()["next_landing"] == [2, 4, 5]


def test_B3_move_wraps_round_the_circle():
    state = new_game(TWO, {"start": 34}, 0)
    state, _ = move(state, 1)
    assert state.figure == 35
    assert landing(state, 1) == 0
    assert landing(state, 3) == 2
    state, events = move(state, 2)
    assert events[0].data["index"] == 1 and state.figure == 1
    assert state.taken[0] is False  # passed over, still on the board
    assert landing(state, 3) == 4


def test_B3_with_one_piece_left_every_move_lands_on_it():
    state = new_game(TWO, {"set": "tiles"}, 4)
    state.taken = [True] * 25
    state.taken[17] = False
    for figure in (0, 17, 16, 24):
        state.figure = figure
        assert [landing(state, s) for s in (1, 2, 3)] == [17, 17, 17]


def test_B3_with_two_pieces_left_counting_goes_round_again():
    state = new_game(TWO, {"set": "tiles"}, 4)
    state.taken = [True] * 25
    state.taken[3] = state.taken[20] = False
    state.figure = 10
    assert [landing(state, s) for s in (1, 2, 3)] == [20, 3, 20]


def test_B3_landing_needs_a_figure():
    with pytest.raises(IllegalAction):
        landing(tiles_free(TWO), 1)


# -- B4: scoring ---------------------------------------------------------------------------------
def test_B4_last_piece_of_a_colour_pays_one_coin_per_piece_held_to_every_player():
    state = new_game(["Anna", "Ben", "Cem"], {"layout": "free"}, 0)
    order = [("red", "circle"), ("yellow", "circle"), ("red", "square"), ("red", "triangle"),
             ("blue", "star"), ("red", "star"), ("red", "heart"), ("green", "cross")]
    state, events = take_all(state, order)
    assert "scoring" not in kinds(events)
    state, events = take(state, "red", "cross")  # Cem: last red
    assert kinds(events) == ["take", "scoring"]
    scoring = events[1]
    assert scoring.data["what"] == "colour" and scoring.data["value"] == "red"
    # reds: Anna circle, triangle, heart; Ben none; Cem square, star, cross
    assert scoring.data["payouts"] == {"Anna": 3, "Ben": 0, "Cem": 3}
    assert scoring.data["double"] is False and scoring.data["total"] == 6
    assert coins(state) == {"Anna": 3, "Ben": 0, "Cem": 3}
    assert state.public()["coins_left"] == 30


def test_B4_last_animal_scores_with_tiles_and_players_without_one_get_nothing():
    state = tiles_free(["Anna", "Ben", "Cem"])
    order = [("red", "cat"), ("yellow", "cat"), ("green", "dog"), ("green", "cat"),
             ("blue", "cat"), ("red", "dog")]
    state, events = take_all(state, order)
    assert "scoring" not in kinds(events)
    state, events = take(state, "purple", "cat")  # Anna: last cat
    scoring = events[1]
    assert scoring.data["what"] == "shape" and scoring.data["value"] == "cat"
    assert scoring.data["payouts"] == {"Anna": 3, "Ben": 2, "Cem": 0}
    assert coins(state) == {"Anna": 3, "Ben": 2, "Cem": 0}
    assert state.public()["coins_left"] == 20
    assert state.public()["remaining"]["shapes"]["cat"] == 0
    assert not state.is_over and state.turn() == "Ben"


def test_B4_last_piece_of_a_colour_and_a_shape_is_a_double_scoring():
    state = tiles_free(TWO)
    order = [("red", a) for a in ("cat", "dog", "fish", "bird")]
    order += [(c, "frog") for c in ("yellow", "green", "blue", "purple")]
    state, _ = take_all(state, order)
    state, events = take(state, "red", "frog")  # Anna
    assert kinds(events) == ["take", "scoring", "scoring"]
    red, frog = events[1].data, events[2].data
    assert (red["what"], red["value"], red["double"]) == ("colour", "red", True)
    assert (frog["what"], frog["value"], frog["double"]) == ("shape", "frog", True)
    assert red["payouts"] == {"Anna": 3, "Ben": 2}
    assert frog["payouts"] == {"Anna": 3, "Ben": 2}
    assert coins(state) == {"Anna": 6, "Ben": 4}
    assert state.public()["coins_left"] == 15  # 2 x 5 paid, no large coin needed
    assert state.public()["large_coin"] is None


def test_B4_every_piece_of_a_scored_value_is_held_so_a_scoring_pays_exactly_n():
    for seed in range(20):
        state = new_game(["A", "B", "C"], {"set": "tiles"}, seed)
        while not state.is_over:
            state, events = move(state, 1 + seed % 3)
            for e in events:
                if e.kind == "scoring":
                    assert e.data["total"] == 5


# -- B5: the large coin --------------------------------------------------------------------------
def test_B5_large_coin_swap_before_double_scoring():
    # Two players; before the double Anna has 9 and Ben 11 small coins, 5 are left in the supply.
    order = RED + YELLOW2 + GREEN2
    order += [("purple", "frog"), ("blue", "dog"), ("blue", "cat"), ("blue", "fish"),
              ("purple", "cat"), ("blue", "bird")]
    state, events = take_all(tiles_free(TWO), order)
    assert small(state) == {"Anna": 9, "Ben": 11} and state.coins_left == 5
    state, events = take(state, *LAST)  # Ben
    assert kinds(events) == ["take", "large_coin", "scoring", "scoring", "winner"]
    assert events[1].data == {"player": "Ben", "coins": 5}
    pub = state.public()
    assert pub["large_coin"] == "Ben"
    assert small(state) == {"Anna": 9 + 3 + 2, "Ben": 11 - 5 + 2 + 3}
    assert coins(state) == {"Anna": 14, "Ben": 16}  # Ben's large coin counts 5
    assert pub["coins_left"] == 0 and pub["shortfall"] == 0
    assert sum(small(state).values()) == 25


def test_B5_swap_goes_to_the_earliest_seat_on_a_tie():
    order = RED + YELLOW2 + GREEN2 + TAIL
    state, _ = take_all(tiles_free(TWO), order)
    assert small(state) == {"Anna": 10, "Ben": 10}
    state, events = take(state, *LAST)
    assert events[1].kind == "large_coin" and events[1].data["player"] == "Anna"
    assert coins(state) == {"Anna": 15, "Ben": 15}
    assert state.winners() == ("Anna", "Ben")


def test_B5_swap_skipped_when_nobody_holds_enough_and_scoring_paid_in_full():
    five = ["A", "B", "C", "D", "E"]
    order = RED + YELLOW5 + GREEN5 + TAIL
    state, _ = take_all(tiles_free(five), order)
    assert small(state) == dict.fromkeys(five, 4) and state.coins_left == 5
    state, events = take(state, *LAST)  # B
    assert kinds(events) == ["take", "large_coin_skipped", "scoring", "scoring", "winner"]
    assert events[2].data["payouts"] == {"A": 1, "B": 2, "C": 1, "D": 1, "E": 0}
    assert events[3].data["payouts"] == {"A": 1, "B": 1, "C": 0, "D": 0, "E": 3}
    pub = state.public()
    assert pub["large_coin"] is None
    assert coins(state) == {"A": 6, "B": 7, "C": 5, "D": 5, "E": 7}  # paid in full
    assert pub["coins_left"] == 0 and pub["shortfall"] == 5  # supply floors at 0
    assert state.winners() == ("B", "E")


def test_B5_no_swap_for_a_single_scoring_with_one_scorings_worth_left():
    order = [(c, a) for c in ("red", "yellow", "green", "blue") for a in SHAPES["tiles"]]
    state, events = take_all(tiles_free(TWO), order)
    assert state.coins_left == 5 and "large_coin" not in kinds(events)
    state, events = take(state, "purple", "cat")
    assert kinds(events) == ["take", "scoring", "winner"]
    assert state.public()["large_coin"] is None


# -- B6: end and winner --------------------------------------------------------------------------
def test_B6_game_ends_when_a_scoring_empties_the_supply():
    order = [(c, a) for c in ("red", "yellow", "green", "blue") for a in SHAPES["tiles"]]
    state, events = take_all(tiles_free(["Anna", "Ben", "Cem"]), order)
    assert kinds(events).count("scoring") == 4 and not state.is_over
    assert state.public()["phase"] == "play"
    state, events = take(state, "purple", "cat")  # Cem
    assert kinds(events) == ["take", "scoring", "winner"]
    pub = state.public()
    assert pub["phase"] == "over" and pub["turn"] is None and pub["coins_left"] == 0
    assert state.waiting_for() == ()
    # 20 takes round three seats: Anna holds 7 of them, Ben 7, Cem 6; cats: A,C,B,A,C
    assert coins(state) == {"Anna": 9, "Ben": 8, "Cem": 8}
    assert pub["winners"] == ["Anna"] and events[-1].data["players"] == ["Anna"]
    assert pub["pieces_left"] == 4


def test_B6_most_coins_wins_and_a_tie_shares():
    state = tiles_free(TWO)
    order = [(c, a) for c in ("red", "yellow", "green", "blue") for a in SHAPES["tiles"]]
    state, _ = take_all(state, order)
    state, events = take(state, "purple", "dog")  # Anna: her third dog
    assert coins(state) == {"Anna": 13, "Ben": 12}
    assert state.winners() == ("Anna",) and events[-1].text == "Anna wins"
    tie, _ = take_all(tiles_free(TWO), RED + YELLOW2 + GREEN2 + TAIL)
    tie, events = take(tie, *LAST)
    assert coins(tie) == {"Anna": 15, "Ben": 15}
    assert tie.winners() == ("Anna", "Ben") and events[-1].text == "Anna & Ben win"


def test_B6_standings_rank_by_coins_and_a_tie_shares_the_rank():
    state = tiles_free(["Anna", "Ben", "Cem"])
    assert state.standings() == [(1, "Anna", 0), (1, "Ben", 0), (1, "Cem", 0)]
    tie, _ = take_all(tiles_free(TWO), RED + YELLOW2 + GREEN2 + TAIL)
    tie, _ = take(tie, *LAST)
    assert tie.standings() == [(1, "Anna", 15), (1, "Ben", 15)]
    state, _ = take_all(tiles_free(TWO), [(c, a) for c in ("red", "yellow", "green", "blue")
                                         for a in SHAPES["tiles"]])
    state, _ = take(state, "purple", "dog")
    assert state.standings() == [(1, "Anna", 13), (2, "Ben", 12)]


def test_B3_legal_actions_are_the_three_moves_of_the_player_to_move():
    state = new_game(TWO, {}, 3)
    assert state.legal_actions("Anna") == [
        {"type": "move", "player": "Anna", "steps": s} for s in (1, 2, 3)]
    assert state.legal_actions("Ben") == [] and state.legal_actions("Zoe") == []


def test_B7_legal_actions_are_the_pieces_still_on_the_board():
    state, _ = take(tiles_free(TWO), "red", "cat")
    listed = state.legal_actions("Ben")
    assert len(listed) == 24 and {"type": "take", "player": "Ben", "colour": "red",
                                  "shape": "cat"} not in listed
    assert state.legal_actions("Anna") == []


def test_B6_no_action_after_the_end():
    order = [(c, a) for c in ("red", "yellow", "green", "blue") for a in SHAPES["tiles"]]
    state, _ = take_all(tiles_free(TWO), order)
    state, _ = take(state, "purple", "cat")
    with pytest.raises(IllegalAction, match="over"):
        state.apply({"type": "take", "player": "Ben", "colour": "purple", "shape": "dog"})


# -- B7: free layout -----------------------------------------------------------------------------
def test_B7_free_layout_takes_any_piece_by_standard_names():
    state = new_game(TWO, {"layout": "free"}, 0)
    pub = state.public()
    assert pub["free"] is True and pub["figure"] is None and pub["layout"] is None
    assert pub["next_pieces"] == [] and pub["pieces_left"] == 36
    assert pub["colours"] == list(COLOURS["pieces"]) and pub["shapes"] == list(SHAPES["pieces"])
    state, events = take(state, "orange", "cross")
    assert events[0].data == {"player": "Anna", "colour": "orange", "shape": "cross",
                              "index": None, "steps": None}
    assert state.public()["players"][0]["pieces"] == [["orange", "cross"]]
    assert state.public()["turn"] == "Ben"


def test_B7_a_piece_already_taken_is_illegal():
    state, _ = take(tiles_free(TWO), "red", "cat")
    with pytest.raises(IllegalAction, match="red cat is already taken"):
        take(state, "red", "cat")


@pytest.mark.parametrize("colour,shape,message", [
    ("pink", "cat", "no colour 'pink'"), ("red", "star", "no animal 'star'"),
    ("orange", "cat", "no colour"), ("red", 3, "bad 'shape'"), (None, "cat", "bad 'colour'"),
])
def test_B7_take_needs_a_pair_of_the_set(colour, shape, message):
    state = tiles_free(TWO)
    with pytest.raises(IllegalAction, match=message):
        state.apply({"type": "take", "player": "Anna", "colour": colour, "shape": shape})


def test_B7_move_is_illegal_in_a_free_layout():
    with pytest.raises(IllegalAction, match="free layout"):
        tiles_free(TWO).apply({"type": "move", "player": "Anna", "steps": 1})


def test_B7_layout_string_other_than_free_is_refused():
    with pytest.raises(SetupError, match="free"):
        new_game(TWO, {"layout": "circle"}, 0)


# -- whole games ---------------------------------------------------------------------------------
def check_end(state: BunteRunde, events: list[Event]) -> None:
    """Invariants of a finished game (B4-B6)."""
    n = state.n
    pub = state.public()
    assert pub["phase"] == "over" and pub["turn"] is None and pub["coins_left"] == 0
    total_small = sum(p["small_coins"] for p in pub["players"])
    total = sum(p["coins"] for p in pub["players"])
    assert total_small + pub["coins_left"] == n * n + pub["shortfall"]  # small coins conserved
    large = n if pub["large_coin"] else 0
    assert total == total_small + large
    final = [e for e in events if e.kind in ("scoring", "large_coin", "large_coin_skipped")]
    last_double = final[-1].data["double"]
    swapped = "large_coin" in kinds(events)
    skipped = "large_coin_skipped" in kinds(events)
    assert not (swapped and skipped)
    if swapped or skipped:
        assert last_double
        assert total == n * n + n
        assert pub["shortfall"] == (n if skipped else 0)
    else:
        assert total == n * n and pub["shortfall"] == 0
    scorings = [e for e in events if e.kind == "scoring"]
    assert all(e.data["total"] == n for e in scorings)
    assert sum(e.data["total"] for e in scorings) == n * n + (n if swapped or skipped else 0)
    best = max(p["coins"] for p in pub["players"])
    assert pub["winners"] == [p["name"] for p in pub["players"] if p["coins"] == best]
    assert kinds(events)[-1] == "winner" and kinds(events).count("winner") == 1
    held = [tuple(x) for p in pub["players"] for x in p["pieces"]]
    assert len(held) == len(set(held)) == n * n - pub["pieces_left"]
    json.dumps(pub)
    json.dumps([e.to_json() for e in events])


def play(state: BunteRunde, policy) -> tuple[BunteRunde, list[Event]]:
    events: list[Event] = []
    for _ in range(state.n * state.n):
        if state.is_over:
            break
        state, evs = state.apply(policy(state))
        events += evs
    assert state.is_over
    return state, events


@pytest.mark.parametrize("set_name", ["pieces", "tiles"])
@pytest.mark.parametrize("players", [TWO, ["A", "B", "C", "D", "E", "F"]])
def test_full_game_always_moving_one_step_ends_with_all_coins_handed_out(set_name, players):
    state = new_game(players, {"set": set_name}, 11)
    state, events = play(state, lambda s: {"type": "move", "player": s.turn(), "steps": 1})
    check_end(state, events)


@pytest.mark.parametrize("set_name", ["pieces", "tiles"])
def test_full_games_with_random_moves_over_many_seeds_keep_the_invariants(set_name):
    outcomes = set()
    for seed in range(150):
        rng = random.Random(seed)
        players = [f"P{i}" for i in range(rng.randint(2, 6))]
        start = rng.randrange(len(full_set(set_name)))
        state = new_game(players, {"set": set_name, "start": start}, seed)

        def policy(s: BunteRunde) -> dict:
            steps = rng.choice((1, 2, 3))
            assert s.public()["next_landing"][steps - 1] == landing(s, steps)
            return {"type": "move", "player": s.turn(), "steps": steps}

        state, events = play(state, policy)
        check_end(state, events)
        outcomes.add(state.public()["large_coin"] is not None)
    assert outcomes == {True, False}  # both endings occur


@pytest.mark.parametrize("set_name", ["pieces", "tiles"])
def test_full_free_games_with_random_takes_over_many_seeds_keep_the_invariants(set_name):
    endings = set()
    for seed in range(200):
        rng = random.Random(seed)
        players = [f"P{i}" for i in range(rng.randint(2, 6))]
        state = new_game(players, {"set": set_name, "layout": "free"}, seed)

        def policy(s: BunteRunde) -> dict:
            colour, shape = rng.choice([p for p, t in zip(s.pieces, s.taken) if not t])
            return {"type": "take", "player": s.turn(), "colour": colour, "shape": shape}

        state, events = play(state, policy)
        check_end(state, events)
        endings.add(tuple(k for k in kinds(events) if k.startswith("large_coin")))
    assert () in endings and ("large_coin",) in endings


def test_states_deepcopy_and_public_is_json():
    state, events = move(new_game(TWO, {"set": "tiles"}, 2), 2)
    clone = copy.deepcopy(state)
    assert clone.public() == state.public()
    assert json.loads(json.dumps(state.public())) == state.public()
    assert events[0].to_json()["kind"] == "take"
