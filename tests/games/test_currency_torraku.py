"""Currency Torraku engine: one test per ruling (C1-C4), illegal input, kinds, whole games."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from spielleiter.games.core import Event, IllegalAction, SetupError
from spielleiter.games.currency_torraku import INFO, KINDS, CurrencyTorraku, new_game

AB = ["Anna", "Ben"]
ABC = ["Anna", "Ben", "Cem"]


def act(state: CurrencyTorraku, type_: str, player: str | None = None, **fields):
    """Apply one action (``player`` defaults to the player whose turn it is)."""
    return state.apply({"type": type_, "player": player or state.turn(), **fields})


def run(state: CurrencyTorraku, *steps) -> tuple[CurrencyTorraku, list[Event]]:
    """Apply steps like ("bid", 3), ("pass",), ("place", "truck"), ("collapse",), ("drop",) for
    whoever's turn it is; returns the final state and every event."""
    events: list[Event] = []
    for step in steps:
        kind, *arg = step
        extra = {}
        if kind == "bid":
            extra = {"count": arg[0]}
        elif kind == "place" and arg:
            extra = {"piece": arg[0]}
        state, evs = act(state, kind, **extra)
        events += evs
    return state, events


def row(state: CurrencyTorraku) -> dict[str, int]:
    return {p["name"]: p["row"] for p in state.public()["players"]}


def pieces(state: CurrencyTorraku) -> dict[str, int]:
    return {p["name"]: p["pieces"] for p in state.public()["players"]}


def total(state: CurrencyTorraku) -> int:
    return sum(state.pieces.values()) + len(state.stack) + state.bag


def with_pieces(state: CurrencyTorraku, **counts: int) -> CurrencyTorraku:
    """``state`` with some players' piece counts set (their kind bounds capped to match)."""
    new_pieces = {**state.pieces, **counts}
    may = {p: {k: min(v, new_pieces[p]) for k, v in kinds.items()}
           for p, kinds in state.may_own.items()}
    return dataclasses.replace(state, pieces=new_pieces, may_own=may)


# -- set-up (C1) ---------------------------------------------------------------------------------
def test_info_names_the_game_and_its_player_range():
    assert (INFO.name, INFO.title, INFO.min_players, INFO.max_players) == (
        "currency-torraku", "Currency Torraku", 1, 6)
    assert INFO.new_game is new_game


def test_C1_one_to_six_players():
    for count in (0, 7):
        with pytest.raises(SetupError, match=f"1-6 players, not {count}"):
            new_game([f"P{i}" for i in range(count)], {}, 0)
    for count in (1, 6):
        assert len(new_game([f"P{i}" for i in range(count)], {}, 0).players) == count


def test_C1_each_player_gets_2_2_6_and_the_bag_holds_6_6_18():
    state = new_game(ABC, None, 0)
    pub = state.public()
    assert pub["bag"] == 30 and pub["stack"] == 0 and pub["stack_kinds"] == []
    assert state.bag_may == {"truck": 6, "washing_machine": 6, "rice_cooker": 18}
    for p in pub["players"]:
        assert p == {"name": p["name"], "pieces": 10, "row": 0, "bid": None, "passed": False,
                     "row_kinds": []}
    assert state.may_own["Ben"] == {"truck": 2, "washing_machine": 2, "rice_cooker": 6}
    assert (pub["game"], pub["phase"], pub["round"], pub["turn"]) == (
        "currency-torraku", "bid", 1, "Anna")
    assert pub["winners"] == [] and pub["long"] is False


def test_C1_bag_option_counts_per_kind_unnamed_kinds_keep_the_default():
    state = new_game(AB, {"bag": {"truck": 1, "rice_cooker": 0}}, 0)
    assert state.bag == 7 and state.bag_may == {"truck": 1, "washing_machine": 6,
                                                "rice_cooker": 0}


@pytest.mark.parametrize("bag,message", [
    ({"coin": 3}, "bag: no kind 'coin'"),
    ({"truck": True}, "bag: 0 to 999 truck"),
    ({"truck": -1}, "bag: 0 to 999 truck"),
    ({"truck": 1000}, "bag: 0 to 999 truck"),
    ({"truck": 2.0}, "bag: 0 to 999 truck"),
    (30, "bag: counts per kind"),
    ([6, 6, 18], "bag: counts per kind"),
])
def test_C1_bad_bag_option_is_refused(bag, message):
    with pytest.raises(SetupError, match=message):
        new_game(AB, {"bag": bag}, 0)


