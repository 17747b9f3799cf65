"""Tante Trudels Trödel on the device: mock pins and simulated pans in, screens and journal out."""

from __future__ import annotations

import re

import pytest

from support import HeadlessSim, act, one_pan_box, start_header
from spielleiter.device.cli.demo import play
from spielleiter.device.modes.tante_trudels_troedel.demo import PLAYERS, script
from spielleiter.device.screen.render import CHARS

GAME = "tante-trudels-troedel"
DECIMAL = re.compile(r"\d[.,]\d")
POTD_G = 13.2
WEIGH_S = 3.0   # "all on" to a basket's verdict: settling, then the hold (weighing.py)
POTD_S = 4.0    # the Purchase of the Day is held still longer of joint stability


# -- helpers -------------------------------------------------------------------------------------
def record(box) -> list:
    """Every screen of the game shown from now on, with whether the game was over then."""
    seen: list = []
    show = box.app._show

    def spy(view):
        session = box.app.session
        if box.app.mode == "game" and box.app.flash_view is None:
            seen.append((view, session is not None and session.state.is_over))
        show(view)

    box.app._show = spy
    return seen


def assert_screen_rules(view) -> None:
    """Lines fit the OLED: 21 characters, ``big`` 10, and no more body lines than there is room
    for (a menu scrolls)."""
    for text in (view.title, view.footer, *view.lines):
        assert len(text) <= CHARS, view.as_text()
    if view.big:
        assert len(view.big) <= CHARS // 2, view.as_text()
    room = (64 - (11 if view.footer else 0) - (12 if view.title else 0) - (24 if view.big else 0)
            ) // 10
    assert view.cursor is not None or len(view.lines) <= room, view.as_text()


def start(box, players=("Anna", "Ben"), seed: int = 7, table: dict | None = None,
          **options) -> None:
    start_header(box, GAME, players, options, seed, table)


def state(box):
    return box.app.session.state


def referee(box):
    return box.app.referee


def read_pages(box) -> None:
    while referee(box).pages:
        box.tap("host.ok")


def purchase(box, grams: float = POTD_G, rolls=(6, 4, 3)) -> None:
    """The maker's three rolls and the Purchase's weight, as the link would send them."""
    maker = state(box).potd_maker
    for value in rolls:
        act(box, type="roll", player=maker, value=value)
    act(box, type="weigh_potd", player=maker, grams=grams)
    read_pages(box)


def to_the_weighing(box) -> None:
    """Everybody rolls 6 until all baskets are at the weighing (Anna first, then Ben)."""
    while state(box).phase == "play":
        player = state(box).turn
        act(box, type="roll", player=player, value=6)
        act(box, type="move", player=player, direction="forward")
        if state(box).turn == player and state(box).phase == "play":
            act(box, type="end_turn", player=player)
    read_pages(box)


# -- the whole game ------------------------------------------------------------------------------
def test_the_demo_plays_a_whole_game_on_the_pans_and_no_gram_shows_before_the_end(box_factory):
    box = box_factory(list(PLAYERS))
    seen = record(box)
    play(box, script())
    st = state(box)
    assert st.is_over and st.winners() == ("Anna",)
    assert st.potd_g - st.basket_g["Anna"] == pytest.approx(0.1, abs=0.03)   # 0.1 g decides
    assert st.basket_g["Carla"] - st.potd_g == pytest.approx(0.1, abs=0.03)
    assert {a["type"] for a in box.app.session.actions} >= {
        "coupon_player", "coupon_shop", "weigh", "exchange"}
    assert any(a.get("direction") == "back" for a in box.app.session.actions)
    verdicts = [v.big for i, (v, _) in enumerate(seen)
                if v.title.endswith("basket is") and (i == 0 or seen[i - 1][0] != v)]
    assert verdicts[:3] == ["LIGHTER"] * 2 + ["HEAVIER"]
    before = [v for v, over in seen if not over]
    assert before and not [v.as_text() for v in before if DECIMAL.search(v.as_text())]
    for view, _over in seen:
        assert_screen_rules(view)
    after = [v.as_text() for v, over in seen if over]
    assert any("13.10 g" in text or "13.09 g" in text or "13.11 g" in text for text in after)
    assert box.last_view.title == "The winner is" and box.last_view.big == "Anna"


