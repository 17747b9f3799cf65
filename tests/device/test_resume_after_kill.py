"""SIGKILL in the middle of a game, start again: the game continues exactly where it was."""

from __future__ import annotations

from support import HeadlessSim


def test_sigkill_mid_game_then_restart_continues_exactly_where_it_was(tmp_path):
    sim = HeadlessSim(tmp_path)
    sim.send("new tatort-tonne Red Blue Green seed=7")           # as the link's "new" does
    sim.send("tap s1.A")                                         # Red steals
    before = sim.send("show")
    assert before["actions"] == 1 and before["state"]["waiting_for"] == ["Blue", "Green"]
    sim.kill()

    sim = HeadlessSim(tmp_path)
    assert sim.last["mode"] == "game"
    assert sim.last["state"] == before["state"] and sim.last["actions"] == 1
    sim.send("idle 5")                                           # the resume notice goes away
    sim.send("tap s2.B")                                         # Blue accuses
    middle = sim.send("show")
    assert middle["actions"] == 2 and middle["state"]["waiting_for"] == ["Green"]
    sim.kill()                                                   # power cut again

    sim = HeadlessSim(tmp_path)
    assert sim.last["state"] == middle["state"] and sim.last["actions"] == 2
    sim.send("idle 5")
    sim.send("hold host.back 1.5")                               # undo after two restarts
    assert sim.last["actions"] == 1 and sim.last["state"]["waiting_for"] == ["Blue", "Green"]
    sim.close()


def test_headless_sim_plays_from_the_menu_to_a_winner(tmp_path):
    sim = HeadlessSim(tmp_path)
    sim.send("tap host.ok host.ok")                              # Tatort Tonne, New game
    for _ in range(7):
        sim.send("tap host.next")                                # 4 -> 2 players
    sim.send("tap host.ok host.ok host.ok")
    for round_ in (2, 3, 4):
        sim.send("tap s1.A s2.C")                                # Red steals three times
        for _ in range(10):                                      # the reveal pages wait for OK
            state = sim.last["state"]
            view = sim.last["view"]
            if (state["phase"] == "over" and "winner" in view.lower()) or \
                    (state["round"] == round_ and "choose!" in view):
                break
            sim.send("keys o")
    assert sim.last["state"]["phase"] == "over" and sim.last["state"]["winners"] == ["Red"]
    assert "Red" in sim.last["view"] and "winner" in sim.last["view"].lower()
    reply = sim.send("tap host.nope")
    assert "error" in reply
    sim.close()
