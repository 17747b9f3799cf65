"""``spielleiter sim``'s hand at the simulated pans: the mass in hand is chosen (stepped through a
list or typed), set down as often as wanted (equal pieces balance), lifted piece by piece or all
at once; a real pan keeps what lies on it, so a new game on loaded pans says so."""

from __future__ import annotations

import pytest

from spielleiter.device.cli.hand import Hand
from spielleiter.device.cli.pan_load import PAN_LIMIT_G
from spielleiter.device.cli.keys import PAN_MASSES_G
from spielleiter.device.cli.terminal import new_game_note
from spielleiter.device.replay import parse_header


def typed(hand: Hand, keys: str) -> list[str]:
    return [hand.key(k) for k in keys if hand.wants(k)]


@pytest.fixture
def weighing(box_factory):
    """A box with its simulated pans and a hand at them."""
    box = box_factory()
    return box, Hand(tuple(box.scales.pans), box.put, box.pieces)


def settled(box, seconds: float = 3.0) -> dict[str, float]:
    box.idle(seconds)
    return {name: round(box.scales.reading(name).grams, 1) for name in box.scales.pans}


def test_two_equal_pieces_can_be_set_down_and_they_balance(weighing):
    box, hand = weighing
    typed(hand, "m12.3\n")
    assert hand.mass_g == 12.3
    assert typed(hand, "[]") == ["set 12.3 g down on the left pan",
                                 "set 12.3 g down on the right pan"]
    assert settled(box) == {"left": 12.3, "right": 12.3}
    assert box.scales.verdict() == "balanced"
    hand.key("[")                                         # a second equal piece on the left
    assert settled(box)["left"] == 24.6 and box.scales.verdict() == "left-heavier"
    assert hand.on_pans() == "left 12.3 + 12.3 g   right 12.3 g   in hand 12.3 g"


def test_pieces_are_lifted_last_first_and_0_empties_both_pans(weighing):
    box, hand = weighing
    typed(hand, "[+[")                                    # 10 g, then 12.3 g on the left
    hand.key("]")
    assert hand.key("{") == "lifted 12.3 g off the left pan"
    assert settled(box) == {"left": 10.0, "right": 12.3}
    assert hand.key("0") == "lifted everything off the pans"
    assert settled(box) == {"left": 0.0, "right": 0.0} and not hand.loaded
    assert hand.key("}") == "the right pan is empty: nothing to lift"
    assert hand.key("0") == "the pans are empty already"
    assert box.scales.sim.load_g("left") == 0 == box.scales.sim.load_g("right")


def test_minus_and_plus_step_through_the_masses_and_stop_at_the_ends(weighing):
    _box, hand = weighing
    assert hand.mass_g == 10.0
    assert typed(hand, "+") == ["in hand: 12.3 g"]
    typed(hand, "=" * 30)
    assert hand.mass_g == PAN_MASSES_G[-1]
    typed(hand, "-" * 30)
    assert hand.mass_g == PAN_MASSES_G[0]
    typed(hand, "m7.5\n+")                                # a typed mass steps to its neighbour
    assert hand.mass_g == 10.0


@pytest.mark.parametrize("keys, note", [
    ("m\n", "nothing: type a mass above 0 and up to 5000 g (Esc cancels)"),
    ("m0\n", "0: type a mass above 0"),
    ("m.\n", ".: type a mass above 0"),
    ("m9999\n", "9999 g: the simulator sets at most 5000 g on a pan"),
    ("m1x", "'x' is not part of a number"),
    ("m1..", "'.' is not part of a number"),
    ("m12345678", "at most 7 characters"),
])
def test_a_bad_typed_mass_is_refused_and_the_hand_keeps_its_mass(weighing, keys, note):
    box, hand = weighing
    notes = typed(hand, keys)
    assert notes[-1].startswith(note)
    assert hand.mass_g == 10.0 and hand.typed is not None          # still typing: fix it
    assert typed(hand, "\x1b") == ["kept 10 g in hand"] and hand.typed is None
    assert not hand.loaded and box.scales.sim.load_g("left") == 0


def test_typing_a_mass_takes_every_key_and_a_comma_is_a_point(weighing):
    _box, hand = weighing
    hand.key("m")
    assert all(hand.wants(k) for k in "123qwe[]0Qb\b")            # station keys type digits
    typed(hand, "4,55\b\b5\n")
    assert hand.mass_g == 4.5 and hand.typed is None
    assert not hand.wants("1") and hand.wants("[")


def test_a_typed_mass_up_to_the_limit_is_taken(weighing):
    _box, hand = weighing
    typed(hand, f"m{PAN_LIMIT_G:g}\n")
    assert hand.mass_g == PAN_LIMIT_G


def test_one_pan_gets_the_first_keys_only(box_factory):
    put: list = []
    hand = Hand(("pan",), lambda pan, g: put.append((pan, g)))
    assert hand.wants("[") and hand.wants("{") and not hand.wants("]") and not hand.wants("}")
    hand.key("[")
    assert put == [("pan", 10.0)] and hand.on_pans() == "pan 10 g   in hand 10 g"
    assert not Hand((), lambda pan, g: None).wants("[")          # no simulated pans: no keys


