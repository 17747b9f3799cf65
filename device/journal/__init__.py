"""The journal: everything the box keeps, in one SQLite file in the state directory.

Each game's header and its accepted actions, committed one by one (``store``), with what keeps
the file whole: its tables and migrations (``schema``), opening and checking it (``file``),
backups and the way back (``backup``, ``salvage``, ``wal``), care while the box runs (``care``),
snapshots for a fast resume (``snapshots``), the time base of a box without a clock
(``timebase``) and the lock that keeps one box to a state directory (``lock``). The table's
own records live here too: the settings, the roster of names and the learning station's
answers (``learning``).
"""

from __future__ import annotations

from .header import Header
from .learning import History
from .lock import InstanceLock
from .roster import Roster
from .settings import Settings
from .store import Journal, JournalError

__all__ = ["Header", "History", "InstanceLock", "Journal", "JournalError", "Roster", "Settings"]
