"""Bunte Runde on the device: MockFactory pins in, OLED frames, buzzer and journal out."""

from __future__ import annotations

from dataclasses import replace

import pytest

from support import HeadlessSim, assert_frame
from spielleiter.device.cli.demo import play
from spielleiter.device.modes.bunte_runde.demo import PLAYERS, dealt as bunte_runde_script
from spielleiter.device.modes.bunte_runde.demo import free_tiles as bunte_runde_tiles_script
from spielleiter.device.modes.bunte_runde.screens import (
    PAGE_S,
    SCORE_S,
    pick_colours,
    pick_shapes,
    piece_big,
    piece_text,
)
from spielleiter.device.replay import replay, start
from spielleiter.device.screen.render import render
from spielleiter.games.bunte_runde import SHAPES, landing, new_game

NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay"]
ALL_PAGES_S = 30.0  # longer than every page after a move put together
RED = [("red", a) for a in SHAPES["tiles"]]
# B5 with two players (Anna, Ben taking in turn): 20 tiles, then blue frog is a double scoring
# with 5 small coins left and Ben, the richer, swaps 5 of his for the large coin.
LARGE_COIN_ORDER = RED + [("yellow", a) for a in SHAPES["tiles"]] + [
    ("green", a) for a in ("dog", "cat", "fish", "bird", "frog")] + [
    ("purple", "frog"), ("blue", "dog"), ("blue", "cat"), ("blue", "fish"), ("purple", "cat"),
    ("blue", "bird"), ("blue", "frog")]


@pytest.fixture
def box_factory(fast_game_box_factory):
    """Games at the table's "fast" pace, on a box without load cells (see conftest.py)."""
    return fast_game_box_factory



# -- driving the box -----------------------------------------------------------------------------
def start_game(box, players: int = 4, tiles: bool = False, free: bool = False) -> None:
    """From the home menu: Bunte Runde, ``players``, the set (B1) and the layout (B2/B7)."""
    while box.last_view.lines[box.last_view.cursor] != "Bunte Runde":
        box.tap("host.next")
    box.tap("host.ok")
    if box.app.mode == "start":                          # the game's own menu: New game
        box.tap("host.ok")
    while box.app.screens.setup.players != players:
        box.tap("host.next")
    box.tap("host.ok")
    if tiles:
        box.tap("host.next")
    box.tap("host.ok")
    if free:
        box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.ok")
    assert box.app.mode == "game"


def lay_out(box) -> int:
    """OK through the dealt circle's lay-out screens; returns how many there were."""
    count = 0
    while box.app.referee.walk is not None:
        box.tap("host.ok")
        count += 1
    return count


def takes(box):
    """The takes the engine allows the player to move (free layout)."""
    st = box.app.session.state
    return [a for a in st.legal_actions(st.turn()) if a["type"] == "take"]


def state(box):
    return box.app.session.state


def seat_of_turn(box) -> int:
    return state(box).players.index(state(box).turn())


def move(box, steps: int) -> None:
    """The player to move: A/B/C at their station, or NEXT and OK at the host panel."""
    seat = seat_of_turn(box)
    if seat < len(box.config.stations):
        box.tap(f"s{seat + 1}.{'ABC'[steps - 1]}")
    else:
        for _ in range(steps - 1):
            box.tap("host.next")
        box.tap("host.ok")


def enter(box, colour: str, shape: str) -> None:
    """Free layout: the player to move picks colour then shape (A/B at a station, else host)."""
    assert box.app.referee.cursor == 0 and box.app.referee.pick_colour is None
    seat = seat_of_turn(box)
    nxt, ok = ((f"s{seat + 1}.A", f"s{seat + 1}.B") if seat < len(box.config.stations)
               else ("host.next", "host.ok"))
    for _ in range(pick_colours(takes(box)).index(colour)):
        box.tap(nxt)
    box.tap(ok)
    for _ in range(pick_shapes(takes(box), colour).index(shape)):
        box.tap(nxt)
    box.tap(ok)


def pages_text(box) -> list[str]:
    """Every page after a move, OK by OK, as text."""
    seen = []
    while box.app.referee.pages:
        seen.append(box.last_view.as_text())
        box.tap("host.ok")
    return seen


