"""Time without a real-time clock and order by sequence.

A Pi without a battery clock boots at the last shutdown's time or 1970, and the clock jumps when
network time arrives. Every order is the journal's sequence; a date is told only when its boot
saw a synchronised clock, and then for every row of that boot; timers never read the wall clock.
"""

from __future__ import annotations

import csv
import io
import itertools
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path


from spielleiter.device.journal import timebase
from spielleiter.device.cli import main
from spielleiter.device.journal.header import Header
from spielleiter.device.journal.learning import History
from spielleiter.device.journal.store import Journal
from spielleiter.device.journal.roster import Roster
from spielleiter.device.session import Session
from spielleiter.device.journal.timebase import TimeSource
from spielleiter.games import learning

NAME = "journal.sqlite3"
HEADER = Header("tatort-tonne", ("Ann", "Bob", "Cy"), {}, 7)
FIRST = {"type": "choose", "player": "Bob", "card": "accuse"}
FAKE_HWCLOCK = 1_780_000_000.0    # 2026-05-28: the last shutdown, restored at boot
NETWORK_TIME = 1_800_000_000.0    # 2027-01-15: what the clock says once timesyncd set it


@dataclass
class Pi:
    """A Raspberry Pi's clocks: seconds since boot, a wall clock that may be wrong, timesyncd's
    flag and the kernel's boot id, each set by the test."""

    mono: float = 12.0
    wall: float = FAKE_HWCLOCK
    synced: bool = False
    boot: str = "boot-1"
    reads: list[float] = field(default_factory=list)

    def source(self) -> TimeSource:
        return TimeSource(wall=lambda: self.wall, mono=lambda: self.mono,
                          synced=lambda: self.synced, boot_id=lambda: self.boot)

    def passes(self, seconds: float) -> None:
        self.mono += seconds
        self.wall += seconds

    def network_time(self) -> None:
        """timesyncd sets the clock (a jump) and creates its flag."""
        self.wall, self.synced = NETWORK_TIME, True

    def reboot(self, boot: str) -> None:
        self.mono, self.wall, self.synced, self.boot = 9.0, FAKE_HWCLOCK, False, boot


def journal(path: Path, pi: Pi) -> Journal:
    return Journal(path / NAME, time_source=pi.source())


# -- dates: unknown until a synchronised reading in the same boot puts them right ------------------
def test_a_game_begun_before_network_time_has_no_date_until_the_clock_is_synchronised(tmp_path):
    pi = Pi()
    with journal(tmp_path, pi) as j:
        session = Session.new(j, HEADER)
        assert j.game_time(session.game_id).started is None      # 2026-05-28 would be wrong
        assert j.game_time(session.game_id).synced is False
        pi.passes(60)
        session.apply(FIRST)
        assert j.action_times(session.game_id) == [None]
        pi.passes(30)
        pi.network_time()                                       # 90 s after the game began
        pi.passes(10)
        session.apply({"type": "choose", "player": "Ann", "card": "alibi"})
        started = j.game_time(session.game_id).started
        assert started == NETWORK_TIME + 10 - 100                # put right, to the second
        assert j.action_times(session.game_id) == [NETWORK_TIME - 30, NETWORK_TIME + 10]


def test_a_boot_that_never_saw_network_time_keeps_its_dates_unknown(tmp_path):
    pi = Pi()
    with journal(tmp_path, pi) as j:
        offline = Session.new(j, HEADER).game_id
    pi.reboot("boot-2")
    pi.network_time()
    with journal(tmp_path, pi) as j:
        online = Session.new(j, HEADER).game_id
        assert j.game_time(offline).started is None
        assert j.game_time(online).started == NETWORK_TIME
        assert j.game_time(online).synced is True
        assert [r[0] for r in j.db.execute("SELECT boot_id FROM boots ORDER BY id")] == [
            "boot-1", "boot-2"]


def test_a_restart_of_the_service_in_the_same_boot_keeps_the_boot_and_its_dates(tmp_path):
    pi = Pi()
    with journal(tmp_path, pi) as j:
        game = Session.new(j, HEADER).game_id
    pi.passes(5)
    pi.network_time()
    with journal(tmp_path, pi) as j:          # systemd restarted the service: one boot still
        j.add_note("selftest", {"ok": True})
        assert j.game_time(game).started == NETWORK_TIME - 5
        assert j.db.execute("SELECT COUNT(*) FROM boots").fetchone() == (1,)


