"""Scoring a dense level from the levels its moves reach: the unit of work
of a dense solve, of a Ray worker and of a dense table's verification.

:func:`solve_level` scores one level from the files of the levels it reads
(read by a :func:`child_reader`: whole into memory, or through a mapped
window file, :mod:`boomboard.solver.dense.window`) and writes its own file
(:mod:`boomboard.solver.dense.store`); :func:`score_range` scores a part of
it (what a Ray task does, :mod:`boomboard.solver.dense.ray`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .layout import DenseLayout, tier_bases
from .plan import plan_of
from .store import open_writer, read_level
from .window import MappedLevels

CHUNK = 1 << 20  # records scored between writes and progress updates


def gather_children(layout: DenseLayout, folder, level: int, loaded: dict[int, np.ndarray]):
    """The records of the levels ``level``'s moves reach, as one array, and
    where each tier's begin in it (-1: not there). ``loaded`` keeps levels
    read before; those no longer needed are dropped first."""
    needed = layout.child_levels(level)
    for old in [k for k in loaded if k not in needed]:
        del loaded[old]
    for child in needed:
        if child not in loaded:
            loaded[child] = read_level(layout, folder, child)
    bases = tier_bases(layout, needed, np.cumsum([0] + [int(layout.totals[c]) for c in needed]))
    if len(needed) == 1:
        return loaded[needed[0]], bases
    if needed:
        return np.concatenate([loaded[c] for c in needed]), bases
    return np.empty(0, dtype=np.uint16), bases


class LevelsInMemory:
    """The levels a level reads, read whole into memory and kept while a
    later level still reads them (:func:`gather_children`). Boards too big
    for that read them through a memory-mapped file instead
    (:class:`boomboard.solver.dense.window.MappedLevels`), with the same
    ``gather``."""

    def __init__(self, layout: DenseLayout, folder):
        self.layout, self.folder = layout, folder
        self.loaded: dict[int, np.ndarray] = {}

    def gather(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        return gather_children(self.layout, self.folder, level, self.loaded)

    def close(self) -> None:
        self.loaded.clear()


def child_reader(layout: DenseLayout, folder, mapped: bool, window_folder=None):
    """How a solve reads the levels a level reads: whole, or (``mapped``)
    through a window file in ``window_folder`` (default: ``folder``)."""
    if mapped:
        return MappedLevels(layout, folder, window_folder)
    return LevelsInMemory(layout, folder)


def reads_mapped(layout: DenseLayout, memory: int | None = None) -> bool:
    """Whether the levels read do not fit in ``memory`` bytes (default: this machine's)."""
    import psutil

    return plan_of(layout).needs_window(memory or psutil.virtual_memory().total)


def score_range(layout: DenseLayout, level: int, records: np.ndarray, bases: np.ndarray, lo: int, hi: int,
                out: np.ndarray | None = None) -> np.ndarray:
    """The records ``lo`` to ``hi`` of ``level`` (into ``out`` if given),
    scored from the children's records that :func:`gather_children` returned."""
    tiers, starts = layout.tiers_of(level)
    out = np.empty(hi - lo, dtype=np.uint16) if out is None else out
    engine = layout.engine
    missing = layout.passes.solve_level(layout.dspec, engine.params, engine.position.copy(),
                                        layout.game.num_distinct_actions(), level, tiers, starts, lo, hi, out,
                                        layout.symmetric, records, bases)
    if missing:
        raise RuntimeError(f"level {level}: {missing} positions with a child in no level it reads "
                           "(a game whose dense_child_levels misses a move)")
    return out


def solve_level(layout: DenseLayout, folder, level: int, children=None,
                write: bool = True, done: Callable[[int], None] | None = None):
    """Solve ``level`` from the files in ``folder`` of the levels its moves
    reach (read by ``children``, a :func:`child_reader`, kept between calls)
    and, with ``write``, write its
    own file as it goes, a chunk at a time (so that memory holds the levels
    read and one chunk). Returns (counts of each value, largest remoteness,
    the records if not written); ``done(n)`` is called after each chunk."""
    records, bases = (children or LevelsInMemory(layout, folder)).gather(level)
    total = int(layout.totals[level])
    counts = np.zeros(4, dtype=np.int64)
    largest = 0
    out = np.empty(min(CHUNK, total), dtype=np.uint16)
    kept = []
    writer = open_writer(layout, folder, level) if write and total else None
    try:
        for lo in range(0, total, CHUNK):
            hi = min(total, lo + CHUNK)
            part = score_range(layout, level, records, bases, lo, hi, out[:hi - lo])
            largest = max(largest, int(layout.passes.tally(part, counts)))
            if writer is not None:
                writer.append(part.copy())  # the writer keeps views of what it has not yet compressed
            else:
                kept.append(part.copy())
            if done is not None:
                done(hi - lo)
        if writer is not None:
            writer.close()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    return counts, largest, (np.concatenate(kept) if kept else np.empty(0, dtype=np.uint16))
