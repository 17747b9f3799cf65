"""Tante Trudels Trödel engine: one group of tests per ruling (TT1-TT7), the rulebook's examples
(Svetlana's Purchase of the Day, Anton and Irina moving backwards), secret grams, bad actions."""

from __future__ import annotations

import dataclasses
import json

import pytest

from spielleiter.games import GAMES, IllegalAction, SetupError
from spielleiter.games.tante_trudels_troedel import TanteTrudelsTroedel, new_game
from spielleiter.games.trudel_rules import line_of

TRIO = ["Vladislav", "Anton", "Irina"]
POTD_G = 17.3


def act(state, *actions):
    """Apply actions (dicts) in order; returns the last state and the events of the last one."""
    events = []
    for action in actions:
        state, events = state.apply(action)
    return state, events


def purchase(state, rolls=(6, 4, 3), grams=POTD_G):
    maker = state.potd_maker
    state, _ = act(state, *({"type": "roll", "player": maker, "value": v} for v in rolls))
    return act(state, {"type": "weigh_potd", "grams": grams})[0]


def turn(state, player, value, direction="forward", *extra, end=True):
    """One turn: roll, move, the ``extra`` actions (dicts with the player filled in), end_turn."""
    events = []
    for action in ({"type": "roll", "player": player, "value": value},
                   {"type": "move", "player": player, "direction": direction},
                   *({**a, "player": player} for a in extra)):
        state, caused = state.apply(action)
        events += caused
    if end and state.turn == player and state.stage == "act":
        state, caused = state.apply({"type": "end_turn", "player": player})
        events += caused
    return state, events


def rounds(state, *rolls):
    """Whole rounds of plain forward turns: each item of ``rolls`` gives one roll per seat."""
    for values in rolls:
        for value in values:
            state, _ = turn(state, state.turn, value)
    return state


def pos(state):
    return {p["name"]: p["position"] for p in state.public()["players"]}


def game(players=TRIO, **options):
    return purchase(new_game(players, options, 0))


# -- TT1: players, rows, scales rows ---------------------------------------------------------------
def test_TT1_two_to_four_players_in_seat_order_all_at_the_entrance():
    state = new_game(["a", "b"])
    assert state.players == ("a", "b") and pos(state) == {"a": 0, "b": 0}
    assert GAMES["tante-trudels-troedel"].new_game(["a", "b", "c", "d"], {}, 3).seed == 3
    for bad in (["a"], ["a", "b", "c", "d", "e"], ["a", "a"]):
        with pytest.raises(SetupError):
            new_game(bad)


def test_TT1_scales_rows_default_to_8_and_18_and_are_an_option():
    assert new_game(TRIO).public()["scale_rows"] == [8, 18]
    assert new_game(TRIO, {"scale_rows": [15, 5]}).scale_rows == (5, 15)
    for bad in ([0], [21], [5, 5], "8", [True], [8.0]):
        with pytest.raises(SetupError, match="scale_rows"):
            new_game(TRIO, {"scale_rows": bad})


@pytest.mark.parametrize("options,message", [
    ({"potd_maker": "Zoe"}, "potd_maker"), ({"first": 3}, "first"),
    ({"tie_band_g": -0.1}, "tie_band_g"), ({"tie_band_g": "0.05"}, "tie_band_g"),
    ({"goal": "fastest"}, "goal"), ({"colour": "red"}, "unknown option")])
def test_TT1_bad_options_are_refused_with_a_message(options, message):
    with pytest.raises(SetupError, match=message):
        new_game(TRIO, options)


def test_TT1_opposite_rows_face_the_same_counter_line():
    pairs = [(1, 15), (2, 14), (5, 11), (6, 20), (8, 18), (10, 16)]
    assert all(line_of(a) == line_of(b) for a, b in pairs)
    assert len({line_of(r) for r in range(1, 21)}) == 10
    state = game(TRIO)  # coupons on rows 6, 10, 13 (and so on 20, 16, 3)
    shop = state.public()["shop_coupons"]
    assert [r for r in range(1, 21) if shop[r - 1]] == [3, 6, 10, 13, 16, 20]