@pytest.mark.parametrize("long", [1, "yes", None])
def test_C1_long_must_be_true_or_false(long):
    with pytest.raises(SetupError, match="long: true or false"):
        new_game(AB, {"long": long}, 0)


def test_unknown_option_is_refused():
    with pytest.raises(SetupError, match="unknown option 'coins'"):
        new_game(AB, {"coins": 3}, 0)


@pytest.mark.parametrize("count,deal,bag", [
    (4, {"truck": 3, "washing_machine": 3, "rice_cooker": 10}, 6),  # 14, 14, 42 in all
    (5, {"truck": 3, "washing_machine": 3, "rice_cooker": 9}, 5),  # 16, 16, 48 in all
    (6, {"truck": 3, "washing_machine": 3, "rice_cooker": 9}, 0),  # 18, 18, 54 in all
    (1, {"truck": 8, "washing_machine": 8, "rice_cooker": 24}, 0),
])
def test_C1_long_deals_all_the_money_evenly_per_kind_the_rest_stays_in_the_bag(count, deal, bag):
    state = new_game([f"P{i}" for i in range(count)], {"long": True}, 0)
    assert state.public()["long"] is True
    assert all(v == sum(deal.values()) for v in pieces(state).values())
    assert all(state.may_own[p] == deal for p in state.players)
    assert state.bag == bag and sum(state.bag_may.values()) == bag


def test_C1_long_uses_the_bag_option():
    state = new_game(AB, {"long": True, "bag": {"truck": 1, "washing_machine": 0,
                                                "rice_cooker": 0}}, 0)
    assert state.may_own["Anna"] == {"truck": 2, "washing_machine": 2, "rice_cooker": 6}
    assert state.bag_may == {"truck": 1, "washing_machine": 0, "rice_cooker": 0}


def test_the_game_has_no_chance_the_seed_is_only_recorded():
    a, b = new_game(ABC, {}, 1), new_game(ABC, {}, 2)
    assert a.public() == b.public() and (a.seed, b.seed) == (1, 2)


# -- bidding (C2) --------------------------------------------------------------------------------
def test_C2_the_first_seat_opens_round_1_with_at_least_one_and_may_not_pass():
    state = new_game(ABC, {}, 0)
    assert state.waiting_for() == ("Anna",)
    assert state.legal_actions("Anna") == [
        {"type": "bid", "player": "Anna", "count": c} for c in range(1, 11)]
    with pytest.raises(IllegalAction, match="the opener must bid"):
        act(state, "pass")
    with pytest.raises(IllegalAction, match="bid at least 1"):
        act(state, "bid", count=0)
    state, events = act(state, "bid", count=3)
    assert [e.kind for e in events] == ["bid"] and events[0].text == "Anna bids 3"
    assert state.turn() == "Ben" and state.public()["highest"] == 3


def test_C2_the_opener_may_pass_once_they_have_bid():
    state, _ = run(new_game(AB, {}, 0), ("bid", 2), ("bid", 4))
    assert {"type": "pass", "player": "Anna"} in state.legal_actions("Anna")
    state, events = run(state, ("pass",))
    assert events[0].text == "Anna passes at 2"


def test_C2_a_bid_matches_or_beats_the_highest_and_raises_ones_own():
    state, _ = run(new_game(ABC, {}, 0), ("bid", 3))
    assert [a["count"] for a in state.legal_actions("Ben") if a["type"] == "bid"] == list(
        range(3, 11))
    state, _ = run(state, ("bid", 3), ("bid", 5))  # Ben matches, Cem beats
    with pytest.raises(IllegalAction, match="bid at least 5"):
        act(state, "bid", count=4)
    state, _ = run(state, ("bid", 5), ("pass",))  # Anna matches Cem, Ben passes at 3
    assert state.turn() == "Cem"
    with pytest.raises(IllegalAction, match="bid at least 6"):  # Cem holds 5: must raise it
        act(state, "bid", count=5)
    state, _ = run(state, ("bid", 6))
    assert state.turn() == "Anna"


