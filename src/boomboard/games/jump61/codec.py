"""Jump61's perfect position keys and layers, for the strong solver.

The codec kernels of the game kernel interface (:mod:`boomboard.kernel_interface`),
exported by ``kernels.py``:

* **Keys.** A non-terminal position is the mixed-radix number of its squares,
  each 0 (white, one spot) or ``1 + (colour - 1) * d + spots - 1`` (radix
  ``1 + 2d``, ``d`` its neighbours: a settled square holds at most ``d``
  spots), then the player to move. The codec spec is ``[squares]``; the
  neighbour counts come from ``params``. A finished board may hold overfull
  squares no radix covers: it has no key.
* **Layers.** The spots on the board: each move adds one, and explosions keep them.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import OUTSIDE, PLAYER, STATUS
from boomboard.jit import njit

from .rules import COUNT, DEGREE, P_CELLS, SPOTS, WHITE


def _degrees(params: np.ndarray) -> list[int]:
    cells = int(params[P_CELLS])
    return [int(d) for d in params[DEGREE:DEGREE + cells]]


def codec_spec(params: np.ndarray) -> tuple[list[int], int]:
    """The spec and the number of keys (see :meth:`boomboard.core.game.Game.solver_codec_spec`)."""
    degrees = _degrees(params)
    largest = 2
    for degree in degrees:
        largest *= 1 + 2 * degree
    return [len(degrees)], largest


def layer_count(params: np.ndarray) -> int:
    """How many layers :func:`layer_of` numbers: from one spot a square to one below bursting."""
    degrees = _degrees(params)
    return sum(degrees) - len(degrees) + 1


@njit(cache=True)
def encode(spec, s, params):
    """The key of the position ``s`` (``OUTSIDE`` if it is finished or holds an overfull square)."""
    if s[STATUS] != 0:
        return OUTSIDE
    cells = spec[0]
    key = np.uint64(s[PLAYER])
    for square in range(cells - 1, -1, -1):
        degree = params[DEGREE + square]
        spots, colour = s[SPOTS + square], s[SPOTS + cells + square]
        if spots > degree:
            return OUTSIDE
        digit = 0 if colour == WHITE else 1 + (colour - 1) * degree + spots - 1
        key = key * np.uint64(1 + 2 * degree) + np.uint64(digit)
    return key


@njit(cache=True)
def decode(spec, key, params, s):
    """Write the position of ``key`` into the engine array ``s`` (ply 0, ongoing)."""
    s[:] = 0
    cells = spec[0]
    for square in range(cells):
        degree = params[DEGREE + square]
        radix = np.uint64(1 + 2 * degree)
        digit = np.int64(key % radix)
        key //= radix
        if digit == 0:
            s[SPOTS + square] = 1
        else:
            colour = 1 + (digit - 1) // degree
            s[SPOTS + square] = 1 + (digit - 1) % degree
            s[SPOTS + cells + square] = colour
            s[COUNT + colour - 1] += 1
    s[PLAYER] = np.int64(key)


@njit(cache=True)
def layer_of(spec, s, params):
    """The layer of the (non-terminal) position ``s``: its spots, less one a square."""
    cells = params[P_CELLS]
    spots = 0
    for square in range(cells):
        spots += s[SPOTS + square]
    return spots - cells
