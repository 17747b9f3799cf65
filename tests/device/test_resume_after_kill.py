"""SIGKILL in the middle of a game, start again: the game continues exactly where it was."""

from __future__ import annotations

from conftest import HeadlessSim
from spielleiter.device.referees.tatort_tonne import COUNTDOWN_S


def test_sigkill_mid_game_then_restart_continues_exactly_where_it_was(tmp_path):
    sim = HeadlessSim(tmp_path)
    sim.send("tap host.ok host.next host.ok host.ok host.ok")   # 5 players, 25 trash
    sim.send("tap s1.A s2.B s3.B")                               # Red steals, Blue+Green accuse
    sim.send("keys o o o o")                                     # Yellow (hot seat): steal
    before = sim.send("show")
    assert before["actions"] == 4 and before["state"]["waiting_for"] == ["Purple"]
    sim.kill()

    sim = HeadlessSim(tmp_path)
    assert sim.last["mode"] == "game" and "Game resumed" in sim.last["view"]
    assert sim.last["state"] == before["state"] and sim.last["actions"] == 4
    sim.send("idle 2")                                           # the notice goes away
    sim.send("keys o o n n o o")                                 # Purple: alibi
    sim.send(f"idle {COUNTDOWN_S}")
    assert sim.last["state"]["phase"] == "point"
    sim.send("tap s1.C")                                         # Blue pointed at Red (Red presses)
    sim.kill()                                                   # power cut between accusations

    sim = HeadlessSim(tmp_path)
    assert sim.last["state"]["waiting_for"] == ["Green"] and sim.last["actions"] == 6
    sim.send(f"idle {COUNTDOWN_S}")                              # the countdown is shown again
    sim.send("tap s3.C")                                         # Green: nobody
    state = sim.last["state"]
    assert state["round"] == 2
    assert [p["in_game"] for p in state["players"]] == [False, True, True, True, True]
    assert [p["trash"] for p in state["players"]] == [0, 0, 0, 1, 0]
    sim.send("hold host.back 1.5")                               # undo after two restarts
    assert sim.last["state"]["phase"] == "point" and sim.last["actions"] == 6
    sim.close()


def test_headless_sim_plays_from_the_menu_to_a_winner(tmp_path):
    sim = HeadlessSim(tmp_path)
    sim.send("tap host.ok")
    for _ in range(7):
        sim.send("tap host.next")                                # 4 -> 2 players
    sim.send("tap host.ok host.ok host.ok")
    for _ in range(3):
        sim.send("tap s1.A s2.C")                                # Red steals three times
        sim.send("idle 20")
    assert sim.last["state"]["phase"] == "over" and sim.last["state"]["winners"] == ["Red"]
    assert "Red" in sim.last["view"] and "winner" in sim.last["view"]
    reply = sim.send("tap host.nope")
    assert "error" in reply
    sim.close()
