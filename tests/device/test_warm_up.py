"""The warm-up notice on the screens where weighing matters (issue 20): after power-on, until the
pans' zeros are steady, "Warming up: play on" in the title bar; play goes on meanwhile."""

from __future__ import annotations

import pytest

from spielleiter.device import i18n, warm_up
from spielleiter.device.fonts import BIG_SIZES
from spielleiter.device.modes import MODES
from spielleiter.device.modes.learning import screens as LS
from spielleiter.device.screens import View, layout, misfits, render
from spielleiter.device.roster import Roster
from support import act, assert_frame, start_header

NOTICE = "Warming up: play on"


def warm(box) -> None:
    """Let the empty pans show steady zeros (``WarmUp``: two minutes of an unmoving zero)."""
    for _ in range(200):
        if not any(s.warming for s in box.scales.snapshots().values()):
            return
        box.idle(1.0)
    raise AssertionError("the pans never became warm")


def open_mode(box, name: str) -> None:
    while MODES[box.app.cursor].name != name:
        box.tap("host.next")
    box.tap("host.ok")


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def test_the_scale_tool_says_the_scales_warm_up_until_the_zeros_are_steady(box_factory):
    box = box_factory()
    assert box.last_view.notice == ""                      # the home menu weighs nothing
    open_mode(box, "scale")
    box.idle(1.0)
    view = box.last_view
    assert view.notice == NOTICE and view.title == "Scale  (* = stable)"
    assert view.as_text().endswith(f"! {NOTICE}")
    assert_frame(box.frame(), "warm_up/scale_en")
    box.put("left", 50.0)                                   # it still weighs meanwhile
    box.idle(2.0)
    line = box.last_view.lines[0]
    assert line.startswith("L") and line.endswith("*") and abs(float(line.split()[1]) - 50) < 0.05
    box.put("left", -50.0)
    warm(box)
    box.idle(warm_up.CHECK_S + 0.5)                          # looked at again: gone
    assert box.last_view.notice == "" and box.last_view.title == "Scale  (* = stable)"


def test_the_learning_station_shows_the_notice_in_a_quiz_and_lets_the_child_play(box_factory):
    box = box_factory()
    Roster(box.journal).add("Mia")
    open_mode(box, "learning")
    assert box.last_view.title == "Who is learning?" and box.last_view.notice == ""
    box.tap("host.ok")                                      # Mia
    box.tap("host.ok")                                      # the first quiz: which is heavier
    box.idle(1.0)
    view = box.last_view
    assert view.big == "BOTH" and view.notice == NOTICE
    assert layout(view).size == BIG_SIZES[0] and not misfits(view)  # the big word keeps its size
    assert_frame(box.frame(), "warm_up/learning_en")
    box.put("left", 300.0)
    box.put("right", 120.0)
    box.idle(2.0)
    box.tap("s1.A")
    box.idle(2.0)
    assert box.last_view.big == "YES!"                      # not blocked: scored while warming


def test_a_trudel_weighing_shows_the_notice_and_the_rest_of_the_game_does_not(box_factory):
    box = box_factory(["Anna", "Ben"])
    start_header(box, "tante-trudels-troedel", ("Anna", "Ben"), {}, 7)
    assert box.app.referee.weigher is None and box.last_view.notice == ""  # the rolls first
    maker = box.app.session.state.potd_maker
    for value in (6, 4, 3):
        act(box, type="roll", player=maker, value=value)
    while box.app.referee.pages:
        box.tap("host.ok")
    assert box.app.referee.weigher is not None              # the Purchase is to be weighed
    assert box.last_view.notice == NOTICE, box.last_view.as_text()


def test_no_notice_where_it_would_shrink_the_big_word_or_over_a_flash(box_factory):
    full = View("", ("one line", "two lines"), big="TOO HEAVY", footer="OK next")
    marked = warm_up.with_notice(full, _Weighing(), _Warm())
    assert layout(View(full.title, full.lines, full.big, full.footer, notice=NOTICE)).size < \
        layout(full).size
    assert marked == full                                   # the big word matters more
    assert warm_up.with_notice(LS.take_off("heavier"), _Weighing(), _Warm()).notice == NOTICE
    assert warm_up.with_notice(LS.take_off("heavier"), object(), _Warm()).notice == ""
    box = box_factory()
    open_mode(box, "scale")
    box.app.flash("Tared")
    box.app.redraw()
    assert box.last_view.title == "Spielleiter" and box.last_view.notice == ""


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_notice_fits_the_title_bar_in_both_languages(language):
    i18n.use(language)
    view = View(LS.quiz_title("grams"), (LS.on_the_pan(2),), big="1 THING",
                notice=warm_up.notice_text())
    assert not misfits(view), view.as_text()
    assert layout(view).size == BIG_SIZES[0]
    assert_frame(render(view), f"warm_up/notice_{language}")


class _Weighing:
    """A screen whose mode weighs (as the learning station's quiz and the Scale tool do)."""

    class mode:  # noqa: N801 - a stand-in for a tool object
        @staticmethod
        def weighs() -> bool:
            return True


class _Warm:
    """Pans that still warm up, as ``PanSnapshot.warming`` says."""

    def snapshots(self) -> dict:
        class Shot:
            warming = True
        return {"left": Shot()}
