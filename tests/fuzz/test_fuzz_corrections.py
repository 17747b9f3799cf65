"""Fuzz corrections after the game: any correction of any action of a finished game is either
refused with one line and nothing written, or kept, and then the record is exactly the engine's
replay of the corrected actions while the journal's own actions stay as they were played."""

from __future__ import annotations

import shutil
import tempfile
from functools import cache
from pathlib import Path

from fuzz_strategies import VALUES, fuzz_settings
from hypothesis import event, given
from hypothesis import strategies as st

from spielleiter.device.journal.store import Journal
from spielleiter.device.past.games import PastGames
from spielleiter.device.past.records import GameRecord
from spielleiter.device.text import InputError
from recordskit import PLAYERS, Table

GAMES_PLAYED = sorted(PLAYERS)


@cache
def finished_journals() -> dict[str, Path]:
    """One journal per game with that game finished (played once, copied for each example)."""
    folder = Path(tempfile.mkdtemp(prefix="fuzz-corrections-"))
    made = {}
    for game in GAMES_PLAYED:
        table = Table(folder / game, seed=3)
        table.new(game)
        table.finish()
        table.close()
        made[game] = table.path
    return made


FIELDS = st.sampled_from(["value", "grams", "steps", "card", "target", "count", "player", "type",
                          "direction", "coupon", "kind", "colour"])


@st.composite
def corrections(draw):
    game = draw(st.sampled_from(GAMES_PLAYED))
    seq = draw(st.one_of(st.integers(0, 12), st.integers(0, 12), st.integers(-2, 400)))
    change = draw(st.one_of(
        st.none(),  # "it should not have happened"
        st.dictionaries(FIELDS, VALUES, min_size=1, max_size=2),
        st.fixed_dictionaries({"value": st.integers(0, 7)}),  # a die
        st.dictionaries(FIELDS, st.integers(0, 7) | st.floats(0, 100, allow_nan=False),
                        min_size=1, max_size=1)))
    why = draw(st.sampled_from(["mistyped", "mistyped", "die fell off", "", "  ", "x" * 300]))
    return game, seq, change, why


@fuzz_settings()
@given(corrections())
def test_a_correction_is_refused_with_nothing_written_or_the_record_is_its_replay(case):
    game, seq, change, why = case
    folder = Path(tempfile.mkdtemp(prefix="fuzz-correct-"))
    try:
        path = folder / "journal.sqlite3"
        shutil.copy(finished_journals()[game], path)
        with Journal(path) as journal:
            past = PastGames(journal)
            (game_id,) = [r.game_id for r in past.list()]
            played = journal.load(game_id).actions
            action = None
            if change is not None:
                base = played[seq] if 0 <= seq < len(played) else {}
                action = {**base, **change}
            try:
                past.correct(game_id, seq, action, why)
            except InputError as exc:
                message = str(exc)
                assert message and "\n" not in message
                event(f"refused: {message.split(' (')[0].split(':')[0][:40]}")
                assert past.corrections(game_id) == []
            else:
                event("kept")
                record = past.record(game_id)
                replayed = GameRecord.build(game_id, past.header(game_id), past.actions(game_id),
                                            status="over")
                assert record.corrected and record.winners == replayed.winners
                assert record.standings == replayed.standings and replayed.error is None
            assert journal.load(game_id).actions == played
    finally:
        shutil.rmtree(folder, ignore_errors=True)
