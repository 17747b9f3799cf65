"""Tante Trudels Trödel at a family's table: every refused press says why, undo says what to put
back, the end ranks the baskets and plays the win sound with the winner, and a power cut in the
middle of a scales-row weighing comes back to that weighing."""

from __future__ import annotations

import pytest

from support import HeadlessSim, act, start_header, trudel_turns_to_row_8

GAME = "tante-trudels-troedel"
POTD_G = 13.2
WEIGH_S = 3.0   # "all on" to a basket's verdict (weighing.py)


# -- helpers -------------------------------------------------------------------------------------
def start(box, players=("Anna", "Ben"), table: dict | None = None, **options) -> None:
    start_header(box, GAME, players, options, 7, table)


def state(box):
    return box.app.session.state


def turn(box, player: str, roll: int, *then: dict, end: bool = True) -> None:
    """One turn through the engine: ``player`` rolls ``roll`` and moves forward, then the
    actions ``then`` (their fields besides type/player as a dict with "type"), then ends it."""
    act(box, type="roll", player=player, value=roll)
    act(box, type="move", player=player, direction="forward")
    for action in then:
        act(box, player=player, **action)
    if end:
        act(box, type="end_turn", player=player)


TAKE_ITEM = {"type": "take", "coupon": False}


def read_pages(box) -> None:
    while box.app.referee.pages:
        box.tap("host.ok")


def said(box) -> str:
    """The screen's text in one line (a refusal's message is wrapped over several)."""
    return " ".join((box.last_view.title,) + box.last_view.lines)


def purchase(box) -> None:
    for value in (6, 4, 3):
        act(box, type="roll", player="Anna", value=value)
    act(box, type="weigh_potd", player="Anna", grams=POTD_G)
    read_pages(box)


def to_row_8(box) -> None:
    """Anna on row 8 (a scales row) with one item, her turn's menu open."""
    start(box)
    purchase(box)
    trudel_turns_to_row_8(box)


def weigh_on_row_8(box) -> None:
    """The Purchase on the left pan, Anna's menu at "Weigh your basket", chosen."""
    to_row_8(box)
    box.put("left", POTD_G)
    box.idle(1.5)
    for _ in range(box.last_view.lines.index("Weigh your basket")):
        box.tap("s1.C")
    box.tap("s1.B")
    assert box.last_view.title == "Anna weighs"


def undo(box) -> None:
    box.hold("host.back", 1.2)
    box.idle(2.5)                                  # the box's own "Undone" note goes


# -- every refused press says why ------------------------------------------------------------------
def test_a_press_out_of_turn_names_whose_turn_it_is(fast_game_box_factory):
    box = fast_game_box_factory(["Anna", "Ben"])
    start(box)
    box.tap("s2.B")
    assert said(box) == "Spielleiter It's Anna's turn" and state(box).potd_rows == []
    assert box.beeper.played[-1] == "error"


def test_a_second_roll_is_refused_with_the_move_to_make(fast_game_box_factory):
    box = fast_game_box_factory(["Anna", "Ben"])
    start(box, table={"die": "table"})
    purchase(box)
    box.tap("s1.A")                                # the die: 1 -> 6
    box.tap("s1.B")                                # entered: rolled 6
    count = len(box.app.session.actions)
    box.tap("s1.A")                                # as if to roll again
    assert "Rolled already." in said(box) and "then press B." in said(box)
    assert len(box.app.session.actions) == count and state(box).stage == "move"
    box.idle(2)
    assert box.last_view.lines == ("Move to row 6",)


def test_weighing_with_the_items_on_the_wrong_pan_says_which_pan(box_factory):
    box = box_factory(["Anna", "Ben"])
    weigh_on_row_8(box)
    box.tap("s1.A")                                # not "all on" yet
    assert said(box) == "Spielleiter Items on? Then press B."
    box.idle(2)
    box.put("left", 4.0)                           # the item goes on the Purchase's pan
    box.tap("s1.B")
    box.idle(WEIGH_S)
    assert box.last_view.lines == ("Put the items", "on the right pan.", "It is still empty.")
    box.tap("s1.B")                                # pressed again: the same reason
    assert said(box) == "Spielleiter Put the items on the right pan. It is still empty."
    box.idle(2)
    box.put("right", 4.0)                          # now on both pans: too much on the left
    box.idle(WEIGH_S)
    assert box.last_view.lines == ("Take your items", "off the left pan.",
                                   "Purchase alone there.")
    box.tap("s1.B")
    assert said(box) == "Spielleiter Only the Purchase of the Day on the left pan, please."
    box.idle(2)
    box.put("left", -4.0)
    box.idle(WEIGH_S)
    assert box.last_view.big == "LIGHTER" and state(box).last_weigh == "lighter"


