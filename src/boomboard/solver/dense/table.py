"""A dense table on disk, and reading it.

A dense table (``"kind": "dense"`` in ``meta.json``, solved by
:mod:`boomboard.solver.dense.driver`) is a folder of one block file of
``uint16`` records per level (:mod:`boomboard.solver.dense.store`); where a
position's record lies follows from the game's ranking alone (its
:class:`~boomboard.solver.dense.layout.DenseLayout`), so no keys are stored.
A lookup locates the position (mirrored first when its tier is not one the
table stores, with ``"symmetric": true``) and decompresses one block.
Indexes (:meth:`DenseTable.entry_at`, :meth:`DenseTable.state_at`) run over
the stored records, level after level, "no position" records included.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ...core.game import Game
from ...core.state import State
from .layout import DenseLayout
from .levels import child_reader, reads_mapped, solve_level
from .store import NO_POSITION, open_level
from ..format.table_format import Entry, NotSolvedError, Table, unpack


class DenseTable(Table):
    """A solved dense table."""

    def __init__(self, game: Game, folder: Path, meta: dict):
        super().__init__(game, folder, meta)
        self.symmetric = bool(meta.get("symmetric", False))
        if game.solver_dense_spec() is None:
            raise NotSolvedError(f"{folder}: a dense table, but {game} has no dense ranking; solve it again")
        self.layout = DenseLayout(game, self.symmetric)
        if self.layout.level_count != meta.get("levels") or int(self.layout.totals.sum()) != meta.get("records"):
            raise NotSolvedError(f"{folder}: meta.json's levels or records disagree with {game}'s ranking; "
                                 "solve it again with --force")
        self._levels: dict[int, object] = {}
        self.offsets = np.zeros(self.layout.level_count + 1, dtype=np.int64)
        np.cumsum(self.layout.totals, out=self.offsets[1:])

    def __len__(self) -> int:
        return int(self.offsets[-1])

    def check(self) -> None:
        for level in range(self.layout.level_count):
            if self.layout.totals[level]:
                self.level(level).check()

    def level(self, level: int):
        """The records of ``level``, read a block at a time."""
        found = self._levels.get(level)
        if found is None:
            found = open_level(self.layout, self.folder, level)
            self._levels[level] = found
        return found

    def _record(self, state: State) -> int:
        engine = self.layout.engine
        level, index = self.layout.passes.lookup(self.layout.dspec, engine.params, engine.load(state.array),
                                                 self.symmetric, self.layout.levels, self.layout.start)
        if level < 0:
            return NO_POSITION
        return int(self.level(int(level))[int(index)])

    def _holds(self, state: State) -> bool:
        return self._record(state) != NO_POSITION

    def _stored_entry(self, state: State) -> Entry:
        record = self._record(state)
        if record == NO_POSITION:
            raise NotSolvedError(f"{state.to_notation()} is not a position of the dense table of {self.game}")
        return unpack(record)

    def _where(self, i: int) -> tuple[int, int, int]:
        """The level, tier and rank of stored record ``i``."""
        if not 0 <= i < len(self):
            raise IndexError(f"record {i} of a table of {len(self)}")
        level = int(np.searchsorted(self.offsets, i, side="right") - 1)
        tiers, starts = self.layout.tiers_of(level)
        within = i - int(self.offsets[level])
        k = int(np.searchsorted(starts, within, side="right") - 1)
        return level, int(tiers[k]), within - int(starts[k])

    def entry_at(self, i: int) -> Entry:
        level, _, _ = self._where(i)
        record = int(self.level(level)[i - int(self.offsets[level])])
        if record == NO_POSITION:
            raise NotSolvedError(f"record {i} of {self.folder} is no position")
        return unpack(record)

    def tally(self) -> tuple[np.ndarray, int]:
        counts = np.zeros(4, dtype=np.int64)
        largest = 0
        for level in range(self.layout.level_count):
            if self.layout.totals[level]:
                largest = max(largest, int(self.layout.passes.tally(self.level(level).read_all(), counts)))
        return counts, largest

    def state_at(self, i: int) -> State:
        _, tier, rank = self._where(i)
        array = self.game.initial_array().copy()
        self.game.kernels.dense_unrank(self.layout.dspec, tier, rank, self.game.params_array, array)
        return self.game.state_from_array(array)

    def verify(self, done=None) -> int | None:
        """Score every level again from the stored levels it reads."""
        children = child_reader(self.layout, self.folder, reads_mapped(self.layout))
        try:
            for level in range(self.layout.level_count - 1, -1, -1):
                if not self.layout.totals[level]:
                    continue
                fresh = solve_level(self.layout, self.folder, level, children, write=False, done=done)[2]
                stored = self.level(level).read_all()
                differ = np.flatnonzero(fresh != stored)
                if len(differ):
                    return int(self.offsets[level] + differ[0])
            return None
        finally:
            children.close()