def replayed(box):
    """The engine state the journal's actions give (what a restart would see)."""
    session = box.app.session
    final, _events, error = replay(start(session.header), session.actions)
    assert error is None
    return final


# -- set-up and laying out ------------------------------------------------------------------------
def test_setup_picks_players_set_and_layout_and_deals_from_the_seed(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=3)
    header = box.app.session.header
    assert header.options == {"set": "pieces", "layout": None} and header.seed == 7
    assert header.players == ("Anna", "Ben", "Cem")
    assert state(box).pieces == new_game(["Anna", "Ben", "Cem"], {}, 7).pieces  # B2


def test_setup_screens_show_the_choices_by_name(box_factory):
    box = box_factory(NAMES)
    box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.ok")                                   # the game's menu: New game
    box.tap("host.ok")                                   # 4 players
    assert box.last_view.big == "36 pieces" and box.last_view.title == "Set"
    assert box.last_view.lines == ("6 colours, 6 shapes",)  # what the choice means
    box.tap("host.next")
    assert box.last_view.big == "25 tiles"
    box.tap("host.ok")
    assert box.last_view.big == "dealt" and box.last_view.title == "Circle"
    box.tap("host.next")
    assert box.last_view.big == "free"
    box.tap("host.ok")
    assert box.last_view.lines[:3] == ("4 players", "Set: 25 tiles", "Circle: free")
    box.tap("host.ok")
    assert box.app.session.header.options == {"set": "tiles", "layout": "free"}
    assert box.app.referee.walk is None                  # a free layout has nothing to lay out


@pytest.mark.parametrize("tiles", [False, True])
def test_the_dealt_circle_is_walked_through_one_place_a_screen_with_the_piece_large(box_factory,
                                                                                   tiles):
    box = box_factory(NAMES)
    start_game(box, players=2, tiles=tiles)
    pieces = state(box).pieces
    assert box.last_view.title == "Lay out clockwise"
    assert box.last_view.big == str(len(pieces))
    box.tap("host.ok")
    shown = []
    while box.last_view.title.startswith("Place "):
        view = box.last_view
        assert view.title == f"Place {len(shown) + 1} of {len(pieces)}"
        shown.append((view.big, view.lines))
        box.tap("host.next")
    assert shown == [(piece_big(*p), (p[1],)) for p in pieces]
    assert box.last_view.title == "Put the figure on"
    assert box.last_view.big == piece_big(*pieces[0])
    assert box.last_view.lines == (f"{pieces[0][1]}, place 1",)
    box.tap("host.back")                                 # BACK pages back
    assert box.last_view.title == f"Place {len(pieces)} of {len(pieces)}"
    assert lay_out(box) == 2
    assert list(box.beeper.played)[-2:] == ["click", "go"]
    assert box.last_view.title == "Anna's turn"


def test_during_the_lay_out_stations_wait_and_back_opens_the_menu(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=2)
    box.tap("s1.A")
    assert box.last_view.lines == ("Lay out the circle", "first: OK at the box.")
    assert box.app.session.actions == []
    box.idle(2.0)
    box.tap("host.back")                                 # on the first screen: the game menu
    assert box.app.mode == "menu"
    box.tap("host.ok")                                   # Continue
    assert box.last_view.title == "Lay out clockwise"


# -- turns ----------------------------------------------------------------------------------------
def test_the_turn_screen_names_what_1_2_3_steps_would_take(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=4)
    lay_out(box)
    for _ in range(4):
        st = state(box)
        lines = box.last_view.lines
        expected = [piece_text(*st.pieces[landing(st, s)]) for s in (1, 2, 3)]
        key = "ABC" if seat_of_turn(box) < 3 else "   "
        prefix = [f"{k} {s}" if k != " " else f"{s}" for k, s in zip(key, (1, 2, 3))]
        assert list(lines[:3]) == [f"{p} {e}" for p, e in zip(prefix, expected)]
        assert lines[3] == f"You: {st.coins(st.turn())} coins, pot {st.coins_left}"
        move(box, 2)
        box.idle(ALL_PAGES_S)


