"""The web app's games, kept in SQLite as they are played.

A game is stored as its game string, its first position (when not the
start), its actions, its two sides (agent spec strings or ``human``) and, if
someone resigned, who. Every move rewrites the row in one transaction, so a
server that stops (or dies) loses nothing: on the next start the games in
progress are read back and resume where they were.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    position TEXT,
    actions TEXT NOT NULL,
    players TEXT NOT NULL,
    resigned INTEGER,
    seed INTEGER NOT NULL,
    pace REAL NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated);
"""


@dataclass
class StoredGame:
    """One row: everything needed to rebuild the game and carry on."""

    id: str
    game: str
    players: list[str]
    actions: list[int] = field(default_factory=list)
    position: str | None = None
    resigned: int | None = None
    seed: int = 0
    pace: float = 0.0
    finished: bool = False
    created: float = 0.0
    updated: float = 0.0


class GameStore:
    """A SQLite file of web games; safe to use from several threads."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def save(self, record: StoredGame) -> None:
        """Insert or rewrite a game (one transaction, durable on return)."""
        now = time.time()
        record.created = record.created or now
        record.updated = now
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO games (id, game, position, actions, players, resigned, seed, pace, "
                "finished, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, record.game, record.position, json.dumps(record.actions), json.dumps(record.players),
                 record.resigned, record.seed, record.pace, int(record.finished), record.created, record.updated))

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            row = self._db.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _record(row)

    def recent(self, limit: int = 50, offset: int = 0, finished: bool | None = None) -> list[StoredGame]:
        """Games, most recently played first."""
        where, args = "", []
        if finished is not None:
            where, args = "WHERE finished = ?", [int(finished)]
        with self._lock:
            rows = self._db.execute(f"SELECT {_COLUMNS} FROM games {where} ORDER BY updated DESC LIMIT ? OFFSET ?",
                                    (*args, limit, offset)).fetchall()
        return [_record(row) for row in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


_COLUMNS = "id, game, position, actions, players, resigned, seed, pace, finished, created, updated"


def _record(row) -> StoredGame:
    game_id, game, position, actions, players, resigned, seed, pace, finished, created, updated = row
    return StoredGame(game_id, game, json.loads(players), json.loads(actions), position, resigned, seed, pace,
                      bool(finished), created, updated)
