"""Currency Torraku on the device: bids at the mock stations, the stack on a simulated pan."""

from __future__ import annotations


from support import HeadlessSim
from spielleiter.device.cli.demo import play
from spielleiter.device.modes.currency_torraku.demo import setup, whole_game
from spielleiter.device.modes.currency_torraku.pan import NOTE
from spielleiter.device.replay import replay, start

NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay"]
SAMPLES = {"truck": [12.0, 12.1, 11.9], "washing_machine": [7.5, 7.45, 7.55],
           "rice_cooker": [4.0, 4.05, 3.95]}
G = {"truck": 12.02, "washing_machine": 7.48, "rice_cooker": 3.99}
SETTLE_S = 1.5


# -- driving the box -----------------------------------------------------------------------------
def begin(box, players: int = 2, learned: bool = True) -> None:
    """From the home menu with the defaults; the set's weights already in the journal; the page
    on the keys read (when the set is known)."""
    if learned:
        box.journal.add_note(NOTE, {"samples": SAMPLES})
    play(box, setup(players))
    assert box.app.mode == "game"
    read(box)


def state(box):
    return box.app.session.state


def actions(box) -> list[dict]:
    return box.app.session.actions


def read(box) -> list[str]:
    seen = []
    while box.app.referee.pages:
        seen.append(box.last_view.as_text())
        box.tap("host.ok")
    return seen


def put(box, grams: float, settle: float = SETTLE_S) -> None:
    box.put("left", grams)
    box.idle(settle)


def bid_round(box, bids: list[tuple[int, int | None]]) -> None:
    """Each station in turn: raise with C to its count and bid with B, or hold B to pass."""
    for station, count in bids:
        if count is None:
            box.hold(f"s{station}.B", 1.2)
            box.idle(0.5)
            continue
        while box.app.referee.choice is None or box.app.referee._choice(
                state(box).turn()) < count:
            box.tap(f"s{station}.C")
        box.tap(f"s{station}.B")


def external(box, action: dict) -> None:
    """An action from elsewhere (the serial link), applied on the loop."""
    box.runtime.post(lambda: box.app.external_action(action))
    box.runtime.pump()
    box.idle(0.5)


def flashed(box) -> str:
    return box.last_view.as_text()


def to_stacking(box) -> None:
    """Two players: Anna opens with 2, Ben bids 3, both pass; Ben starts the stack."""
    bid_round(box, [(1, 2), (2, 3), (1, None), (2, None)])
    read(box)
    assert state(box).phase == "stack" and state(box).turn() == "Ben"


# -- learning the set ----------------------------------------------------------------------------
def test_the_pieces_are_learned_once_and_kept_in_the_journal(box_factory):
    box = box_factory(NAMES)
    begin(box, learned=False)
    assert box.last_view.title == "Trucks" and box.last_view.big == "0 of 3"
    box.tap("s1.B")
    assert "Weighing the pieces:" in flashed(box)
    for kind in ("truck", "washing_machine", "rice_cooker"):
        for _ in range(3):
            put(box, G[kind])
    assert box.last_view.title == "Pieces learned"
    assert [line.split(":")[0] for line in box.last_view.lines] == ["truck", "washer",
                                                                     "rice cooker"]
    saved = box.journal.notes(NOTE, 1)[0]["samples"]
    assert [int(sum(v) / 3) for v in saved.values()] == [12, 7, 3]
    box.idle(0.5)
    put(box, -3 * sum(G.values()))                     # the pan cleared, as the screen asks
    box.tap("host.ok")
    assert box.last_view.title == "How to bid"         # the keys, once, before the first bid
    box.tap("host.ok")
    assert box.last_view.title == "Anna: your bid?"
    box.app.close_game()
    begin(box, learned=False)                          # the next game: no weighing again
    assert box.last_view.title == "Anna: your bid?"


