"""The warm-up notice on the screens where weighing matters: after power-on, until the pans' zeros
are steady, "Scales warming up"; play goes on meanwhile. One wording, in a place of its own: a row
under the title, never in a title's place, beside it, or over a screen without a title."""

from __future__ import annotations

import pytest

from spielleiter.device import i18n
from spielleiter.device.pans import warm_up
from spielleiter.device.screen.fonts import BIG_SIZES
from spielleiter.device.i18n import _
from spielleiter.device.modes import MODES
from spielleiter.device.modes.learning import screens as LS
from spielleiter.device.screen.render import View, layout, letters, misfits, render
from spielleiter.device.journal.roster import Roster
from support import act, assert_frame, start_header

NOTICE = "(Scales warming up)"  # on its row: an aside in brackets


def warm(box) -> None:
    """Let the empty pans show steady zeros (``WarmUp``: two minutes of an unmoving zero)."""
    for _second in range(200):
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


def test_the_scale_tool_says_the_one_wording_as_its_title_and_weighs_meanwhile(box_factory):
    box = box_factory()
    assert box.last_view.notice == ""                      # the home menu weighs nothing
    open_mode(box, "scale")
    box.idle(1.0)
    view = box.last_view
    assert warm_up.warming(box.scales) and view.title == warm_up.notice_text()
    assert view.notice == ""
    assert_frame(box.frame(), "warm_up/scale_en")
    box.put("left", 50.0)                                   # it still weighs meanwhile
    box.idle(2.0)
    line = box.last_view.lines[0]
    assert line.startswith("L") and line.endswith("*") and abs(float(line.split()[1]) - 50) < 0.05


def test_the_learning_station_keeps_its_question_and_lets_the_child_play(box_factory):
    box = box_factory()
    Roster(box.journal).add("Mia")
    open_mode(box, "learning")
    assert box.last_view.title == "Who is learning?" and box.last_view.notice == ""
    box.tap("host.ok")                                      # Mia
    box.tap("host.ok")                                      # the first quiz: which is heavier
    box.idle(1.0)
    view = box.last_view                                    # the question and the big word in
    assert view.big == "BOTH" and view.bar == "Which is heavier?"  # its largest size leave no
    assert layout(view).size == BIG_SIZES[0] and view.notice == ""  # room for the notice
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
    assert box.app.referee.work.weigher is None and box.last_view.notice == ""  # the rolls first
    maker = box.app.session.state.potd_maker
    for value in (6, 4, 3):
        act(box, type="roll", player=maker, value=value)
    while box.app.referee.pages:
        box.tap("host.ok")
    assert box.app.referee.work.weigher is not None              # the Purchase is to be weighed
    assert box.last_view.notice == NOTICE, box.last_view.as_text()
    assert box.last_view.notice_at == "row" and box.last_view.bar == box.last_view.title
    warm(box)
    box.idle(warm_up.CHECK_S + 0.5)                          # looked at again: gone
    assert box.last_view.notice == "" and box.app.referee.work.weigher is not None


def test_no_notice_where_it_would_shrink_the_big_word_or_over_a_flash(box_factory):
    full = View("", ("one line", "two lines"), big="TOO HEAVY", footer="OK next")
    marked = warm_up.with_notice(full, _Weighing(), _Warm())
    assert layout(View(full.title, full.lines, full.big, full.footer, notice=NOTICE)).size < \
        layout(full).size
    assert marked == full                                   # the big word matters more
    untitled = View("", ("Take everything off",), big="EMPTY")
    assert warm_up.with_notice(untitled, _Weighing(), _Warm()) == untitled
    box = box_factory()
    open_mode(box, "scale")
    box.app.flash("Tared")
    box.app.redraw()
    assert box.last_view.title == "Spielleiter" and box.last_view.notice == ""


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_notice_fits_a_row_under_the_title_in_both_languages(language):
    i18n.use(language)
    load = View(_("Purchase of the Day"), (_("Put the 3 items"), _("on the left pan")),
                footer=_("OK: all on"))
    view = warm_up.with_notice(load, _Weighing(), _Warm())
    assert view.notice == f"({warm_up.notice_text()})" and view.notice_at == "row"
    assert view.bar == load.title and not misfits(view), view.as_text()
    assert layout(view).body_top == layout(load).body_top + 12  # the body a row lower, all of it
    assert_frame(render(view), f"warm_up/notice_{language}")


@pytest.mark.parametrize("language, title", [("en", "Anna's basket"), ("de", "Tageskauf")])
def test_a_wait_screen_without_a_free_row_keeps_its_title_alone(language, title):
    i18n.use(language)
    wait = View(title, (_("Hands off the pans"),), big=_("WAIT"), footer=_("BACK: cancel"))
    assert warm_up.with_notice(wait, _Weighing(), _Warm()) == wait  # never squeezed beside it


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_warm_up_notice_never_covers_a_screens_idea(language):
    """A verdict without a title, an instruction's first line: the notice never reads as them."""
    i18n.use(language)
    verdict = LS.not_quite(_("NOT YET"), _("Try again!"))
    instruction = View("", (_("Put the 3 items"), _("on the left pan")), footer=_("OK: all on"))
    for view in (verdict, instruction):
        marked = warm_up.with_notice(view, _Weighing(), _Warm())
        assert marked == view and marked.bar == view.title


def test_the_warm_up_state_has_one_wording():
    for language, text in (("en", "Scales warming up"), ("de", "Waage wärmt auf")):
        i18n.use(language)
        assert warm_up.notice_text() == text
    assert not hasattr(warm_up, "notice_word")


def test_a_title_never_gives_way_to_the_notice():
    long_title = View("Purchase of the Day", ("Hands off the pans",), big="WAIT",
                      footer="BACK: cancel")
    assert warm_up.with_notice(long_title, _Weighing(), _Warm()) == long_title  # no room: none
    for view in (View("Scale  (* = stable)", ("L", "R", "Balanced"), footer="OK tare"),
                 View("Scale", ("L", "R", "Balanced"), footer="OK tare"), long_title,
                 View("Anna's basket", ("Hands off the pans",), big="WAIT"), LS.take_off("order")):
        marked = warm_up.with_notice(view, _Weighing(), _Warm())
        drawn = "".join(letter.char for letter in letters(marked) if letter.part == "title")
        assert drawn == view.title.replace(" ", ""), marked   # every letter of it, drawn


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
