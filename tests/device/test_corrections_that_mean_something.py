"""Corrections that mean something: only fields the action has, only values the engine's
declared range allows (``Measurement.limits``), refused when nothing changes; one that puts a
step back as played leaves the game unmarked; reasons a screen can show."""

from __future__ import annotations

import pytest

from spielleiter.device import i18n
from spielleiter.device.past.games import PastGames
from spielleiter.device.text import InputError
from spielleiter.games import GAMES
from recordskit import Table


@pytest.fixture(autouse=True)
def english():
    i18n.use("en")


@pytest.fixture
def trudel(tmp_path):
    table = Table(tmp_path / "box", seed=4)
    session = table.new("tante-trudels-troedel")
    table.finish()
    yield table, PastGames(table.journal), session
    table.close()


def step_of(session, kind):
    return next(i for i, a in enumerate(session.actions) if a["type"] == kind)


def corrections(table):
    return table.journal.db.execute("SELECT COUNT(*) FROM corrections").fetchone()[0]


@pytest.mark.parametrize("grams", [999999.9, 1e-300, 5.9, 24.1, 12.34, float("nan"), "12"])
def test_a_purchase_of_the_day_outside_the_rules_range_is_refused(trudel, grams):
    table, past, session = trudel
    seq = step_of(session, "weigh_potd")
    action = {**session.actions[seq], "grams": grams}
    with pytest.raises(InputError, match="grams must be 6 to 24|not|JSON"):
        past.correct(session.game_id, seq, action, "wrong weighing")
    assert corrections(table) == 0


def test_a_field_the_action_does_not_have_is_refused(trudel):
    table, past, session = trudel
    seq = step_of(session, "roll")
    with pytest.raises(InputError, match=f"Step {seq + 1} has no field colour"):
        past.correct(session.game_id, seq, {**session.actions[seq], "colour": "red"}, "x")
    assert corrections(table) == 0


@pytest.mark.parametrize("why", ["\u200b\u200b", "ok\x1b[31m", "why\u202e", "\x00"])
def test_a_reason_a_screen_cannot_show_is_refused(trudel, why):
    table, past, session = trudel
    seq = step_of(session, "weigh_potd")
    grams = session.actions[seq]["grams"]
    action = {**session.actions[seq], "grams": round(grams + (0.1 if grams < 23 else -0.1), 1)}
    with pytest.raises(InputError, match="cannot show|Say why"):
        past.correct(session.game_id, seq, action, why)
    assert corrections(table) == 0


def test_a_correction_undone_by_another_leaves_the_game_unmarked(trudel):
    table, past, session = trudel
    seq = len(session.actions) - 1
    played = session.actions[seq]
    past.correct(session.game_id, seq, {**played, "grams": round(played["grams"] + 1, 1)},
                 "wrong weighing")
    assert past.record(session.game_id).corrected
    past.correct(session.game_id, seq, dict(played), "it was right after all")
    record = past.record(session.game_id)
    assert not record.corrected and record.changes == ()
    assert [s.corrected for s in past.steps(session.game_id)] == [False] * len(session.actions)
    (listed,) = past.list()
    assert not listed.corrected
    with pytest.raises(InputError, match="already has"):  # and nothing changes: refused
        past.correct(session.game_id, seq, dict(played), "again")


def test_every_measurement_declares_a_range_its_simulated_readings_fall_in():
    for info in GAMES.values():
        for measurement in info.measurements.values():
            least, most = measurement.range
            assert least <= measurement.low <= measurement.high <= most
            assert measurement.allows(round((measurement.low + measurement.high) / 2,
                                            measurement.decimals))
