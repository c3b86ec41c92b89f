"""What every SQLite store of boomboard checks when it opens its file (the
web app's games, the arena's records, the lab's variants)."""

from __future__ import annotations

import sqlite3


def damage(db: sqlite3.Connection) -> str | None:
    """What SQLite's quick check finds wrong with the open file ``db``, in one
    line (``None``: nothing), so a damaged file is refused when it is opened
    rather than on the first read of its damaged page. A file that is no
    database at all raises :class:`sqlite3.DatabaseError`, for its store to say so."""
    try:
        problems = [" ".join(str(row[0]).split()) for row in db.execute("PRAGMA quick_check(1)")]
    except sqlite3.DatabaseError as problem:
        if "malformed" not in str(problem):
            raise
        problems = [str(problem)]
    return None if problems == ["ok"] else problems[0][:100]
