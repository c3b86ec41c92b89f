"""Game records in SQLite, written as games are played.

One file (by default ``arena.sqlite3`` in the user's data directory) holds
every tournament, every game and every action. Rows are written the moment
something happens: a game row when it starts, an action row per action with
its time, the result when it ends. The database runs in WAL mode, so a
reader (``boomboard games list``, the web app) sees games while they are
played, and a killed process loses at most the game it was playing.

A tournament is a fixed *schedule* of numbered slots (who plays White/first
and who second); a slot is filled by exactly one finished game, set in the
same transaction that records the result. Resuming plays the empty slots
only, so no game is lost or counted twice; games a killed run left
unfinished stay in the record, marked ``aborted``.

>>> store = open_store(":memory:")
>>> game_id = store.begin_game("kaboom", ["random", "greedy"], {})
>>> store.add_action(game_id, 0, 3, 0.01)
>>> store.finish_game(game_id, 1, "connected 4 in a row")
>>> store.game(game_id).winner
1
"""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

from ..core.errors import BoomboardError
from ..core.sqlite_files import damage
from ..ratings import elo_estimate

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,          -- JSON list of agent specs
    kind TEXT NOT NULL,             -- 'match', 'round-robin', 'gauntlet'
    settings TEXT NOT NULL,         -- JSON: budgets, limits, seed, sprt ...
    created TEXT NOT NULL,
    finished TEXT
);
CREATE TABLE IF NOT EXISTS slots (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    slot INTEGER NOT NULL,
    first TEXT NOT NULL,            -- spec playing player 0 (White, Red, X)
    second TEXT NOT NULL,
    game_id INTEGER REFERENCES games(id),
    PRIMARY KEY (tournament_id, slot)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments(id),
    slot INTEGER,
    game TEXT NOT NULL,
    first TEXT NOT NULL,
    second TEXT NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL,           -- 'playing', 'done', 'aborted'
    winner INTEGER,                 -- 0, 1 or NULL (tie, or not finished)
    reason TEXT NOT NULL DEFAULT '',
    started TEXT NOT NULL,
    finished TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    action INTEGER NOT NULL,
    seconds REAL NOT NULL,          -- wall clock, as the referee saw it
    cpu REAL,                       -- the agent's CPU seconds for the action
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX IF NOT EXISTS games_by_tournament ON games(tournament_id);
"""


class StoreError(BoomboardError):
    """A record that does not exist, or a database that cannot be used."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class GameRecord:
    """One game as stored: ``players`` are the two agent specs (first mover
    first), ``actions`` the action ids, ``times`` each action's wall seconds,
    ``winner`` 0, 1 or ``None`` (a tie, or a game not finished: see ``status``)."""

    id: int
    game: str
    players: list[str]
    actions: list[int]
    times: list[float]
    winner: int | None
    reason: str
    tournament_id: int | None
    started: str
    status: str = "done"
    finished: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    cpu: list[float | None] = field(default_factory=list)

    def to_json(self) -> str:
        """One line of JSON (the form ``boomboard games export`` writes)."""
        return json.dumps(asdict(self), separators=(",", ":"))


@dataclass
class TournamentRecord:
    id: int
    game: str
    players: list[str]
    kind: str
    settings: dict[str, Any]
    created: str
    finished: str | None
    slots: int
    played: int


@dataclass
class Standing:
    """One agent's results in a tournament; ``elo`` is its rating against the
    field it met, with the 95% interval's half width ``elo_error``."""

    agent: str
    games: int
    wins: int
    ties: int
    losses: int
    score: float
    elo: float
    elo_error: float


def default_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("boomboard")) / "arena.sqlite3"


def open_store(path: str | Path | None = None) -> Store:
    """The store at ``path`` (default: the user's data directory), created if new."""
    if path is None:
        path = default_path()
    if str(path) != ":memory:":
        if Path(path).is_dir():
            raise StoreError(f"cannot use {path} as an arena database: it is a folder (give --db a file)")
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as problem:
            raise StoreError(f"cannot use {path} as an arena database: cannot make its folder "
                             f"{Path(path).parent}: {problem.strerror or problem}") from None
    return Store(str(path))


def _check_intact(db: sqlite3.Connection, path: str) -> None:
    """Refuse a damaged file when it is opened, rather than fail on the first read of its damaged page."""
    found = damage(db)
    if found is not None:
        db.close()
        raise StoreError(f"cannot use {path} as an arena database: it is damaged ({found}); move it "
                         f"aside (a new one is made in its place) or recover its records with: "
                         f"sqlite3 {path} .recover | sqlite3 recovered.sqlite3")