def test_after_a_scales_row_weighing_the_box_says_take_it_off_and_the_next_weighing_flows(
        box_factory):
    box = box_factory(["Anna", "Ben"])
    weigh_on_row_8(box)
    box.put("right", 4.0)
    box.idle(1.5)
    box.tap("s1.B")                                # all on
    box.idle(WEIGH_S)
    assert box.last_view.big == "LIGHTER"
    box.tap("host.ok")                             # the verdict read
    assert box.last_view.title == "Anna's items"
    assert box.last_view.lines == ("Take your items", "off the right pan.",
                                   "Back in the basket.")
    box.tap("s1.B")                                # "Done" cannot be chosen yet: says why
    assert said(box) == "Spielleiter Take your items off the right pan."
    assert state(box).turn == "Anna" and state(box).stage == "act"
    box.idle(2)
    box.put("right", -4.0)                         # back into the basket
    box.idle(2)
    assert box.last_view.title == "Anna: row 8"    # her menu again, by itself
    act(box, type="end_turn", player="Anna")
    for player, roll in (("Ben", 2), ("Anna", 1), ("Ben", 5)):
        act(box, type="roll", player=player, value=roll)
        act(box, type="move", player=player, direction="forward")
        if player == "Ben" and roll == 2:
            act(box, type="take", player=player, coupon=False)
        if roll != 5:
            act(box, type="end_turn", player=player)
    read_pages(box)
    for _ in range(box.last_view.lines.index("Weigh your basket")):
        box.tap("s2.C")
    box.tap("s2.B")
    box.idle(1.0)
    assert box.app.referee.work.weigher.stage == "load"  # nothing left over to clear first
    box.put("right", 5.0)
    box.idle(1.5)
    box.tap("s2.B")
    box.idle(WEIGH_S)
    assert box.last_view.big == "LIGHTER" and state(box).last_weigh == "lighter"


def test_a_crumb_left_on_the_pan_is_not_taken_for_its_zero(box_factory):
    box = box_factory(["Anna", "Ben"])
    to_row_8(box)
    box.put("left", POTD_G)
    box.put("right", 0.3)                          # a crumb of an item: 0.3 g, under EMPTY_G
    box.idle(2.0)
    for _ in range(box.last_view.lines.index("Weigh your basket")):
        box.tap("s1.C")
    box.tap("s1.B")
    box.idle(2.0)
    assert box.app.referee.work.weigher.stage == "clear"   # it would be counted into the basket
    assert box.last_view.lines == ("First take everything", "off the right pan.")
    box.put("right", -0.3)
    box.idle(2.0)
    assert box.app.referee.work.weigher.stage == "load"
    assert box.scales.snapshot("right").zeroed


def test_a_basket_too_heavy_for_the_pan_is_said_so_and_never_weighed(box_factory):
    box = box_factory(["Anna", "Ben"])
    weigh_on_row_8(box)
    count = len(box.app.session.actions)
    box.put("right", 1200.0)                       # a book: beyond the pan's range, at its stop
    box.idle(2)
    assert box.last_view.lines == ("Too heavy for the pan", "Take something",
                                   "off the right pan.")
    box.tap("s1.B")
    assert said(box) == "Spielleiter Too heavy for the pan"
    box.idle(WEIGH_S)
    assert len(box.app.session.actions) == count   # no verdict from a plateau
    box.put("right", -1196.0)                      # 4 g left: the item
    box.idle(2)
    box.tap("s1.B")
    box.idle(WEIGH_S)
    assert box.last_view.big == "LIGHTER" and len(box.app.session.actions) == count + 1


def test_weighing_without_the_purchase_says_to_put_it_back(box_factory):
    box = box_factory(["Anna", "Ben"])
    weigh_on_row_8(box)
    box.put("left", -POTD_G)
    box.put("right", 4.0)
    box.idle(1.5)
    box.tap("s1.B")
    box.idle(WEIGH_S)
    assert box.last_view.lines == ("Put the Purchase of", "the Day back", "on the left pan.")
    box.tap("s1.B")
    assert "is missing on the left pan." in said(box)