def test_a_station_press_moves_and_the_take_screen_names_the_piece(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=3)
    lay_out(box)
    target = state(box).pieces[landing(state(box), 3)]
    box.tap("s1.C")
    assert box.app.session.actions == [{"type": "move", "player": "Anna", "steps": 3}]
    view = box.last_view
    assert view.title == "Anna takes" and view.big == f"{piece_text(*target).rsplit(' ', 1)[0]}"
    assert view.lines == (f"{target[1]}, 3 steps",)
    assert box.beeper.played[-1] == "click"
    box.idle(PAGE_S)                                     # the take screen goes by itself
    assert box.last_view.title == "Ben's turn"


def test_a_hot_seat_moves_at_the_host_panel(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=4)
    lay_out(box)
    for steps in (1, 2, 3):                              # Anna, Ben, Cem at their stations
        move(box, steps)
        box.idle(ALL_PAGES_S)
    assert box.last_view.title == "Dora's turn (box)"
    assert box.last_view.footer == "NEXT steps  OK go"
    box.tap("s1.A")                                      # Anna may not move for Dora
    assert box.last_view.lines[0] == "It's Dora's turn"
    box.idle(2.0)
    box.tap("host.next")
    box.tap("host.next")
    assert box.last_view.cursor == 2
    box.tap("host.ok")
    assert box.app.session.actions[-1] == {"type": "move", "player": "Dora", "steps": 3}


def test_a_station_pressing_out_of_turn_is_told_whose_turn_it_is(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=2)
    lay_out(box)
    box.tap("s2.B")
    assert box.last_view.lines[0] == "It's Anna's turn"
    assert box.beeper.played[-1] == "error" and box.app.session.actions == []
    box.tap("s3.A")                                      # two players: station 3 is empty
    assert box.last_view.lines[:2] == ("Nobody plays at", "Green")
    box.idle(2.0)
    assert box.last_view.title == "Anna's turn" and box.app.session.actions == []


def test_the_take_screen_says_when_it_gives_way_to_the_next_move_and_when_it_waits(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=2, tiles=True, free=True)
    enter(box, *RED[0])                                  # Anna: red cat
    assert box.last_view.title == "Anna took" and box.app.referee.pages
    assert box.last_view.footer == "OK or the next move"  # it says Ben may move at once
    box.tap("s2.A")                                      # Ben starts at once: NEXT colour
    assert not box.app.referee.pages and box.app.referee.cursor == 1
    box.tap("s2.C")                                      # BACK at the colour: says why not
    assert box.last_view.lines == ("Pick a colour first:", "A move, B pick.")
    assert box.beeper.played[-1] == "error" and box.app.referee.cursor == 1
    box.tap("s2.A")
    box.tap("s2.A")
    box.tap("s2.A")
    box.tap("s2.A")                                      # round the colours back to red
    assert box.last_view.cursor == 0 and box.last_view.title == "Ben: which colour?"
    box.tap("s2.B")
    assert box.last_view.title == "Ben: which red?"
    assert box.last_view.lines == tuple(piece_text("red", a) for a in SHAPES["tiles"][1:])
    box.tap("s2.C")                                      # back to the colour
    assert box.last_view.title == "Ben: which colour?"
    box.tap("s2.B")
    box.tap("s2.B")                                      # red dog
    for colour, shape in RED[2:]:
        enter(box, colour, shape)
    assert box.beeper.played[-1] == "score"              # Anna took the last red: scoring
    assert box.last_view.title == "Anna took"
    assert box.last_view.footer == "OK: next"            # it says the box waits for OK
    box.tap("s2.A")                                      # Ben has to wait for the scoring
    assert box.beeper.played[-1] == "error" and box.app.referee.pages
    assert box.last_view.lines == ("Wait: read the", "screen, then press OK", "at the box.")
    box.tap("host.ok")                                   # OK skips a page
    assert box.last_view.as_text() == "[Last red!]\n  Anna +3, Ben +2\n  20 coins left\n(OK: next)"
    box.idle(SCORE_S)                                    # ... and pages turn by themselves
    assert box.last_view.as_text() == "[Coins (20 left)]\n  Anna 3, Ben 2\n(OK: next)"
    box.idle(SCORE_S)
    assert box.last_view.title == "Ben: which colour?"