def test_pieces_learned_ok_is_refused_while_pieces_lie_on_the_pan(box_factory):
    box = box_factory(NAMES)
    begin(box, learned=False)
    for kind in ("truck", "washing_machine", "rice_cooker"):
        for _ in range(3):
            put(box, G[kind])
    assert box.last_view.title == "Pieces learned"
    on_pan = 3 * sum(G.values())
    put(box, -(on_pan - 37.0))                         # 37 g still lie on the pan
    box.tap("host.ok")
    assert flashed(box).splitlines()[1:] == ["  Take the pieces", "  off the pan first"]
    assert box.beeper.played[-1] == "error"
    box.idle(3.0)
    assert box.last_view.title == "Pieces learned"     # still here: nothing was skipped
    put(box, -37.0)
    box.tap("host.ok")
    assert box.last_view.title == "How to bid"


# -- bidding -------------------------------------------------------------------------------------
def test_bidding_at_the_stations_A_lower_C_raise_B_bid_long_B_pass(box_factory):
    box = box_factory(NAMES)
    begin(box, players=3)
    assert box.last_view.big == "1" and box.last_view.footer == "A less  C more  B bid"
    assert box.last_view.lines == ("you have 10 pieces",)
    box.tap("s1.C")
    box.tap("s1.C")
    box.tap("s1.A")
    assert box.last_view.big == "2"
    box.tap("s1.B")
    assert actions(box) == [{"type": "bid", "player": "Anna", "count": 2}]
    assert box.last_view.title == "Ben: your bid?" and box.last_view.big == "2"
    assert box.last_view.lines == ("highest bid: 2",)
    box.hold("s2.B", 1.2)
    assert actions(box)[-1] == {"type": "pass", "player": "Ben"}
    box.idle(0.5)
    box.tap("host.next")                                # every bid and the bag
    assert box.last_view.title == "Bids (bag: 30)"
    assert box.last_view.lines == ("Anna           bids 2", "Ben         0, passed",
                                   "Cem        no bid yet")
    box.tap("host.next")
    assert box.last_view.title == "Cem: your bid?"


def test_C2_the_opener_cannot_pass_and_the_screen_says_why(box_factory):
    box = box_factory(NAMES)
    begin(box)
    box.hold("s1.B", 1.2)
    assert actions(box) == [] and "You start the round:" in flashed(box)
    assert "bid at least 1" in flashed(box)
    assert box.beeper.played[-1] == "error"


def test_refused_presses_say_why(box_factory):
    box = box_factory(NAMES)
    begin(box)
    box.tap("s2.B")
    assert "It's Anna's turn" in flashed(box)
    box.idle(2.0)
    box.tap("host.ok")
    assert "Anna bids with the" in flashed(box) and "keys at their seat" in flashed(box)
    box.idle(2.0)
    box.tap("s1.A")
    assert "Lowest: 1," in flashed(box) and "bid at least 1" in flashed(box)
    box.idle(2.0)
    for _ in range(9):
        box.tap("s1.C")
    box.tap("s1.C")
    assert "Highest: 10," in flashed(box) and "you own 10" in flashed(box)
    box.idle(2.0)
    box.tap("s1.B")
    box.tap("s2.A")
    assert "Lowest: 10," in flashed(box) and "the top bid is 10" in flashed(box)
    assert "or hold B to pass" in flashed(box)
    assert actions(box) == [{"type": "bid", "player": "Anna", "count": 10}]


