"""A dense table's files: one block file of ``uint16`` records per level.

Each level's records are written as a block file of
:mod:`boomboard.solver.blockstore` (zstandard-compressed blocks, each with
its checksum, read back one block at a time), ``level-LLLLL.blocks`` in the
table's folder. A level without records has no file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .blockstore import BlockFile, BlockWriter
from .retrograde import DRAW, MAX_REMOTENESS, VALUE_SHIFT

NO_POSITION = (DRAW << VALUE_SHIFT) | MAX_REMOTENESS  # the record of a rank that is no position

LEVEL = 3  # zstandard's level: see docs/solver.md for sizes and speeds
BLOCK_ITEMS = 1 << 16


def level_path(folder, level: int) -> Path:
    return Path(folder) / f"level-{level:05d}.blocks"


def open_writer(folder, level: int) -> BlockWriter:
    """A writer of a level's records, appended a chunk at a time; the file
    appears (atomically) when it is closed."""
    return BlockWriter(level_path(folder, level), np.uint16, block_items=BLOCK_ITEMS, level=LEVEL)


def open_level(folder, level: int, name: str) -> BlockFile:
    """A level's records, for random access (blocks decompressed on demand)."""
    return BlockFile(level_path(folder, level), name=name, dtype=np.uint16,
                     hint="; solve it again with --force")


def read_level(folder, level: int, count: int) -> np.ndarray:
    """A level's records, all of them (``count``: how many the layout says)."""
    if count == 0:
        return np.empty(0, dtype=np.uint16)
    records = open_level(folder, level, f"level {level} of {Path(folder).name}").read_all()
    if len(records) != count:
        raise ValueError(f"{level_path(folder, level)} holds {len(records)} records, not {count}")
    return records