def test_a_game_ended_in_the_same_boot_has_its_duration_without_a_date(tmp_path):
    pi = Pi()
    with journal(tmp_path, pi) as j:
        session = Session.new(j, HEADER)
        pi.passes(754)
        session.abandon()
        when = j.game_time(session.game_id)
        assert (when.started, when.ended, when.duration_s) == (None, None, 754)


def test_the_synchronisation_probe_is_timesyncds_flag(tmp_path, monkeypatch):
    flag = tmp_path / "synchronized"
    monkeypatch.setattr(timebase, "SYNCED_FLAG", flag)
    assert not timebase.timesyncd_synced()
    flag.touch()
    assert timebase.timesyncd_synced()


def test_reading_a_journal_records_no_boot(tmp_path):
    pi = Pi()
    with journal(tmp_path, pi) as j:
        Session.new(j, HEADER)
    pi.reboot("boot-2")
    with journal(tmp_path, pi) as j:           # a tool that only reads (history, players list)
        Session.resume(j)
        History(j).records()
        assert j.db.execute("SELECT COUNT(*) FROM boots").fetchone() == (1,)


# -- order: the sequence, never the clock --------------------------------------
def test_the_roster_keeps_the_order_names_were_added_when_the_clock_jumps_back(tmp_path):
    walls = iter([NETWORK_TIME, FAKE_HWCLOCK, 0.0, NETWORK_TIME + 5])  # synced, then back
    with Journal(tmp_path / NAME, clock=lambda: next(walls)) as j:
        roster = Roster(j)
        for name in ("Zoe", "Anna", "Mia", "Ben"):
            roster.add(name)
        assert roster.names() == ["Zoe", "Anna", "Mia", "Ben"]
        roster.remove("Anna")
        assert Roster(j).names() == ["Zoe", "Mia", "Ben"]


def test_games_notes_and_answers_are_ordered_by_sequence_when_the_clock_runs_backwards(
        tmp_path):
    walls = itertools.count(NETWORK_TIME, -3600.0)             # every row an hour "earlier"
    with Journal(tmp_path / NAME, clock=lambda: next(walls)) as j:
        first = Session.new(j, HEADER).game_id
        second = Session.new(j, HEADER).game_id
        assert Session.resume(j).game_id == second > first
        for n in range(3):
            j.add_note("selftest", {"n": n})
        assert [note["n"] for note in j.notes("selftest")] == [2, 1, 0]
        history = History(j)
        for guess in (100, 200, 300):
            history.add("Mia", learning.score_grams(100.0, guess, 1))
        assert [r.attempt.guess for r in history.records("Mia")] == ["100", "200", "300"]


BAD_TIMES = [1e18, -1e12, "soon"]  # damaged: too late, too early, not a number


def answers_with_bad_times(path: Path) -> None:
    with Journal(path / NAME, clock=lambda: NETWORK_TIME) as j:
        history = History(j)
        history.add("Mia", learning.score_grams(100.0, 100, 1))
        for at in BAD_TIMES:
            history.add("Mia", learning.score_grams(100.0, 100, 1))
            j.db.execute("UPDATE learning SET at=?, boot=NULL, mono=NULL WHERE id="
                         "(SELECT MAX(id) FROM learning)", (at,))


def test_an_answer_with_an_impossible_time_keeps_counting_with_its_time_unknown(tmp_path):
    answers_with_bad_times(tmp_path)
    with Journal(tmp_path / NAME, clock=lambda: NETWORK_TIME) as j:
        records = History(j).records("Mia")
        assert [r.at for r in records] == [NETWORK_TIME, None, None, None]
        summary = History(j).summary("Mia")
        assert (summary.total, summary.today, summary.best_streak) == (4, 1, 4)