def test_the_box_rolls_from_the_seed_with_a_buzzer_roll_and_shows_the_number_big(box_factory):
    box = box_factory(["Anna", "Ben"])
    start(box, seed=11)
    first = state(box).draw("roll")               # the engine's own die, from the seed
    box.hold("s1.B", 0.05)
    assert box.app.session.actions == []          # still rolling: ticks of the buzzer
    assert box.last_view.title == "Anna rolls"
    box.idle(0.6)
    assert box.app.session.actions[0]["value"] == first
    assert box.last_view.big == f"Row {first}"
    read_pages(box)
    second = state(box).draw("roll")
    box.tap("s1.B")
    box.idle(0.5)
    assert box.app.session.actions[1]["value"] == second


def test_the_die_of_a_game_is_the_same_on_every_replay():
    from spielleiter.games import GAMES

    info = GAMES["tante-trudels-troedel"]
    game, actions = info.new_game(["Anna", "Ben"], {}, seed=11), []
    for _ in range(2):
        actions.append({"type": "roll", "player": game.potd_maker, "value": game.draw("roll")})
        game, _events = game.apply(actions[-1])
    again = info.new_game(["Anna", "Ben"], {}, seed=11)
    for action in actions:                        # a resumed game: the journal replayed
        again, _events = again.apply(action)
    assert again.draw("roll") == game.draw("roll") and again.actions_done == 2


def test_the_table_enters_its_own_die_at_the_station(box_factory):
    box = box_factory(["Anna", "Ben"])
    start(box, table={"die": "table"})
    assert box.last_view.big == "1"
    box.tap("s1.A")                                # 1 -> 6
    assert box.last_view.big == "6"
    box.tap("s1.B")
    assert box.app.session.actions[-1]["value"] == 6


def test_every_refused_press_says_why(box_factory):
    box = box_factory(["Anna", "Ben"])
    start(box)
    box.tap("s2.B")
    assert "Anna's turn" in " ".join(box.last_view.lines)
    box.idle(2)
    box.tap("s1.A")
    assert "B rolls the die" in " ".join(box.last_view.lines)
    box.idle(2)
    purchase(box)
    act(box, type="roll", player="Anna", value=6)
    box.tap("s1.A")                                # only forward: move, then B
    assert "Move your basket," in box.last_view.lines
    box.idle(2)
    box.tap("s3.B")
    assert "Nobody plays at" in box.last_view.lines


def test_a_seat_without_a_station_plays_at_the_host_panel(box_factory):
    names = ["Anna", "Ben", "Carla", "Dirk"]
    box = box_factory(names)
    seen = record(box)
    start(box, players=names, potd_maker="Dirk", first="Dirk")
    assert box.last_view.footer == "OK: roll the die"
    for _ in range(3):
        box.tap("host.ok")
        box.idle(0.5)
        read_pages(box)
    assert box.last_view.footer == "OK: all on"
    box.put("left", POTD_G)
    box.tap("host.ok")
    box.idle(POTD_S)
    read_pages(box)
    assert state(box).turn == "Dirk" and box.last_view.big == "Dirk"
    box.tap("host.ok")
    box.idle(0.5)
    assert box.last_view.footer == "Moved? OK: yes"
    box.tap("host.ok")
    assert box.last_view.footer == "NEXT move  OK go"
    box.tap("host.next")
    assert box.last_view.cursor == 1
    for view, _over in seen:
        assert_screen_rules(view)