def test_a_press_while_the_pans_settle_says_hands_off(box_factory):
    box = box_factory(["Anna", "Ben"])
    weigh_on_row_8(box)
    box.put("right", 4.0)
    box.tap("s1.B")
    box.idle(0.5)
    assert box.last_view.big == "WAIT"
    box.tap("s1.B")
    assert said(box) == "Spielleiter Weighing now: hands off the pans."
    box.idle(WEIGH_S)
    assert box.last_view.big == "LIGHTER"


def test_a_press_while_a_pan_is_disconnected_says_to_check_its_cable(box_factory):
    box = box_factory(["Anna", "Ben"])
    weigh_on_row_8(box)
    chip = box.scales.sim.cells["right"].chip
    chip.disconnect()
    box.idle(1.5)
    assert box.last_view.title == "Scale not answering"
    assert box.last_view.lines == ("Check the cable of", "the right pan.")
    box.tap("s1.B")
    assert said(box) == "Spielleiter Scale not answering: check its cable."
    chip.reconnect()
    box.idle(2)
    assert box.last_view.title == "Anna weighs"
    box.scales.sim.cells["left"].chip.disconnect()  # the Purchase's pan: named
    box.idle(1.5)
    assert box.last_view.lines == ("Check the cable of", "the left pan.")


def test_a_weighing_chosen_on_a_box_without_scales_says_so(fast_game_box_factory):
    box = fast_game_box_factory(["Anna", "Ben"])
    to_row_8(box)
    for _ in range(box.last_view.lines.index("Weigh your basket")):
        box.tap("s1.C")
    box.tap("s1.B")
    assert said(box) == "Spielleiter This box has no scales to weigh on"
    assert box.app.referee.work.weigher is None and state(box).stage == "act"


# -- undo says what to put back ------------------------------------------------------------------
def test_undo_of_taking_an_item_says_put_the_item_back(box_factory):
    box = box_factory(["Anna", "Ben"], pans=False)
    start(box)
    purchase(box)
    turn(box, "Anna", 5, TAKE_ITEM, end=False)
    undo(box)
    assert state(box).items["Anna"] == 0
    view = box.last_view
    assert (view.title, view.big, view.lines) == ("Anna, put back:", "ITEM",
                                                  ("back in the shop",))
    box.tap("host.ok")
    assert "Take an item" in box.last_view.lines  # her turn's menu again


def test_undo_of_a_move_says_where_the_basket_goes_back(box_factory):
    box = box_factory(["Anna", "Ben"], pans=False)
    start(box)
    purchase(box)
    act(box, type="roll", player="Anna", value=5)
    act(box, type="move", player="Anna", direction="forward")
    undo(box)
    assert (box.last_view.title, box.last_view.big) == ("Anna's basket back", "ENTRANCE")
    assert state(box).stage == "move"


def test_undo_of_a_coupon_payment_says_who_gets_what_back(box_factory):
    box = box_factory(["Anna", "Ben"], pans=False)
    start(box)
    purchase(box)                                  # coupons on rows 6, 10 and 13
    turn(box, "Anna", 5, TAKE_ITEM)
    turn(box, "Ben", 6, {"type": "take", "coupon": True})
    turn(box, "Anna", 3)
    turn(box, "Ben", 2, {"type": "coupon_player", "target": "Anna"}, end=False)
    undo(box)
    assert box.last_view.title == "Swap back"
    assert box.last_view.lines == ("Coupon back to Ben", "Item back to Anna")
    assert state(box).coupons == {"Anna": 0, "Ben": 1} and state(box).items["Anna"] == 1


def test_undo_of_a_purchase_roll_and_of_its_weighing(box_factory):
    box = box_factory(["Anna", "Ben"], pans=False)
    start(box)
    act(box, type="roll", player="Anna", value=6)
    undo(box)
    assert (box.last_view.title, box.last_view.big, box.last_view.lines) == (
        "Take the coupon off", "Row 6", ("and put the item back",))
    read_pages(box)
    purchase(box)
    undo(box)
    assert box.last_view.title == "Weigh again"
    assert box.last_view.lines == ("Put the 3 items", "on the pan.")   # no load cells here


def test_undo_says_what_to_put_back_in_german(box_factory):
    from spielleiter.device import i18n
    box = box_factory(["Anna", "Ben"], pans=False)
    start(box)
    purchase(box)
    turn(box, "Anna", 5, TAKE_ITEM, end=False)
    i18n.use("de")
    try:
        undo(box)
        assert (box.last_view.title, box.last_view.big, box.last_view.lines) == (
            "Anna, leg zurück:", "DING", ("zurück in den Laden",))
    finally:
        i18n.use("en")