def test_an_action_from_outside_gets_the_same_pages_and_ends_the_lay_out(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=2)
    assert box.app.referee.walk == 0
    box.runtime.post(lambda: box.app.external_action(     # as the serial link does it
        {"type": "move", "player": "Anna", "steps": 2}))
    box.runtime.pump()
    assert box.app.referee.walk is None and box.last_view.title == "Anna takes"
    box.idle(PAGE_S)
    assert box.last_view.title == "Ben's turn"


# -- whole games ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players,tiles", [(4, False), (6, True), (2, False)])
def test_a_whole_dealt_game_through_the_device(box_factory, players, tiles):
    box = box_factory(NAMES)
    start_game(box, players=players, tiles=tiles)
    lay_out(box)
    count = 0
    while not state(box).is_over:
        move(box, (2, 3, 1, 3)[count % 4])
        count += 1
        take = box.last_view
        assert take.title.endswith(" takes") and take.big
        box.idle(ALL_PAGES_S)
    final = state(box)
    assert replayed(box).public() == final.public()
    assert final.coins_left == 0 and len(box.app.session.actions) == count
    assert "score" in box.beeper.played and box.beeper.played[-1] == "win"
    view = box.last_view                                 # the winner, large
    winners = final.winners()
    top = max(final.coins(p) for p in final.players)
    assert view.title == ("Winner!" if len(winners) == 1 else "Shared win!")
    said = tuple(x for x in (view.big, *view.lines) if x)  # a long pair of names: small type
    assert said == (" & ".join(winners), f"{top} coins" if len(winners) == 1 else
                    f"{top} coins each")
    assert view.footer == "NEXT coins  OK menu"
    ranking = []
    box.tap("host.next")                                 # NEXT: the final coins, 3 a screen
    while box.last_view.title == "Coins at the end":
        assert len(box.last_view.lines) <= 3
        ranking += box.last_view.lines
        box.tap("host.next")
    assert ranking[0].split()[:2] == ["1.", winners[0]] and ranking[0].endswith(str(top))
    assert len(ranking) == players and box.last_view == view  # ... and round to the winner
    box.tap("s1.A")                                      # over: stations change nothing
    assert len(box.app.session.actions) == count
    assert box.last_view.lines == ("The game is over",)
    box.tap("host.ok")                                   # the game's menu: Play again
    assert box.app.mode == "start" and box.last_view.lines[box.last_view.cursor] == "Play again"


def test_a_whole_free_layout_game_with_double_scoring_and_large_coin(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=2, tiles=True, free=True)
    for colour, shape in LARGE_COIN_ORDER[:-1]:
        enter(box, colour, shape)
        box.idle(ALL_PAGES_S)
    enter(box, *LARGE_COIN_ORDER[-1])                    # Ben: blue frog
    assert box.beeper.played[-1] == "score"              # the win sound waits for the winner
    frog = "\U0001f438"
    assert pages_text(box) == [
        f"[Ben took]\n  ** {frog} blue **\n  frog\n(OK: next)",
        f"[Double scoring!]\n  ** {frog} blue **\n  last colour + animal\n(OK: next)",
        "[Large coin]\n  ** Ben **\n  swaps 5 small for it\n(OK: next)",
        "[Last blue!]\n  Anna +3, Ben +2\n  5 coins left\n(OK: next)",
        f"[Last {frog} frog!]\n  Anna +2, Ben +3\n  No coins left!\n(OK: next)",
        "[Coins at the end]\n  1. Ben             16\n  2. Anna            14\n(OK: next)",
    ]
    assert box.last_view.as_text() == "[Winner!]\n  ** Ben **\n  16 coins\n(NEXT coins  OK menu)"
    assert box.beeper.played[-1] == "win"                # ... and plays with it
    assert state(box).large_coin == "Ben"
    assert [a["type"] for a in box.app.session.actions] == ["take"] * 22