# -- weighing on a scales row ---------------------------------------------------------------------
def to_a_scales_row(box) -> None:
    """Anna on row 8 (a scales row) with one item, the Purchase on the left pan."""
    start(box)
    purchase(box)
    box.put("left", POTD_G)
    act(box, type="roll", player="Anna", value=5)
    act(box, type="move", player="Anna", direction="forward")
    act(box, type="take", player="Anna", coupon=False)
    act(box, type="end_turn", player="Anna")
    act(box, type="roll", player="Ben", value=1)
    act(box, type="move", player="Ben", direction="forward")
    act(box, type="end_turn", player="Ben")
    act(box, type="roll", player="Anna", value=3)
    act(box, type="move", player="Anna", direction="forward")
    labels = box.last_view.lines
    for _ in range(labels.index("Weigh your basket")):
        box.tap("s1.C")
    box.tap("s1.B")
    assert box.last_view.title == "Anna weighs"


def test_a_weighing_waits_for_all_on_and_never_judges_while_a_hand_presses(box_factory):
    box = box_factory(["Anna", "Ben"])
    to_a_scales_row(box)
    box.put("right", 12.9)
    box.idle(5)                                    # on and still, but not "all on" yet
    assert box.app.session.actions[-1]["type"] == "move"
    box.scales.sim.press("right", 40.0, 2.5)       # a hand on the pan ...
    box.tap("s1.B")                                # ... while the other presses "all on"
    box.idle(1.2)
    assert box.last_view.big == "WAIT"
    assert box.app.session.actions[-1]["type"] != "weigh"
    box.idle(3.0)
    assert box.app.session.actions[-1]["type"] == "weigh"
    assert box.last_view.big == "LIGHTER"
    assert state(box).last_weigh == "lighter"


def test_an_empty_pan_just_waits_and_a_full_one_is_emptied_first(box_factory):
    box = box_factory(["Anna", "Ben"])
    seen = record(box)
    box.put("right", 3.0)                          # left over from before
    box.idle(2)
    to_a_scales_row(box)
    assert box.last_view.lines == ("First take everything", "off the right pan.")
    box.tap("s1.B")                                # refused: says why
    assert box.last_view.lines == ("First take everything", "off the right pan.")
    assert box.last_view.title == "Spielleiter"
    box.put("right", -3.0)
    box.idle(2)
    box.tap("s1.B")                                # all on ... but nothing is
    box.idle(4)
    assert box.last_view.lines[-1] == "It is still empty."
    box.put("right", 13.4)
    box.idle(WEIGH_S)
    assert box.last_view.big == "HEAVIER"
    for view, _over in seen:
        assert_screen_rules(view)


def test_the_purchase_must_lie_on_the_left_pan_for_a_verdict(box_factory):
    box = box_factory(["Anna", "Ben"])
    to_a_scales_row(box)
    box.put("left", -POTD_G)                       # someone took the Purchase off
    box.put("right", 13.0)
    box.idle(1)
    box.tap("s1.B")
    box.idle(4)
    assert "Purchase" in " ".join(box.last_view.lines)
    box.put("left", POTD_G)
    box.idle(WEIGH_S + 0.5)
    assert box.last_view.big == "LIGHTER"


def test_a_pan_that_stops_answering_pauses_the_weighing_and_resumes(box_factory):
    box = box_factory(["Anna", "Ben"])
    seen = record(box)
    to_a_scales_row(box)
    chip = box.scales.sim.cells["right"].chip
    chip.disconnect()
    box.idle(1.5)
    assert box.last_view.title == "Scale not answering"
    box.put("right", 13.2)
    box.tap("s1.B")
    assert "Scale not answering:" in box.last_view.lines
    box.idle(1)
    chip.reconnect()
    box.idle(2)
    assert box.last_view.title == "Anna weighs"
    box.tap("s1.B")
    box.idle(WEIGH_S)
    assert box.last_view.big == "BALANCED"
    for view, _over in seen:
        assert_screen_rules(view)