# -- the end -------------------------------------------------------------------------------------
def end_with(box, players, baskets, **options) -> list[str]:
    """Play to the weighing (everybody rolls 6), weigh ``baskets`` through the link; the pages'
    texts, each with whether the win sound had played when it showed."""
    start(box, players=players, **options)
    purchase(box)
    while state(box).phase == "play":
        player = state(box).turn
        act(box, type="roll", player=player, value=6)
        act(box, type="move", player=player, direction="forward")
        if state(box).turn == player and state(box).phase == "play":
            act(box, type="end_turn", player=player)
    read_pages(box)
    for player in list(state(box).arrivals):
        act(box, type="weigh_basket", player=player, grams=baskets[player])
    box.tap("s2.B")                                # a station cannot turn these pages
    assert said(box) == "Spielleiter The game is over OK on the box: next"
    box.idle(2)
    texts = []
    while box.app.referee.pages:
        texts.append(box.last_view.as_text())
        assert "win" not in box.beeper.played     # not over the reveal
        box.tap("host.ok")
    return texts


def test_the_end_ranks_the_baskets_then_shows_the_winner_with_the_win_sound(box_factory):
    box = box_factory(["Anna", "Ben", "Carla"], pans=False)
    texts = end_with(box, ("Anna", "Ben", "Carla"), {"Anna": 12.8, "Ben": 13.1, "Carla": 13.3})
    assert texts[0].startswith("[Purchase of the Day]") and "13.20 g" in texts[0]
    assert any("0.10 g lighter: good" in t for t in texts)
    assert any("0.10 g heavier: out" in t for t in texts)
    standings = [t for t in texts if t.startswith("[The baskets]")]
    assert standings == ["[The baskets]\n  1. Ben        13.10 g\n  2. Anna       12.80 g\n"
                         "  out Carla     13.30 g\n(OK: next)"]
    assert box.last_view.title == "The winner is" and box.last_view.big == "Ben"
    assert box.beeper.played[-1] == "win"           # with the winner's screen
    box.tap("s1.B")
    assert said(box) == "Spielleiter The game is over OK on the box: menu"


def test_nobody_under_the_purchase_means_nobody_wins_and_no_fanfare(box_factory):
    box = box_factory(["Anna", "Ben"], pans=False)
    end_with(box, ("Anna", "Ben"), {"Anna": 13.5, "Ben": 13.2})
    assert box.last_view.title == "Nobody wins"
    assert box.last_view.lines == ("No basket lighter", "than the Purchase")
    assert "win" not in box.beeper.played


def test_four_baskets_are_ranked_on_two_pages_none_crowded(box_factory):
    names = ("Anna", "Ben", "Carla", "Dirk")
    box = box_factory(list(names), pans=False)
    texts = end_with(box, names, {"Anna": 12.0, "Ben": 13.0, "Carla": 13.19, "Dirk": 14.0})
    standings = [t for t in texts if t.startswith("[The baskets]")]
    assert len(standings) == 2 and all(t.count(" g\n") == 2 for t in standings)
    assert "just as heavy: out" in "\n".join(texts)            # 13.19 g: within 0.05 g


# -- a power cut in the middle of a scales-row weighing ---------------------------------------------
def test_sigkill_mid_scales_row_weighing_resumes_to_the_weighing(box_factory, tmp_path):
    state_dir = tmp_path / "box"
    box = box_factory(["Anna", "Ben"], state_dir=state_dir, pans=False)
    to_row_8(box)
    count = len(box.app.session.actions)
    box.close()

    sim = HeadlessSim(state_dir)
    sim.send("idle 3")
    sim.send(f"put left {POTD_G}")
    sim.send("idle 2")
    assert "> Take an item" in sim.last["view"]
    sim.send("tap s1.C s1.C s1.C")                 # take, return, exchange, weigh
    sim.send("tap s1.B")
    assert sim.last["view"].startswith("[Anna weighs]")
    sim.send("put right 12.9")                     # the item is going on ...
    sim.kill()                                     # ... when the power goes

    sim = HeadlessSim(state_dir)
    assert sim.last["actions"] == count
    sim.send("idle 3")                             # the resume notice goes
    assert sim.last["view"].startswith("[Anna weighs]"), sim.last["view"]
    assert "First take everything" in sim.last["view"]  # the pans kept what lay on them:
    sim.send("put right -12.9")                    # the Purchase stayed; the item goes off ...
    sim.send("idle 1.5")
    sim.send("put right 12.9")                     # ... and on again, then "all on"
    sim.send("idle 1.5")
    sim.send("tap s1.B")
    reply = sim.send("idle 3")
    assert reply["actions"] == count + 1 and reply["state"]["last_weigh"] == "lighter"
    sim.kill()

    sim = HeadlessSim(state_dir)                   # done: a restart shows the verdict again,
    sim.send("idle 3")                             # then the menu, not the weighing
    assert sim.last["view"].startswith("[Anna's basket is]\n  ** LIGHTER **")
    sim.send("tap host.ok")
    assert sim.last["view"].startswith("[Anna: row 8]\n> Done")
    sim.close()


