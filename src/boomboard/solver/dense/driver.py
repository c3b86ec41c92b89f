"""Solving a game densely: a level at a time, records indexed by rank, resumable.

The game's ``dense_*`` kernels (:mod:`boomboard.kernel_interface`) number
its positions as (tier, rank); :mod:`boomboard.solver.dense.kernels` scores a level
in one scan from the levels its moves reach. This module runs the levels of
the game's layout (:class:`~boomboard.solver.dense.layout.DenseLayout`)
from the last down, keeps in memory only the level being solved and the
levels it reads, and writes each level to its own file
(:mod:`boomboard.solver.dense.store`) in the work folder ``VARIANT.work/``,
then ``progress.json``: a killed solve resumes at the first level not yet
written, and ends with the same bytes. The finished folder is renamed into
place in one step.

:func:`boomboard.solver.dense.levels.solve_level` is the unit of work: one
level, from the files of the levels it reads, to its own file; here, or as
Ray tasks (:mod:`boomboard.solver.dense.ray`).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable

import numpy as np

from .layout import DenseLayout
from .levels import child_reader, solve_level
from .plan import fit, plan_of
from .ray import RayLevels
from .store import level_path, read_level
from .window import can_map_levels
from ..solving import SolveError, SolveJob, SolveSettings, progress_bar
from ..table import load_table
from ..format.table_format import FORMAT, VALUE_NAMES, unpack
from ..format.work_files import write_json_atomic

DENSE_FORMAT = 2  # 1: level files without their identity (a solve of that format in progress starts over)


def solve_dense(job: SolveJob, settings: SolveSettings):
    """Solve ``job``'s game densely, here or (``settings.backend="ray"``) on a
    Ray cluster (:mod:`boomboard.solver.dense.ray`), planning with
    ``settings.memory`` bytes (default: the machine's); returns its table."""
    game, work, symmetric = job.game, job.work, settings.symmetry
    began = time.perf_counter()
    here = settings.threads or int(os.environ.get("NUMBA_NUM_THREADS") or os.cpu_count() or 1)  # numba's default
    layout = DenseLayout(game, symmetric, parallel=here > 1 or settings.backend == "ray")
    # a cluster's nodes are not this machine
    mapped = settings.backend != "ray" and _how_it_fits(layout, work, settings.memory)
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
    if settings.backend == "ray":
        solve_next = RayLevels(layout, work, settings.threads, settings.ray_address, settings.memory).solve
    else:
        children = child_reader(layout, work, mapped)

        def solve_next(level: int, done: Callable[[int], None]):
            return solve_level(layout, work, level, children, done=done)
    try:
        with progress_bar(job.progress) as bar:
            total = int(layout.totals.sum())
            done = int(layout.totals[record["next"] + 1:].sum())
            task = bar.add_task("solving levels", total=total, completed=done)
            for level in range(record["next"], -1, -1):
                counts, largest, _ = solve_next(level, lambda n: bar.update(task, advance=n))
                record["values"] = [int(c) for c in counts + np.array(record["values"], dtype=np.int64)]
                record["max_remoteness"] = max(record["max_remoteness"], largest)
                record["next"] = level - 1
                write_json_atomic(record_path, record)
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
        "variant": job.variant,
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
    if job.folder.exists():
        shutil.rmtree(job.folder)
    os.replace(work, job.folder)
    return load_table(game, job.folder)


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
    s = layout.engine.load(state.array)
    level, index = layout.passes.lookup(layout.dspec, layout.engine.params, s, layout.symmetric,
                                        layout.levels, layout.start)
    return unpack(int(read_level(layout, folder, int(level))[index]))