def test_nobody_rich_enough_for_the_large_coin_is_announced(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=5, tiles=True, free=True)
    order = RED + [("yellow", a) for a in ("dog", "cat", "fish", "bird", "frog")]
    order += [("green", a) for a in ("dog", "fish", "cat", "bird", "frog")]
    order += [("purple", "frog"), ("blue", "dog"), ("blue", "fish"), ("blue", "cat"),
              ("purple", "cat"), ("blue", "bird")]
    for colour, shape in order:
        enter(box, colour, shape)                        # seats 4 and 5 at the host panel
        box.idle(ALL_PAGES_S)
    enter(box, "blue", "frog")
    pages = pages_text(box)
    assert pages[2] == "[Large coin]\n  Nobody has 5 small\n  coins: no swap.\n(OK: next)"
    assert pages[5] == "[Not enough coins]\n  ** 5 **\n  owed: write them down\n(OK: next)"
    assert state(box).shortfall == 5                     # B5: paid in full anyway
    assert [p.split("\n")[0] for p in pages[6:]] == ["[Coins at the end]"] * 2
    assert state(box).winners() == ("Ben", "Emil")
    assert box.last_view.as_text() == ("[Shared win!]\n  ** Ben & Emil **\n  7 coins each\n"
                                       "(NEXT coins  OK menu)")


# -- undo -----------------------------------------------------------------------------------------
def waiting(box):
    """The table's default pace: every page waits for OK."""
    box.app.settings = replace(box.app.settings, pace="ok")
    return box


def test_undo_says_which_piece_to_put_back_and_where_the_figure_goes(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=3)
    lay_out(box)
    start_piece = state(box).pieces[0]
    box.tap("s1.B")
    box.idle(ALL_PAGES_S)
    before = state(box).public()
    annas = state(box).held["Anna"][-1]
    box.tap("s2.C")
    taken = box.app.session.state.held["Ben"][-1]
    waiting(box)
    box.hold("host.back", 1.2)                           # long BACK: undo, and what to put back
    assert state(box).public() == before and len(box.app.session.actions) == 1
    assert box.last_view.as_text() == (f"[Ben puts back]\n  ** {piece_big(*taken)} **\n"
                                       f"  {taken[1]}\n(OK: next)")
    box.idle(0.5)
    box.tap("s2.A")                                      # Ben must not move on before
    assert box.last_view.lines == ("Wait: read the", "screen, then press OK", "at the box.")
    assert len(box.app.session.actions) == 1
    box.idle(2.0)
    box.tap("host.ok")                                   # the figure: to the gap Anna's take left
    assert box.last_view.as_text() == (f"[Figure back]\n  ** {piece_big(*annas)} **\n"
                                       "  onto the gap it left\n(OK: next)")
    box.tap("host.ok")
    assert box.last_view.title == "Ben's turn"
    box.tap("host.back")                                 # the game menu's undo works too,
    box.tap("host.next")
    box.tap("host.next")
    box.tap("host.ok")
    box.tap("host.ok")                                   # after a question
    assert box.app.session.actions == [] and state(box).turn() == "Anna"
    box.idle(2.0)
    assert box.last_view.title == "Anna puts back" and box.last_view.big == piece_big(*annas)
    box.tap("host.ok")                                   # the first move: onto the start piece
    assert box.last_view.as_text() == (f"[Figure back onto]\n  ** {piece_big(*start_piece)} **"
                                       f"\n  {start_piece[1]}\n(OK: next)")


def test_the_put_back_page_after_an_undo_has_no_notice_over_it_and_takes_ok_at_once(
        box_factory):
    box = box_factory(NAMES)
    start_game(box, players=2, tiles=True, free=True)
    enter(box, *RED[0])
    box.idle(ALL_PAGES_S)
    box.hold("host.back", 1.2)
    assert box.last_view.title == "Anna puts back"       # no notice covers it
    assert box.app.flash_view is None
    box.tap("host.ok", settle=0.05)                      # the undoer's own screen: OK counts
    assert box.last_view.title == "Anna: which colour?"


def test_undo_of_a_scoring_says_who_puts_how_many_coins_back(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=2, tiles=True, free=True)
    for colour, shape in RED:
        enter(box, colour, shape)
    assert state(box).coins_left == 20
    box.hold("host.back", 1.2)
    assert state(box).coins_left == 25 and len(box.app.session.actions) == 4
    box.idle(2.0)
    frog = "\U0001f438"
    assert pages_text(box) == [f"[Anna puts back]\n  ** {frog} red **\n  frog\n(OK: next)",
                               "[Coins to the pot]\n  Anna 3, Ben 2\n(OK: next)"]
    assert box.last_view.title == "Anna: which colour?"
    assert box.last_view.lines == ("red", "yellow", "green", "blue", "purple")