# -- TT2: the Purchase of the Day --------------------------------------------------------------------
def test_TT2_rulebook_example_svetlana_rolls_6_4_3():
    state = new_game(["Anton", "Irina", "Vladislav", "Svetlana"], {"potd_maker": "Svetlana"})
    assert state.waiting_for() == ("Svetlana",) and state.phase == "potd"
    texts = []
    for value in (6, 4, 3):
        state, events = state.apply({"type": "roll", "player": "Svetlana", "value": value})
        texts += [e.text for e in events if e.kind == "potd_row"]
        if value != 3:
            assert pos(state)["Svetlana"] == state.potd_rows[-1]
    assert state.potd_rows == [6, 10, 13]
    assert texts == [f"Row {r}: take the edge item, put a coupon there" for r in (6, 10, 13)]
    assert pos(state)["Svetlana"] == 0 and events[-1].kind == "potd_weigh"  # back at the entrance
    assert sum(state.shop_coupons) == 3
    assert state.legal_actions("Svetlana") == [{"type": "weigh_potd", "player": "Svetlana"}]
    state, events = state.apply({"type": "weigh_potd", "player": "Svetlana", "grams": 9.4})
    assert state.phase == "play" and state.turn == "Anton" and state.stage == "roll"
    assert "9.4" not in json.dumps([e.to_json() for e in events] + [state.public()])


def test_TT2_the_maker_is_the_first_seat_unless_chosen():
    assert new_game(TRIO).waiting_for() == ("Vladislav",)
    assert new_game(TRIO, {"potd_maker": "Irina"}).waiting_for() == ("Irina",)
    state = new_game(TRIO)
    assert state.legal_actions("Vladislav") == [
        {"type": "roll", "player": "Vladislav", "value": v} for v in range(1, 7)]
    with pytest.raises(IllegalAction, match="Vladislav's turn"):
        state.apply({"type": "roll", "player": "Anton", "value": 2})


def test_TT2_the_purchase_is_weighed_after_three_rolls_with_positive_grams():
    state = new_game(TRIO)
    with pytest.raises(IllegalAction, match="roll three times"):
        state.apply({"type": "weigh_potd", "grams": 10})
    state, _ = act(state, *({"type": "roll", "player": "Vladislav", "value": 1} for _ in range(3)))
    with pytest.raises(IllegalAction, match="weigh the purchase"):
        state.apply({"type": "roll", "player": "Vladislav", "value": 1})
    for bad in (0, -1, "10", True, float("nan"), float("inf"), None):
        with pytest.raises(IllegalAction, match="grams"):
            state.apply({"type": "weigh_potd", "grams": bad})
    with pytest.raises(IllegalAction, match="Vladislav's turn"):
        state.apply({"type": "weigh_potd", "player": "Irina", "grams": 10})


def test_TT2_no_gram_figure_is_public_before_the_end_and_all_are_after():
    state = game(TRIO, scale_rows=[6])
    state, events = turn(state, "Vladislav", 6, "forward", {"type": "take", "coupon": False},
                         end=False)
    state, events = act(state, {"type": "end_turn", "player": "Vladislav"})
    state, _ = turn(state, "Anton", 6, "forward", {"type": "take", "coupon": False})
    state, _ = turn(state, "Irina", 5)
    state, events = turn(state, "Vladislav", 6, "forward",
                         {"type": "take", "coupon": False}, end=False)
    seen = [state.public()] + [e.to_json() for e in events]
    state, _ = act(state, {"type": "end_turn", "player": "Vladislav"})
    while state.phase == "play":
        state, events = turn(state, state.turn, 6)
        seen += [state.public()] + [e.to_json() for e in events]
    assert state.phase == "weighing"
    grams = {"Vladislav": 12.9, "Anton": 16.8, "Irina": 0.0}
    for player in state.arrivals:
        state, events = state.apply({"type": "weigh_basket", "player": player,
                                     "grams": grams[player]})
        seen += [state.public()] + [e.to_json() for e in events] if not state.is_over else []
    text = json.dumps(seen)
    assert "17.3" not in text and "12.9" not in text and "16.8" not in text
    states = [s for s in seen if "players" in s]
    assert all(p["basket_g"] is None for s in states for p in s["players"])
    assert all(s["potd_g"] is None for s in states) and len(states) > 10
    final = state.public()
    assert final["potd_g"] == POTD_G
    assert {p["name"]: p["basket_g"] for p in final["players"]} == grams
    assert events[-2].kind == "reveal" and events[-2].data["baskets"] == grams


