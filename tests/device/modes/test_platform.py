"""The platform every mode shares: the registry, pacing, the guard, set-up options, weights."""

from __future__ import annotations

from support import open_game
from spielleiter.device.inputs import Press, Weight
from spielleiter.device.modes import GAME_MODES, MODES, REGISTRY, demos
from spielleiter.device.modes.base import ModeInfo, Referee
from spielleiter.games.core import Option
from spielleiter.device.modes.setup import SetupFlow
from spielleiter.device.modes.tatort_tonne.referee import COUNTDOWN_S
from spielleiter.games import GAMES

NAMES = ["Blue", "Green", "Yellow", "Anna", "Ben"]


def test_every_registered_game_has_a_mode_and_every_mode_a_home_menu_entry(box_factory):
    assert set(GAME_MODES) == set(GAMES)
    box = box_factory()
    assert box.last_view.lines == tuple(m.title for m in MODES)
    assert {"scale", "settings"} <= set(REGISTRY)
    assert all(name in demos() for name in GAMES)


def open_mode(box, name: str) -> None:
    open_game(box, name)


def start_tatort_tonne(box, players: int = 3) -> None:
    open_mode(box, "tatort-tonne")
    while box.app.screens.setup.players != players:
        box.tap("host.next")
    for _ in range(3):
        box.tap("host.ok")
    assert box.app.mode == "game"


def to_the_reveal(box) -> None:
    """Blue and Green accuse Yellow, whose alibi puts them both out."""
    start_tatort_tonne(box)
    box.tap("s1.B")
    box.tap("s2.B")
    box.tap("s3.C")
    box.idle(COUNTDOWN_S)
    box.tap("s3.A")        # Blue pointed at Yellow: Yellow presses at their station
    box.tap("s3.A")        # so did Green
    assert box.last_view.title == "Accusations"
    assert box.last_view.lines == ("Blue > Yellow", "Green > Yellow")


def test_a_host_ok_meant_for_the_countdown_never_skips_the_accusations_a_station_opened(
        box_factory):
    box = box_factory(NAMES)
    start_tatort_tonne(box)
    box.tap("s1.B")
    box.tap("s2.B")
    box.tap("s3.C")
    box.idle(COUNTDOWN_S)
    box.tap("s3.A")
    box.hold("s3.A", 0.08)                       # Green names Yellow: the accusations show,
    box.hold("host.ok", 0.08)                    # opened by a station, and an OK at the box
    assert box.last_view.title == "Accusations"  # right then is ignored ...
    assert box.last_view.footer == "One moment ..."   # ... and shown as seen
    box.idle(0.5)
    assert box.last_view.footer == "OK: next"
    pages = [box.last_view.as_text()]
    while box.app.referee.pages:
        box.tap("host.ok")
        pages.append(box.last_view.as_text())
    assert any("ALIBI" in p and "Out: Blue, Green" in p for p in pages)


def test_pages_the_host_turns_take_the_next_ok_at_once(box_factory):
    box = box_factory(NAMES)
    to_the_reveal(box)
    box.idle(30.0)                               # nobody pressed: the page waits for OK
    seen = [box.last_view.as_text()]
    while box.app.referee.pages:
        box.tap("host.ok", settle=0.05)          # quick OKs: each one turns a page
        seen.append(box.last_view.as_text())
    assert len(seen) == len(set(seen)) >= 3      # no page was shown twice: no OK was lost


def test_ok_right_after_a_hand_over_shows_the_card_menu(box_factory):
    box = box_factory(NAMES)
    start_tatort_tonne(box, players=4)            # Anna has no station: she plays at the host
    for key in ("s1.A", "s2.A", "s3.A"):
        box.tap(key)
    box.tap("host.ok")                            # the hand-over: "Pass the box to Anna"
    assert box.last_view.title == "Pass the box to"
    box.tap("host.ok", settle=0.05)               # at once: her card menu, nothing swallowed
    assert box.last_view.title == "Anna plays"


