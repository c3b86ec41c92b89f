"""What every solved table is, whichever solver wrote it: the entries it
answers with, the folder it lives in, its ``meta.json``, and :class:`Table`,
the reading interface both kinds of table implement.

Two kinds of table sit on this interface: hashed keys
(:class:`boomboard.solver.hashed.table.HashedTable`, written by
:mod:`boomboard.solver.hashed.driver`) and dense records
(:class:`boomboard.solver.dense.table.DenseTable`, written by
:mod:`boomboard.solver.dense.driver`). :mod:`boomboard.solver.table` opens
either from its folder. This module imports neither kind, nor any solver:
both kinds and both drivers import it (``docs/explanation/solver.md``, "How the code is
laid out").
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import numpy as np

from ...core.errors import BoomboardError
from ...core.game import Game
from ...core.state import State
from .values import DRAW, LOSE, MAX_REMOTENESS, TIE, VALUE_SHIFT, WIN, terminal_value

VALUE_NAMES = {WIN: "win", LOSE: "lose", TIE: "tie", DRAW: "draw"}
DRAW_REMOTENESS = -1  # a draw never ends: it has no remoteness
# 1: keys unhashed, one run, searched by bisection; 2: .npy arrays, unchecked; 3: block files not bound
# to their table (a file from another table or level read as this one's). Older tables are refused, with
# a line naming the folder and --force (the solver agent's endgame cache is rebuilt on its own).
FORMAT = 4


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
    """A solved table: the same reading interface for every kind.

    >>> table = open_table(game)                     # doctest: +SKIP
    >>> table.lookup(game.new_initial_state())       # doctest: +SKIP
    Entry(value='win', remoteness=11)

    A kind of table implements :meth:`__len__`, :meth:`_holds`,
    :meth:`_stored_entry`, :meth:`entry_at`, :meth:`state_at`,
    :meth:`tally`, :meth:`check` and :meth:`verify`.
    """

    def __init__(self, game: Game, folder: Path, meta: dict):
        self.game, self.folder, self.meta = game, folder, meta
        self.variant = meta["variant"]

    def __len__(self) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Table {self.game} {self.variant}: {len(self)} positions>"

    def covers(self, state: State) -> bool:
        """Whether ``state`` is finished or one of this table's positions."""
        return state.is_terminal() or self._holds(state)

    def lookup(self, state: State) -> Entry:
        """The value and remoteness of ``state`` for its player to move.

        Raises :class:`NotSolvedError` for a position this table does not hold."""
        if state.game != self.game:
            raise NotSolvedError(f"this table is for {self.game}, not {state.game}")
        if state.is_terminal():
            return Entry(VALUE_NAMES[terminal_value(state.array)], 0)
        return self._stored_entry(state)

    def _holds(self, state: State) -> bool:
        """Whether the ongoing position ``state`` is stored here."""
        raise NotImplementedError

    def _stored_entry(self, state: State) -> Entry:
        """The stored entry of the ongoing position ``state``; :class:`NotSolvedError` if none."""
        raise NotImplementedError

    def entry_at(self, i: int) -> Entry:
        """The entry stored at index ``i``."""
        raise NotImplementedError

    def state_at(self, i: int) -> State:
        """The position stored at index ``i`` (as a fresh state, ply 0)."""
        raise NotImplementedError

    def tally(self) -> tuple[np.ndarray, int]:
        """How many stored positions have each value (indexed by the value's
        code) and the largest remoteness among them, counted from the entries."""
        raise NotImplementedError

    def recount(self, start: State) -> dict:
        """What ``meta.json`` summarizes, counted again from the entries
        (every block read): ``positions``, ``values``, ``max_remoteness``,
        ``start`` (the entry of ``start``; ``None`` when the table does not
        hold it) and ``bytes`` (the files' sizes)."""
        counts, largest = self.tally()
        summary = {"positions": int(counts.sum()), "values": {VALUE_NAMES[v]: int(counts[v]) for v in VALUE_NAMES},
                   "max_remoteness": largest, "start": None,
                   "bytes": sum(p.stat().st_size for p in self.folder.iterdir() if p.name != "meta.json")}
        if not start.is_terminal() and self.covers(start):
            entry = self.lookup(start)
            summary["start"] = {"value": entry.value, "remoteness": entry.remoteness}
        return summary

    def meta_disagreement(self, start: State) -> str | None:
        """Whether ``meta.json``'s entry of ``start`` is the table's (one lookup;
        opening a table checks its counts, :meth:`recount` counts the rest again,
        reading every block): what it says against the table, or ``None``."""
        claimed = self.meta.get("start")
        if claimed is not None and not start.is_terminal() and self.covers(start):
            entry = self.lookup(start)
            if (claimed["value"], claimed["remoteness"]) != (entry.value, entry.remoteness):
                return (f"the start is {claimed['value']} in {claimed['remoteness']}, the table "
                        f"{entry.value} in {entry.remoteness}")
        return None

    def check(self) -> None:
        """Check every block's checksum (reading the whole table, not
        decompressing it); :class:`~boomboard.solver.format.blockstore.CorruptTableError` if one fails."""
        raise NotImplementedError

    def verify(self, done=None) -> int | None:
        """Score every entry again from its children's; the index of the
        first one that differs, or ``None``. ``done(n)`` is called as
        entries are scored (progress)."""
        raise NotImplementedError


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
    if isinstance(meta["format"], int) and meta["format"] < FORMAT:
        raise NotSolvedError(f"{folder}: a table in format {meta['format']}, written by an older boomboard; "
                             f"this one reads format {FORMAT}, whose files are bound to their table: solve "
                             "it again with --force")
    if meta.get("format") != FORMAT or meta.get("game") != str(game):
        raise NotSolvedError(f"{folder} holds no table of {game} in format {FORMAT}; solve it again")
    return meta


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


def file_identity(game: Game | str, *parts: str) -> bytes:
    """The 16-byte identity in the header of one of a table's files
    (:mod:`boomboard.solver.format.blockstore`): a digest of the table format, the
    game string and ``parts`` (the variant or kind, the file's part: a level,
    the keys). A file copied from another table, variant or level has
    another identity and is refused when opened."""
    text = "\0".join(["boomboard table", str(FORMAT), str(game), *parts])
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def entry_value_code(entry: Entry) -> int:
    return {"win": WIN, "lose": LOSE, "tie": TIE, "draw": DRAW}[entry.value]