def test_a_first_bid_above_ones_pieces_says_how_many_to_draw(box_factory):
    box = box_factory(NAMES)
    begin(box, players=3)
    for action in ({"type": "bid", "player": "Anna", "count": 1},
                   {"type": "bid", "player": "Ben", "count": 1},
                   {"type": "bid", "player": "Cem", "count": 1},
                   {"type": "pass", "player": "Anna"}, {"type": "pass", "player": "Ben"},
                   {"type": "pass", "player": "Cem"}, {"type": "place", "player": "Cem"},
                   {"type": "place", "player": "Anna"}, {"type": "collapse", "player": "Ben"},
                   {"type": "bid", "player": "Anna", "count": 1},
                   {"type": "bid", "player": "Ben", "count": 12}):
        external(box, action)
    read(box)
    assert state(box).pieces["Cem"] == 9 and state(box).turn() == "Cem"
    assert box.last_view.big == "12" and box.last_view.lines == ("take 3 from the bag",)
    box.tap("s3.C")
    assert "Highest: 12," in flashed(box) and "to reach the top bid" in flashed(box)
    box.idle(2.0)
    box.tap("s3.B")
    assert box.last_view.title == "Cem: from the bag" and box.last_view.big == "3 pieces"
    assert box.last_view.lines == ("for your bid",) and state(box).bag == 27


def test_seats_beyond_the_stations_bid_at_the_host_panel(box_factory):
    box = box_factory(NAMES)
    begin(box, players=4)
    for station in (1, 2, 3):
        box.tap(f"s{station}.B")
    assert box.last_view.title == "Dora: your bid?" and box.last_view.footer == "NEXT change  OK bid"
    box.tap("host.next")
    assert box.last_view.big == "2"
    for _ in range(9):                                 # 2..10, then "pass"
        box.tap("host.next")
    assert box.last_view.big == "pass"
    box.tap("host.ok")
    assert actions(box)[-1] == {"type": "pass", "player": "Dora"}


