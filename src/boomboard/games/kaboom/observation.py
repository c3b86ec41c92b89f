"""Kaboom's observation tensor (:mod:`boomboard.observation`).

Planes: own pieces, own bombs, opponent pieces, opponent bombs (1 where one
stands); own bombs in hand and opponent bombs in hand (the whole plane holds
the fraction of ``bombs``); to move (all 1 when the observer is to move).
Row 0 is the board's top row.
"""

from boomboard.core.layout import PLAYER
from boomboard.core.planes import T_AREA, T_CELLS, T_GRID, fill
from boomboard.jit import njit

from .rules import BOMB, HAND, HEIGHT, P_BOMBS, P_COLS

PLANES = ("own pieces", "own bombs", "opponent pieces", "opponent bombs",
          "own bombs in hand", "opponent bombs in hand", "to move")
HIGH = 1.0  # every plane holds 0/1 or a fraction


def grid(game):
    """``(height, width, place)``: each cell's place ``row * width + column`` in a plane."""
    rows, cols = game["rows"], game["cols"]
    return rows, cols, [(rows - 1 - r) * cols + c for r in range(rows) for c in range(cols)]


def mirror_actions(game):
    """Each action id's id with the board mirrored: the same kind of action
    (drop, drop a bomb, detonate, pass) in the mirrored column."""
    rows, cols = game["rows"], game["cols"]
    drops = [cols - 1 - c for c in range(cols)]
    bombs = [cols + (cols - 1 - c) for c in range(cols)]
    detonations = [2 * cols + r * cols + cols - 1 - c for r in range(rows) for c in range(cols)]
    return drops + bombs + detonations + [2 * cols + rows * cols]  # the pass is its own mirror


@njit(cache=True)
def encode_observation(s, params, table, player, out):
    """Write ``s`` seen by ``player`` into the flat ``float32`` array ``out``."""
    out[:] = 0.0
    area, cells = table[T_AREA], table[T_CELLS]
    board = HEIGHT + params[P_COLS]
    for cell in range(cells):
        value = s[board + cell]
        if value:
            plane = 0 if (value & 3) - 1 == player else 2
            if value & BOMB:
                plane += 1
            out[plane * area + table[T_GRID + cell]] = 1.0
    bombs = params[P_BOMBS]
    if bombs:
        fill(out, 4, area, s[HAND + player] / bombs)
        fill(out, 5, area, s[HAND + 1 - player] / bombs)
    fill(out, 6, area, 1.0 if s[PLAYER] == player else 0.0)