def test_C2_a_bid_is_at_most_the_pieces_one_owns():
    state = new_game(AB, {}, 0)
    with pytest.raises(IllegalAction, match="bid at most 10"):
        act(state, "bid", count=11)
    state, _ = run(state, ("bid", 10))
    assert state.legal_actions("Ben")[0] == {"type": "bid", "player": "Ben", "count": 10}
    state, _ = run(state, ("bid", 10))
    assert state.legal_actions("Anna") == [{"type": "pass", "player": "Anna"}]
    with pytest.raises(IllegalAction, match="you can only pass"):
        act(state, "bid", count=10)


def test_C2_a_first_bid_above_ones_pieces_draws_the_difference_from_the_bag():
    state, _ = run(with_pieces(new_game(ABC, {}, 0), Ben=3), ("bid", 5))
    assert [a["count"] for a in state.legal_actions("Ben") if a["type"] == "bid"] == [5]
    before = total(state)
    state, events = run(state, ("bid", 5))
    assert [e.kind for e in events] == ["bid", "draw"]
    assert events[1].text == "Ben draws 2 from the bag" and events[1].data["count"] == 2
    assert pieces(state)["Ben"] == 5 and state.bag == 28 and total(state) == before
    assert state.may_own["Ben"] == {"truck": 4, "washing_machine": 4, "rice_cooker": 5}
    state, _ = run(state, ("bid", 7), ("bid", 7))  # Cem raises, Anna matches
    assert state.legal_actions("Ben") == [{"type": "pass", "player": "Ben"}]  # no second draw


def test_C2_the_bag_only_helps_to_reach_the_current_bid():
    state, _ = run(with_pieces(new_game(AB, {}, 0), Ben=3), ("bid", 5))
    with pytest.raises(IllegalAction, match="bid at most 5"):
        act(state, "bid", count=6)


def test_C2_the_draw_lasts_only_while_the_bag_does():
    start = new_game(AB, {"bag": {"truck": 1, "washing_machine": 0, "rice_cooker": 0}}, 0)
    state, _ = run(with_pieces(start, Ben=3), ("bid", 5))
    assert state.legal_actions("Ben") == [{"type": "pass", "player": "Ben"}]
    with pytest.raises(IllegalAction, match="you can only pass"):
        act(state, "bid", count=5)
    state, _ = run(with_pieces(start, Ben=3), ("bid", 4))
    state, events = run(state, ("bid", 4))
    assert events[1].data == {"player": "Ben", "count": 1, "bag": 0}
    assert state.may_own["Ben"] == {"truck": 3, "washing_machine": 2, "rice_cooker": 3}


def test_C2_passing_makes_the_bid_binding_zero_if_none_and_passed_players_are_skipped():
    state, _ = run(new_game(ABC, {}, 0), ("bid", 2), ("pass",), ("bid", 4))
    assert state.turn() == "Anna"
    state, _ = run(state, ("bid", 5))
    assert state.turn() == "Cem"  # Ben is skipped
    assert [(p["bid"], p["passed"]) for p in state.public()["players"]] == [
        (5, False), (0, True), (4, False)]
    state, _ = run(state, ("pass",), ("pass",))
    assert state.phase == "stack" and row(state) == {"Anna": 5, "Ben": 0, "Cem": 4}


def test_C2_later_rounds_open_with_the_player_who_placed_the_last_piece():
    state, _ = run(new_game(ABC, {}, 0), ("bid", 1), ("bid", 2), ("pass",),
                   ("pass",), ("pass",))  # Cem passes first (0), Anna at 1, Ben last at 2
    assert state.turn() == "Ben"
    state, events = run(state, ("place",), ("place",), ("place",))  # Ben, Anna, Ben
    assert [e.data.get("player") for e in events if e.kind == "place"] == ["Ben", "Anna", "Ben"]
    assert events[-1].kind == "round" and events[-1].text == "Round 2: Ben opens"
    assert (state.phase, state.round, state.turn()) == ("bid", 2, "Ben")
    assert all(p["bid"] is None and not p["passed"] for p in state.public()["players"])
    with pytest.raises(IllegalAction, match="the opener must bid"):
        act(state, "pass")


