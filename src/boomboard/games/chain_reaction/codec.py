"""Chain Reaction's perfect position keys and layers, for the strong solver.

The codec kernels of the game kernel interface (:mod:`boomboard.kernel_interface`),
exported by ``kernels.py``:

* **Keys.** A position the game goes on from is stable: each cell is empty or
  holds 1 to ``critical - 1`` orbs of one colour. Its key is the mixed-radix
  number of its cells, each digit 0 (empty) or ``1 + owner * (critical - 1) +
  orbs - 1`` (radix ``2 * critical - 1``). The player to move is not stored:
  the board holds one orb a move, so it is the parity of the orbs. A finished
  board may hold unstable cells no radix covers: it has no key.
* **Layers.** The orbs on the board: each move adds one and explosions keep
  them, so every move climbs one layer and the solver goes a layer at a time.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import OUTSIDE, PLAYER, STATUS
from boomboard.jit import njit

from .rules import COUNT, CRITICAL, ORBS, P_CELLS, stable_capacity


def codec_spec(params: np.ndarray) -> tuple[list[int], int]:
    """The spec (``[cells]``) and the number of keys it can give."""
    cells = int(params[P_CELLS])
    largest = 1
    for cell in range(cells):
        largest *= 2 * int(params[CRITICAL + cell]) - 1
    return [cells], largest


def layer_count(rows: int, cols: int) -> int:
    """Layers 0 (the empty start) to the most orbs a stable board holds."""
    return stable_capacity(rows, cols) + 1


@njit(cache=True)
def encode(spec, s, params):
    """The key of the position ``s`` (``OUTSIDE`` once the game is over)."""
    if s[STATUS] != 0:
        return OUTSIDE
    cells = spec[0]
    key = np.uint64(0)
    for cell in range(cells - 1, -1, -1):
        critical = params[CRITICAL + cell]
        orbs = s[COUNT + cell]
        digit = 0 if orbs == 0 else 1 + (s[COUNT + cells + cell] - 1) * (critical - 1) + orbs - 1
        key = key * np.uint64(2 * critical - 1) + np.uint64(digit)
    return key


@njit(cache=True)
def decode(spec, key, params, s):
    """Write the position of ``key`` into the engine array ``s`` (ply 0, ongoing)."""
    s[:] = 0
    cells = spec[0]
    total = 0
    for cell in range(cells):
        critical = params[CRITICAL + cell]
        radix = np.uint64(2 * critical - 1)
        digit = np.int64(key % radix)
        key //= radix
        if digit:
            owner = (digit - 1) // (critical - 1)
            orbs = 1 + (digit - 1) % (critical - 1)
            s[COUNT + cell] = orbs
            s[COUNT + cells + cell] = owner + 1
            s[ORBS + owner] += orbs
            total += orbs
    s[PLAYER] = total % 2


@njit(cache=True)
def layer_of(spec, s, params):
    """The layer of the (non-terminal) position ``s``: the orbs on the board."""
    return s[ORBS] + s[ORBS + 1]
