"""The web app's games, kept in SQLite as they are played.

A game is stored as its game string, its first position (when not the
start), its actions, its two sides (agent spec strings or ``human``) and, if
someone resigned, who. Every move rewrites the row in one transaction, so a
server that stops (or dies) loses nothing: on the next start the games in
progress are read back and resume where they were.

Several servers may share one file (the default file is shared by every
``boomboard serve`` of a user), so every row carries a version, raised by
each write: a write names the version it was based on and is refused
(:class:`StaleGame`) when another server has written the game since,
instead of overwriting what that server acknowledged. A write SQLite cannot
make (a full disk, a read-only file) raises :class:`StoreUnavailable`, and the
row is as it was.

A game belongs to the client that made it: the row keeps the SHA-256 of that
client's owner token (``owner``; never the token itself), and only a
request with that token may change the game (:meth:`GameStore.claim`). A
game with no owner (made before owners, or imported) is adopted by the
first client that changes it.

The file is checked when opened: one the web app did not write, a damaged
one (SQLite's quick check) or one it cannot write is refused with a
:class:`GameStoreError` of one line that names the file and what to do. A
row that cannot be read (its actions or players are not what this module
writes) is left out of the lists and refused alone (:class:`DamagedGame`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import BoomboardError, ParameterError
from ..core.sqlite_files import damage

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
    updated REAL NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    owner TEXT
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated);
"""
# the columns of a games table this module wrote (``version`` and ``owner`` may be missing: a file from before them)
_WEB_COLUMNS = {"id", "game", "position", "actions", "players", "resigned", "seed", "pace", "finished", "created",
                "updated"}


class GameStoreError(BoomboardError):
    """The games database cannot be used (not a database, another program's, unreachable)."""


class StoreUnavailable(GameStoreError):
    """A write the database refused (disk full, read-only, locked): nothing was changed."""


class ReadOnlyStore(StoreUnavailable):
    """A write refused because the file or its folder is read-only: retrying will not help until that changes."""


class StaleGame(GameStoreError):
    """A write based on a version of the game that another server has replaced since."""


class DamagedGame(GameStoreError):
    """A stored row that cannot be read back as a game (another program wrote it, or the disk damaged it)."""


class NotOwner(GameStoreError):
    """A change asked by a client that does not own the game (a 403)."""


@dataclass
class StoredGame:
    """One row: everything needed to rebuild the game and carry on.
    ``version`` is that of the stored row this record was read from or written as."""

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
    version: int = 0
    owner: str | None = None  # the SHA-256 (hex) of the owner token of the client that made it: owner_hash()