def test_C2_a_collapse_after_the_last_place_keeps_the_last_placer_as_opener():
    state, _ = run(new_game(AB, {}, 0), ("bid", 1), ("bid", 1), ("pass",), ("pass",))
    state, _ = run(state, ("place",), ("collapse",))  # Ben places, Anna collapses
    assert (state.round, state.turn()) == (2, "Ben")


# -- stacking (C3) -------------------------------------------------------------------------------
def test_C3_stacking_starts_with_the_player_who_passed_last():
    state, _ = run(new_game(ABC, {}, 0), ("bid", 2), ("bid", 3), ("bid", 3),
                   ("pass",), ("pass",))
    state, events = run(state, ("pass",))  # Cem passes last
    assert events[-1].kind == "stacking" and events[-1].text == "Cem starts the stack"
    assert state.turn() == "Cem" and state.public()["phase"] == "stack"


def test_C3_the_last_passer_always_has_a_row_and_starts_the_stack():
    """Every player acts once before the opener acts again, so the last to pass has bid at least
    1: the clause for an empty row never applies (it is kept in the engine all the same)."""
    starts = 0
    for seed in range(30):
        for state in random_game(seed, bound=400):
            if state.phase == "stack" and state.last_placer is None:  # nothing placed yet
                assert state.last_passer is not None
                last = state.players[state.last_passer]
                assert state.turn() == last and state.row[last] > 0
                starts += 1
    assert starts > 30


def test_C3_stacking_goes_clockwise_over_players_with_pieces_in_their_row():
    state, _ = run(new_game(ABC, {}, 0), ("bid", 3), ("pass",), ("bid", 3), ("pass",),
                   ("pass",))  # rows: Anna 3, Ben 0, Cem 3; Cem passed last
    order = []
    while state.phase == "stack":
        order.append(state.turn())
        state, _ = run(state, ("place",))
    assert order == ["Cem", "Anna"] * 3


def test_C3_place_puts_a_row_piece_on_the_stack():
    state, _ = run(new_game(AB, {}, 0), ("bid", 2), ("pass",), ("pass",))
    state, events = run(state, ("place", "truck"))
    assert events == [Event("place", "Anna places a truck",
                            {"player": "Anna", "piece": "truck", "stack": 1})]
    assert (pieces(state)["Anna"], row(state)["Anna"], state.public()["stack"]) == (9, 1, 1)
    state, events = run(state, ("place",))
    assert events[0].text == "Anna places a piece" and events[0].data["piece"] is None
    assert [e.kind for e in events] == ["place", "round_end", "round"]


def test_C3_collapse_takes_the_stack_and_the_piece_in_hand_then_starts_a_new_stack():
    state, _ = run(new_game(AB, {}, 0), ("bid", 3), ("bid", 3), ("pass",), ("pass",))
    state, _ = run(state, ("place",), ("place",), ("place",))  # Ben, Anna, Ben: stack of 3
    assert state.turn() == "Anna" and row(state) == {"Anna": 2, "Ben": 1}
    before = total(state)
    state, events = run(state, ("collapse",))
    assert events == [Event("collapse", "Anna takes 4 pieces",
                            {"player": "Anna", "count": 4, "pieces": 12})]
    assert pieces(state) == {"Anna": 12, "Ben": 8} and row(state) == {"Anna": 1, "Ben": 1}
    assert state.public()["stack"] == 0 and total(state) == before
    assert state.turn() == "Anna"  # she starts the new stack with her next row piece
    state, _ = run(state, ("place",))
    assert state.turn() == "Ben"


def test_C3_after_a_collapse_with_an_empty_row_the_next_player_starts_the_stack():
    state, _ = run(new_game(ABC, {}, 0), ("bid", 1), ("bid", 2), ("bid", 2), ("pass",),
                   ("pass",), ("pass",))  # Cem last: Cem, Anna, Ben, Cem, Ben
    state, _ = run(state, ("place",))
    state, _ = run(state, ("collapse",))  # Anna's only row piece was in her hand
    assert row(state) == {"Anna": 0, "Ben": 2, "Cem": 1} and pieces(state)["Anna"] == 11
    assert state.turn() == "Ben" and state.stack == []


