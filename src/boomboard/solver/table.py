"""Solved tables on disk: finding them and opening them.

A game's tables live in its folder of the database, ``DB/GAME/VARIANT/``
(:func:`table_dir`); each is one of the two kinds that implement
:class:`Table` (:mod:`boomboard.solver.format.table_format`): hashed keys
(:class:`~boomboard.solver.hashed.table.HashedTable`, whose module describes
the folder's files) or dense records (``"kind": "dense"`` in its
``meta.json``, :class:`~boomboard.solver.dense.table.DenseTable`). This
module opens either; the names of :mod:`boomboard.solver.format.table_format` are
importable from here too, as they always were.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..core.game import Game
from ..core.state import State
from .dense.table import DenseTable
from .hashed.table import HashedTable
from .format.table_format import (DRAW_REMOTENESS, FORMAT, VALUE_NAMES, Entry, NotSolvedError, Table, default_db,
                                  entry_value_code, game_folder, read_meta, table_dir, unpack)

__all__ = ["DRAW_REMOTENESS", "FORMAT", "VALUE_NAMES", "DenseTable", "Entry", "HashedTable", "NotSolvedError",
           "Table", "default_db", "entry_value_code", "game_folder", "load_table", "open_table", "read_meta",
           "solved_variants", "table_dir", "tables_for", "unpack"]


def move_into_place(game: Game, work: Path, folder: Path) -> Table:
    """A finished solve's work folder (its ``meta.json`` written) as the
    table's folder: its work files dropped, then renamed into place in one step."""
    for path in [*work.glob("*.npy"), *work.glob("expansion-*.npz"), work / "progress.json"]:
        path.unlink(missing_ok=True)
    if folder.exists():
        shutil.rmtree(folder)
    os.replace(work, folder)
    return load_table(game, folder)


def load_table(game: Game, folder: Path) -> Table:
    """The table in ``folder``: a :class:`HashedTable`, or a
    :class:`DenseTable` (``"kind": "dense"`` in its ``meta.json``)."""
    meta = read_meta(game, folder)
    if meta.get("kind") == "dense":
        return DenseTable(game, folder, meta)
    return HashedTable(game, folder, meta)


def solved_variants(game: Game, db: str | os.PathLike | None = None) -> list[str]:
    """The complete tables of ``game`` in ``db``: ``start`` first, then endgames by size, then the rest."""
    folder = game_folder(game, db)
    if not folder.is_dir():
        return []
    found = [p.name for p in folder.iterdir() if p.is_dir() and (p / "meta.json").is_file()]

    def order(name: str):
        if name == "start":
            return (0, 0, name)
        if name.startswith("endgame-") and name.split("-")[1].isascii() and name.split("-")[1].isdigit():
            return (1, -int(name.split("-")[1]), name)
        return (2, 0, name)

    return sorted(found, key=order)


_OPENED: dict[tuple[str, str], tuple[int, Table]] = {}


def _opened(game: Game, folder: Path) -> Table:
    """The table in ``folder``, opened once while its ``meta.json`` is unchanged
    (a web server or an agent asks for the same tables again and again)."""
    stamp = (folder / "meta.json").stat().st_mtime_ns
    cached = _OPENED.get((str(game), str(folder)))
    if cached is None or cached[0] != stamp:
        cached = (stamp, load_table(game, folder))
        _OPENED[(str(game), str(folder))] = cached
    return cached[1]


def open_table(game: Game, db: str | os.PathLike | None = None, variant: str | None = None) -> Table | None:
    """The solved table of ``game`` (its ``start`` table if there is one, else
    the largest endgame, else any), or ``None`` when it is not solved."""
    variants = [variant] if variant else solved_variants(game, db)
    for name in variants:
        folder = table_dir(game, name, db)
        if (folder / "meta.json").is_file():
            return _opened(game, folder)
    return None


def tables_for(state: State, db: str | os.PathLike | None = None) -> Table:
    """A solved table that holds ``state``; :class:`NotSolvedError` if none does."""
    game = state.game
    variants = solved_variants(game, db)
    for name in variants:
        table = _opened(game, table_dir(game, name, db))
        if table.covers(state):
            return table
    where = Path(db if db is not None else default_db())
    if not variants:
        command = " ".join(filter(None, ["boomboard solve", game.name, game.command_options(),
                                         None if db is None else f"--db {where}"]))
        raise NotSolvedError(f"{game} is not solved in {where}; run: {command}")
    raise NotSolvedError(f"no solved table of {game} in {where} holds this position "
                         f"(tables: {', '.join(variants)})")