class GameStore:
    """A SQLite file of web games; safe to use from several threads. Opening
    a file that cannot hold them raises :class:`GameStoreError` with the reason."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = _open(self.path)
        self._data_version = self._db.execute("PRAGMA data_version").fetchone()[0]
        # The lists' own connection (SQLite lets a reader go on beside a writer, in WAL mode): a list of
        # hundreds of games holds it for tens of milliseconds, while a game's read or move waits for the other.
        self._lists_lock = threading.Lock()
        self._lists = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._generation = 0

    def add(self, record: StoredGame) -> None:
        """Store a new game (durable on return); ``record.version`` becomes 1.
        Its ``created`` time is kept where given (an imported game's), else now."""
        now = time.time()
        created = record.created or now
        self._write(_INSERT, _row(record, created, now))
        record.created, record.updated = created, now
        record.version = 1

    def add_new(self, records: list[StoredGame]) -> tuple[int, int]:
        """Store, in one transaction, each of ``records`` that is not stored
        already (the same game string, first position and actions as a stored
        game or an earlier one of ``records``): a process killed meanwhile
        stores none of them. Returns how many were added and how many skipped."""
        added = skipped = 0
        now = time.time()
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    stored = {(game, position, tuple(actions)) for game, position, actions
                              in ((game, position, _actions_or_none(text)) for game, position, text
                                  in self._db.execute("SELECT game, position, actions FROM games"))
                              if actions is not None}  # a damaged row is no game to skip for
                    for record in records:
                        key = (record.game, record.position, tuple(record.actions))
                        if key in stored:
                            skipped += 1
                            continue
                        stored.add(key)
                        self._db.execute(_INSERT, _row(record, record.created or now, now))
                        added += 1
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:  # SQLite may have rolled it back itself (a full disk)
                        self._db.execute("ROLLBACK")
                    raise
        except sqlite3.Error as problem:
            raise StoreUnavailable(f"the games database {self.path} cannot be written: {problem}; "
                                   f"nothing was imported") from None
        return added, skipped

    def claim(self, game_id: str, owner: str | None) -> None:
        """Let the client whose owner token hashes to ``owner``
        (:func:`owner_hash`; ``None``: a request without a token) change the
        game: :class:`NotOwner` if another client owns it; a game nobody owns
        is adopted by this client (a request with a token). Raises
        :class:`KeyError` for a game that is not stored."""
        row = self._read_one("SELECT owner FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise KeyError(game_id)
        if row[0] is None and owner is not None:
            self._write("UPDATE games SET owner = ? WHERE id = ? AND owner IS NULL", (owner, game_id))
            row = self._read_one("SELECT owner FROM games WHERE id = ?", (game_id,))  # another server may have won
        if row[0] is not None and row[0] != owner:
            raise NotOwner(f"game {game_id} belongs to the client that created it: others may watch and copy it, "
                           f"not change it (send that client's owner token in the {OWNER_HEADER} header)")

    def may_change(self, game_id: str, owner: str | None) -> bool:
        """Whether a client whose owner token hashes to ``owner`` may change
        the game (:meth:`claim` lets it): it owns the game, or nobody does yet."""
        row = self._read_one("SELECT owner FROM games WHERE id = ?", (game_id,))
        return row is not None and row[0] in (None, owner)

    def save(self, record: StoredGame) -> None:
        """Rewrite a game from ``record``, based on the stored version
        ``record.version`` (one transaction, durable on return); then
        ``record.version`` is the new one. :class:`StaleGame` if the stored
        row is no longer that version, :class:`StoreUnavailable` if it cannot
        be written: either way the row and ``record`` are unchanged."""
        now = time.time()
        cursor = self._write(
            "UPDATE games SET actions = ?, resigned = ?, finished = ?, updated = ?, version = version + 1 "
            "WHERE id = ? AND version = ?",
            (json.dumps(record.actions), record.resigned, int(record.finished), now, record.id, record.version))
        if cursor.rowcount != 1:
            raise StaleGame(f"game {record.id} was changed by another server on {self.path} since version "
                            f"{record.version}")
        record.updated = now
        record.version += 1

    def load(self, game_id: str) -> StoredGame | None:
        row = self._read_one(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _record(row)

    def version(self, game_id: str) -> int | None:
        """The stored version of a game (``None``: no such game)."""
        row = self._read_one("SELECT version FROM games WHERE id = ?", (game_id,))
        return None if row is None else row[0]

    def generation(self) -> int:
        """A number that grows whenever another connection (another server)
        has written to the file since the last call: while it stays the same,
        this store's own copies of the games are the stored ones."""
        value = self._read_one("PRAGMA data_version")[0]
        if value != self._data_version:
            self._data_version = value
            self._generation += 1
        return self._generation

    def recent(self, limit: int = 50, offset: int = 0, finished: bool | None = None, *,
               game: str | None = None, status: str | None = None) -> list[StoredGame]:
        """Games, most recently played first: all, or only those ``finished``
        (or not), of the game named ``game`` (any variant), of a ``status``
        (one of :data:`STATUSES`, see :func:`abandoned_before`)."""
        conditions, args = [], []
        if finished is not None:
            conditions.append("finished = ?")
            args.append(int(finished))
        if game is not None:
            conditions.append("(game = ? OR game LIKE ? ESCAPE '\\')")
            args += [game, game.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "(%"]
        if status is not None:
            condition, values = _status_condition(status)
            conditions.append(condition)
            args += values
        where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
        with self._lists_lock:
            rows = self._lists.execute(f"SELECT {_COLUMNS} FROM games {where} ORDER BY updated DESC LIMIT ? OFFSET ?",
                                       (*args, limit, offset)).fetchall()
        records = []
        for row in rows:
            try:
                records.append(_record(row))
            except DamagedGame:  # one bad row is refused when opened; the list shows the others
                continue
        return records

    def delete(self, game_id: str) -> bool:
        """Remove a game (durable on return); ``False`` if there was none."""
        return self._write("DELETE FROM games WHERE id = ?", (game_id,)).rowcount == 1

    def close(self) -> None:
        with self._lock:
            self._db.close()
        with self._lists_lock:
            self._lists.close()

    def _write(self, sql: str, values: tuple) -> sqlite3.Cursor:
        try:
            with self._lock:
                return self._db.execute(sql, values)
        except sqlite3.Error as problem:  # autocommit: the statement failed as a whole, nothing was written
            if "readonly" in str(problem):
                raise ReadOnlyStore(f"the games database {self.path} cannot be written: "
                                    f"{_reason(problem, self.path)}") from None
            raise StoreUnavailable(f"the games database {self.path} cannot be written: {problem}") from None

    def _read_one(self, sql: str, values: tuple = ()) -> tuple | None:
        with self._lock:
            return self._db.execute(sql, values).fetchone()


# An unfinished game nobody has moved in for this long is abandoned: the
# Games page leaves it out unless asked for abandoned games (docs/web.md).
ABANDONED_AFTER_SECONDS = 7 * 24 * 3600
# What the games list may be narrowed to: ``listed`` (finished, and in progress but not abandoned: the Games page's
# default), ``finished``, ``playing`` (not finished, not abandoned), ``abandoned``.
STATUSES = ("listed", "finished", "playing", "abandoned")


def abandoned_before(now: float | None = None) -> float:
    """The last-move time before which an unfinished game counts as abandoned."""
    return (time.time() if now is None else now) - ABANDONED_AFTER_SECONDS


def _status_condition(status: str) -> tuple[str, list]:
    if status not in STATUSES:
        raise ParameterError(f"unknown status {status!r:.40}; expected one of {', '.join(STATUSES)}")
    cutoff = abandoned_before()
    return {"listed": ("(finished = 1 OR updated >= ?)", [cutoff]),
            "finished": ("finished = 1", []),
            "playing": ("finished = 0 AND updated >= ?", [cutoff]),
            "abandoned": ("finished = 0 AND updated < ?", [cutoff])}[status]


_COLUMNS = "id, game, position, actions, players, resigned, seed, pace, finished, created, updated, version, owner"
_INSERT = f"INSERT INTO games ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)"
# The request header that carries a client's owner token (docs/how-to/web.md, "Who may change a game").
OWNER_HEADER = "X-Boomboard-Owner"


def owner_hash(token: str) -> str:
    """What the store keeps of an owner token: its SHA-256, so that the file does not hand out the tokens."""
    return hashlib.sha256(token.encode()).hexdigest()


def _row(record: StoredGame, created: float, updated: float) -> tuple:
    """The values of ``_INSERT`` for a new row of ``record``."""
    return (record.id, record.game, record.position, json.dumps(record.actions), json.dumps(record.players),
            record.resigned, record.seed, record.pace, int(record.finished), created, updated, record.owner)


def _open(path: Path) -> sqlite3.Connection:
    """A connection to ``path`` holding the games table, or :class:`GameStoreError` saying why not."""
    what = f"cannot use {path} as the web app's games database"
    if path.is_dir():
        raise GameStoreError(f"{what}: it is a folder (give --db a file)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as problem:
        raise GameStoreError(f"{what}: cannot make its folder {path.parent}: {problem.strerror or problem}") from None
    try:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    except sqlite3.Error as problem:
        raise GameStoreError(f"{what}: {_reason(problem, path)}") from None
    try:
        _check_intact(db, path)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        if "games" in tables and not _WEB_COLUMNS <= columns:
            owner = "the arena's database" if "tournaments" in tables else "another program's database"
            raise GameStoreError(f"{what}: it is {owner}, whose games table is not the web app's "
                                 f"(give --db a file of its own)")
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(_SCHEMA)
        for column, definition in (("version", "INTEGER NOT NULL DEFAULT 1"), ("owner", "TEXT")):
            if "games" in tables and column not in columns:  # a file from before versions, or owners
                db.execute(f"ALTER TABLE games ADD COLUMN {column} {definition}")
        # a write that changes nothing: a file the server could read but not write would refuse every move
        db.execute(f"PRAGMA user_version = {int(db.execute('PRAGMA user_version').fetchone()[0])}")
    except sqlite3.Error as problem:
        db.close()
        raise GameStoreError(f"{what}: {_reason(problem, path)}") from None
    except GameStoreError:
        db.close()
        raise
    return db


def _check_intact(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a damaged file at once, rather than fail on the first request that reads its damaged page."""
    found = damage(db)
    if found is not None:
        raise GameStoreError(f"cannot use {path} as the web app's games database: it is damaged ({found}); "
                             f"move it aside (a new one is made in its place) or recover its games with: "
                             f"sqlite3 {path} .recover | sqlite3 recovered.sqlite3")


def _reason(problem: sqlite3.Error, path: Path) -> str:
    """SQLite's message, with what to check where it names no cause."""
    text = str(problem)
    if "readonly" in text and os.path.exists(path):
        return (f"{text}: the file is read-only for this user, and the server writes every move there "
                f"(make {path.name} and its folder {path.parent} writable, or give --db another file)")
    if "readonly" in text or "unable to open" in text:
        return f"{text} (the server writes every move there: {path.name} and its folder {path.parent} must be writable)"
    return text


def _actions_or_none(text) -> list[int] | None:
    """A row's actions, or ``None`` where they are not a JSON list of integers."""
    try:
        actions = json.loads(text)
    except (TypeError, ValueError):
        return None
    if not isinstance(actions, list) or not all(type(action) is int for action in actions):
        return None
    return actions


def _players_or_none(text) -> list[str] | None:
    """A row's two sides, or ``None`` where they are not a JSON list of two strings."""
    try:
        players = json.loads(text)
    except (TypeError, ValueError):
        return None
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) for p in players):
        return None
    return players


def _record(row) -> StoredGame:
    """The game of a row; :class:`DamagedGame` (which names no server path: a request may see it) for a row
    this module did not write."""
    game_id, game, position, actions, players, resigned, seed, pace, finished, created, updated, version, owner = row
    actions, players = _actions_or_none(actions), _players_or_none(players)
    damage = ("its actions are not a list of action ids" if actions is None
              else "its sides are not two agent specs" if players is None
              else "its game is not a game string" if not isinstance(game, str) else None)
    if damage is not None:
        raise DamagedGame(f"game {game_id} is damaged in the games database ({damage}): it cannot be shown or "
                          f"played; delete it (DELETE /api/games/{game_id})")
    return StoredGame(game_id, game, players, actions, position, resigned, seed, pace, bool(finished), created,
                      updated, version, owner)