# -- TT3: turn order -----------------------------------------------------------------------------
def test_TT3_turns_go_in_seat_order_from_the_first_player_skipping_the_weighing():
    state = game(TRIO, first="Anton")
    order = []
    for _ in range(6):
        order.append(state.turn)
        state, _ = turn(state, state.turn, 6)
    assert order == ["Anton", "Irina", "Vladislav"] * 2
    state, _ = turn(state, "Anton", 6)  # 18
    state, _ = turn(state, "Irina", 6)
    state, _ = turn(state, "Vladislav", 6)
    state, events = turn(state, "Anton", 6)  # Anton goes to the weighing
    assert pos(state)["Anton"] == 21 and events[-1].data == {"player": "Irina"}
    state, _ = turn(state, "Irina", 1)
    assert state.turn == "Vladislav"
    state, _ = turn(state, "Vladislav", 1)
    assert state.turn == "Irina"


# -- TT4: the die and moving ---------------------------------------------------------------------
def test_TT4_roll_1_to_6_then_move_forward_that_many_rows():
    state = game(TRIO)
    assert state.legal_actions("Vladislav") == [
        {"type": "roll", "player": "Vladislav", "value": v} for v in range(1, 7)]
    for bad in (0, 7, "3", True, 2.0):
        with pytest.raises(IllegalAction):
            state.apply({"type": "roll", "player": "Vladislav", "value": bad})
    with pytest.raises(IllegalAction, match="roll first"):
        state.apply({"type": "move", "player": "Vladislav", "direction": "forward"})
    state, _ = act(state, {"type": "roll", "player": "Vladislav", "value": 4})
    assert state.public()["reach"] == {"forward": 4, "back": None}
    assert state.legal_actions("Vladislav") == [
        {"type": "move", "player": "Vladislav", "direction": "forward"}]
    with pytest.raises(IllegalAction, match="back only"):
        state.apply({"type": "move", "player": "Vladislav", "direction": "back"})
    with pytest.raises(IllegalAction, match="rolled already"):
        state.apply({"type": "roll", "player": "Vladislav", "value": 4})
    state, events = act(state, {"type": "move", "player": "Vladislav", "direction": "forward"})
    assert pos(state)["Vladislav"] == 4 and state.stage == "act"
    assert events[0].data == {"player": "Vladislav", "from": 0, "to": 4, "direction": "forward"}
    with pytest.raises(IllegalAction, match="moved already"):
        state.apply({"type": "move", "player": "Vladislav", "direction": "forward"})


def test_TT4_a_move_past_row_20_ends_at_the_weighing_and_ends_the_turn():
    state = rounds(game(TRIO), [6, 6, 6], [6, 6, 6], [6, 6, 6])  # all on 18
    state, _ = act(state, {"type": "roll", "player": "Vladislav", "value": 2})
    state, events = act(state, {"type": "move", "player": "Vladislav", "direction": "forward"})
    assert pos(state)["Vladislav"] == 20 and state.stage == "act"  # 20 is still a row
    state, _ = act(state, {"type": "end_turn", "player": "Vladislav"})
    state, events = act(state, {"type": "roll", "player": "Anton", "value": 6},
                        {"type": "move", "player": "Anton", "direction": "forward"})
    assert pos(state)["Anton"] == 21 and state.turn == "Irina"  # the excess (3) is lost
    assert [e.kind for e in events] == ["move", "arrive", "turn"]
    assert state.public()["players"][1]["arrival"] == 1
    with pytest.raises(IllegalAction, match="Irina's turn"):
        state.apply({"type": "take", "player": "Anton", "coupon": False})