# -- stacking on the pan ---------------------------------------------------------------------------
def test_a_settled_piece_is_placed_for_the_player_to_move_with_its_kind(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    put(box, G["truck"])
    assert actions(box)[-1] == {"type": "place", "player": "Ben", "piece": "truck"}
    assert box.last_view.big == "Anna" and box.last_view.lines == ("2 pieces still to go",)
    put(box, G["rice_cooker"])
    assert actions(box)[-1] == {"type": "place", "player": "Anna", "piece": "rice_cooker"}


def test_a_hand_wobble_or_a_piece_lifted_and_put_back_is_no_event(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    put(box, G["washing_machine"])
    count = len(actions(box))
    box.scales.sim.press("left", 60.0, 1.5)             # a hand steadies the stack
    box.idle(3.0)
    box.put("left", 1.0)                                # a knock: it wobbles and settles back
    box.idle(0.1)
    box.put("left", -1.0)
    box.idle(2.0)
    box.put("left", -G["washing_machine"])              # lifted and put back at once
    box.idle(0.1)
    box.put("left", G["washing_machine"])
    box.idle(2.0)
    assert len(actions(box)) == count


def test_C3_a_fall_of_the_settled_weight_is_a_collapse_with_the_penalty_on_screen(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    put(box, G["truck"])                               # Ben
    put(box, G["washing_machine"], settle=3.0)         # Anna
    put(box, -G["washing_machine"])                    # Ben's piece knocks Anna's off
    assert actions(box)[-1] == {"type": "collapse", "player": "Ben"}
    assert box.last_view.title == "The stack fell!" and box.last_view.big == "Ben"
    assert box.last_view.lines == ("takes 3 pieces",)
    assert box.beeper.played[-1] == "score"
    read(box)
    assert box.last_view.lines == ("clear the pan first",)
    put(box, -G["truck"])                              # clearing the pan is no collapse
    assert box.last_view.lines == ("1 piece still to go",) and box.last_view.big == "Ben"
    put(box, G["rice_cooker"])                         # Ben starts a new stack
    assert actions(box)[-1]["type"] == "place" and state(box).stack == ["rice_cooker"]


def test_a_stack_that_falls_while_the_game_menu_is_open_is_still_a_collapse(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    put(box, G["truck"])                               # Ben
    put(box, G["washing_machine"], settle=3.0)         # Anna
    box.tap("host.back")                               # the game menu over the game
    assert box.app.mode == "menu"
    put(box, -G["washing_machine"])                    # the stack falls meanwhile
    assert actions(box)[-1] == {"type": "collapse", "player": "Ben"}


def test_a_piece_held_away_then_put_back_takes_the_shown_collapse_back(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    put(box, G["truck"], settle=3.0)                   # Ben
    put(box, -G["truck"], settle=1.4)                  # lifted and held away ...
    assert actions(box)[-1] == {"type": "collapse", "player": "Anna"}
    put(box, G["truck"], settle=1.0)                   # ... and put back in time
    assert actions(box)[-1] == {"type": "place", "player": "Ben", "piece": "truck"}
    assert "no collapse" in flashed(box) and state(box).turn() == "Anna"


def test_a_piece_that_slides_off_as_it_is_set_down_is_placed_again(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    put(box, G["truck"], settle=3.0)                   # Ben
    put(box, G["rice_cooker"], settle=1.2)             # Anna's piece settles ...
    assert actions(box)[-1]["player"] == "Anna"
    put(box, -G["rice_cooker"])                        # ... and slides off at once
    assert actions(box)[-1]["player"] == "Ben" and state(box).turn() == "Anna"
    assert "place it again" in flashed(box)


def test_two_pieces_at_once_are_refused_with_a_reason(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    count = len(actions(box))
    put(box, 2 * G["truck"], settle=1.3)
    assert "More than one piece?" in flashed(box) and "Put on one at a time." in flashed(box)
    assert len(actions(box)) == count and box.beeper.played[-1] == "error"
    put(box, -G["truck"])                              # one taken off again: that one is placed
    assert actions(box)[-1] == {"type": "place", "player": "Ben", "piece": "truck"}


def test_C3_drop_at_the_station_is_no_penalty(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    box.tap("s2.A")
    assert actions(box)[-1] == {"type": "drop", "player": "Ben"}
    assert "No penalty:" in flashed(box)
    box.idle(2.0)
    box.tap("s2.B")
    assert "The pan sees your" in flashed(box)
    assert state(box).turn() == "Ben"


def test_the_host_declares_place_collapse_and_drop_and_undo_takes_it_back(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    box.tap("host.ok")
    assert box.last_view.title == "What did Ben do?"
    assert box.last_view.lines[:2] == ("placed a piece", "placed a truck")
    box.tap("host.ok")                                 # declared: a piece the pan did not see
    assert actions(box)[-1] == {"type": "place", "player": "Ben"}
    box.tap("host.ok")
    labels = box.last_view.lines
    for _ in range(labels.index("the stack fell")):
        box.tap("host.next")
    box.tap("host.ok")                                 # a piece moved without falling
    assert actions(box)[-1] == {"type": "collapse", "player": "Anna"}
    read(box)
    box.hold("host.back", 1.2)                         # the table has the last word
    box.idle(0.5)
    assert actions(box)[-1] == {"type": "place", "player": "Ben"}
    assert state(box).turn() == "Anna" and state(box).stack == [None]
    box.idle(3.0)                                      # the App's "Undone" note goes
    assert box.last_view.title == "Anna: put back" and box.last_view.big == "1 piece"
    assert box.last_view.lines == ("onto the stack",) and box.last_view.footer == "OK: done"


def test_C4_the_round_ends_and_the_last_placer_opens_the_next(box_factory):
    box = box_factory(NAMES)
    begin(box)
    bid_round(box, [(1, 1), (2, None), (1, None)])     # Ben passes at 0, Anna at 1
    read(box)
    put(box, G["truck"])
    seen = read(box)
    assert "[Round over]" in seen[0] and "1 piece" in seen[0] and state(box).bag == 31
    assert "[Round 2]" in seen[1] and "Anna" in seen[1]
    assert state(box).round == 2 and state(box).turn() == "Anna"


def test_the_demo_plays_a_whole_game_with_a_collapse(box_factory):
    box = box_factory(list(NAMES[:2]))
    said: list[str] = []
    play(box, whole_game(), say=said.append)
    st = state(box)
    assert st.is_over and st.winners() == ("Ben",)
    assert any(a["type"] == "collapse" for a in actions(box))
    assert any(a["type"] == "drop" for a in actions(box))
    assert box.last_view.title == "Game over" and box.last_view.big == "Ben"
    final, _events, error = replay(start(box.app.session.header), actions(box))
    assert error is None and final.public() == st.public()


def test_sigkill_mid_round_resumes_and_the_pan_goes_on(tmp_path):
    sim = HeadlessSim(tmp_path)
    sim.send("new currency-torraku Red Blue seed=7")
    for grams in (12.0, 12.1, 11.9, 7.5, 7.4, 7.6, 4.0, 4.1, 3.9):
        sim.send(f"put left {grams}")
        sim.send("idle 1.5")
    sim.send("idle 0.5")
    sim.send("put left -70.5")                         # learned: the pan emptied, then OK
    sim.send("idle 1.5")
    sim.send("tap host.ok")
    sim.send("tap s1.C s1.B")                          # Red bids 2
    sim.send("hold s2.B 1.2")                          # Blue passes
    sim.send("idle 0.5")
    sim.send("hold s1.B 1.2")                          # Red passes: Red stacks
    sim.send("idle 2")
    sim.send("tap host.ok")
    sim.send("put left 12.0")
    before = sim.send("idle 1.5")
    assert before["state"]["stack"] == 1 and before["actions"] == 4
    sim.kill()

    sim = HeadlessSim(tmp_path)
    assert sim.last["mode"] == "game" and sim.last["state"] == before["state"]
    sim.send("idle 3")
    sim.send("put left 7.5")                           # the next piece on the (fresh) pan
    after = sim.send("idle 1.5")
    assert after["actions"] == 5 and after["state"]["phase"] == "bid"
    assert after["state"]["round"] == 2 and after["state"]["turn"] == "Red"
    sim.close()


def test_the_stack_pan_is_a_table_setting_and_only_that_pan_counts(box_factory):
    box = box_factory(NAMES)
    box.journal.add_note(NOTE, {"samples": SAMPLES})
    play(box, [("open", "currency-torraku")] + [("tap", "host.next")] * 4
         + [("tap", "host.ok")] * 2)                   # 2 players, the money as dealt
    assert box.last_view.title == "Stack on pan" and box.last_view.big == "usual"
    box.tap("host.next")
    box.tap("host.next")
    assert box.last_view.big == "right"
    for _ in range(3):
        box.tap("host.ok")
    header = box.app.session.header
    assert header.table == {"pan": "right", "learn": False} and header.options == {"long": False}
    to_stacking(box)
    put(box, G["truck"])                               # the left pan is not the stack's
    assert actions(box)[-1]["type"] == "pass"
    box.put("right", G["truck"])
    box.idle(SETTLE_S)
    assert actions(box)[-1] == {"type": "place", "player": "Ben", "piece": "truck"}


# -- the keys, undo, the end -----------------------------------------------------------------------
def test_the_keys_are_explained_once_and_a_station_key_turns_that_page_and_acts(box_factory):
    box = box_factory(NAMES)
    box.journal.add_note(NOTE, {"samples": SAMPLES})
    play(box, setup(2))
    assert box.last_view.title == "How to bid"
    assert box.last_view.lines == ("A less, C more", "B: bid", "hold B: pass")
    box.tap("s1.C")
    assert box.last_view.title == "Anna: your bid?" and box.last_view.big == "2"


def test_no_bid_left_says_hold_B_to_pass_in_the_footer(box_factory):
    box = box_factory(NAMES)
    begin(box)
    bid_round(box, [(1, 10), (2, 10)])
    assert box.last_view.title == "Anna: your bid?" and box.last_view.big == "pass"
    assert box.last_view.lines == ("you stack 10 pieces",)
    assert box.last_view.footer == "hold B: pass"
    box.tap("s1.B")
    assert "No bid is possible:" in flashed(box) and "hold B to pass" in flashed(box)


def test_undo_of_a_bid_says_how_many_to_take_back_and_waits_for_OK(box_factory):
    box = box_factory(NAMES)
    begin(box)
    bid_round(box, [(1, 3)])
    box.hold("host.back", 1.2)
    box.idle(3.0)                                      # the App's "Undone" note goes
    assert actions(box) == []
    view = box.last_view
    assert (view.title, view.big, view.lines) == ("Anna: take back", "3 pieces",
                                                  ("from your row",))
    box.tap("s1.B")
    assert "First put back," in flashed(box) and actions(box) == []
    box.idle(2.0)
    box.tap("host.ok")
    assert box.last_view.title == "Anna: your bid?"


def test_undo_shows_what_to_take_back_at_once_with_no_notice_over_it(box_factory):
    box = box_factory(NAMES)
    begin(box)
    bid_round(box, [(1, 3)])
    box.hold("host.back", 1.2)
    assert box.app.flash_view is None                  # no notice over the put-back screen
    assert box.last_view.title == "Anna: take back"
    box.idle(30.0)
    assert box.last_view.title == "Anna: take back"    # it waits for OK


def test_undo_of_a_place_lets_the_piece_come_off_the_pan_without_a_collapse(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    put(box, G["truck"], settle=3.0)                   # Ben
    put(box, G["washing_machine"], settle=3.0)             # Anna
    box.hold("host.back", 1.2)
    box.idle(3.0)
    assert box.last_view.title == "Anna: take back" and box.last_view.big == "washer"
    assert box.last_view.lines == ("off the stack",)
    count = len(actions(box))
    put(box, -G["washing_machine"], settle=3.0)            # the piece comes off: no collapse
    assert len(actions(box)) == count
    box.tap("host.ok")
    put(box, G["washing_machine"])                         # and goes on again
    assert actions(box)[-1] == {"type": "place", "player": "Anna", "piece": "washing_machine"}


def test_a_station_press_while_a_page_waits_says_why(box_factory):
    box = box_factory(NAMES)
    begin(box)
    to_stacking(box)
    put(box, G["truck"], settle=3.0)                   # Ben
    put(box, G["washing_machine"], settle=3.0)         # Anna
    put(box, -G["washing_machine"])                    # Ben: collapse, its page waits
    box.tap("s2.A")
    assert "Wait: OK at the box" in flashed(box) and actions(box)[-1]["type"] == "collapse"
    box.idle(2.0)
    box.tap("s1.A")
    assert "It's Ben's turn" in flashed(box)


def test_the_win_sound_plays_with_the_winner_after_the_standings(box_factory):
    box = box_factory(NAMES)
    begin(box, players=1)
    bid_round(box, [(1, 10), (1, None)])
    read(box)
    for _ in range(10):
        external(box, {"type": "place", "player": "Anna"})
    assert state(box).is_over and "win" not in box.beeper.played
    assert box.last_view.title == "Round over"
    box.tap("host.ok")
    assert box.last_view.title == "Pieces left"
    assert box.last_view.lines == ("1. Anna      0 pieces",) and "win" not in box.beeper.played
    box.tap("host.ok")
    assert box.beeper.played[-1] == "win"
    assert (box.last_view.title, box.last_view.big) == ("Game over", "Anna")
    assert box.last_view.lines == ("wins: no pieces left",)


def test_learning_refuses_another_kind_and_skipping_says_what_it_means(box_factory):
    box = box_factory(NAMES)
    begin(box, learned=False)
    put(box, G["truck"])
    put(box, G["rice_cooker"])                         # not a truck
    assert "Not the same kind?" in flashed(box) and box.beeper.played[-1] == "error"
    assert len(box.app.referee.pan.samples["truck"]) == 1
    box.idle(2.0)
    box.tap("host.ok")                                 # skip learning
    assert "Skipped: the box" in flashed(box) and "counts pieces only" in flashed(box)
    box.idle(3.0)
    assert box.last_view.title == "How to bid"
