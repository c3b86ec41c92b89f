"""Solved tables on disk, and reading them.

A table is a folder ``DB/GAME/VARIANT/`` (``GAME`` the game string, such as
``kaboom(rows=3,cols=3,connect=3)``, percent-encoded where a file name needs it; ``VARIANT`` ``start`` for the positions
reachable from the start, ``endgame-3`` for a game solved as endgames with
at most 3 tokens, ``from-<hash>`` for those reachable from another position) holding:

* ``keys.npy``: the index: each position's hashed key (``uint64``, see
  :mod:`boomboard.solver.layers`), sorted within each layer;
* ``offsets.npy``: where each layer's keys begin (one layer for a game
  without layers);
* ``values.npy``: one ``uint16`` a position, ``value << 14 | remoteness``;
* ``meta.json``: what was solved, counts, the start's value, timings.

The arrays are opened memory-mapped: a lookup (an interpolation search in
one layer) reads a few pages, not the table. A folder exists only once complete: a solve writes into
``VARIANT.work/`` and renames it at the end.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType
from urllib.parse import quote

import numpy as np

from ..core.errors import BoomboardError
from ..core.game import Game
from ..core.state import State
from .codec import OUTSIDE, codec_spec
from .layers import unhashed
from .retrograde import DRAW, LOSE, MAX_REMOTENESS, TIE, VALUE_SHIFT, WIN, terminal_value

VALUE_NAMES = {WIN: "win", LOSE: "lose", TIE: "tie", DRAW: "draw"}
DRAW_REMOTENESS = -1  # a draw never ends: it has no remoteness
FORMAT = 2  # 1: keys unhashed, one run, searched by bisection


class NotSolvedError(BoomboardError, LookupError):
    """The position (or game) is not in any solved table."""


@dataclass(frozen=True)
class Entry:
    """A position's value for the player to move (``"win"``, ``"lose"``,
    ``"tie"`` or ``"draw"``) and its remoteness: moves to the end under
    perfect play (0 for a finished position, -1 for a draw)."""

    value: str
    remoteness: int

    def describe(self) -> str:
        if self.value == "draw":
            return "draw (neither side can force an end)"
        if self.remoteness == 0:
            return f"{self.value} (the game is over)"
        return f"{self.value} in {self.remoteness}"


def unpack(entry: int) -> Entry:
    value = int(entry) >> VALUE_SHIFT
    if value == DRAW:
        return Entry("draw", DRAW_REMOTENESS)
    return Entry(VALUE_NAMES[value], int(entry) & MAX_REMOTENESS)


def default_db() -> Path:
    """Where tables live unless ``--db`` says otherwise: ``BOOMBOARD_DB`` if
    set, else the user's data folder (``~/.local/share/boomboard/solved`` on Linux)."""
    override = os.environ.get("BOOMBOARD_DB")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("boomboard")) / "solved"


def game_folder(game: Game, db: str | os.PathLike | None = None) -> Path:
    """The folder of ``game``'s tables: its game string, with anything a file
    name cannot hold (a ``/`` in a board setup, spaces) percent-encoded."""
    return Path(db if db is not None else default_db()) / quote(str(game), safe="(),=+-_.")


def table_dir(game: Game, variant: str, db: str | os.PathLike | None = None) -> Path:
    return game_folder(game, db) / variant


class Table:
    """A solved table, memory-mapped.

    >>> table = open_table(game)                     # doctest: +SKIP
    >>> table.lookup(game.new_initial_state())       # doctest: +SKIP
    Entry(value='win', remoteness=11)
    """

    def __init__(self, game: Game, folder: Path, meta: dict | None = None):
        self.game = game
        self.folder = folder
        self.meta = read_meta(game, folder) if meta is None else meta
        self.variant = self.meta["variant"]
        try:
            self.spec = codec_spec(game, self.meta.get("tokens", 0))
        except (BoomboardError, TypeError, ValueError, OverflowError) as problem:
            raise NotSolvedError(f"{folder}: the table's meta.json is damaged ({problem}); solve it again "
                                 "with --force") from None
        self.keys = _load_array(folder, "keys.npy", np.uint64, mmap=True)
        self.entries = _load_array(folder, "values.npy", np.uint16, mmap=True)
        self.offsets = _load_array(folder, "offsets.npy", np.int64, mmap=False)
        if self.keys.shape != self.entries.shape or self.offsets.size == 0 or self.offsets[-1] != self.keys.shape[0]:
            raise NotSolvedError(f"{folder}: keys and values differ in length; solve it again with --force")
        if self.offsets[0] != 0 or np.any(np.diff(self.offsets) < 0):
            raise NotSolvedError(f"{folder}: offsets.npy is damaged (not rising from 0); solve it again with --force")
        if self.meta["positions"] != self.keys.shape[0]:
            raise NotSolvedError(f"{folder}: meta.json counts {self.meta['positions']} positions, the arrays "
                                 f"{self.keys.shape[0]}; solve it again with --force")

    @cached_property
    def graph(self) -> ModuleType:
        """The solver's passes (:mod:`boomboard.solver.graph`) compiled for the table's game."""
        return self.game.compiled("boomboard.solver.graph")

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def __repr__(self) -> str:
        return f"<Table {self.game} {self.variant}: {len(self)} positions>"

    def key_of(self, state: State) -> int:
        return int(self.game.kernels.encode(self.spec, state.array, self.game.params_array))

    def covers(self, state: State) -> bool:
        """Whether ``state`` is finished or one of this table's positions."""
        return state.is_terminal() or self._find(state) is not None

    def _find(self, state: State) -> int | None:
        key = np.uint64(self.key_of(state))
        if key == OUTSIDE:
            return None
        i = self.graph.find(self.spec, self.game.params_array, np.asarray(self.keys), self.offsets, state.array,
                            key)
        return None if i < 0 else int(i)

    def lookup(self, state: State) -> Entry:
        """The value and remoteness of ``state`` for its player to move.

        Raises :class:`NotSolvedError` for a position this table does not hold."""
        if state.game != self.game:
            raise NotSolvedError(f"this table is for {self.game}, not {state.game}")
        if state.is_terminal():
            return Entry(VALUE_NAMES[terminal_value(state.array)], 0)
        i = self._find(state)
        if i is None:
            raise NotSolvedError(f"{state.to_notation()} is not among the {len(self)} positions of the "
                                 f"{self.variant} table of {self.game}")
        return unpack(int(self.entries[i]))

    def entry_at(self, i: int) -> Entry:
        return unpack(int(self.entries[i]))

    def state_at(self, i: int) -> State:
        """The position stored at index ``i`` (as a fresh state, ply 0)."""
        array = self.game.initial_array().copy()
        self.game.kernels.decode(self.spec, np.uint64(unhashed(self.keys[i])), self.game.params_array, array)
        return self.game.state_from_array(array)


