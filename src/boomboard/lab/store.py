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
"""

from __future__ import annotations

import json
import sqlite3
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


class StoreError(BoomboardError):
    """A store that cannot be opened or is not a lab store."""


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
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.connection = sqlite3.connect(self.path)
            self.connection.execute(SCHEMA)
            self._add_missing_columns()
            self.connection.execute(PARTS_SCHEMA)  # a store written before parts were kept gets the table
            self.connection.commit()
        except (sqlite3.Error, OSError) as problem:
            raise StoreError(f"cannot open the lab store {self.path}: {problem}") from None

    def _add_missing_columns(self) -> None:
        """Columns added since an older store was written (its rows keep NULL there)."""
        present = {column[1] for column in self.connection.execute("PRAGMA table_info(variants)")}
        for name in ESTIMATE_COLUMNS:
            if name not in present:
                self.connection.execute(f"ALTER TABLE variants ADD COLUMN {name} REAL")

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def measured(self) -> set[str]:
        """The variants the store has a row for."""
        return {variant for (variant,) in self.connection.execute("SELECT variant FROM variants")}

    def parts(self, variant: str) -> dict[str, Any]:
        """The parts of ``variant`` stored so far: each one's result by its key."""
        cursor = self.connection.execute("SELECT part, result FROM parts WHERE variant = ?", (variant,))
        return {part: json.loads(result) for part, result in cursor}

    def add_part(self, variant: str, part: str, result: Any) -> None:
        """Write one finished part of ``variant``, at once."""
        with self.connection:
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
        with self.connection:
            self.connection.execute(f"INSERT OR REPLACE INTO variants ({names}) VALUES "
                                    f"({', '.join('?' * len(values))})", tuple(values.values()))
            self.connection.execute("DELETE FROM parts WHERE variant = ?", (result["variant"],))

    def rows(self, game: str | None = None) -> list[Row]:
        """Every row (of ``game`` only, if given), in the order of their variants."""
        query = "SELECT * FROM variants" + (" WHERE game = ?" if game else "") + " ORDER BY variant"
        cursor = self.connection.execute(query, (game,) if game else ())
        names = [column[0] for column in cursor.description]
        return [_row(dict(zip(names, values))) for values in cursor]


def _row(record: dict) -> Row:
    exact = None
    if record["value"] is not None:
        exact = {"value": record["value"], "remoteness": record["remoteness"], "moves": json.loads(record["moves"]),
                 "positions": record["positions"], "seconds": record["seconds"]}
    estimate = None
    if record["games"] is not None:
        estimate = {name: record[name] for name in ESTIMATE_COLUMNS}
    return Row(record["variant"], record["game"], json.loads(record["params"]), exact, estimate, record["agreement"])