def test_a_chosen_pace_turns_the_pages_by_itself(box_factory):
    box = box_factory(NAMES)
    open_mode(box, "settings")
    box.tap("host.next")                          # language -> pace
    box.tap("host.ok")                            # pace: wait for OK -> relaxed
    box.tap("host.ok")                            # relaxed -> fast
    assert box.app.settings.pace == "fast"
    box.tap("host.back")
    to_the_reveal(box)
    box.idle(60.0)
    assert not box.app.referee.pages


def test_settings_are_kept_in_the_journal_across_a_restart(box_factory, tmp_path):
    box = box_factory(NAMES, state_dir=tmp_path / "s")
    open_mode(box, "settings")
    box.tap("host.ok")                            # language: en -> de
    box.tap("host.next")
    box.tap("host.ok")                            # pace: wait for OK -> relaxed
    assert (box.app.settings.pace, box.app.settings.language) == ("relaxed", "de")
    box.close()
    again = box_factory(NAMES, state_dir=tmp_path / "s")
    assert (again.app.settings.pace, again.app.settings.language) == ("relaxed", "de")


def test_a_screen_the_hosts_own_press_opened_takes_the_next_press_at_once(box_factory):
    box = box_factory(NAMES)
    settings_at = [m.name for m in MODES].index("settings")
    for _ in range(settings_at):
        box.tap("host.next", settle=0.05)         # the same menu: every press counts
    assert box.app.cursor == settings_at
    box.tap("host.ok", settle=0.05)               # Settings opens ...
    box.tap("host.ok", settle=0.05)               # ... and a quick OK changes its first entry
    assert box.app.mode == "tool" and box.app.settings.language == "de"


def test_a_press_just_after_the_screen_changed_by_itself_is_ignored_and_shown_as_seen(
        box_factory):

    box = box_factory(NAMES)
    box.runtime.post(lambda: box.app.start_game(start_header_of("tatort-tonne")))
    box.runtime.pump()                            # the link started a game: a new screen
    title = box.last_view.title
    box.tap("host.back", settle=0.05)             # BACK meant for the home menu: ignored
    assert box.app.mode == "game" and box.last_view.title == title
    assert "One moment ..." in (box.last_view.footer, box.last_view.title)
    box.idle(0.5)                                 # the guard is over: the footer is back
    assert "One moment ..." not in (box.last_view.footer, box.last_view.title)
    box.tap("host.back")
    assert box.app.mode == "menu"


def start_header_of(game: str):
    from spielleiter.device.journal.header import Header
    return Header(game, tuple(NAMES[:3]), {}, 7, {})


def test_back_then_next_quickly_in_a_game_moves_the_game_menu_and_undo_asks_first(box_factory):
    box = box_factory(NAMES)
    start_tatort_tonne(box)
    box.tap("s1.A")
    box.tap("host.back", settle=0.3)              # the game menu ...
    box.tap("host.next", settle=0.05)             # ... and NEXT 0.3 s later: it counts
    box.tap("host.next", settle=0.05)
    assert box.app.mode == "menu" and box.last_view.lines[box.app.cursor] == "Undo last action"
    box.tap("host.ok", settle=0.05)               # undo asks once ...
    assert box.app.mode == "confirm_undo"
    assert box.last_view.title == "Undo?" and box.last_view.footer == "OK undo  BACK keep"
    box.tap("host.back")                          # ... BACK keeps the move
    assert box.app.mode == "menu" and len(box.app.session.actions) == 1
    box.tap("host.ok")
    box.tap("host.ok")                            # OK confirms
    assert box.app.session.actions == [] and box.app.mode == "game"


def flow(option: Option, players: int = 3) -> SetupFlow:
    class Ref(Referee):
        TABLE_OPTIONS = (option,)
    return SetupFlow(ModeInfo("x", "X", game="x", referee=Ref), NAMES, 3, 2, 4, players)


def test_a_one_of_the_players_option_offers_the_seats_and_follows_the_player_count():
    setup = flow(Option("first", None, "Who starts", kind="player"))
    assert setup.values["first"] == "Blue"
    setup.on_key("ok")
    setup.on_key("next")
    setup.on_key("next")
    assert setup.values["first"] == "Yellow" and setup.view().big == "Yellow"
    setup.on_key("back")
    setup.on_key("next")                           # 3 -> 4 players: Yellow still plays
    assert setup.players == 4 and setup.values["first"] == "Yellow"
    setup.on_key("next")                           # 4 -> 2 players: Yellow no longer does
    assert setup.players == 2 and setup.values["first"] == "Blue"


