"""Made with spielleiter 0.1.0 at commit 7e028eb (journal schema 2), before the time base and
snapshots: the file a box running the current release leaves behind."""
import random, sys
from pathlib import Path
from spielleiter.device.journal.store import Journal
from spielleiter.device.session import Session
from spielleiter.device.journal.header import Header
from spielleiter.device.journal.roster import Roster
from spielleiter.device.journal.learning import History
from spielleiter.device.journal import settings as settings_store
from spielleiter.games import GAMES, complete
from spielleiter.games.learning import Attempt

out = Path(sys.argv[1]); out.unlink(missing_ok=True)
t = [1_790_000_000.0]
def clock():
    t[0] += 7.0
    return t[0]
j = Journal(out, clock=clock)
rng = random.Random(3)
def play(game, players, options, seed, n=None):
    s = Session.new(j, Header(game, tuple(players), options, seed))
    k = 0
    while not s.state.is_over and (n is None or k < n):
        p = rng.choice(s.state.waiting_for())
        a = complete(GAMES[game], rng.choice(s.state.legal_actions(p)), rng)
        s.apply(a); k += 1
    return s
play("tatort-tonne", ["Anna", "Ben", "Cleo"], {"trash": 5}, 11)
s = play("bunte-runde", ["Anna", "Ben"], {}, 12, n=6); s.undo(); s.abandon()
play("currency-torraku", ["Anna", "Ben", "Cleo"], {}, 13)
s = play("tante-trudels-troedel", ["Ben", "Cleo"], {}, 14, n=9)
j.save_calibration("left", {"offset": 8123.0, "counts_per_g": 412.5})
settings_store.save(j, settings_store.Settings(language="de", pace="relaxed"))
j.add_note("selftest", {"source": "cli", "ok": True})
r = Roster(j)
for name in ("Zoe", "Anna", "Ben", "Cleo"):
    r.add(name)
h = History(j)
for i in range(5):
    h.add("Zoe", Attempt("heavier", 1, 12.5, "left", 0.0, True, False))
h.add("Anna", Attempt("grams", 2, 150.0, "140", -10.0, False, True))
j.close()
print("games", [g for g in __import__("sqlite3").connect(out).execute("select id, game, status from games")])
