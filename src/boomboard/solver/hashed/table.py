"""A table of hashed keys on disk, and reading it.

A table is a folder ``DB/GAME/VARIANT/`` (``GAME`` the game string, such as
``kaboom(rows=3,cols=3,connect=3)``, percent-encoded where a file name needs it; ``VARIANT`` ``start`` for the positions
reachable from the start, ``endgame-3`` for a game solved as endgames with
at most 3 tokens, ``from-<hash>`` for those reachable from another position) holding:

* ``keys.blk``: the index: each position's hashed key (``uint64``, see
  :mod:`boomboard.solver.hashed.layers`), sorted within each layer;
* ``offsets.blk``: where each layer's keys begin (one layer for a game
  without layers);
* ``values.blk``: one ``uint16`` a position, ``value << 14 | remoteness``;
* ``meta.json``: what was solved, counts, the start's value, timings.

The arrays are block files (:mod:`boomboard.solver.format.blockstore`): each block
checked by a checksum, so that a damaged table is refused
(:class:`~boomboard.solver.format.blockstore.CorruptTableError`, naming the table,
the file and the block), never read as a wrong value. Each file's header
holds its identity (:func:`array_identity`: the game, the variant and the
file's name), checked when the table is opened, so that a file copied from
another table or variant is refused too. The keys are stored raw
and memory-mapped: a lookup (an interpolation search in one layer) reads a
few pages, not the table, and checks the block of the key it finds (after a
miss, every block of the layer searched, once). The values are compressed with
zstandard, a block of them decompressed at a lookup (a few are kept). A
folder exists only once complete: a solve writes into ``VARIANT.work/`` and
renames it at the end.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from types import ModuleType

import numpy as np

from ...core.errors import BoomboardError
from ...core.game import Game
from ...core.state import State
from ..format.blockstore import RAW, BlockFile
from ..codec import OUTSIDE, codec_spec
from .layers import unhashed
from ..format.values import MAX_REMOTENESS, VALUE_SHIFT
from ..format.table_format import Entry, NotSolvedError, Table, file_identity, read_meta, unpack

VERIFY_CHUNK = 1 << 16  # positions verified per compiled call between progress updates
TALLY_CHUNK = 1 << 22  # entries counted at a time


class HashedTable(Table):
    """A solved table of hashed keys, memory-mapped (``meta`` read from
    ``folder`` unless given)."""

    def __init__(self, game: Game, folder: Path, meta: dict | None = None):
        super().__init__(game, folder, read_meta(game, folder) if meta is None else meta)
        try:
            self.spec = codec_spec(game, self.meta.get("tokens", 0))
        except (BoomboardError, TypeError, ValueError, OverflowError) as problem:
            raise NotSolvedError(f"{folder}: the table's meta.json is damaged ({problem}); solve it again "
                                 "with --force") from None
        self.key_file = self._open_array("keys.blk", np.uint64)
        self.entries = self._open_array("values.blk", np.uint16)
        self.offsets = self._open_array("offsets.blk", np.int64).read_all()
        if self.key_file.codec != RAW:
            raise NotSolvedError(f"{folder}: keys.blk is compressed, not stored raw; solve it again with --force")
        self.keys = self.key_file.mapped()  # checked a block at a time: see _find
        if self.keys.shape[0] != len(self.entries) or self.offsets.size == 0 or self.offsets[-1] != self.keys.shape[0]:
            raise NotSolvedError(f"{folder}: keys and values differ in length; solve it again with --force")
        if self.offsets[0] != 0 or np.any(np.diff(self.offsets) < 0):
            raise NotSolvedError(f"{folder}: offsets.blk is damaged (not rising from 0); solve it again with --force")
        if self.meta["positions"] != self.keys.shape[0]:
            raise NotSolvedError(f"{folder}: meta.json counts {self.meta['positions']} positions, the arrays "
                                 f"{self.keys.shape[0]}; solve it again with --force")

    def _open_array(self, name: str, dtype) -> BlockFile:
        """One of the table's arrays, checked to hold ``dtype`` and to be this table's."""
        return BlockFile(self.folder / name, name=f"{self.folder}: {name}", dtype=dtype,
                         hint="solve it again with --force", identity=array_identity(self.game, self.variant, name),
                         belongs_to=f"the {name} of the {self.variant} table of {self.game}")

    @cached_property
    def graph(self) -> ModuleType:
        """The solver's passes (:mod:`boomboard.solver.hashed.graph`) compiled for the table's game."""
        return self.game.compiled("boomboard.solver.hashed.graph")

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def key_of(self, state: State) -> int:
        return int(self.game.kernels.encode(self.spec, state.array, self.game.params_array))

    def _holds(self, state: State) -> bool:
        return self._find(state) is not None

    def _find(self, state: State) -> int | None:
        key = np.uint64(self.key_of(state))
        if key == OUTSIDE:
            return None
        i = self.graph.find(self.spec, self.game.params_array, self.keys, self.offsets, state.array, key)
        if i < 0:  # a damaged key may have hidden the position: a miss must be a true one
            layer = int(self.game.kernels.layer_of(self.spec, state.array, self.game.params_array))
            if layer + 1 < self.offsets.shape[0]:  # the keys the search probed: its layer's
                self.key_file.check(int(self.offsets[layer]), int(self.offsets[layer + 1]))
            return None
        self.key_file.check(i, i + 1)  # the key found is the one written
        return int(i)

    def _stored_entry(self, state: State) -> Entry:
        i = self._find(state)
        if i is None:
            raise NotSolvedError(f"{state.to_notation()} is not among the {len(self)} positions of the "
                                 f"{self.variant} table of {self.game}")
        return unpack(int(self.entries[i]))

    def entry_at(self, i: int) -> Entry:
        return unpack(int(self.entries[i]))

    def tally(self) -> tuple[np.ndarray, int]:
        counts = np.zeros(4, dtype=np.int64)
        largest = 0
        for lo in range(0, len(self.entries), TALLY_CHUNK):
            part = self.entries.read(lo, min(len(self.entries), lo + TALLY_CHUNK))
            counts += np.bincount(part >> VALUE_SHIFT, minlength=4)
            largest = max(largest, int((part & MAX_REMOTENESS).max()))
        return counts, largest

    def check(self) -> None:
        self.key_file.check()
        self.entries.check()

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(keys, entries)`` whole, every block checked: the keys memory-mapped, the entries too
        if stored raw (endgame tables), else decompressed into memory."""
        self.check()
        if self.entries.codec == RAW:
            return self.keys, self.entries.mapped()
        entries = self.entries.read_all()
        entries.flags.writeable = False  # read-only, as the keys are: the compiled readers take them so
        return self.keys, entries

    def state_at(self, i: int) -> State:
        self.key_file.check(i, i + 1)
        array = self.game.initial_array().copy()
        self.game.kernels.decode(self.spec, np.uint64(unhashed(self.keys[i])), self.game.params_array, array)
        return self.game.state_from_array(array)

    def verify(self, done=None) -> int | None:
        """Recompute every entry from its children's entries in the table."""
        game = self.game
        s = game.initial_array().copy()
        child = s.copy()
        actions = np.empty(game.num_distinct_actions(), dtype=np.int32)
        keys, entries = self.arrays()
        n = len(self)
        for lo in range(0, n, VERIFY_CHUNK):
            hi = min(n, lo + VERIFY_CHUNK)
            bad = self.graph.verify_range(self.spec, game.params_array, s, child, actions, keys, entries,
                                          self.offsets, lo, hi)
            if bad >= 0:
                return int(bad)
            if done is not None:
                done(hi - lo)
        return None


def array_identity(game: Game, variant: str, name: str) -> bytes:
    """The identity in the header of the array file ``name`` of ``game``'s table ``variant``."""
    return file_identity(game, variant, "hashed", name)