def test_C3_collapse_needs_a_stack():
    state, _ = run(new_game(AB, {}, 0), ("bid", 2), ("pass",), ("pass",))
    assert {"type": "collapse", "player": "Anna"} not in state.legal_actions("Anna")
    with pytest.raises(IllegalAction, match="the stack is empty"):
        act(state, "collapse")


def test_C3_drop_has_no_penalty_and_the_same_player_places_again():
    state, _ = run(new_game(AB, {}, 0), ("bid", 2), ("pass",), ("pass",), ("place",))
    after, events = run(state, ("drop",))
    assert events == [Event("drop", "Anna: place it again", {"player": "Anna"})]
    assert after == state and after.turn() == "Anna"


def test_C3_a_named_kind_must_be_one_the_row_may_still_hold():
    state, _ = run(new_game(AB, {}, 0), ("bid", 10), ("pass",), ("pass",))
    assert state.public()["players"][0]["row_kinds"] == list(KINDS)
    state, _ = run(state, ("place", "truck"), ("place", "truck"))
    assert state.public()["players"][0]["row_kinds"] == ["washing_machine", "rice_cooker"]
    assert {"type": "place", "player": "Anna", "piece": "truck"} not in state.legal_actions(
        "Anna")
    with pytest.raises(IllegalAction, match="no truck in the row"):
        act(state, "place", piece="truck")
    state, _ = run(state, *[("place",)] * 7)  # 7 unnamed: the last piece may be any of 2 kinds
    assert state.row_may["Anna"] == {"truck": 0, "washing_machine": 1, "rice_cooker": 1}
    assert state.public()["stack_kinds"] == ["truck", "truck"] + [None] * 7


def test_C3_a_short_row_may_hold_at_most_its_length_of_each_kind():
    state, _ = run(new_game(AB, {}, 0), ("bid", 1), ("pass",), ("pass",))
    assert state.row_may["Anna"] == {"truck": 1, "washing_machine": 1, "rice_cooker": 1}
    assert [a.get("piece") for a in state.legal_actions("Anna")] == [None, *KINDS, None]


def test_C3_a_collapse_and_unnamed_pieces_make_more_kinds_possible_next_round():
    state, _ = run(new_game(AB, {}, 0), ("bid", 2), ("bid", 2), ("pass",), ("pass",))
    state, _ = run(state, ("place", "truck"), ("place",), ("place", "truck"))  # Ben, Anna, Ben
    state, _ = run(state, ("collapse",))  # Anna takes truck, ?, truck and her piece in hand
    assert pieces(state) == {"Anna": 12, "Ben": 8} and state.round == 2
    assert state.may_own["Anna"] == {"truck": 5, "washing_machine": 3, "rice_cooker": 7}
    assert state.may_own["Ben"] == {"truck": 0, "washing_machine": 2, "rice_cooker": 6}
    assert state.bag_may == {"truck": 6, "washing_machine": 6, "rice_cooker": 18}


# -- round end and winners (C4) ------------------------------------------------------------------
def test_C4_the_stack_goes_into_the_bag_and_a_new_round_starts():
    state, _ = run(new_game(AB, {}, 0), ("bid", 2), ("pass",), ("pass",), ("place", "truck"))
    state, events = run(state, ("place",))
    assert [e.kind for e in events] == ["place", "round_end", "round"]
    assert events[1].data == {"stack": 2, "bag": 32}
    assert state.bag == 32 and state.stack == [] and state.phase == "bid"
    assert state.bag_may == {"truck": 8, "washing_machine": 7, "rice_cooker": 19}
    assert pieces(state) == {"Anna": 8, "Ben": 10}


def test_C4_a_player_without_pieces_wins_at_the_end_of_the_round_not_before():
    state, _ = run(with_pieces(new_game(AB, {}, 0), Anna=2), ("bid", 2), ("bid", 3),
                   ("pass",), ("pass",))
    state, _ = run(state, *[("place",)] * 4)  # Ben, Anna, Ben, Anna: Ben has one row piece
    assert pieces(state)["Anna"] == 0 and state.phase == "stack" and state.winners() == ()
    state, events = run(state, ("place",))
    assert events[-1] == Event("winner", "Anna wins", {"players": ["Anna"]})
    pub = state.public()
    assert (pub["phase"], pub["turn"], pub["winners"], pub["waiting_for"]) == (
        "over", None, ["Anna"], [])
    assert state.legal_actions("Anna") == state.legal_actions("Ben") == []
    assert state.standings() == [(1, "Anna", 0), (2, "Ben", 7)]
    with pytest.raises(IllegalAction, match="the game is over"):
        act(state, "bid", "Anna", count=1)