def test_undo_of_the_large_coin_swap_gives_it_back(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=2, tiles=True, free=True)
    for colour, shape in LARGE_COIN_ORDER:
        enter(box, colour, shape)
        box.idle(ALL_PAGES_S)
    after = state(box)
    assert after.is_over and after.large_coin == "Ben"
    box.hold("host.back", 1.2)
    box.idle(2.0)
    pages = pages_text(box)
    assert pages[1:] == ["[Coins to the pot]\n  Anna 5, Ben 5\n(OK: next)",
                         "[Large coin back]\n  ** Ben **\n  takes 5 small coins\n(OK: next)"]
    before = state(box)                                  # what the table holds adds up
    assert before.large_coin is None and not before.is_over
    assert after.small_coins["Ben"] - 5 + 5 == before.small_coins["Ben"]
    assert after.small_coins["Anna"] - 5 == before.small_coins["Anna"]


# -- reference frames -----------------------------------------------------------------------------
def test_reference_frames(box_factory):
    box = box_factory(NAMES)
    start_game(box, players=4)
    box.tap("host.ok")
    assert_frame(box.frame(), "bunte_runde/lay_out_place_1")
    lay_out(box)
    assert_frame(box.frame(), "bunte_runde/turn_station")
    assert box.frame().tobytes() == render(box.last_view).tobytes()
    for steps in (1, 2, 3):
        move(box, steps)
        if steps == 1:
            assert_frame(box.frame(), "bunte_runde/take")
        box.idle(ALL_PAGES_S)
    box.tap("host.next")
    assert_frame(box.frame(), "bunte_runde/turn_host")

    box = box_factory(NAMES, state_dir=box.journal.path.parent / "two")
    start_game(box, players=2, tiles=True, free=True)
    box.tap("s1.A")
    assert_frame(box.frame(), "bunte_runde/free_colour")
    box.tap("s1.A")
    box.tap("s1.A")
    box.tap("s1.B")
    assert_frame(box.frame(), "bunte_runde/free_shape")
    box.tap("s1.C")                                      # back to the colour (blue)
    box.tap("s1.A")
    box.tap("s1.A")                                      # round to red again
    for colour, shape in LARGE_COIN_ORDER[:4]:
        enter(box, colour, shape)
        box.idle(ALL_PAGES_S)
    enter(box, *LARGE_COIN_ORDER[4])
    box.tap("host.ok")
    assert_frame(box.frame(), "bunte_runde/scoring")
    box.tap("host.ok")
    assert_frame(box.frame(), "bunte_runde/coins")
    box.idle(ALL_PAGES_S)
    box.hold("host.back", 1.2)
    box.idle(2.0)
    assert_frame(box.frame(), "bunte_runde/undo")
    box.idle(ALL_PAGES_S)
    for colour, shape in LARGE_COIN_ORDER[4:-1]:
        enter(box, colour, shape)
        box.idle(ALL_PAGES_S)
    enter(box, *LARGE_COIN_ORDER[-1])
    box.tap("host.ok")
    assert_frame(box.frame(), "bunte_runde/double")
    box.tap("host.ok")
    assert_frame(box.frame(), "bunte_runde/large_coin")
    box.tap("host.ok")
    box.tap("host.ok")
    assert_frame(box.frame(), "bunte_runde/scoring_frog")
    box.tap("host.ok")
    assert_frame(box.frame(), "bunte_runde/final_coins")
    box.tap("host.ok")
    assert_frame(box.frame(), "bunte_runde/winner")


# -- restarts -------------------------------------------------------------------------------------
def test_a_restart_resumes_the_game_and_lays_out_again_only_before_the_first_move(box_factory,
                                                                                  tmp_path):
    box = box_factory(NAMES)
    start_game(box, players=3)
    box.tap("host.ok")
    box.tap("host.ok")
    box.close()
    box = box_factory(NAMES)                             # power cut while laying out
    assert box.app.mode == "game" and box.app.referee.walk == 0
    lay_out(box)
    for steps in (3, 1, 2, 2):
        move(box, steps)
    before = state(box).public()
    box.close()                                          # power cut on a take screen
    box = box_factory(NAMES)
    assert state(box).public() == before and box.app.referee.walk is None
    assert box.last_view.lines[0] == "Game resumed"
    box.idle(2.0)
    assert box.last_view.title == "Ben's turn"
    box.hold("host.back", 1.2)                           # undo still works after the restart
    assert len(box.app.session.actions) == 3


