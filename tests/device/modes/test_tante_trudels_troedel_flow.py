"""Tante Trudels Trödel's referee goes by one explicit step (flow.py): what the box itself is
busy with (the die rolling, a weighing, a basket's items still on the pan) before what the
engine waits for (the die, the move, the turn's menu); a key and the screen follow the step."""

from __future__ import annotations

from types import SimpleNamespace

from support import act
from spielleiter.device.modes.tante_trudels_troedel.flow import (Rolling, TurnStep, TakingOff,
                                                                 Weighing, step_of)
from spielleiter.device.modes.tante_trudels_troedel.public import Public
from spielleiter.device.modes.tante_trudels_troedel.weighing import TakeOff
from spielleiter.games.tante_trudels_troedel import new_game
from test_tante_trudels_troedel_referee import (POTD_G, POTD_S, WEIGH_S, read_pages,
                                                referee, start, state, to_a_scales_row)


def views():
    """The game as the table sees it: before the Purchase's rolls, at a roll, a move, the menu."""
    st = new_game(["Anna", "Ben"], {}, 7)
    out = {"potd": Public.of(st.public())}
    for value in (6, 4, 3):
        st, _ = st.apply({"type": "roll", "player": "Anna", "value": value})
    st, _ = st.apply({"type": "weigh_potd", "player": "Anna", "grams": POTD_G})
    out["roll"] = Public.of(st.public())
    st, _ = st.apply({"type": "roll", "player": "Anna", "value": 2})
    out["move"] = Public.of(st.public())
    st, _ = st.apply({"type": "move", "player": "Anna", "direction": "forward"})
    out["menu"] = Public.of(st.public())
    return out


def test_the_step_is_what_the_box_is_busy_with_before_what_the_engine_waits_for():
    seen = views()
    weighing = Weighing(SimpleNamespace())  # the step only asks what the box is busy with
    taking_off = TakingOff(TakeOff("Anna", "right"))
    assert [step_of(None, False, False, seen[k]) for k in ("potd", "roll", "move", "menu")] == [
        TurnStep.ROLL, TurnStep.ROLL, TurnStep.MOVE, TurnStep.MENU]
    for pub in seen.values():
        assert step_of(taking_off, True, True, pub) is TurnStep.TAKE_OFF
        assert step_of(Rolling("Anna"), False, True, pub) is TurnStep.ROLLING
        assert step_of(weighing, False, True, pub) is TurnStep.WEIGHING
        assert step_of(None, False, True, pub) is TurnStep.NO_SCALES   # needed, and no pan runs it
        assert step_of(taking_off, False, False, pub) is step_of(None, False, False, pub)


def test_a_game_walks_through_the_steps_and_the_screen_follows_them(box_factory):
    box = box_factory(["Anna", "Ben"])
    start(box)
    ref = referee(box)
    assert ref.work.step() is TurnStep.ROLL and box.last_view.footer == "B: roll the die"
    box.hold("s1.B", 0.05)                            # a short press: the roll takes 0.4 s
    assert ref.work.step() is TurnStep.ROLLING and box.last_view.title == "Anna rolls"
    box.hold("s1.A", 0.05)                            # a key while it rolls: refused, says why
    assert box.app.flash_view is not None and "rolling" in box.app.flash_view.as_text()
    box.idle(0.6)
    assert ref.work.step() is TurnStep.ROLL and len(box.app.session.actions) == 1
    for value in (4, 3):
        act(box, type="roll", player="Anna", value=value)
    read_pages(box)
    assert ref.work.step() is TurnStep.WEIGHING and ref.work.weigher.job.kind == "potd"
    box.put("left", POTD_G)
    box.tap("s1.B")
    box.idle(POTD_S)
    read_pages(box)
    assert state(box).phase == "play" and ref.work.step() is TurnStep.ROLL and ref.work.weigher is None
    act(box, type="roll", player="Anna", value=2)
    assert ref.work.step() is TurnStep.MOVE and box.last_view.footer == "Moved? B: yes"
    box.tap("s1.B")
    assert ref.work.step() is TurnStep.MENU and "Done" in box.last_view.lines


def test_a_scales_row_weighing_then_the_items_to_take_off(box_factory):
    box = box_factory(["Anna", "Ben"])
    to_a_scales_row(box)
    ref = referee(box)
    assert ref.work.step() is TurnStep.WEIGHING and ref.work.weigher.job.kind == "weigh"
    box.put("right", 12.9)
    box.tap("s1.B")
    box.idle(WEIGH_S)
    read_pages(box)
    assert ref.work.step() is TurnStep.TAKE_OFF and box.last_view.lines[0] == "Take your items"
    box.tap("s1.A")                                   # refused while they lie there
    assert "Take your items" in box.app.flash_view.as_text()
    box.put("right", -12.9)
    box.idle(1.5)
    assert ref.work.step() is TurnStep.MENU and ref.work.busy is None


def test_without_pans_the_weighing_step_says_the_box_has_no_scales(box_factory):
    box = box_factory(["Anna", "Ben"], pans=False)
    start(box)
    for value in (6, 4, 3):
        act(box, type="roll", player="Anna", value=value)
    read_pages(box)
    ref = referee(box)
    assert ref.work.step() is TurnStep.NO_SCALES and box.last_view.title == "No scales"
    box.tap("s1.B")
    assert "scales to weigh on" in box.app.flash_view.as_text()
