"""The box's Statistics count a journal of years a step at a time: each step is a turn of the
loop of its own with at most ``StatsMode.STEP`` games, read from their kept results, so no key
and no watchdog waits for all of them; the result is the same as counting at once."""

from __future__ import annotations

import pytest

from spielleiter.device import i18n
from spielleiter.device.modes.statistics.pages import StatsMode
from spielleiter.device.past.games import PastGames
from spielleiter.device.past.records import GameRecord
from spielleiter.device.past.statistics import FamilyStats
from copies import copy_games
from recordskit import Table


class Steps:
    """A runtime that keeps its timers for the test to run one at a time."""

    def __init__(self) -> None:
        self.due: list = []

    def call_later(self, delay, callback):
        self.due.append(callback)
        return callback

    def cancel(self, timer):
        if timer in self.due:
            self.due.remove(timer)


class App:
    def __init__(self, journal) -> None:
        self.journal, self.runtime = journal, Steps()

    def call_later(self, delay, callback):
        return self.runtime.call_later(delay, callback)

    def cancel(self, timer):
        self.runtime.cancel(timer)


@pytest.fixture
def table(tmp_path):
    i18n.use("en")
    t = Table(tmp_path / "box", seed=4)
    yield t
    t.close()


def test_statistics_count_a_long_journal_in_steps_and_replay_nothing(table, monkeypatch):
    table.every_game()
    copy_games(table.journal.db, 130)
    app = App(table.journal)
    built = []
    monkeypatch.setattr(GameRecord, "build", classmethod(lambda cls, *a, **k: built.append(a)))
    mode = StatsMode(app)
    assert mode.counting and mode.view().lines == ("Counting games", "0 of 130")
    steps = 0
    while app.runtime.due:
        before = mode.done
        app.runtime.due.pop(0)()
        steps += 1
        assert mode.done - before <= StatsMode.STEP
    assert steps == 3 and not mode.counting and built == []
    monkeypatch.undo()
    past = PastGames(table.journal)
    assert mode.stats == FamilyStats.build(past.list(), past.learning())
    mode.close()


def test_back_while_counting_leaves_and_stops_the_count(table):
    table.every_game()
    app = App(table.journal)
    mode = StatsMode(app)
    assert mode.on_host("next") is True and mode.counting
    assert mode.on_host("back") is False
    mode.close()
    assert app.runtime.due == []