def test_a_list_option_takes_one_screen_per_value():
    setup = flow(Option("rows", (8, 18), "Scales row", tuple(range(1, 21)), kind="list",
                        hints=("row with a scales icon",)))
    setup.on_key("ok")
    assert setup.view().title == "Scales row 1 of 2" and setup.view().big == "8"
    assert setup.view().lines == ("row with a scales icon",)
    setup.on_key("next")
    setup.on_key("ok")
    assert setup.view().title == "Scales row 2 of 2"
    setup.on_key("next")
    setup.on_key("ok")
    assert setup.values["rows"] == [9, 19]
    assert "Scales row: 9, 19" in setup.view().lines and setup.on_key("ok") == "start"


def test_weights_reach_the_active_mode(box_factory, monkeypatch):
    box = box_factory(NAMES)
    open_mode(box, "scale")
    got: list[Weight] = []
    monkeypatch.setattr(box.app.screens.tool, "on_weight", lambda w: got.append(w) or True)
    box.put("left", 50.0)
    box.idle(3.0)
    assert any(w.pan == "left" and w.kind == "stable" and abs(w.grams - 50.0) < 0.5 for w in got)


def test_a_referee_gets_presses_with_their_source(box_factory, monkeypatch):
    box = box_factory(NAMES)
    start_tatort_tonne(box)
    got: list[Press] = []
    monkeypatch.setattr(box.app.referee, "on_press", lambda p: got.append(p) or True)
    box.tap("s2.C")
    box.tap("host.next")
    assert [(p.source, p.key) for p in got] == [(2, "C"), ("host", "next")]


def test_the_screen_dims_then_sleeps_and_a_press_only_wakes_it(box_factory):
    box = box_factory(NAMES, pans=False)
    levels: list = []
    box.app.saver._set_power = levels.append
    box.app.saver.configure(255, 60.0)
    box.idle(61.0)
    assert box.app.saver.state == "dim" and levels[-1] == 8
    box.idle(200.0)
    assert box.app.saver.state == "off" and levels[-1] is None
    box.tap("host.next")                          # wakes the screen, moves nothing
    assert box.app.saver.state == "on" and levels[-1] == 255 and box.app.cursor == 0
    box.tap("host.next")
    assert box.app.cursor == 1


def test_sound_brightness_and_sleep_are_settings_that_take_effect(box_factory):
    box = box_factory(NAMES, pans=False)
    open_mode(box, "settings")
    for _ in range(2):
        box.tap("host.next")
    box.tap("host.ok")                            # sound: normal -> quiet
    assert box.beeper.level == "quiet"
    box.tap("host.next")
    box.tap("host.ok")                            # brightness: high -> medium
    assert box.app.saver.contrast == 128
    box.tap("host.next")
    box.tap("host.ok")                            # sleep: 5 -> 15 minutes
    assert box.app.saver.dim_after_s == 900.0
    assert "Sleep: 15 min" in box.last_view.lines


def test_a_childs_history_is_cleared_from_settings_after_a_question(box_factory):
    from spielleiter.device.journal.learning import History
    from spielleiter.games.learning import Attempt

    box = box_factory(NAMES, pans=False)
    history = History(box.journal)
    for child in ("Mia", "Jonas"):
        history.add(child, Attempt("heavier", 1, 12.0, "left", 0.0, True, False))
    open_mode(box, "settings")
    while box.last_view.lines[box.last_view.cursor] != "Clear history":
        box.tap("host.next")
    box.tap("host.ok")
    assert box.last_view.lines == ("Jonas", "Mia") or box.last_view.lines == ("Mia", "Jonas")
    while box.last_view.lines[box.last_view.cursor] != "Mia":
        box.tap("host.next")
    box.tap("host.ok")
    assert box.last_view.title == "Clear history?" and "Mia?" in box.last_view.lines
    box.tap("host.ok")
    assert History(box.journal).children() == ["Jonas"]