def test_TT4_rulebook_example_anton_may_move_back_until_irina_waits_at_the_weighing():
    state = game(TRIO)
    state = rounds(state, [6, 6, 6], [6, 6, 6], [1, 6, 5], [1, 1, 1], [1])
    assert pos(state) == {"Vladislav": 15, "Anton": 19, "Irina": 18} and state.turn == "Anton"
    state, _ = act(state, {"type": "roll", "player": "Anton", "value": 2})
    assert state.legal_actions("Anton") == [
        {"type": "move", "player": "Anton", "direction": d} for d in ("forward", "back")]
    assert state.public()["reach"] == {"forward": 21, "back": 17}
    state, _ = act(state, {"type": "move", "player": "Anton", "direction": "back"})
    assert pos(state)["Anton"] == 17 and state.stage == "act"  # he may act on row 17
    state, _ = act(state, {"type": "take", "player": "Anton", "coupon": False},
                   {"type": "end_turn", "player": "Anton"})
    state, _ = act(state, {"type": "roll", "player": "Irina", "value": 3})
    assert len(state.legal_actions("Irina")) == 2  # Irina could go back too, but is satisfied
    state, _ = act(state, {"type": "move", "player": "Irina", "direction": "forward"})
    assert state.arrivals == ["Irina"]
    state, _ = turn(state, "Vladislav", 1)
    state, _ = act(state, {"type": "roll", "player": "Anton", "value": 4})
    assert state.legal_actions("Anton") == [
        {"type": "move", "player": "Anton", "direction": "forward"}]
    with pytest.raises(IllegalAction, match="waits at the weighing"):
        state.apply({"type": "move", "player": "Anton", "direction": "back"})


# -- TT5: the action, the coupon, weighing on a scales row -----------------------------------------
def test_TT5_legal_actions_list_the_turn_options_exactly():
    state = game(TRIO)
    state, _ = act(state, {"type": "roll", "player": "Vladislav", "value": 6},
                   {"type": "move", "player": "Vladislav", "direction": "forward"})
    v = "Vladislav"
    assert state.legal_actions(v) == [{"type": "take", "player": v, "coupon": False},
                                      {"type": "take", "player": v, "coupon": True},
                                      {"type": "end_turn", "player": v}]
    state, _ = act(state, {"type": "take", "player": v, "coupon": True})
    assert state.legal_actions(v) == [{"type": "coupon_shop", "player": v},
                                      {"type": "end_turn", "player": v}]
    assert state.legal_actions("Anton") == []


def test_TT5_one_action_a_turn_and_one_coupon_payment_before_or_after_it():
    state = game(TRIO)
    state, _ = turn(state, "Vladislav", 6, "forward", {"type": "take", "coupon": True})
    state, _ = turn(state, "Anton", 6, "forward", {"type": "take"})  # coupon defaults to False
    state, _ = turn(state, "Irina", 1)
    state, _ = act(state, {"type": "roll", "player": "Vladislav", "value": 4},
                   {"type": "move", "player": "Vladislav", "direction": "forward"})
    state, events = act(state, {"type": "coupon_shop", "player": "Vladislav"})  # before ...
    assert state.items["Vladislav"] == 1 and state.coupons["Vladislav"] == 0
    assert state.coupons_at(10) == 2 and events[0].data["row"] == 10
    with pytest.raises(IllegalAction, match="one coupon a turn"):
        state.apply({"type": "coupon_shop", "player": "Vladislav"})
    state, _ = act(state, {"type": "take", "player": "Vladislav", "coupon": True})  # ... the action
    with pytest.raises(IllegalAction, match="one action a turn"):
        state.apply({"type": "take", "player": "Vladislav", "coupon": False})
    assert state.coupons["Vladislav"] == 1 and state.coupons_at(10) == 1


def test_TT5_take_and_return_items_and_coupons():
    state = game(TRIO)
    v = "Vladislav"
    state, _ = turn(state, v, 6, "forward", {"type": "take", "coupon": True})
    assert state.coupons[v] == 1 and state.coupons_at(6) == 0 and state.coupons_at(20) == 0
    state = rounds(state, [6, 1])  # Anton 6, Irina 1
    state, _ = act(state, {"type": "roll", "player": v, "value": 4},
                   {"type": "move", "player": v, "direction": "forward"})  # row 10: a coupon lies
    with pytest.raises(IllegalAction, match="you hold a coupon"):
        state.apply({"type": "take", "player": v, "coupon": True})
    with pytest.raises(IllegalAction, match="no item to return"):
        state.apply({"type": "return", "player": v, "coupon": False})
    with pytest.raises(IllegalAction, match="no item to exchange"):
        state.apply({"type": "exchange", "player": v})
    with pytest.raises(IllegalAction, match="coupon"):
        state.apply({"type": "take", "player": v, "coupon": "yes"})
    state, _ = act(state, {"type": "return", "player": v, "coupon": True})
    assert state.coupons[v] == 0 and state.coupons_at(10) == 2 and state.coupons_at(16) == 2