def test_history_prints_an_impossible_time_as_unknown(tmp_path, capsys):
    answers_with_bad_times(tmp_path)
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len([line for line in out if line.startswith("unknown")]) == 3
    assert main(["history", "--csv", "--state-dir", str(tmp_path)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["time"] for r in rows] == ["2027-01-15T08:00:00+00:00", "", "", ""]


def test_my_results_shows_a_child_whose_answer_has_an_impossible_time(box_factory, tmp_path):
    from tests.device.modes.test_learning_mode import start

    state = tmp_path / "state"
    answers_with_bad_times(state)
    box = box_factory(state_dir=state)
    Roster(box.journal).add("Mia")
    start(box, "Mia", "My results")
    pages = [(box.last_view.title, box.last_view.big)]
    for _ in range(3):
        box.tap("host.ok")
        pages.append((box.last_view.title, box.last_view.big))
    assert ("Most in a row", "4") in pages and ("Answers in all", "4") in pages


# -- timers: the monotonic clock only ------------------------------------------------------------
def jumping_wall() -> tuple[list[float], object]:
    """A wall clock that jumps years forward and back at every reading."""
    jumps = itertools.cycle([NETWORK_TIME, FAKE_HWCLOCK + 9 * 365 * 86400, 0.0, 86400.0 * 365,
                             NETWORK_TIME - 20 * 365 * 86400])
    seen: list[float] = []

    def wall() -> float:
        seen.append(next(jumps))
        return seen[-1]
    return seen, wall


def demo_trace(tmp_path: Path, wall) -> list[tuple[float, str]]:
    """Tatort Tonne's demo game on a ManualClock box: every frame with its monotonic time (no
    load cells: the game weighs nothing)."""
    from spielleiter.device.box import Box
    from spielleiter.device.cli.demo import demo_config, demos, play
    from spielleiter.device.runtime import ManualClock
    from spielleiter.drivers.buttons import mock_factory
    from spielleiter.drivers.display import open_device

    clock = ManualClock()
    frames: list[tuple[float, str]] = []
    holder: list[Box] = []
    source = TimeSource(wall=wall, synced=lambda: True)
    with Box.build(demo_config("tatort-tonne", pans=False), tmp_path, pin_factory=mock_factory(),
                   display_device=open_device("dummy"), clock=clock, seed_source=lambda: 7,
                   on_frame=lambda image: frames.append((clock(), holder[0].last_view.as_text()))
                   if holder else None, time_source=source) as box:
        holder.append(box)
        play(box, demos()["tatort-tonne"].script(), say=lambda text: None)
        saver = box.app.saver
        assert box.app.session is not None and box.app.session.state.is_over
        idle = saver.dim_after_s
        box.idle(idle - 1)
        frames.append((clock(), f"saver {saver.state}"))
        box.idle(2)
        frames.append((clock(), f"saver {saver.state}"))
    return frames


def test_a_wall_clock_jumping_years_mid_game_moves_no_timer_guard_or_screen_sleep(
        tmp_path, monkeypatch):
    steady = demo_trace(tmp_path / "steady", lambda: NETWORK_TIME)
    seen, wall = jumping_wall()
    monkeypatch.setattr(time, "time", wall)    # whatever else might read it jumps as well
    jumping = demo_trace(tmp_path / "jumping", wall)
    assert len(seen) > 10, "the journal read the jumping clock as the game went on"
    assert jumping == steady                   # every countdown page, guard and redraw on time
    assert [f for _, f in steady[-2:]] == ["saver on", "saver dim"]


def test_the_boots_table_is_kept_when_the_box_is_simulated(tmp_path, box_factory):
    box = box_factory(state_dir=tmp_path / "state")
    Session.new(box.journal, HEADER)
    row = box.journal.db.execute("SELECT boot_id, synced_wall FROM boots").fetchone()
    assert row[0] and row[1] is not None   # the simulator trusts its machine's clock


def test_a_journal_made_by_release_0_1_0_keeps_its_dates(tmp_path):
    import shutil

    shutil.copy(Path(__file__).parent / "data" / "journal-0.1.0.sqlite3", tmp_path / NAME)
    with journal(tmp_path, Pi()) as j:
        started = j.game_time(1).started
        assert started is not None and 1_790_000_000 < started < 1_790_010_000
        assert j.game_time(1).synced is None              # not recorded then
        assert all(t is not None for t in j.action_times(1))
        records = History(j).records("Zoe")
        assert len(records) == 5 and all(r.at is not None for r in records)
    db = sqlite3.connect(tmp_path / NAME)
    assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("3",)