def test_C4_several_players_without_pieces_share_the_win():
    state, _ = run(new_game(ABC, {}, 0), ("bid", 10), ("bid", 10), ("bid", 10),
                   ("pass",), ("pass",), ("pass",))
    state, events = run(state, *[("place",)] * 30)
    assert state.winners() == ("Anna", "Ben", "Cem") and events[-1].text == "Anna & Ben & Cem win"
    assert [r for r, _, _ in state.standings()] == [1, 1, 1]
    assert state.bag == 60


def test_a_solo_game_plays_to_the_end():
    state, _ = run(new_game(["Ida"], {}, 0), ("bid", 6), ("pass",), *[("place",)] * 6)
    assert (state.round, state.turn(), pieces(state)) == (2, "Ida", {"Ida": 4})
    state, _ = run(state, ("bid", 4), ("pass",), *[("place",)] * 4)
    assert state.winners() == ("Ida",)


def test_standings_rank_fewer_pieces_higher_and_share_ties():
    state, _ = run(new_game(ABC, {}, 0), ("bid", 1), ("bid", 1), ("bid", 1), ("bid", 2),
                   ("bid", 2), ("pass",), ("pass",), ("pass",))
    state, _ = run(state, *[("place",)] * 5)
    assert state.standings() == [(1, "Anna", 8), (1, "Ben", 8), (3, "Cem", 9)]


# -- bad input -----------------------------------------------------------------------------------
BIDDING = [("bid", 4)]  # Anna opened with 4; Ben's turn
STACKING = [("bid", 2), ("pass",), ("pass",), ("place",)]  # Anna stacks, a stack of 1


@pytest.mark.parametrize("prefix,action,message", [
    (BIDDING, {"type": "bid", "player": "Anna", "count": 5}, "Ben's turn, not Anna's"),
    (BIDDING, {"type": "pass", "player": "Zoe"}, "no player 'Zoe'"),
    (BIDDING, {"type": "bid", "player": "Ben", "count": 3}, "bid at least 4"),
    (BIDDING, {"type": "bid", "player": "Ben", "count": 11}, "bid at most 10"),
    (BIDDING, {"type": "bid", "player": "Ben", "count": True}, "bad 'count': True"),
    (BIDDING, {"type": "bid", "player": "Ben", "count": 4.0}, "bad 'count': 4.0"),
    (BIDDING, {"type": "bid", "player": "Ben", "count": "5"}, "bad 'count': '5'"),
    (BIDDING, {"type": "bid", "player": "Ben"}, "action needs 'count'"),
    (BIDDING, {"type": "bid", "count": 5}, "action needs 'player'"),
    (BIDDING, {"type": "place", "player": "Ben"}, "no stacking now"),
    (BIDDING, {"type": "collapse", "player": "Ben"}, "no stacking now"),
    (BIDDING, {"type": "raise", "player": "Ben"}, "unknown action 'raise'"),
    ([], {"type": "pass", "player": "Anna"}, "the opener must bid"),
    ([], {"type": "bid", "player": "Anna", "count": 0}, "bid at least 1"),
    (STACKING, {"type": "bid", "player": "Anna", "count": 1}, "no bidding now"),
    (STACKING, {"type": "place", "player": "Ben"}, "Anna's turn, not Ben's"),
    (STACKING, {"type": "place", "player": "Anna", "piece": "coin"}, "no kind 'coin'"),
    (STACKING, {"type": "place", "player": "Anna", "piece": None}, "bad 'piece': None"),
    (STACKING, {"type": "place", "player": "Anna", "piece": 1}, "bad 'piece': 1"),
    (STACKING, {"type": "drop", "player": "Ben"}, "Anna's turn, not Ben's"),
    (STACKING, {"type": "collapse", "player": 3}, "bad 'player': 3"),
])
def test_bad_input_gets_a_short_message_and_changes_nothing(prefix, action, message):
    state, _ = run(new_game(AB, {}, 0), *prefix)
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert str(err.value) == message and len(message) <= 63
    assert json.dumps(state.to_json()) == before
    listed = [json.dumps(a) for a in state.legal_actions(str(action.get("player")))]
    assert json.dumps(action) not in listed  # 4.0 == 4, but not as JSON