def test_TT5_no_coupon_to_take_where_none_lies():
    state = game(TRIO)
    state, _ = act(state, {"type": "roll", "player": "Vladislav", "value": 5},
                   {"type": "move", "player": "Vladislav", "direction": "forward"})
    with pytest.raises(IllegalAction, match="no coupon in this row"):
        state.apply({"type": "take", "player": "Vladislav", "coupon": True})
    with pytest.raises(IllegalAction, match="no coupon to pay"):
        state.apply({"type": "coupon_shop", "player": "Vladislav"})


def placed(state, **fields):
    """``state`` with some fields set directly (positions, items, coupons) to stage a scene."""
    return dataclasses.replace(state, **{k: {**getattr(state, k), **v} if isinstance(v, dict)
                                         else v for k, v in fields.items()})


def test_TT5_pay_a_player_on_the_same_row_with_a_coupon_for_any_item():
    state = placed(game(TRIO), position={"Vladislav": 5, "Anton": 11, "Irina": 11},
                   items={"Anton": 2}, coupons={"Vladislav": 1})
    state, _ = act(state, {"type": "roll", "player": "Vladislav", "value": 6},
                   {"type": "move", "player": "Vladislav", "direction": "forward"})
    v = "Vladislav"
    listed = state.legal_actions(v)
    assert {"type": "coupon_player", "player": v, "target": "Anton"} in listed
    assert {"type": "coupon_player", "player": v, "target": "Irina"} not in listed  # no item
    with pytest.raises(IllegalAction, match="Irina has no item"):
        state.apply({"type": "coupon_player", "player": v, "target": "Irina"})
    with pytest.raises(IllegalAction, match="target"):
        state.apply({"type": "coupon_player", "player": v, "target": v})
    state, events = act(state, {"type": "coupon_player", "player": v, "target": "Anton"})
    assert (state.items, state.coupons) == ({v: 1, "Anton": 1, "Irina": 0},
                                            {v: 0, "Anton": 1, "Irina": 0})
    assert events[0].text == "Vladislav pays Anton with a coupon"
    state, _ = act(state, {"type": "exchange", "player": v})  # the action after the payment
    assert state.legal_actions(v) == [{"type": "end_turn", "player": v}]


def test_TT5_a_player_elsewhere_cannot_be_paid():
    state = placed(game(TRIO), position={"Vladislav": 5, "Anton": 12},
                   items={"Anton": 2}, coupons={"Vladislav": 1})
    state, _ = act(state, {"type": "roll", "player": "Vladislav", "value": 6},
                   {"type": "move", "player": "Vladislav", "direction": "forward"})
    with pytest.raises(IllegalAction, match="Anton is not in this row"):
        state.apply({"type": "coupon_player", "player": "Vladislav", "target": "Anton"})


def test_TT5_weigh_only_on_a_scales_row_and_the_table_hears_only_the_verdict():
    state = placed(game(TRIO), position={"Vladislav": 2}, items={"Vladislav": 3})
    v = "Vladislav"
    for grams, result in ((17.0, "lighter"), (17.34, "balanced"), (17.5, "heavier")):
        after, events = act(state, {"type": "roll", "player": v, "value": 6},
                            {"type": "move", "player": v, "direction": "forward"},
                            {"type": "weigh", "player": v, "grams": grams})
        assert after.last_weigh == result and after.public()["last_weigh"] == result
        assert events[0].data == {"player": v, "result": result}
        assert str(grams) not in json.dumps([after.public(), events[0].to_json()])
        assert {"type": "weigh", "player": v} not in after.legal_actions(v)
    state, _ = act(state, {"type": "roll", "player": v, "value": 5},
                   {"type": "move", "player": v, "direction": "forward"})
    assert {"type": "weigh", "player": v} not in state.legal_actions(v)
    with pytest.raises(IllegalAction, match="no scales"):
        state.apply({"type": "weigh", "player": v, "grams": 3})


