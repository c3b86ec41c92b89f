"""The in-memory solve's hash index of position keys: open addressing, game-independent.

:func:`boomboard.solver.hashed.graph.expand` numbers each position it finds by
looking its codec key up here; the index rows are (key + 1, number), so
fresh zeroed memory is an empty index.
"""

from __future__ import annotations

import mmap

import numpy as np
from numba import config, types
from numba.extending import intrinsic

from boomboard.core.layout import mix64
from boomboard.jit import njit


@njit(cache=True)
def index_of(table, key, next_index):
    """The number of ``key`` in the open-addressing index ``table`` (rows of
    key + 1 and number, side by side so a probe touches one cache line;
    empty rows hold 0, so fresh zeroed memory is an empty index; a power of
    two of them); a new key gets ``next_index``. Returns (number, whether new).
    Keys are below ``OUTSIDE``, so key + 1 never wraps to 0."""
    mask = np.uint64(table.shape[0] - 1)
    slot = mix64(key) & mask
    stored = key + np.uint64(1)
    while True:
        found = table[slot, 0]
        if found == stored:
            return np.int64(table[slot, 1]), False
        if found == 0:
            table[slot, 0] = stored
            table[slot, 1] = np.uint64(next_index)
            return next_index, True
        slot = (slot + np.uint64(1)) & mask


PREFETCH_AHEAD = 16  # probes between asking for a row and looking it up (measured: 8 helps little, 32 no more)

if config.DISABLE_JIT:
    def prefetch(address):
        """A hint for the processor; nothing to do in plain Python."""
else:
    @intrinsic
    def prefetch(typingctx, address):
        """Ask the processor to start loading the cache line at ``address`` (an
        integer) and go on at once: LLVM's ``llvm.prefetch``, which numba
        does not expose."""
        from llvmlite import ir

        def codegen(context, builder, sig, args):
            byte_pointer = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            name = "llvm.prefetch.p0i8"
            function = builder.module.globals.get(name) or ir.Function(
                builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]), name)
            # read (0), keep in all cache levels (3), data (1)
            builder.call(function, [builder.inttoptr(args[0], byte_pointer), ir.Constant(i32, 0),
                                    ir.Constant(i32, 3), ir.Constant(i32, 1)])
            return context.get_dummy_value()

        return types.void(types.intp), codegen


@njit(cache=True)
def index_all(table, keys, first):
    """Enter ``keys`` with the numbers ``first, first + 1, ...``."""
    for i in range(keys.shape[0]):
        index_of(table, keys[i], first + i)


@njit(cache=True)
def rehash(old, new):
    """Move every entry of the index ``old`` into the larger empty ``new``.
    Read in slot order, the keys land in ``new`` in nearly ascending slots
    too (a key's slot keeps its low bits), so both tables stream through the
    cache instead of missing on every key."""
    for slot in range(old.shape[0]):
        if old[slot, 0] != 0:
            index_of(new, old[slot, 0] - np.uint64(1), np.int64(old[slot, 1]))


def new_index(count: int) -> np.ndarray:
    """An empty index with room for ``count`` keys, in huge pages where the
    system gives them: each probe is a random access, and with 4 KiB pages
    most of them would also miss the address translation cache."""
    rows = table_size(count)
    nbytes = rows * 16
    try:
        memory = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        if hasattr(mmap, "MADV_HUGEPAGE"):
            memory.madvise(mmap.MADV_HUGEPAGE)
        return np.frombuffer(memory, dtype=np.uint64).reshape(rows, 2)  # anonymous memory is zeroed
    except (OSError, ValueError, AttributeError):
        return np.zeros((rows, 2), dtype=np.uint64)


def table_size(count: int) -> int:
    """A power of two at least twice ``count`` (open addressing stays fast below half full)."""
    size = 1 << 10
    while size < 2 * count:
        size <<= 1
    return size