def test_every_message_fits_three_lines_of_21():
    state, _ = run(new_game(AB, {}, 0), ("bid", 10), ("pass",), ("pass",))
    state, _ = run(state, ("place", "washing_machine"), ("place", "washing_machine"))
    with pytest.raises(IllegalAction, match="^no washing machine in the row$") as err:
        act(state, "place", piece="washing_machine")
    assert len(str(err.value)) <= 63


# -- whole games, legality both ways, JSON ---------------------------------------------------------
def candidates(state: CurrencyTorraku) -> list[dict]:
    """Every action worth trying now, legal or not, for every player."""
    out: list[dict] = []
    for p in state.players:
        top = state.pieces[p] + 2 + (state.bag if p == state.turn() else 0)
        out += [{"type": "bid", "player": p, "count": c} for c in range(-1, top)]
        out += [{"type": t, "player": p} for t in ("pass", "place", "collapse", "drop")]
        out += [{"type": "place", "player": p, "piece": k} for k in KINDS]
    return out


def random_game(seed: int, bound: int = 4000):
    """A seeded game of 1-6 players played from ``legal_actions``; yields every state."""
    rng = random.Random(seed)
    count = rng.randint(1, 6)
    options = rng.choice([{}, {"long": True}, {"bag": {"truck": 0, "washing_machine": 1,
                                                       "rice_cooker": 2}}])
    state = new_game([f"P{i}" for i in range(count)], options, seed)
    yield state
    for _ in range(bound):
        if state.is_over:
            return
        (player,) = state.waiting_for()
        listed = state.legal_actions(player)
        assert listed, f"{player} is waited for but may do nothing"
        state, _ = state.apply(rng.choice(listed))
        yield state


def check_invariants(state: CurrencyTorraku, money: int) -> None:
    assert total(state) == money  # C1-C4 move pieces, never make or destroy them
    for p in state.players:
        assert 0 <= state.row[p] <= state.pieces[p]
        for k in KINDS:
            assert 0 <= state.row_may[p][k] <= state.may_own[p][k] <= state.pieces[p]
        assert sum(state.may_own[p].values()) >= state.pieces[p]
        if state.phase == "stack":
            assert sum(state.row_may[p].values()) >= state.row[p]
    assert sum(state.bag_may.values()) >= state.bag >= 0
    for k in KINDS:
        assert 0 <= state.bag_may[k] <= state.bag
    if state.phase == "stack":
        assert state.row[state.turn()] > 0


@pytest.mark.parametrize("seed", range(40))
def test_random_games_from_legal_actions_end_with_winners_and_keep_every_piece(seed):
    states = list(random_game(seed))
    final = states[-1]
    money = total(states[0])
    for state in states:
        check_invariants(state, money)
    assert final.is_over and final.winners()
    assert all(final.pieces[w] == 0 for w in final.winners())
    assert {p for r, p, _ in final.standings() if r == 1} == set(final.winners())


@pytest.mark.parametrize("seed", range(10))
def test_legal_actions_are_exactly_the_actions_apply_accepts(seed):
    for index, state in enumerate(random_game(seed, bound=300)):
        if index % 9:
            continue
        listed = [a for p in state.players for a in state.legal_actions(p)]
        for action in candidates(state):
            try:
                state.apply(action)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (action in listed), (seed, index, action)
        assert all(a in candidates(state) for a in listed)  # the candidates cover the list


@pytest.mark.parametrize("seed", range(6))
def test_every_state_survives_json(seed):
    for state in random_game(seed, bound=300):
        again = CurrencyTorraku.from_json(json.loads(json.dumps(state.to_json())))
        assert again == state and again.public() == state.public()
        json.dumps(state.public())