def test_TT5_weigh_is_listed_without_grams_and_needs_an_item():
    state = placed(game(TRIO), position={"Vladislav": 2})
    v = "Vladislav"
    state, _ = act(state, {"type": "roll", "player": v, "value": 6},
                   {"type": "move", "player": v, "direction": "forward"})
    with pytest.raises(IllegalAction, match="nothing to weigh"):
        state.apply({"type": "weigh", "player": v, "grams": 3})
    state = placed(state, items={v: 1})
    assert {"type": "weigh", "player": v} in state.legal_actions(v)
    with pytest.raises(IllegalAction, match="grams"):
        state.apply({"type": "weigh", "player": v})


def test_TT5_no_action_after_reaching_the_weighing():
    state = placed(game(TRIO), position={"Vladislav": 19})
    state, events = act(state, {"type": "roll", "player": "Vladislav", "value": 2},
                        {"type": "move", "player": "Vladislav", "direction": "forward"})
    assert state.turn == "Anton" and state.legal_actions("Vladislav") == []


# -- TT6: the final weighing -----------------------------------------------------------------------
def at_weighing(players=TRIO, potd=POTD_G, order=None, **options):
    """Everybody at the weighing in ``order`` (default seat order)."""
    state = purchase(new_game(players, options, 0), grams=potd)
    order = list(order or players)
    return placed(state, position={p: 21 for p in players}, arrivals=order, phase="weighing",
                  turn=None, stage=None)


def weigh_all(state, grams):
    events = []
    for player in list(state.arrivals):
        state, events = state.apply({"type": "weigh_basket", "player": player,
                                     "grams": grams[player]})
    return state, events


def test_TT6_when_everybody_is_at_the_weighing_baskets_are_weighed_in_arrival_order():
    state = placed(game(TRIO), position={"Vladislav": 21, "Anton": 21, "Irina": 19},
                   arrivals=["Anton", "Vladislav"])
    state = placed(state, turn="Irina")
    state, events = act(state, {"type": "roll", "player": "Irina", "value": 5},
                        {"type": "move", "player": "Irina", "direction": "forward"})
    assert state.phase == "weighing" and events[-1].kind == "weighing"
    assert events[-1].text == "Weighing: Anton first" and state.public()["turn"] is None
    assert state.waiting_for() == ("Anton",)
    assert state.legal_actions("Anton") == [{"type": "weigh_basket", "player": "Anton"}]
    with pytest.raises(IllegalAction, match="Anton's turn"):
        state.apply({"type": "weigh_basket", "player": "Irina", "grams": 3})
    state, _ = act(state, {"type": "weigh_basket", "player": "Anton", "grams": 0})
    assert state.waiting_for() == ("Vladislav",)


@pytest.mark.parametrize("grams,winners", [
    ({"Vladislav": 15.0, "Anton": 16.9, "Irina": 17.3}, ["Anton"]),  # Irina balances: no
    ({"Vladislav": 16.86, "Anton": 16.9, "Irina": 18.0}, ["Vladislav", "Anton"]),  # within band
    ({"Vladislav": 17.25, "Anton": 19.0, "Irina": 18.0}, []),  # 0.05 lighter is not enough
    ({"Vladislav": 17.24, "Anton": 19.0, "Irina": 0.0}, ["Vladislav"]),
])
def test_TT6_the_heaviest_basket_lighter_than_the_purchase_by_more_than_the_band_wins(
        grams, winners):
    state, events = weigh_all(at_weighing(), grams)
    assert state.is_over and list(state.winners()) == winners
    assert events[-1].kind == "winner" and events[-1].data["players"] == winners
    text = {0: "Nobody wins", 1: " & ".join(winners) + " wins"}.get(len(winners))
    assert events[-1].text == (text or " & ".join(winners) + " win")


