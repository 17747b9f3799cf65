"""What every game's referee refuses alike is said once, in the base (``station_player``,
``turn_refusal``): a station nobody sits at, and a player whose turn it is not, get the same
reason in every game, with the buzzer, and nothing is played."""

from __future__ import annotations

import pytest

from support import start_header
from spielleiter.device.modes import GAME_MODES

# the games with one player at a time, and the options that go straight to the first turn
TURNS = {"bunte-runde": {"layout": "free"}, "currency-torraku": {}, "tante-trudels-troedel": {}}


@pytest.mark.parametrize("game", sorted(GAME_MODES))
def test_a_station_nobody_sits_at_is_refused_with_the_reason_in_every_game(
        game, fast_game_box_factory):
    box = fast_game_box_factory(["Anna", "Ben"])
    start_header(box, game, ("Anna", "Ben"), {})
    box.tap("s3.B")
    assert box.beeper.played[-1] == "error"
    assert box.app.flash_view is not None
    assert box.app.flash_view.as_text().count("Nobody plays at") == 1
    assert box.app.session.actions == []


@pytest.mark.parametrize("game", sorted(TURNS))
def test_a_key_out_of_turn_is_refused_with_whose_turn_it_is_in_every_game(
        game, fast_game_box_factory):
    box = fast_game_box_factory(["Anna", "Ben"])
    start_header(box, game, ("Anna", "Ben"), TURNS[game])
    assert box.app.session.state.waiting_for() == ("Anna",)
    box.tap("s2.B")
    assert box.beeper.played[-1] == "error"
    assert "It's Anna's turn" in box.app.flash_view.as_text()
    assert box.app.session.actions == []


def test_the_shared_refusals_are_the_bases_alone():
    """No game's referee words them itself any more."""
    import inspect

    for mode in GAME_MODES.values():
        source = inspect.getsource(inspect.getmodule(mode.referee))
        assert '"Nobody plays at"' not in source, mode.name
        assert "'s turn\")" not in source or mode.game == "tatort-tonne", mode.name


def test_a_labels_value_that_the_engine_declares_as_a_word_is_said_in_the_boxs_language():
    from spielleiter.device import i18n
    from spielleiter.device.modes.base.referee import action_label
    from spielleiter.games import GameInfo

    info = GameInfo("x", "X", 1, 2, lambda p, o, s: None, labels={"place": "Place {piece}"},
                    words=("truck",))
    try:
        i18n.use("de")
        assert "Lastwagen" in action_label(info, {"type": "place", "piece": "truck"})
        assert "bike" in action_label(info, {"type": "place", "piece": "bike"})  # not a word
    finally:
        i18n.use("en")
    assert action_label(info, {"type": "place", "piece": "truck"}) == "Place truck"