def test_many_pieces_are_summed_on_the_legend(weighing):
    _box, hand = weighing
    typed(hand, "[[[[[")
    assert hand.on_pans().startswith("left 5 pieces, 50 g   right empty")


def test_a_new_game_on_loaded_pans_says_so_and_only_then(weighing):
    box, hand = weighing
    notes: list[str] = []
    seen: dict = {}
    box.app.listeners.append(lambda kind, payload: notes.append(
        new_game_note(hand, seen, kind, payload)))
    header = parse_header({"game": "tatort-tonne", "players": ["A", "B", "C"], "seed": 1})
    box.app.start_game(header)                                     # empty pans: nothing to say
    assert notes == [""]
    hand.key("[")
    box.app.start_game(header)
    assert notes[-1].startswith("new game: the pans still hold")
    box.idle(1.0)
    box.tap("s1.A")                                                # the same game goes on
    assert notes[-1] == ""


def test_the_hands_notes_speak_german_with_a_decimal_comma(weighing):
    from spielleiter.device import i18n
    from spielleiter.device.cli.terminal import PressReport

    box, hand = weighing
    i18n.use("de")
    try:
        typed(hand, "m12,3\n")
        assert hand.key("[") == "12,3 g auf die Schale links gelegt"
        assert hand.key("{") == "12,3 g von der Schale links genommen"
        assert hand.key("0") == "die Schalen sind schon leer"
        assert PressReport(box.app).describe("host.ok", False, False) == "OK gedrückt"
    finally:
        i18n.use("en")


def test_what_an_earlier_run_left_on_the_pans_shows_and_is_lifted_piece_by_piece(box_factory,
                                                                                 tmp_path):
    state = tmp_path / "kept"
    box = box_factory(state_dir=state)
    hand = Hand(tuple(box.scales.pans), box.put, box.pieces)
    typed(hand, "m10\n[m20\n[m5\n]")
    box.close()                                              # the sim stops, the pans stay loaded
    again = box_factory(state_dir=state)
    hand = Hand(tuple(again.scales.pans), again.put, again.pieces)
    assert hand.on_pans() == "left 10 + 20 g   right 5 g   in hand 10 g"
    assert typed(hand, "{") == ["lifted 20 g off the left pan"]
    assert again.scales.sim.load_g("left") == pytest.approx(10.0)
    assert typed(hand, "0") == ["lifted everything off the pans"]
    assert again.scales.sim.load_g("left") == 0 and again.scales.sim.load_g("right") == 0
    assert hand.on_pans() == "left empty   right empty   in hand 10 g"


def test_a_record_from_before_pieces_were_kept_is_one_piece_a_pan(box_factory, tmp_path):
    from spielleiter.device.pans.simulated import LOADS_NAME

    state = tmp_path / "old"
    state.mkdir()
    (state / LOADS_NAME).write_text('{"version": 1, "loads": {"left": 42.5}}')
    box = box_factory(state_dir=state)
    hand = Hand(tuple(box.scales.pans), box.put, box.pieces)
    assert hand.on_pans().startswith("left 42.5 g   right empty")
    assert typed(hand, "{") == ["lifted 42.5 g off the left pan"]
    assert box.scales.sim.load_g("left") == 0


def test_a_headless_put_and_the_hand_share_one_record_of_the_pans(box_factory):
    import io

    from spielleiter.device.cli.headless import Headless

    box = box_factory()
    Headless(box, io.StringIO()).line("put left 7")
    hand = Hand(tuple(box.scales.pans), box.put, box.pieces)
    assert hand.on_pans().startswith("left 7 g")
    assert typed(hand, "{") == ["lifted 7 g off the left pan"]


def test_a_typed_mass_past_the_limit_is_refused_aloud_and_the_hand_keeps_its_mass(weighing):
    _box, hand = weighing
    notes = typed(hand, "m9999\n")
    assert f"at most {PAN_LIMIT_G:g} g" in notes[-1] and "Esc" in notes[-1]
    assert hand.typed == "9999" and hand.mass_g == 10.0          # still typing, nothing lost
    assert typed(hand, "\x1b") == ["kept 10 g in hand"]


def test_the_mass_being_typed_shows_whole_in_german_on_an_80_column_terminal(weighing):
    from spielleiter.device import i18n
    from spielleiter.device.cli.keys import legend

    _box, hand = weighing
    i18n.use("de")                                           # the fixture sets English back
    typed(hand, "m12,5")
    lines = legend(["Mia", "Ben"], 80, hand.pans, hand.on_pans(), hand.prompt())
    prompt = hand.prompt()
    assert all(len(line) <= 80 for line in lines)
    assert " ".join(" ".join(lines).split()).endswith(" ".join(prompt.split()))
    assert "12.5_" in prompt or "12,5_" in prompt