def test_a_scales_row_weighing_can_be_cancelled(box_factory):
    box = box_factory(["Anna", "Ben"])
    to_a_scales_row(box)
    box.tap("s1.C")
    assert box.last_view.title == "Anna: row 8"
    assert "Weigh your basket" in box.last_view.lines


# -- the end ---------------------------------------------------------------------------------------
def weigh_basket(box, station: str, grams: float, pan: str = "right") -> None:
    """Items on, "all on", the verdict; the page read, the items off and the empty pan seen."""
    box.put(pan, grams)
    box.tap(station)
    box.idle(WEIGH_S)
    read_pages(box)
    box.put(pan, -grams)
    box.idle(1.5)


def test_TT6_the_end_weighs_in_arrival_order_then_reveals_the_grams(box_factory):
    box = box_factory(["Anna", "Ben"])
    seen = record(box)
    start(box)
    purchase(box)
    box.put("left", POTD_G)
    to_the_weighing(box)
    assert box.last_view.title == "Anna's basket"
    assert box.last_view.lines == ("Your basket is empty.", "Leave the pan empty",
                                   "and press B.")     # the box counted no item for Anna
    weigh_basket(box, "s1.B", 12.9)
    assert box.last_view.title == "Ben's basket"
    box.put("right", 13.1)
    box.tap("s2.B")
    box.idle(WEIGH_S)
    assert state(box).is_over and state(box).winners() == ("Ben",)
    texts = []
    while referee(box).pages:
        texts.append(box.last_view.as_text())
        box.tap("host.ok")
    assert "13.20 g" in texts[0] and "[Anna's basket]" in texts[1]
    assert "lighter: good" in texts[1] and "lighter: good" in texts[2]
    assert texts[3].startswith("[The baskets]") and "1. Ben" in texts[3]
    assert box.last_view.title == "The winner is" and box.last_view.big == "Ben"
    assert not [v for v, over in seen if not over and DECIMAL.search(v.as_text())]


def test_undo_during_the_weighing_asks_to_put_the_last_basket_back(box_factory):
    box = box_factory(["Anna", "Ben"])
    start(box)
    purchase(box)
    box.put("left", POTD_G)
    to_the_weighing(box)
    weigh_basket(box, "s1.B", 12.9)
    box.put("right", 13.0)                         # Ben's basket is going on ...
    box.hold("host.back", 1.2)                     # ... when the table undoes Anna's
    box.idle(2)
    assert state(box).waiting_for() == ("Anna",)
    assert box.last_view.title == "Anna: weigh again"
    assert box.last_view.lines == ("Put your items back", "on the right pan.")
    box.tap("host.ok")
    assert box.last_view.lines[0] == "First take everything"  # Ben's items come off first
    box.put("right", -13.0)
    box.idle(1.5)
    weigh_basket(box, "s1.B", 12.9)
    assert state(box).basket_g["Anna"] == pytest.approx(12.9, abs=0.03)


def test_TT7_the_kids_variant_reveals_the_heaviest_basket(box_factory):
    box = box_factory(["Anna", "Ben"], pans=False)
    start(box, goal="heaviest")
    purchase(box)
    to_the_weighing(box)
    assert box.last_view.title == "No scales"      # a box without load cells cannot weigh
    act(box, type="weigh_basket", player="Anna", grams=9.5)   # the link can
    act(box, type="weigh_basket", player="Ben", grams=14.25)
    texts = []
    while referee(box).pages:
        texts.append(box.last_view.as_text())
        box.tap("host.ok")
    assert "The heaviest wins" in texts[0] and "14.25 g" in texts[2]
    assert box.last_view.title == "The winner is" and box.last_view.big == "Ben"