class Store:
    """Thread-safe access to one arena database (see the module's description)."""

    def __init__(self, path: str):
        self.path = path
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
            _check_intact(self._db, path)
            games_columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            if games_columns and not {"tournament_id", "slot", "status"} <= games_columns:
                self._db.close()
                raise StoreError(f"cannot use {path} as an arena database: its games table is another "
                                 f"program's (the web app's?); give the arena a file of its own")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(actions)")}
            if "cpu" not in columns:  # a database from before CPU times were kept
                self._db.execute("ALTER TABLE actions ADD COLUMN cpu REAL")
        except sqlite3.DatabaseError as problem:
            raise StoreError(f"cannot use {path} as an arena database: {problem}") from None
        self._lock = threading.RLock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _writing(self):
        """Hold the lock for a write; a write SQLite refuses (a read-only file, a
        full disk) is a :class:`StoreError` that says so."""
        with self._lock:
            try:
                yield
            except sqlite3.Error as problem:
                raise StoreError(f"cannot write to the arena database {self.path}: {problem}") from None

    def _write(self, sql: str, values: tuple = ()) -> sqlite3.Cursor:
        with self._writing():
            return self._db.execute(sql, values)

    def _read(self, sql: str, values: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, values).fetchall()

    # -- tournaments ------------------------------------------------------------
    def create_tournament(self, game: str, players: list[str], kind: str, settings: dict[str, Any],
                          schedule: list[tuple[str, str]]) -> int:
        """A new tournament with its numbered schedule of (first, second) pairings."""
        with self._writing():
            self._db.execute("BEGIN")
            try:
                cursor = self._db.execute(
                    "INSERT INTO tournaments (game, players, kind, settings, created) VALUES (?, ?, ?, ?, ?)",
                    (game, json.dumps(players), kind, json.dumps(settings), _now()))
                tournament_id = cursor.lastrowid
                self._db.executemany("INSERT INTO slots (tournament_id, slot, first, second) VALUES (?, ?, ?, ?)",
                                     [(tournament_id, slot, a, b) for slot, (a, b) in enumerate(schedule)])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return tournament_id

    def tournament(self, tournament_id: int) -> TournamentRecord:
        rows = self._read(
            "SELECT t.id, t.game, t.players, t.kind, t.settings, t.created, t.finished, COUNT(s.slot), "
            "COUNT(s.game_id) FROM tournaments t LEFT JOIN slots s ON s.tournament_id = t.id "
            "WHERE t.id = ? GROUP BY t.id", (tournament_id,))
        if not rows:
            raise StoreError(f"no tournament {tournament_id} in {self.path}")
        return self._tournament_record(rows[0])

    def tournaments(self) -> list[TournamentRecord]:
        rows = self._read(
            "SELECT t.id, t.game, t.players, t.kind, t.settings, t.created, t.finished, COUNT(s.slot), "
            "COUNT(s.game_id) FROM tournaments t LEFT JOIN slots s ON s.tournament_id = t.id "
            "GROUP BY t.id ORDER BY t.id")
        return [self._tournament_record(row) for row in rows]

    @staticmethod
    def _tournament_record(row: tuple) -> TournamentRecord:
        tid, game, players, kind, settings, created, finished, slots, played = row
        return TournamentRecord(tid, game, json.loads(players), kind, json.loads(settings), created, finished,
                                slots, played)

    def pending_slots(self, tournament_id: int) -> list[tuple[int, str, str]]:
        """The slots still to play as ``(slot, first, second)``; games a killed run
        left unfinished are marked ``aborted`` (their slots are among these)."""
        self.tournament(tournament_id)
        self._write("UPDATE games SET status = 'aborted', reason = 'the arena stopped during the game' "
                    "WHERE tournament_id = ? AND status = 'playing'", (tournament_id,))
        return [tuple(row) for row in self._read(
            "SELECT slot, first, second FROM slots WHERE tournament_id = ? AND game_id IS NULL ORDER BY slot",
            (tournament_id,))]

    def slot_results(self, tournament_id: int) -> list[tuple[int, str, str, int | None]]:
        """Finished slots as ``(slot, first, second, winner)``."""
        return [tuple(row) for row in self._read(
            "SELECT s.slot, s.first, s.second, g.winner FROM slots s JOIN games g ON g.id = s.game_id "
            "WHERE s.tournament_id = ? ORDER BY s.slot", (tournament_id,))]

    def finish_tournament(self, tournament_id: int) -> None:
        self._write("UPDATE tournaments SET finished = ? WHERE id = ?", (_now(), tournament_id))

    def standings(self, tournament_id: int) -> list[Standing]:
        """Each agent's wins, ties, losses, score and Elo, best first."""
        record = self.tournament(tournament_id)
        tally = {agent: [0, 0, 0] for agent in record.players}
        for _, first, second, winner in self.slot_results(tournament_id):
            for side, agent in enumerate((first, second)):
                counts = tally.setdefault(agent, [0, 0, 0])
                counts[1 if winner is None else (0 if winner == side else 2)] += 1
        standings = []
        for agent, (wins, ties, losses) in tally.items():
            estimate = elo_estimate(wins, ties, losses)
            standings.append(Standing(agent, wins + ties + losses, wins, ties, losses, wins + 0.5 * ties,
                                      estimate.elo, estimate.error))
        return sorted(standings, key=lambda s: (-s.score / max(s.games, 1), s.agent))

    # -- games ------------------------------------------------------------------
    def begin_game(self, game: str, players: list[str], settings: dict[str, Any],
                   tournament_id: int | None = None, slot: int | None = None) -> int:
        cursor = self._write(
            "INSERT INTO games (tournament_id, slot, game, first, second, settings, status, started) "
            "VALUES (?, ?, ?, ?, ?, ?, 'playing', ?)",
            (tournament_id, slot, game, players[0], players[1], json.dumps(settings), _now()))
        return cursor.lastrowid

    def add_action(self, game_id: int, ply: int, action: int, seconds: float, cpu: float | None = None) -> None:
        self._write("INSERT INTO actions (game_id, ply, action, seconds, cpu) VALUES (?, ?, ?, ?, ?)",
                    (game_id, ply, int(action), float(seconds), None if cpu is None else float(cpu)))

    def finish_game(self, game_id: int, winner: int | None, reason: str) -> bool:
        """Record the result and fill the game's slot; ``False`` (and the game
        marked ``aborted``) if another run filled that slot first."""
        with self._writing():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                tid, slot = self._db.execute("SELECT tournament_id, slot FROM games WHERE id = ?",
                                             (game_id,)).fetchone()
                counted = True
                if tid is not None:
                    counted = self._db.execute(
                        "UPDATE slots SET game_id = ? WHERE tournament_id = ? AND slot = ? AND game_id IS NULL",
                        (game_id, tid, slot)).rowcount == 1
                self._db.execute("UPDATE games SET status = ?, winner = ?, reason = ?, finished = ? WHERE id = ?",
                                 ("done" if counted else "aborted", winner, reason, _now(), game_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return counted

    def abort_game(self, game_id: int, reason: str) -> None:
        self._write("UPDATE games SET status = 'aborted', reason = ?, finished = ? WHERE id = ?",
                    (reason, _now(), game_id))

    def game(self, game_id: int) -> GameRecord:
        rows = self._read(_GAME_COLUMNS + " WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"no game {game_id} in {self.path}")
        return self._game_record(rows[0])

    def games(self, limit: int = 50, offset: int = 0, tournament_id: int | None = None) -> list[GameRecord]:
        """Games, newest first (``limit`` of them from ``offset``)."""
        if tournament_id is None:
            rows = self._read(_GAME_COLUMNS + " ORDER BY id DESC LIMIT ? OFFSET ?", (limit, offset))
        else:
            rows = self._read(_GAME_COLUMNS + " WHERE tournament_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
                              (tournament_id, limit, offset))
        return [self._game_record(row) for row in rows]

    def count_games(self, tournament_id: int | None = None, status: str | None = None) -> int:
        sql, values = "SELECT COUNT(*) FROM games WHERE 1", []
        if tournament_id is not None:
            sql += " AND tournament_id = ?"
            values.append(tournament_id)
        if status is not None:
            sql += " AND status = ?"
            values.append(status)
        return self._read(sql, tuple(values))[0][0]

    def _game_record(self, row: tuple) -> GameRecord:
        gid, tid, game, first, second, settings, status, winner, reason, started, finished = row
        moves = self._read("SELECT action, seconds, cpu FROM actions WHERE game_id = ? ORDER BY ply", (gid,))
        return GameRecord(gid, game, [first, second], [m[0] for m in moves], [m[1] for m in moves], winner,
                          reason, tid, started, status, finished, json.loads(settings), [m[2] for m in moves])


_GAME_COLUMNS = ("SELECT id, tournament_id, game, first, second, settings, status, winner, reason, started, "
                 "finished FROM games")
