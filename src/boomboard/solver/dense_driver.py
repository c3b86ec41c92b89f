"""Solving a game densely: a level at a time, records indexed by rank, resumable.

The game's ``dense_*`` kernels (:mod:`boomboard.kernel_interface`) number
its positions as (tier, rank); :mod:`boomboard.solver.dense` scores a level
in one scan from the levels its moves reach. This module lays the tiers out
(:class:`DenseLayout`), runs the levels from the last down, keeps in memory
only the level being solved and the levels it reads, and writes each level
to its own file (:mod:`boomboard.solver.dense_store`) in the work folder
``VARIANT.work/``, then ``progress.json``: a killed solve resumes at the
first level not yet written, and ends with the same bytes. The finished
folder is renamed into place in one step.

:func:`solve_level` is the unit of work: one level, from the files of the
levels it reads, to its own file.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from typing import Callable

import numpy as np

from ..core.errors import BoomboardError
from ..core.game import Game
from .dense_store import level_path, open_writer, read_level
from .tiers import write_json_atomic

DENSE_FORMAT = 1
CHUNK = 1 << 20  # records scored between writes and progress updates


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
        self.passes = game.compiled("boomboard.solver.dense", ahead=not parallel)
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


def gather_children(layout: DenseLayout, folder, level: int, loaded: dict[int, np.ndarray]):
    """The records of the levels ``level``'s moves reach, as one array, and
    where each tier's begin in it (-1: not there). ``loaded`` keeps levels
    read before; those no longer needed are dropped first."""
    needed = layout.child_levels(level)
    for old in [k for k in loaded if k not in needed]:
        del loaded[old]
    for child in needed:
        if child not in loaded:
            loaded[child] = read_level(folder, child, int(layout.totals[child]))
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
    (:class:`boomboard.solver.dense_window.MappedLevels`), with the same
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
        from .dense_window import MappedLevels

        return MappedLevels(layout, folder, window_folder)
    return LevelsInMemory(layout, folder)


def reads_mapped(layout: DenseLayout, memory: int | None = None) -> bool:
    """Whether the levels read do not fit in ``memory`` bytes (default: this machine's)."""
    import psutil

    from .dense_plan import plan_of

    return plan_of(layout).needs_window(memory or psutil.virtual_memory().total)


def score_range(layout: DenseLayout, level: int, records: np.ndarray, bases: np.ndarray, lo: int, hi: int,
                out: np.ndarray | None = None) -> np.ndarray:
    """The records ``lo`` to ``hi`` of ``level`` (into ``out`` if given),
    scored from the children's records that :func:`gather_children` returned."""
    tiers, starts = layout.tiers_of(level)
    out = np.empty(hi - lo, dtype=np.uint16) if out is None else out
    game = layout.game
    missing = layout.passes.solve_level(layout.dspec, game.params_array, game.initial_array().copy(),
                                        game.num_distinct_actions(), level, tiers, starts, lo, hi, out,
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
    writer = open_writer(folder, level) if write and total else None
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


def solve_dense(owner, symmetric: bool, threads: int | None,
                interrupt: Callable[[str, int], None] | None, backend: str = "local",
                ray_address: str | None = None, memory: int | None = None):
    """Solve ``owner``'s game (a :class:`boomboard.solver.driver._Solver`)
    densely, here or (``backend="ray"``) on a Ray cluster
    (:mod:`boomboard.solver.dense_ray`), planning with ``memory`` bytes
    (default: the machine's); returns its table."""
    from .driver import _progress
    from .table import FORMAT, VALUE_NAMES, load_table

    game, work = owner.game, owner.work
    began = time.perf_counter()
    here = threads or int(os.environ.get("NUMBA_NUM_THREADS") or os.cpu_count() or 1)  # numba's default
    layout = DenseLayout(game, symmetric, parallel=here > 1 or backend == "ray")
    mapped = backend != "ray" and _how_it_fits(layout, work, memory)  # a cluster's nodes are not this machine
    record_path = work / "progress.json"
    record = json.loads(record_path.read_text()) if record_path.is_file() else {}
    if record.get("dense") != DENSE_FORMAT or record.get("symmetric") != symmetric:
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        record = {"dense": DENSE_FORMAT, "symmetric": symmetric, "next": layout.level_count - 1,
                  "values": [0, 0, 0, 0], "max_remoteness": 0}
        write_json_atomic(record_path, record)
    numba_threads = _NumbaThreads(None if getattr(layout.passes, "ahead", False) else here)
    children = None
    if backend == "ray":
        from .dense_ray import RayLevels

        solve_next = RayLevels(layout, work, threads, ray_address, memory).solve
    else:
        children = child_reader(layout, work, mapped)

        def solve_next(level: int, done: Callable[[int], None]):
            return solve_level(layout, work, level, children, done=done)
    try:
        with _progress(owner.show) as bar:
            total = int(layout.totals.sum())
            done = int(layout.totals[record["next"] + 1:].sum())
            task = bar.add_task("solving levels", total=total, completed=done)
            for level in range(record["next"], -1, -1):
                counts, largest, _ = solve_next(level, lambda n: bar.update(task, advance=n))
                record["values"] = [int(c) for c in counts + np.array(record["values"], dtype=np.int64)]
                record["max_remoteness"] = max(record["max_remoteness"], largest)
                record["next"] = level - 1
                write_json_atomic(record_path, record)
                if interrupt is not None:
                    interrupt("dense level", level)
    finally:
        numba_threads.restore()
        if children is not None:
            children.close()
    counts = record["values"]
    positions = int(sum(counts))
    meta = {
        "format": FORMAT,
        "kind": "dense",
        "dense_format": DENSE_FORMAT,
        "game": str(game),
        "variant": owner.variant,
        "tokens": 0,
        "symmetric": symmetric,
        "levels": layout.level_count,
        "positions": positions,
        "records": total,
        "values": {VALUE_NAMES[v]: int(counts[v]) for v in VALUE_NAMES},
        "max_remoteness": record["max_remoteness"],
        "seconds": round(time.perf_counter() - began, 3),
        "bytes": sum(level_path(work, level).stat().st_size for level in range(layout.level_count)
                     if level_path(work, level).is_file()),
        "root": None,
    }
    start = game.new_initial_state()
    if not start.is_terminal():
        entry = _start_entry(layout, work, start)
        if entry is not None:
            meta["start"] = {"value": entry.value, "remoteness": entry.remoteness}
    record_path.unlink(missing_ok=True)
    write_json_atomic(work / "meta.json", meta)
    if owner.folder.exists():
        shutil.rmtree(owner.folder)
    os.replace(work, owner.folder)
    return load_table(game, owner.folder)


class _NumbaThreads:
    """numba's thread count set to ``threads`` (at most its own) until
    :meth:`restore`; nothing (numba is not loaded) for None: passes built
    ahead of time run in the calling thread."""

    def __init__(self, threads: int | None):
        self.previous = None
        if threads is not None:
            import numba

            self.previous = numba.get_num_threads()
            numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))

    def restore(self) -> None:
        if self.previous is not None:
            import numba

            numba.set_num_threads(self.previous)


