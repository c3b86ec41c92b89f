"""The levels a level reads, through a memory-mapped file: for boards whose
working set is larger than memory.

A dense solve scores a level from the records of the levels its moves reach
(:mod:`boomboard.solver.dense.levels`). Read whole, those levels must fit in
memory together: 35 GiB for Kaboom 5x5. Yet the scan of one tier only reads
the few tiers its moves lead to, so what must be in memory at a time is far
smaller. :class:`MappedLevels` keeps the levels being read, uncompressed, in
one *window* file, each level at its own offset in the table's record order,
and hands the scan a memory map of it: the system's page cache then holds the
tiers in use and drops the others, as a chess tablebase generator pages its
tables.

The window file is sparse. A level is written into it (decompressed from its
block file) when a level first reads it, and its disk space is freed
("punched out", Linux's ``fallocate``) when no level below still reads it,
so the disk holds the uncompressed working set at most. The window is
created afresh when a solve starts or resumes: nothing in it outlives the
process that wrote it.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import sys
from pathlib import Path

import numpy as np

from .layout import tier_bases
from .plan import RECORD_BYTES
from .store import open_level

WINDOW_NAME = "window.raw"
FILL_ITEMS = 1 << 24  # records decompressed and written at a time
_FALLOC_FL_KEEP_SIZE, _FALLOC_FL_PUNCH_HOLE = 1, 2


def can_map_levels() -> bool:
    """Whether this system frees a window's disk space as levels leave it
    (``fallocate`` with ``FALLOC_FL_PUNCH_HOLE``: Linux)."""
    return sys.platform.startswith("linux")


class MappedLevels:
    """The child levels of a dense solve's ``folder``, read through a
    window file in ``window_folder`` (default: ``folder``; a Ray worker
    keeps its own on local disk); see the module's text. ``gather(level)``
    returns, as :func:`boomboard.solver.dense.driver.gather_children` does,
    one array of records and where each tier begins in it."""

    def __init__(self, layout, folder, window_folder=None):
        self.layout, self.folder = layout, Path(folder)
        self.offsets = np.concatenate([[0], np.cumsum(layout.totals)]).astype(np.int64)
        self.path = Path(window_folder or folder) / WINDOW_NAME
        self.present: set[int] = set()
        self._file = open(self.path, "w+b")  # truncated: a window left by a killed process is not trusted
        self._file.truncate(max(1, int(self.offsets[-1])) * RECORD_BYTES)
        # Mapped writable though only read: numba compiles a second version of every scan kernel for a read-only
        # array (8.5 CPU s on Kaboom 3x3), where a writable one runs the kernels the in-memory solve compiled.
        # A shared map sees each level as pwrite() puts it in the file, and loses each punched one with it.
        self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_WRITE)
        self.records = np.frombuffer(self._map, dtype=np.uint16)

    def gather(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        layout = self.layout
        needed = layout.child_levels(level)
        for old in sorted(self.present.difference(needed)):
            self._punch(old)
        for child in needed:
            if child not in self.present:
                self._fill(child)
        return self.records, tier_bases(layout, needed, self.offsets[needed])

    def _fill(self, level: int) -> None:
        stored = open_level(self.layout, self.folder, level)  # its identity and count checked
        count = len(stored)
        where = int(self.offsets[level]) * RECORD_BYTES
        for lo in range(0, count, FILL_ITEMS):
            chunk = np.ascontiguousarray(stored.read(lo, min(count, lo + FILL_ITEMS)), dtype=np.uint16)
            os.pwrite(self._file.fileno(), chunk.tobytes(), where + lo * RECORD_BYTES)
        self.present.add(level)

    def _punch(self, level: int) -> None:
        start = int(self.offsets[level]) * RECORD_BYTES
        length = int(self.layout.totals[level]) * RECORD_BYTES
        if length:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64]
            if libc.fallocate(self._file.fileno(), _FALLOC_FL_PUNCH_HOLE | _FALLOC_FL_KEEP_SIZE, start, length):
                problem = ctypes.get_errno()
                raise OSError(problem, f"cannot free level {level} in {self.path}: {os.strerror(problem)}")
        self.present.discard(level)

    def close(self) -> None:
        """Unmap and delete the window file."""
        self.records = None
        try:
            self._map.close()
        except BufferError:  # an array of the caller's still views it: the map goes with that array
            pass
        self._file.close()
        self.path.unlink(missing_ok=True)
