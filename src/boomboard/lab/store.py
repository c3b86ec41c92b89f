"""The lab's store: one SQLite file, a row a variant, written as each
variant is measured, and the parts of the variants being measured.

A variant is measured in parts (its exact solve, and its self-play games
in chunks; see :mod:`boomboard.lab.sweep`), each written to the ``parts``
table in one transaction as it finishes; the variant's row is written, and
its parts removed, in one transaction once all are in. So a sweep killed
at any moment (even ``kill -9``) leaves whole rows and whole parts only;
run again, it measures only the parts missing, and ends with the store an
unbroken sweep writes (the seconds spent solving aside: they are measured
again).

Columns: the game's name and its variant (the game string, e.g.
``kaboom(rows=3,cols=3,connect=3)``) with each parameter's value (JSON);
``value``, ``remoteness``, ``moves`` (JSON: each first move's notation,
value and remoteness for the first player, best first), ``positions`` and
``seconds`` where the solver finished within the budget (else NULL);
``games``, ``depth``, ``score`` with ``score_low`` and ``score_high``,
``draw_rate``, ``length_median``, ``length_iqr``, ``decisiveness``,
``lead_changes``, ``capped`` from self-play (see :mod:`boomboard.lab.measure`);
and ``agreement`` (``agrees``, ``disagrees``, or NULL without both). A store
written before a column existed gets it on opening, NULL in its old rows,
and one written before parts were stored gets their table.

A part is its variant, its key (what it measured, with the settings its
result depends on: ``exact budget=B`` or ``games depth=D 0..3``) and its
result (JSON: the exact values or ``null``, or each game's record).

Opening checks that the file is a lab store: a file with other tables (the
web app's database), a ``variants`` or ``parts`` table without the columns
above, a damaged file or a row that is not JSON where JSON belongs is a
:class:`StoreError` of one line naming the file and what to do. A sweep
holds the store for itself (:meth:`Store.exclusive`, a lock on
``STORE.lock``): a second sweep of the same store is refused, naming the
process that holds it.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import BoomboardError

ESTIMATE_COLUMNS = ("games", "depth", "score", "score_low", "score_high", "draw_rate", "length_median",
                    "length_iqr", "decisiveness", "lead_changes", "capped")
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS variants (
    variant TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    value TEXT, remoteness INTEGER, moves TEXT, positions INTEGER, seconds REAL,
    {", ".join(f"{name} REAL" for name in ESTIMATE_COLUMNS)},
    agreement TEXT
)
"""
PARTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS parts (
    variant TEXT NOT NULL,
    part TEXT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (variant, part)
)
"""
# The columns every lab store has had (the estimates' were added later, see above).
REQUIRED_COLUMNS = {"variants": ("variant", "game", "params", "value", "remoteness", "moves", "positions", "seconds",
                                 "agreement"),
                    "parts": ("variant", "part", "result")}


class StoreError(BoomboardError):
    """A store that cannot be opened or is not a lab store."""


class StoreInUse(StoreError):
    """The store is held by another sweep."""


@dataclass(frozen=True)
class Row:
    """One measured variant, as the store holds it."""

    variant: str
    game: str
    params: dict[str, Any]
    exact: dict | None
    estimate: dict | None
    agreement: str | None


class Store:
    """A lab store at ``path`` (created with its folder if missing)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._held = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.connection = sqlite3.connect(self.path)
        except (sqlite3.Error, OSError) as problem:
            raise StoreError(f"cannot open the lab store {self.path}: {problem}") from None
        try:
            with self._reading("open"):
                self._check_schema()
                self.connection.execute(SCHEMA)
                self._add_missing_columns()
                self.connection.execute(PARTS_SCHEMA)  # a store written before parts were kept gets the table
                self.connection.commit()
        except StoreError:
            self.connection.close()
            raise

    @contextmanager
    def _reading(self, doing: str = "read") -> Iterator[None]:
        """SQLite's errors as one line naming the store (a damaged or truncated file)."""
        try:
            yield
        except sqlite3.Error as problem:
            raise StoreError(f"cannot {doing} the lab store {self.path} ({problem}): move it aside and run "
                             "boomboard explore again") from None

    def _columns(self, table: str) -> set[str]:
        return {column[1] for column in self.connection.execute(f"PRAGMA table_info({table})")}

    def _check_schema(self) -> None:
        """Refuse a file that is not a lab store: other tables, or ours without their columns."""
        tables = {name for (name,) in self.connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        foreign = sorted(tables - set(REQUIRED_COLUMNS))
        if foreign:
            raise StoreError(f"{self.path} is not a lab store (it holds the tables {', '.join(foreign)}): give "
                             "--store a new file or one that boomboard explore wrote")
        for table in tables:
            missing = [name for name in REQUIRED_COLUMNS[table] if name not in self._columns(table)]
            if missing:
                raise StoreError(f"{self.path} is not a lab store (its {table} table lacks the columns "
                                 f"{', '.join(missing)}): move it aside and run boomboard explore again")

    def _add_missing_columns(self) -> None:
        """Columns added since an older store was written (its rows keep NULL there)."""
        present = self._columns("variants")
        for name in ESTIMATE_COLUMNS:
            if name not in present:
                self.connection.execute(f"ALTER TABLE variants ADD COLUMN {name} REAL")

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the store for this process (a lock on ``STORE.lock``, which keeps
        its holder's process id): a sweep that finds it held is refused at once
        with :class:`StoreInUse`. The system drops the lock when its process ends,
        however it ends, so a killed sweep never leaves the store locked."""
        if self._held:  # already held by this process (the command holds it around its sweep)
            yield
            return
        lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            handle = open(lock_path, "a+")
        except OSError as problem:
            raise StoreError(f"cannot lock the lab store {self.path}: {problem.strerror or problem}") from None
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.seek(0)
                holder = handle.read().strip() or "unknown"
                raise StoreInUse(f"the lab store {self.path} is in use by another sweep (process {holder}): "
                                 "wait for it to end, or give another --store") from None
            handle.seek(0)
            handle.truncate()
            handle.write(str(os.getpid()))
            handle.flush()
            self._held = True
            try:
                yield
            finally:
                self._held = False
                handle.truncate(0)  # the lock itself goes with the file's closing

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def measured(self) -> set[str]:
        """The variants the store has a row for."""
        with self._reading():
            return {variant for (variant,) in self.connection.execute("SELECT variant FROM variants")}

    def parts(self, variant: str) -> dict[str, Any]:
        """The parts of ``variant`` stored so far: each one's result by its key."""
        with self._reading():
            found = list(self.connection.execute("SELECT part, result FROM parts WHERE variant = ?", (variant,)))
        parts = {}
        for part, result in found:
            try:
                parts[part] = json.loads(result)
            except (TypeError, ValueError):  # a damaged part is measured again
                continue
        return parts

    def add_part(self, variant: str, part: str, result: Any) -> None:
        """Write one finished part of ``variant``, at once."""
        with self._reading(), self.connection:
            self.connection.execute("INSERT OR REPLACE INTO parts (variant, part, result) VALUES (?, ?, ?)",
                                    (variant, part, json.dumps(result)))

    def add(self, game: str, params: dict[str, Any], result: dict) -> None:
        """Write one variant's row (see :func:`boomboard.lab.measure.variant_result`)
        and remove its parts, at once: the row holds all a later sweep needs of
        them, and a sweep of thousands of variants would otherwise keep every
        game's record."""
        exact, estimate = result["exact"] or {}, result["estimate"] or {}
        values = {
            "variant": result["variant"], "game": game, "params": json.dumps(params, sort_keys=True),
            "value": exact.get("value"), "remoteness": exact.get("remoteness"),
            "moves": json.dumps(exact["moves"]) if exact else None, "positions": exact.get("positions"),
            "seconds": exact.get("seconds"), **{name: estimate.get(name) for name in ESTIMATE_COLUMNS},
            "agreement": result["agreement"],
        }
        names = ", ".join(values)
        with self._reading(), self.connection:
            self.connection.execute(f"INSERT OR REPLACE INTO variants ({names}) VALUES "
                                    f"({', '.join('?' * len(values))})", tuple(values.values()))
            self.connection.execute("DELETE FROM parts WHERE variant = ?", (result["variant"],))

    def rows(self, game: str | None = None) -> list[Row]:
        """Every row (of ``game`` only, if given), in the order of their variants."""
        query = "SELECT * FROM variants" + (" WHERE game = ?" if game else "") + " ORDER BY variant"
        with self._reading():
            cursor = self.connection.execute(query, (game,) if game else ())
            names = [column[0] for column in cursor.description]
            records = [dict(zip(names, values)) for values in cursor]
        rows = []
        for record in records:
            try:
                rows.append(_row(record))
            except (TypeError, ValueError, KeyError) as problem:
                raise StoreError(f"the lab store {self.path} has a damaged row, {str(record['variant'])[:80]!r} "
                                 f"({type(problem).__name__}: {str(problem)[:80]}): delete that row or move the "
                                 "store aside, and run boomboard explore again") from None
        return rows


def _row(record: dict) -> Row:
    """The row ``record`` holds; a ``TypeError``, ``ValueError`` or ``KeyError`` where it is damaged."""
    exact = None
    if record["value"] is not None:
        exact = {"value": record["value"], "remoteness": record["remoteness"], "moves": json.loads(record["moves"]),
                 "positions": record["positions"], "seconds": record["seconds"]}
        if not isinstance(exact["moves"], list):
            raise TypeError(f"moves holds {type(exact['moves']).__name__}, not a list")
    estimate = None
    if record["games"] is not None:
        estimate = {name: record[name] for name in ESTIMATE_COLUMNS}
    params = json.loads(record["params"])
    if not isinstance(params, dict):
        raise TypeError(f"params holds {type(params).__name__}, not an object")
    return Row(record["variant"], record["game"], params, exact, estimate, record["agreement"])