def read_meta(game: Game, folder: Path) -> dict:
    """A table's ``meta.json``, checked: :class:`NotSolvedError` naming the folder if it is damaged."""
    try:
        meta = json.loads((folder / "meta.json").read_text())
    except (OSError, ValueError, RecursionError) as problem:
        raise NotSolvedError(f"{folder}: the table's meta.json cannot be read ({problem}); solve it "
                             "again with --force") from None
    problem = _meta_problem(meta)
    if problem:
        raise NotSolvedError(f"{folder}: the table's meta.json is damaged ({problem}); solve it again "
                             "with --force")
    if meta.get("format") != FORMAT or meta.get("game") != str(game):
        raise NotSolvedError(f"{folder} holds no table of {game} in format {FORMAT}; solve it again")
    return meta


def load_table(game: Game, folder: Path) -> Table:
    """The table in ``folder``: a :class:`Table` of hashed keys, or a dense
    one (``"kind": "dense"`` in its ``meta.json``, :mod:`boomboard.solver.dense_table`)."""
    meta = read_meta(game, folder)
    if meta.get("kind") == "dense":
        from .dense_table import DenseTable

        return DenseTable(game, folder, meta)
    return Table(game, folder, meta)


# what meta.json must hold (the commands print these), with their types
_META_FIELDS = {"format": (int, str), "game": (str,), "variant": (str,), "positions": (int,), "values": (dict,),
                "max_remoteness": (int,), "seconds": (int, float), "bytes": (int,)}


def _meta_problem(meta) -> str | None:
    """What is wrong with a table's decoded ``meta.json``, or ``None``."""
    if not isinstance(meta, dict):
        return f"it holds {type(meta).__name__}, not an object"
    for name, kinds in _META_FIELDS.items():
        value = meta.get(name)
        if isinstance(value, bool) or not isinstance(value, kinds):
            return f"{name!r} is {value!r:.40}, not {' or '.join(k.__name__ for k in kinds)}"
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in meta["values"].values()):
        return "'values' must count positions with integers"
    start = meta.get("start")
    if start is not None and not (isinstance(start, dict) and isinstance(start.get("value"), str)
                                  and isinstance(start.get("remoteness"), int)):
        return f"'start' is {start!r:.40}"
    if not isinstance(meta.get("tokens", 0), int) or isinstance(meta.get("tokens", 0), bool):
        return f"'tokens' is {meta.get('tokens')!r:.40}"
    return None


def _load_array(folder: Path, name: str, dtype, mmap: bool) -> np.ndarray:
    """One of the table's arrays, checked to be the 1-D array of ``dtype`` it must be."""
    try:
        array = np.load(folder / name, mmap_mode="r" if mmap else None, allow_pickle=False)
    except Exception as problem:  # an empty file is an EOFError, a bad header a ValueError, ...
        raise NotSolvedError(f"{folder}: the table cannot be read ({name}: {type(problem).__name__}: "
                             f"{str(problem)[:120] or 'empty'}); solve it again with --force") from None
    if not isinstance(array, np.ndarray) or array.dtype != dtype or array.ndim != 1:
        shown = getattr(array, "dtype", type(array).__name__)
        raise NotSolvedError(f"{folder}: {name} holds {shown} data of {getattr(array, 'ndim', '?')} dimension(s), "
                             f"not the 1-D {np.dtype(dtype).name} a table has; solve it again with --force")
    return array


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
        raise NotSolvedError(f"{game} is not solved in {where}; run: boomboard solve {game.name} ...")
    raise NotSolvedError(f"no solved table of {game} in {where} holds this position "
                         f"(tables: {', '.join(variants)})")


def entry_value_code(entry: Entry) -> int:
    return {"win": WIN, "lose": LOSE, "tie": TIE, "draw": DRAW}[entry.value]


