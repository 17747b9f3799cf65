"""``spielleiter sim``'s status line tells the truth about each press: after a screen changes by
itself the box ignores short presses for ``guard_s`` (by design), and the status says so instead
of "pressed"; a press that finds the screen off only wakes it."""

from __future__ import annotations

import curses

from spielleiter.device.cli.terminal import PressReport, decode
from spielleiter.device.app import FLASH_S

CURSES = {name: getattr(curses, name) for name in
          ("KEY_ENTER", "KEY_BACKSPACE", "KEY_LEFT", "KEY_RIGHT")}


def changed_by_itself(box) -> None:
    """A flash ends by its timer: the screen changed without anybody pressing."""
    box.runtime.post(lambda: box.app.flash("Hello"))
    box.runtime.pump()
    box.idle(FLASH_S + 0.05)                           # it has just gone


def test_a_press_right_after_a_screen_change_is_reported_as_ignored(box_factory):
    box = box_factory()
    report = PressReport(box.app)
    box.tap("host.ok", settle=0)                       # home -> the game's menu: its own screen
    assert report.latest() == "pressed OK"
    box.tap("host.next", settle=0)                     # 80 ms later: it counts
    assert report.latest() == "pressed NEXT" and box.last_view.cursor == 1
    box.tap("host.back", settle=0.5)
    changed_by_itself(box)
    screen = box.last_view.lines
    box.tap("host.next", settle=0)                     # within the guard of a screen that
    assert report.latest() == "ignored NEXT: the screen had just changed"  # changed itself
    assert box.last_view.lines == screen               # and indeed nothing moved
    box.idle(0.5)
    box.tap("host.next")
    assert report.latest() == "pressed NEXT" and box.last_view.cursor == 1
    assert report.latest() is None                     # each outcome is told once


def test_fast_presses_tell_the_last_outcome_and_count_the_ignored_ones(box_factory):
    box = box_factory()
    report = PressReport(box.app)
    box.tap("host.ok", settle=0.5)
    changed_by_itself(box)
    box.tap("host.next", settle=0)
    box.tap("host.next", settle=0.5)
    box.tap("host.next", settle=0)
    assert report.latest() == ("pressed NEXT (2 more ignored: the screen had just "
                               "changed)")


def test_a_hold_counts_even_right_after_a_screen_change(box_factory):
    box = box_factory()
    report = PressReport(box.app)
    box.tap("host.ok", settle=0)
    box.hold("host.back", box.config.hold_s + 0.2)
    assert report.latest() == "held BACK"


def test_the_typed_note_says_a_press_on_a_dark_screen_only_wakes_it(box_factory):
    box = box_factory()
    report = PressReport(box.app)
    assert report.typed("s1.A", False) == "pressing Red A"
    assert report.typed("host.back", True) == "holding BACK"
    box.app.saver.configure(255, 1.0)
    box.idle(5.0)
    assert box.app.saver.state == "off"
    assert report.typed("host.ok", False) == "OK wakes the screen (the press does nothing else)"
    box.tap("host.ok")
    assert report.latest() is None and box.app.mode == "home"   # woken, nothing else


def test_keys_decode_to_the_characters_the_key_maps_use():
    assert decode(10, CURSES) == decode(13, CURSES) == decode(curses.KEY_ENTER, CURSES) == "\n"
    assert decode(127, CURSES) == decode(curses.KEY_BACKSPACE, CURSES) == "\b"
    assert decode(curses.KEY_LEFT, CURSES) == "\b" and decode(curses.KEY_RIGHT, CURSES) == "n"
    assert decode(27, CURSES) == "\x1b" and decode(ord("["), CURSES) == "["
    assert decode(curses.KEY_F1, CURSES) == ""


def test_the_status_line_names_keys_as_the_box_does_in_its_language(box_factory):
    from spielleiter.device import i18n
    box = box_factory()
    report = PressReport(box.app)
    try:
        i18n.use("de")
        assert report.describe("host.next", False, False) == "NEXT gedrückt"
        assert report.describe("s1.A", False, False) == "Rot A gedrückt"
        i18n.use("en")
        assert report.describe("s1.A", False, False) == "pressed Red A"
    finally:
        i18n.use("en")
