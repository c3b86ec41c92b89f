"""Where a dense solve keeps each position: the game's tiers laid out in levels.

The game's ``dense_*`` kernels (:mod:`boomboard.kernel_interface`) number
its positions as (tier, rank); :class:`DenseLayout` counts the tiers, orders
them by level and gives each stored tier its offset in its level's records.
Everything dense stands on it: the plan (:mod:`boomboard.solver.dense.plan`),
the reading of levels (:mod:`boomboard.solver.dense.levels`), the table
(:mod:`boomboard.solver.dense.table`) and the solve
(:mod:`boomboard.solver.dense.driver`).
"""

from __future__ import annotations

import numpy as np

from ...core.errors import BoomboardError
from ...core.game import Game
from .engine import dense_engine


class DenseLayout:
    """Where each tier's records are: its level, and its offset in the
    level's records (-1 for a tier not stored: empty, or with ``symmetric``
    the mirror of a stored one)."""

    def __init__(self, game: Game, symmetric: bool, parallel: bool = False):
        described = game.solver_dense_spec()
        if described is None:
            raise BoomboardError(f"{game} cannot be solved densely (no ranking for it)")
        self.game, self.symmetric = game, symmetric
        self.dspec = np.array(described, dtype=np.int64)
        # one thread: the passes built ahead of time where they are (no numba loaded); else numba's
        self.engine = dense_engine(game, ahead=not parallel)
        self.passes = self.engine.passes
        tiers, self.level_count = (int(x) for x in self.passes.counts(self.dspec))
        sizes = np.empty(tiers, dtype=np.int64)
        self.levels = np.empty(tiers, dtype=np.int64)
        stored = np.empty(tiers, dtype=np.bool_)
        self.passes.tier_table(self.dspec, symmetric, sizes, self.levels, stored)
        ids = np.flatnonzero(stored)
        ids = ids[np.argsort(self.levels[ids], kind="stable")]  # by level, by id within a level
        self.bounds = np.searchsorted(self.levels[ids], np.arange(self.level_count + 1))
        self.ids = ids
        self.start = np.full(tiers, -1, dtype=np.int64)
        self.totals = np.zeros(self.level_count, dtype=np.int64)
        for level in range(self.level_count):
            mine = ids[self.bounds[level]:self.bounds[level + 1]]
            ends = np.cumsum(sizes[mine])
            self.start[mine] = ends - sizes[mine]
            self.totals[level] = ends[-1] if len(ends) else 0

    def tiers_of(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        """A level's stored tiers, in order, and where each one's records begin (and the end)."""
        mine = self.ids[self.bounds[level]:self.bounds[level + 1]]
        starts = np.empty(len(mine) + 1, dtype=np.int64)
        starts[:-1] = self.start[mine]
        starts[-1] = self.totals[level]
        return mine, starts

    def child_levels(self, level: int) -> list[int]:
        out = np.empty(self.level_count, dtype=np.int64)
        n = self.passes.child_levels(self.dspec, level, out)
        return sorted(int(x) for x in out[:n] if self.totals[x] > 0)


def tier_bases(layout: DenseLayout, levels: list[int], level_starts) -> np.ndarray:
    """Where each tier's records begin in an array holding ``levels``, the
    ``k``-th from ``level_starts[k]`` (-1 for the tiers of other levels)."""
    bases = np.full(layout.start.shape[0], -1, dtype=np.int64)
    for level, first in zip(levels, level_starts):
        mine = layout.ids[layout.bounds[level]:layout.bounds[level + 1]]
        bases[mine] = layout.start[mine] + first
    return bases