def test_TT6_the_tie_band_is_an_option():
    grams = {"Vladislav": 16.0, "Anton": 16.5, "Irina": 17.0}
    state, _ = weigh_all(at_weighing(tie_band_g=0.5), grams)
    assert state.winners() == ("Vladislav", "Anton")  # Irina 0.3 under: within the band
    state, _ = weigh_all(at_weighing(tie_band_g=0), grams)
    assert state.winners() == ("Irina",)


def test_TT6_standings_rank_the_candidates_first_and_share_within_the_band():
    grams = {"Vladislav": 16.86, "Anton": 16.9, "Irina": 18.0}
    state, _ = weigh_all(at_weighing(order=["Irina", "Anton", "Vladislav"]), grams)
    assert state.standings() == [(1, "Vladislav", 16.86), (1, "Anton", 16.9),
                                 (3, "Irina", 18.0)]
    assert at_weighing().standings() == [(1, p, None) for p in TRIO]
    grams = {"Vladislav": 30.0, "Anton": 17.3, "Irina": 12.0}
    state, _ = weigh_all(at_weighing(), grams)
    assert state.standings() == [(1, "Irina", 12.0), (2, "Anton", 17.3), (3, "Vladislav", 30.0)]


# -- TT7: the kids' variants -------------------------------------------------------------------
@pytest.mark.parametrize("goal,grams,winners,ranks", [
    ("heaviest", {"Vladislav": 30.0, "Anton": 29.97, "Irina": 5.0}, ("Vladislav", "Anton"),
     [1, 1, 3]),
    ("heaviest", {"Vladislav": 30.0, "Anton": 29.0, "Irina": 5.0}, ("Vladislav",), [1, 2, 3]),
    ("lightest", {"Vladislav": 30.0, "Anton": 29.0, "Irina": 5.0}, ("Irina",), [1, 2, 3]),
    ("lightest", {"Vladislav": 5.04, "Anton": 29.0, "Irina": 5.0}, ("Vladislav", "Irina"),
     [1, 1, 3]),
])
def test_TT7_kids_variants_heaviest_or_lightest_wins_ties_within_the_band_share(
        goal, grams, winners, ranks):
    state, _ = weigh_all(at_weighing(goal=goal), grams)
    assert state.winners() == winners
    assert [r for r, _, _ in state.standings()] == ranks
    assert {p for r, p, _ in state.standings() if r == 1} == set(winners)


# -- robustness ------------------------------------------------------------------------------------
@pytest.mark.parametrize("action,message", [
    ({"type": "fly", "player": "Vladislav"}, "unknown action"),
    ({"type": "roll", "value": 3}, "needs 'player'"),
    ({"type": "roll", "player": "Zoe", "value": 3}, "no player"),
    ({"type": "end_turn", "player": "Vladislav"}, "roll first"),
    ({"type": "take", "player": "Vladislav", "coupon": False}, "roll first"),
    ({"type": "weigh_basket", "player": "Vladislav", "grams": 3}, "not weighing now"),
    ({"type": "weigh_potd", "grams": 3}, "the purchase is weighed"),
    ("roll", "an action is a JSON object"),
])
def test_illegal_actions_raise_a_short_message_and_change_nothing(action, message):
    state = game(TRIO)
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction, match=message) as err:
        state.apply(action)
    assert len(str(err.value)) <= 63 and json.dumps(state.to_json()) == before


def test_no_action_after_the_end_and_states_round_trip_through_json():
    state, _ = weigh_all(at_weighing(), {"Vladislav": 1.0, "Anton": 2.0, "Irina": 3.0})
    with pytest.raises(IllegalAction, match="over"):
        state.apply({"type": "weigh_basket", "player": "Anton", "grams": 3})
    again = TanteTrudelsTroedel.from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.public() == state.public()


def test_registered_for_replay_with_measurements_for_the_three_weighings():
    info = GAMES["tante-trudels-troedel"]
    assert (info.title, info.min_players, info.max_players) == ("Tante Trudels Trödel", 2, 4)
    assert set(info.measurements) == {"weigh_potd", "weigh", "weigh_basket"}
    assert all(m.field == "grams" and m.private for m in info.measurements.values())
