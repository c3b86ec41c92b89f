"""A dense table's files: one block file of ``uint16`` records per level.

Each level's records are written as a block file of
:mod:`boomboard.solver.format.blockstore` (zstandard-compressed blocks, each with
its checksum, read back one block at a time), ``level-LLLLL.blocks`` in the
table's folder. A level without records has no file.

Each file's header holds its identity (:func:`level_identity`): the game,
whether mirror images are stored once, and the level. Every reader here
checks it, and the file's record count against the layout's, when it opens
the file: a level file swapped with another, or copied from another game's
table (a misère one, say), is refused with a line naming the file, never
read as this level's records.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..format.blockstore import BlockFile, BlockWriter, CorruptTableError
from ..format.values import DRAW, MAX_REMOTENESS, VALUE_SHIFT
from ..format.table_format import file_identity

NO_POSITION = (DRAW << VALUE_SHIFT) | MAX_REMOTENESS  # the record of a rank that is no position

LEVEL = 3  # zstandard's level: see docs/explanation/solver.md for sizes and speeds
BLOCK_ITEMS = 1 << 16
HINT = "solve it again with --force"


def level_path(folder, level: int) -> Path:
    return Path(folder) / f"level-{level:05d}.blocks"


def level_identity(layout, level: int) -> bytes:
    """The identity in the header of level ``level`` of a dense table laid out by ``layout``."""
    return file_identity(layout.game, "dense", f"symmetric={layout.symmetric}", f"level {level}")


def _described(layout, level: int) -> str:
    mirrored = ", mirror images once" if layout.symmetric else ""
    return f"level {level} of the dense table of {layout.game}{mirrored}"


def open_writer(layout, folder, level: int) -> BlockWriter:
    """A writer of a level's records, appended a chunk at a time; the file
    appears (atomically) when it is closed."""
    return BlockWriter(level_path(folder, level), np.uint16, block_items=BLOCK_ITEMS, level=LEVEL,
                       identity=level_identity(layout, level))


def open_level(layout, folder, level: int) -> BlockFile:
    """A level's records, for random access (blocks decompressed on demand),
    its identity and record count checked."""
    path = level_path(folder, level)
    records = BlockFile(path, name=f"{path} (level {level} of the table {Path(folder)})", dtype=np.uint16,
                        hint=HINT, identity=level_identity(layout, level), belongs_to=_described(layout, level))
    count = int(layout.totals[level])
    if len(records) != count:
        raise CorruptTableError(f"{records.name}: holds {len(records)} records, not the {count} of "
                                f"{_described(layout, level)}; {HINT}")
    return records


def read_level(layout, folder, level: int) -> np.ndarray:
    """A level's records, all of them."""
    if int(layout.totals[level]) == 0:
        return np.empty(0, dtype=np.uint16)
    return open_level(layout, folder, level).read_all()
