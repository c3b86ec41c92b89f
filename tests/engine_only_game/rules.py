"""Popline's rules as compiled kernels over the state and ``params`` arrays.

The state: the shared header, then one entry per cell: ``+k`` for k orbs of
the first player, ``-k`` for the second's, 0 for an empty cell.
"""

import numpy as np

from boomboard.core.layout import HEADER, PLAYER, PLY, REASON, STATUS, cell_hash, win_status
from boomboard.jit import njit

CELLS = 0  # params[CELLS]: the cells of the line
REASON_WIPED_OUT = 1


@njit(cache=True)
def legal_actions(s, params, out):
    """The empty cells and the mover's own, in order."""
    if s[STATUS]:
        return 0
    sign = 1 if s[PLAYER] == 0 else -1
    n = 0
    for cell in range(params[CELLS]):
        if s[HEADER + cell] * sign >= 0:
            out[n] = cell
            n += 1
    return n


@njit(cache=True)
def _neighbours(cell, cells):
    return (cell > 0) + (cell < cells - 1)


@njit(cache=True)
def _pop_all(s, params, sign):
    """Pop every overfull cell until none is left or the opponent has no orbs."""
    cells = params[CELLS]
    popped = True
    while popped:
        popped = False
        for cell in range(cells):
            if abs(s[HEADER + cell]) > _neighbours(cell, cells):
                popped = True
                s[HEADER + cell] = 0
                for other in (cell - 1, cell + 1):
                    if 0 <= other < cells:
                        s[HEADER + other] = sign * (abs(s[HEADER + other]) + 1)
        if s[PLY] >= 1 and _orbs_of(s, params, -sign) == 0:
            return


@njit(cache=True)
def _orbs_of(s, params, sign):
    total = 0
    for cell in range(params[CELLS]):
        if s[HEADER + cell] * sign > 0:
            total += abs(s[HEADER + cell])
    return total


@njit(cache=True)
def apply_action(s, params, action):
    """Add an orb to cell ``action``, pop what overflows, and end the game if
    the opponent has no orbs left (once both have played)."""
    sign = 1 if s[PLAYER] == 0 else -1
    s[HEADER + action] += sign
    _pop_all(s, params, sign)
    if s[PLY] >= 1 and _orbs_of(s, params, -sign) == 0:
        s[STATUS] = win_status(s[PLAYER])
        s[REASON] = REASON_WIPED_OUT
    s[PLY] += 1
    s[PLAYER] = 1 - s[PLAYER]


@njit(cache=True)
def position_key(s, params):
    key = np.uint64(s[PLAYER])
    for cell in range(params[CELLS]):
        key ^= cell_hash(cell, s[HEADER + cell])
    return key
