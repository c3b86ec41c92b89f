"""Kaboom's perfect position keys and layers, for the strong solver.

The codec kernels of the game kernel interface (:mod:`boomboard.kernel_interface`),
exported by ``kernels.py``:

* **Keys.** A non-terminal position is the mixed-radix number of its cells
  (each 0..4: empty, X, O, X's bomb, O's bomb), then the bombs in each hand
  (radix ``bombs + 1``), then the player to move. The codec spec is
  ``[cells, bombs + 1]``.
* **Layers.** Every move increases (bombs detonated, bombs dropped, cells
  filled): a drop fills a cell, a bomb drop also takes a bomb from a hand, a
  detonation detonates at least one bomb (and may empty many cells, hence
  the order). A pass changes only the player to move; it is the one move
  within that measure, from a player who must pass to one who must detonate,
  so those who must pass come first.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import OUTSIDE, PLAYER, STATUS
from boomboard.jit import njit

from .rules import ARMED, BOMB, FILLED, HAND, HEIGHT, P_COLS, P_ROWS


def codec_spec(rows: int, cols: int, bombs: int) -> tuple[list[int], int]:
    """The spec and the number of keys (see :meth:`boomboard.core.game.Game.solver_codec_spec`)."""
    cells = rows * cols
    return [cells, bombs + 1], 5 ** cells * (bombs + 1) ** 2 * 2


def layer_count(spec: np.ndarray) -> int:
    """How many layers :func:`layer_of` numbers."""
    cells, bombs = int(spec[0]), int(spec[1]) - 1
    return 2 * (2 * bombs + 1) ** 2 * (cells + 1)


# A cell's digit: 0 empty, 1 X, 2 O, 3 X's bomb, 4 O's bomb. The engine's cell
# values are 0, 1, 2, 5 and 6 (side | BOMB), so digit = side + 2 * bomb and
# back, in arithmetic: no table to load, no branch to mispredict.
@njit(cache=True)
def _digit(value):
    return (value & 3) + 2 * (value >> 2)


@njit(cache=True)
def encode(spec, s, params):
    """The key of the position ``s`` (``OUTSIDE`` if it is finished)."""
    if s[STATUS] != 0:
        return OUTSIDE
    cells, hand_radix = spec[0], spec[1]
    board = s.shape[0] - cells
    key = np.uint64(s[PLAYER])
    key = key * np.uint64(hand_radix) + np.uint64(s[HAND + 1])
    key = key * np.uint64(hand_radix) + np.uint64(s[HAND])
    for cell in range(cells - 1, -1, -1):
        key = key * np.uint64(5) + np.uint64(_digit(s[board + cell]))
    return key


@njit(cache=True)
def decode(spec, key, params, s):
    """Write the position of ``key`` into the engine array ``s`` (ply 0, ongoing).

    The counters are sums over the cells, so they are added up without
    branching on what each cell holds (half the cells are empty, at random:
    a branch there mispredicts often)."""
    s[:] = 0
    hand_radix = spec[1]
    rows, cols = params[P_ROWS], params[P_COLS]
    board = HEIGHT + cols
    filled, armed_x, armed_o = 0, 0, 0
    for r in range(rows):
        for c in range(cols):
            digit = np.int64(key % np.uint64(5))
            key //= np.uint64(5)
            bomb = digit >= 3
            value = (digit - 2 * bomb) | (BOMB * bomb)
            s[board + r * cols + c] = value
            s[HEIGHT + c] += value != 0
            filled += value != 0
            armed_x += digit == 3
            armed_o += digit == 4
    s[FILLED] = filled
    s[ARMED] = armed_x
    s[ARMED + 1] = armed_o
    s[HAND] = np.int64(key % np.uint64(hand_radix))
    key //= np.uint64(hand_radix)
    s[HAND + 1] = np.int64(key % np.uint64(hand_radix))
    key //= np.uint64(hand_radix)
    s[PLAYER] = np.int64(key)


@njit(cache=True)
def layer_of(spec, s, params):
    """The layer of the (non-terminal) position ``s``: every move goes to a higher one."""
    cells, bombs = spec[0], spec[1] - 1
    dropped = 2 * bombs - s[HAND] - s[HAND + 1]
    detonated = dropped - s[ARMED] - s[ARMED + 1]
    progress = (detonated * (2 * bombs + 1) + dropped) * (cells + 1) + s[FILLED]
    must_pass = s[FILLED] == cells and s[ARMED + s[PLAYER]] == 0
    return 2 * progress + (0 if must_pass else 1)