class BunteSim(HeadlessSim):
    """The headless sim, with the moves of a Bunte Runde player."""

    def move(self) -> None:
        """The player to move: B at a station (2 steps, or OK in the picker), or the host panel."""
        st = self.last["state"]
        seat = [p["name"] for p in st["players"]].index(st["turn"])
        if st["free"]:
            keys = f"s{seat + 1}.B s{seat + 1}.B" if seat < 3 else "host.ok host.ok"
        else:
            keys = f"s{seat + 1}.B" if seat < 3 else "host.next host.ok"
        self.send(f"tap {keys}")

    def read(self) -> None:
        """Turn the pages after a move with OK, as the table reads them."""
        for _ in range(20):
            if "(OK: next)" not in self.last["view"] and \
                    "(OK or the next move)" not in self.last["view"]:
                return
            self.send("idle 1")
            self.send("tap host.ok")
        raise AssertionError(self.last["view"])


@pytest.mark.parametrize("tiles", [False, True], ids=["pieces-dealt", "tiles-free"])
def test_sigkill_mid_game_then_restart_continues_to_the_end(tmp_path, tiles):
    sim = BunteSim(tmp_path)
    sim.send("tap host.next")
    assert "> Bunte Runde" in sim.last["view"]
    sim.send("tap host.ok host.ok host.ok" + (" host.next" if tiles else "") + " host.ok"
             + (" host.next" if tiles else "") + " host.ok host.ok")
    assert sim.last["state"]["set"] == ("tiles" if tiles else "pieces")
    if not tiles:
        sim.send("tap " + " ".join(["host.ok"] * 38))   # the lay-out screens
    for _ in range(5):
        sim.move()
        sim.read()
    sim.move()                                           # killed on the take screen
    before = sim.last
    assert before["actions"] == 6 and (" took]" in before["view"] or " takes]" in before["view"])
    sim.kill()

    sim = BunteSim(tmp_path)
    assert sim.last["mode"] == "game" and "Game resumed" in sim.last["view"]
    assert sim.last["state"] == before["state"] and sim.last["actions"] == 6
    sim.send("idle 2")
    sim.read()
    assert sim.last["state"]["turn"] in sim.last["view"]
    for _ in range(40):
        if sim.last["state"]["phase"] == "over":
            break
        sim.move()
        sim.read()
    final = sim.last["state"]
    assert final["coins_left"] == 0 and final["winners"]
    assert ("[Winner!]" in sim.last["view"]) or ("[Shared win!]" in sim.last["view"])
    sim.close()


# -- the demo -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game,script", [("bunte-runde", bunte_runde_script),
                                         ("bunte-runde-tiles", bunte_runde_tiles_script)])
def test_the_demo_scripts_play_to_the_end(box_factory, game, script):
    box = box_factory(list(PLAYERS[:3] if game == "bunte-runde" else PLAYERS))
    play(box, script())
    final = state(box)
    assert final.is_over and final.winners()
    assert box.app.session.header.options["set"] == ("tiles" if "tiles" in game else "pieces")
    assert "win" in box.beeper.played
    if game == "bunte-runde-tiles":
        assert final.winners() == ("Dirk",) and final.large_coin is not None


def test_the_win_sound_plays_with_the_winner_not_with_the_final_coins(box_factory):
    box = waiting(box_factory(NAMES))
    start_game(box, players=2, tiles=True, free=True)
    for colour, shape in LARGE_COIN_ORDER:
        enter(box, colour, shape)
        while box.app.referee.pages and box.last_view.title != "Coins at the end":
            box.tap("host.ok")
    assert box.last_view.title == "Coins at the end" and "win" not in box.beeper.played
    box.tap("host.ok")
    assert box.last_view.title == "Winner!" and box.beeper.played[-1] == "win"