# -- one pan alone ---------------------------------------------------------------------------------
def test_with_one_pan_the_purchase_is_remembered_and_baskets_use_the_same_pan(tmp_path):
    with one_pan_box(tmp_path) as box:
        seen = record(box)
        start(box)
        for _ in range(3):
            box.tap("s1.B")
            box.idle(0.5)
            read_pages(box)
        assert box.last_view.title == "Purchase of the Day"
        assert "on the pan" in " ".join(box.last_view.lines)
        box.put("left", POTD_G)
        box.tap("s1.B")
        box.idle(POTD_S)
        assert state(box).phase == "play"
        assert "remembers" in " ".join(box.last_view.lines)
        read_pages(box)
        box.put("left", -POTD_G)                   # the Purchase comes off
        box.idle(1.5)
        to_the_weighing(box)
        weigh_basket(box, "s1.B", 13.0, "left")
        weigh_basket(box, "s2.B", 12.7, "left")
        assert state(box).is_over and state(box).winners() == ("Anna",)
        assert state(box).potd_g == pytest.approx(POTD_G, abs=0.03)
        for view, over in seen:
            assert_screen_rules(view)
            assert over or not DECIMAL.search(view.as_text())


# -- a power cut mid-weighing ----------------------------------------------------------------------
def test_sigkill_mid_weighing_resumes_and_the_weighing_goes_on(box_factory, tmp_path):
    state_dir = tmp_path / "box"
    box = box_factory(["Anna", "Ben"], state_dir=state_dir, pans=False)
    start(box)
    purchase(box)
    to_the_weighing(box)
    act(box, type="weigh_basket", player="Anna", grams=12.9)
    count = len(box.app.session.actions)
    box.close()

    sim = HeadlessSim(state_dir)
    assert sim.last["state"]["phase"] == "weighing" and sim.last["actions"] == count
    sim.send("idle 3")
    sim.send(f"put left {POTD_G}")
    sim.send("put right 13.1")
    assert sim.send("tap s2.B")["actions"] == count   # all on, still weighing ...
    sim.kill()                                    # ... and the power goes

    sim = HeadlessSim(state_dir)
    assert sim.last["mode"] == "game" and sim.last["actions"] == count
    assert sim.last["state"]["waiting_for"] == ["Ben"]
    sim.send("idle 2")                            # the pans kept what lay on them: the
    sim.send("put right -13.1")                   # Purchase stays, the basket comes off ...
    sim.send("idle 1.5")
    sim.send("put right 13.1")                    # ... and on again, then "all on"
    sim.send("idle 1")
    sim.send("tap s2.B")
    reply = sim.send("idle 3")
    assert reply["actions"] == count + 1 and reply["state"]["phase"] == "over"
    assert reply["state"]["winners"] == ["Ben"]    # 13.1 g: the heavier of two under 13.2 g
    sim.close()


def test_a_verdict_and_what_the_referee_keeps_of_it_are_one_commit(box_factory):
    """A scales-row weighing's verdict, the Purchase's reference read beside it and the end of
    the weighing under way were three durable commits (a note, the action, a note): a power cut
    between them left a verdict without its reference. Now they are one."""
    box = box_factory(["Anna", "Ben"])
    to_a_scales_row(box)
    journal = box.app.journal
    commits = []
    write = journal.write

    def counted():
        commits.append(len(box.app.session.actions))
        return write()

    journal.write = counted
    box.put("right", 12.9)
    box.idle(2)
    box.tap("s1.B")                                # all on
    box.idle(3.0)
    assert box.app.session.actions[-1]["type"] == "weigh"
    assert len(commits) == 1                       # the verdict, with its notes
    from spielleiter.device.modes.tante_trudels_troedel.memory import REF_NOTE, WEIGH_NOTE

    assert journal.notes(REF_NOTE, 1)[0]["g"] == pytest.approx(POTD_G, abs=0.2)
    assert journal.notes(WEIGH_NOTE, 1)[0]["at"] is None  # no weighing under way any more
