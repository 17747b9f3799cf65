"""The journal's SQLite plumbing that every part of it shares: its error, the write transaction,
and text decoding that never fails a whole query."""

from __future__ import annotations

import sqlite3

from ..exc import JournalError


# What reading stored bytes can raise: SQLite's errors, and the UnicodeDecodeError Python's
# sqlite3 raises when SQLite's own message quotes bytes of a damaged file that are not UTF-8
# ("malformed database schema ... near '\xff'"). Every read of a file that may be damaged
# catches both.
UNREADABLE = (sqlite3.Error, UnicodeDecodeError)


class transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error); SQLite failures become JournalError."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise JournalError(f"journal: {exc}") from exc

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            self.db.execute("ROLLBACK" if exc_type else "COMMIT")
        except sqlite3.Error as error:
            if exc_type is None:
                raise JournalError(f"journal: {error}") from error
        if isinstance(exc, sqlite3.Error):
            raise JournalError(f"journal: {exc}") from exc


def why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def decode(raw: bytes) -> str:
    """SQLite text to str; bytes that are not UTF-8 become lone surrogates, which the journal's
    row reader refuses, instead of failing the whole query."""
    return raw.decode("utf-8", "surrogateescape")
