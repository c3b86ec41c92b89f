"""Explocus's (and HExplocus's) perfect position keys, for the strong solver.

The codec kernels of the game kernel interface (:mod:`boomboard.kernel_interface`),
exported by ``kernels.py``. A non-terminal position is the mixed-radix number
of its cells, each the signed stack height plus ``capacity - 1`` (radix
``2 * capacity - 1``: a settled stack stays below its capacity), then the
player to move. The codec spec is ``[cells, capacity of each cell...]``. A
finished board may hold overfull stacks no radix covers: it has no key.

Stacks move back and forth, so positions repeat: the game has no layers
(:func:`layer_of` is 0) and is solved in memory.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import OUTSIDE, PLAYER, STATUS
from boomboard.jit import njit

from .rules import BOARD, STONES


def codec_spec(capacity) -> tuple[list[int], int]:
    """The spec and the number of keys (see :meth:`boomboard.core.game.Game.solver_codec_spec`)."""
    capacity = [int(cap) for cap in capacity]
    largest = 2
    for cap in capacity:
        largest *= 2 * cap - 1
    return [len(capacity), *capacity], largest


@njit(cache=True)
def encode(spec, s, params):
    """The key of the position ``s`` (``OUTSIDE`` if it is finished or holds a full stack)."""
    if s[STATUS] != 0:
        return OUTSIDE
    cells = spec[0]
    key = np.uint64(s[PLAYER])
    for cell in range(cells - 1, -1, -1):
        capacity = spec[1 + cell]
        height = s[BOARD + cell]
        if height >= capacity or height <= -capacity:
            return OUTSIDE
        key = key * np.uint64(2 * capacity - 1) + np.uint64(height + capacity - 1)
    return key


@njit(cache=True)
def decode(spec, key, params, s):
    """Write the position of ``key`` into the engine array ``s`` (ply 0, ongoing)."""
    s[:] = 0
    cells = spec[0]
    for cell in range(cells):
        capacity = spec[1 + cell]
        radix = np.uint64(2 * capacity - 1)
        height = np.int64(key % radix) - (capacity - 1)
        key //= radix
        s[BOARD + cell] = height
        if height > 0:
            s[STONES] += height
        else:
            s[STONES + 1] -= height
    s[PLAYER] = np.int64(key)


@njit(cache=True)
def layer_of(spec, s, params):
    """0: the game has no layers (moves can repeat positions)."""
    return 0