def _how_it_fits(layout: DenseLayout, work, memory: int | None) -> bool:
    """Whether the solve reads its child levels through a mapped window
    file (they do not fit in memory); refuses, before anything is written,
    a solve that fits neither way. What a resumed solve already wrote in
    ``work`` counts as free."""
    import psutil

    from .dense_plan import fit, plan_of
    from .dense_window import can_map_levels
    from .driver import SolveError

    existing = next(p for p in [work, *work.parents] if p.exists())
    # A resumed solve has written part of its table already: that space counts as its own.
    written = sum(f.stat().st_blocks * 512 for f in work.rglob("*") if f.is_file()) if work.exists() else 0
    mapped, problem = fit(plan_of(layout), memory or psutil.virtual_memory().total,
                          shutil.disk_usage(existing).free + written, can_map_levels())
    if problem:
        raise SolveError(f"{layout.game} is too big to solve densely here: {problem}. See what it needs with "
                         "--plan; --backend ray runs it on a cluster")
    return mapped


def _start_entry(layout: DenseLayout, folder, state):
    from .table import unpack

    s = state.array.copy()
    level, index = layout.passes.lookup(layout.dspec, layout.game.params_array, s, layout.symmetric,
                                        layout.levels, layout.start)
    return unpack(int(read_level(folder, int(level), int(layout.totals[level]))[index]))