def test_a_cancelled_weighing_is_not_resumed_after_a_power_cut(box_factory, tmp_path):
    state_dir = tmp_path / "box"
    box = box_factory(["Anna", "Ben"], state_dir=state_dir, pans=False)
    to_row_8(box)
    box.close()

    sim = HeadlessSim(state_dir)
    sim.send("idle 3")
    sim.send("tap s1.C s1.C s1.C")
    sim.send("tap s1.B")
    assert sim.last["view"].startswith("[Anna weighs]")
    sim.send("tap s1.C")                           # cancel
    assert sim.last["view"].startswith("[Anna: row 8]")
    sim.kill()

    sim = HeadlessSim(state_dir)
    sim.send("idle 3")
    assert sim.last["view"].startswith("[Anna: row 8]")
    sim.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_ngettext_counts_items_in_both_languages(language):
    from spielleiter.device import i18n
    i18n.use(language)
    try:
        one = i18n.ngettext("Put your {n} item", "Put your {n} items", 1).format(n=1)
        two = i18n.ngettext("Put your {n} item", "Put your {n} items", 2).format(n=2)
    finally:
        i18n.use("en")
    assert (one, two) == {"en": ("Put your 1 item", "Put your 2 items"),
                          "de": ("Leg dein 1 Ding", "Leg deine 2 Dinge")}[language]


def test_a_verdict_the_power_cut_took_away_is_shown_again(box_factory, tmp_path):
    state_dir = tmp_path / "box"
    box = box_factory(["Anna", "Ben"], state_dir=state_dir, pans=False)
    to_row_8(box)
    act(box, type="weigh", player="Anna", grams=12.5)
    box.close()                                    # the verdict page was on the screen

    box = box_factory(["Anna", "Ben"], state_dir=state_dir, pans=False)
    box.idle(3)                                    # the resume notice goes
    assert (box.last_view.title, box.last_view.big) == ("Anna's basket is", "LIGHTER")
    box.tap("host.ok")
    assert box.last_view.lines == ("Done",)         # the turn's one action is used up


def test_the_purchases_row_the_power_cut_took_away_is_shown_again(box_factory, tmp_path):
    state_dir = tmp_path / "box"
    box = box_factory(["Anna", "Ben"], state_dir=state_dir, pans=False)
    start(box)
    act(box, type="roll", player="Anna", value=4)
    box.close()

    box = box_factory(["Anna", "Ben"], state_dir=state_dir, pans=False)
    box.idle(3)
    assert (box.last_view.title, box.last_view.big) == ("Take the edge item", "Row 4")


def test_ok_on_the_undone_message_only_takes_it_away(box_factory):
    """The trial's case: after an undo the menu under "Undone: ..." was not seen yet, and an OK
    meant for the message picked "Take an item" there."""
    box = box_factory(["Anna", "Ben"])
    weigh_on_row_8(box)
    box.put("right", 30)
    box.idle(1.5)
    box.tap("s1.B")                                # all on
    box.idle(4.0)
    box.put("right", -30)
    box.idle(2.0)
    count = len(box.app.session.actions)
    box.hold("host.back", 1.2)                     # undo
    assert box.app.flash_view is not None and "Undone:" in box.app.flash_view.as_text()
    undone = len(box.app.session.actions)
    assert undone == count - 1
    box.tap("host.ok")                             # meant for the message
    assert box.app.flash_view is None and len(box.app.session.actions) == undone
    box.idle(0.5)
    box.tap("host.ok")                             # now on the menu it shows
    assert len(box.app.session.actions) == undone + 1
