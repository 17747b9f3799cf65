"""``spielleiter watch``: any game's public state as text, without knowing the game."""

from __future__ import annotations

from spielleiter.device.cli.watch import describe, describe_state


def test_a_new_games_fields_show_without_touching_watch():
    state = {"game": "some-new-game", "phase": "bid", "round": 3, "game_id": 9,
             "players": [{"name": "Ann", "coins": 4, "hand": [1, 2]}, {"name": "Bob"}],
             "waiting_for": ["Bob"], "coins_in_bank": 7, "board": [[0, 1]], "winners": []}
    lines = describe_state(state)
    assert lines[0] == "== some-new-game | phase bid | round 3"
    assert "   Ann          coins 4" in lines
    assert "   waiting for: Bob" in lines and "   coins in bank: 7" in lines
    assert not any("board" in line or "game id" in line or "WINNER" in line for line in lines)


def test_no_game_and_odd_messages_are_described_not_crashed():
    assert describe_state(None) == ["(no game running)"]
    assert describe({"type": "state", "state": {"players": [3, None]}})[0] == "== ? | phase ?"
    assert describe({"type": "error", "error": "nope"}) == [" ! nope"]
    assert describe({"type": "mystery"}) == []


def test_lines_that_are_not_messages_are_shown_raw_and_watching_goes_on():
    import threading

    import serial

    from spielleiter.device.cli.watch import run_watch
    from spielleiter.drivers.link import NullModem

    garbage = [b"[1, 2]", b"\xff\xfe", b"[" * 1100, b"1" * 4400,  # a list, not UTF-8, deep, long
               b'{"type": "state", "state": null}']
    cable = NullModem()
    try:
        with serial.Serial(cable.ends[1], timeout=5) as box_end:
            def answer() -> None:  # once the watcher has asked (its port is open by then)
                box_end.read_until(b"\n")
                box_end.write(b"\n".join(garbage) + b"\n")

            writer = threading.Thread(target=answer)
            writer.start()
            lines: list[str] = []
            assert run_watch(cable.ends[0], out=lines.append, once=True) == 0
            writer.join(5)
    finally:
        cable.close()
    assert [line[:4] for line in lines[:4]] == [" ? b"] * 4
    assert lines[-1] == "(no game running)"


def test_watch_speaks_the_box_language_flags_as_yes_and_no_and_the_decimal_comma():
    from spielleiter.device import i18n

    state = {"game": "tatort-tonne", "phase": "choose", "round": 2,
             "players": [{"name": "Ann", "trash": 3, "in_game": True}],
             "waiting_for": ["Ann"], "large_coin_value": 2.5, "winners": ["Ann"]}
    try:
        i18n.use("de")
        lines = describe_state(state)
    finally:
        i18n.use("en")
    assert lines[0] == "== tatort-tonne | Phase choose | Runde 2"
    assert "   Ann          Müll 3, im Spiel ja" in lines
    assert "   wartet auf: Ann" in lines and "   large coin value: 2,5" in lines
    assert "   SIEG: Ann" in lines
    assert not any("True" in line or "in_game" in line for line in lines)
    assert describe_state(state)[1] == "   Ann          trash 3, in game yes"
