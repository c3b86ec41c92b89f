"""``--backend ray``: a dense solve spread over a Ray cluster.

The levels are solved in the same order as on one machine, the last first,
each from the levels its moves reach (:mod:`boomboard.solver.dense.levels`).
A level's records are cut into parts of equal size, a few per CPU of the
cluster, and each part is a Ray task: the worker reads the child
levels' files, scores its records, and returns them. The driver
appends the parts in order, writes the level's file and ``progress.json``,
and goes on to the next level.

* **Shared storage.** Workers read the table's work folder by its path, so
  it must be on storage every node sees (NFS, a cluster file system; on one
  machine, any folder). A worker keeps the child levels it read for the
  next part it gets, pruned as the driver moves down; where they do not
  fit in the node's memory (or ``--memory``), it reads them through a mapped
  window file of its own on local disk (:mod:`boomboard.solver.dense.window`).
* **Faults.** A worker that dies (a killed process, a lost node) has its
  task run again by Ray (``max_retries``): a part is a pure function of the
  files, so a retried part gives the same records. A driver that dies
  loses nothing written: run the same ``boomboard solve`` again, with or
  without Ray, and it resumes at the first level not yet written, ending
  with the same bytes as an uninterrupted solve.
* **Install.** boomboard (with its ``ray`` extra) on every node, at the same
  version: each worker compiles the game's kernels once, into its own cache.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from collections.abc import Callable

import numpy as np

from ...core.ray_support import start_ray
from ...core.recent import Recent
from ...registry import load_game
from .layout import DenseLayout
from .levels import child_reader, reads_mapped, score_range
from .store import open_writer

PARTS_PER_CPU = 4  # more parts than CPUs, so that a slow part does not hold a level up
RETRIES = 3

# A worker's layouts, by (game, symmetric), and its readers of the child levels, by work
# folder: the ones used last, so a long-lived worker serving many solves keeps few.
_layouts: Recent[tuple[str, bool], object] = Recent(4)
_readers: Recent[str, object] = Recent(4)


WINDOW_PREFIX = "boomboard-window-"  # a worker's window folder in the node's temporary folder, by process id


def _reader(layout, folder: str, memory: int | None):
    """This worker's reader of ``folder``'s child levels, kept between its
    tasks: whole levels in memory, or, when they do not fit in ``memory``
    (default: this node's), a mapped window file on the node's own disk.
    Ray stops its workers without running their exit hooks, so a worker
    that opens a window first deletes those of workers no longer running."""
    if folder not in _readers:
        mapped = reads_mapped(layout, memory)
        window = None
        if mapped:
            _delete_dead_windows()
            window = Path(tempfile.gettempdir()) / f"{WINDOW_PREFIX}{os.getpid()}"
            window.mkdir(exist_ok=True)
        _readers[folder] = child_reader(layout, folder, mapped, window)
    return _readers[folder]


def _delete_dead_windows() -> None:
    for old in Path(tempfile.gettempdir()).glob(f"{WINDOW_PREFIX}*"):
        try:
            os.kill(int(old.name[len(WINDOW_PREFIX):]), 0)
        except ProcessLookupError:
            shutil.rmtree(old, ignore_errors=True)
        except (ValueError, PermissionError):  # not a window of ours, or another user's live process
            continue


def score_part(game_name: str, symmetric: bool, folder: str, level: int, lo: int, hi: int,
               threads: int, memory: int | None = None) -> np.ndarray:
    """The records ``lo`` to ``hi`` of ``level`` of the dense solve of
    ``game_name`` whose work folder is ``folder``: a Ray task."""
    import numba

    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    key = (game_name, symmetric)
    if key not in _layouts:
        _layouts[key] = DenseLayout(load_game(game_name), symmetric, parallel=True)
    layout = _layouts[key]
    records, bases = _reader(layout, folder, memory).gather(level)
    return score_range(layout, level, records, bases, lo, hi)


class RayLevels:
    """Solves a dense layout's levels as Ray tasks (see the module's text):
    ``solve(level, done)`` writes the level's file in ``folder`` and returns
    what :func:`boomboard.solver.dense.levels.solve_level` does."""

    def __init__(self, layout, folder, threads: int | None, address: str | None, memory: int | None = None):
        self.ray = start_ray(address)
        self.layout, self.folder, self.memory = layout, Path(folder).resolve(), memory
        self.threads = max(1, threads or 1)
        self.task = self.ray.remote(num_cpus=self.threads, max_retries=RETRIES)(score_part)
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        self.parts = max(1, PARTS_PER_CPU * cpus // self.threads)

    def solve(self, level: int, done: Callable[[int], None]):
        layout = self.layout
        total = int(layout.totals[level])
        cuts = np.unique(np.linspace(0, total, self.parts + 1).astype(np.int64))
        refs = [self.task.remote(str(layout.game), layout.symmetric, str(self.folder), level, int(lo), int(hi),
                                 self.threads, self.memory) for lo, hi in zip(cuts[:-1], cuts[1:])]
        counts = np.zeros(4, dtype=np.int64)
        largest = 0
        writer = open_writer(layout, self.folder, level) if total else None
        try:
            for ref in refs:  # in order, each part dropped once written: memory holds about one part
                part = self.ray.get(ref)
                largest = max(largest, int(layout.passes.tally(part, counts)))
                writer.append(part)
                done(len(part))
            if writer is not None:
                writer.close()
        except BaseException:
            if writer is not None:
                writer.abort()
            for ref in refs:
                self.ray.cancel(ref, force=True)
            raise
        return counts, largest, None
