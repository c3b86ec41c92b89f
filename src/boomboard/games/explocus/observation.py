"""The observation tensor of Explocus and HExplocus (:mod:`boomboard.observation`).

Planes: own stack heights, opponent stack heights (stone counts); capacity
(the cell's neighbours; 0 marks a hole); to move (all 1 when the observer is
to move); game length (actions played / 500).

HExplocus's hexagon lies in a ``(2*side - 1)`` square grid in its own
coordinates (row ``A`` at the bottom, diagonal ``1`` at the left): cell
``(row, diagonal)`` is at ``[2*side - 2 - row, diagonal]`` and its neighbours
are the grid's left, right, up, down, up-right and down-left; grid squares
that are not cells have capacity 0 and nothing else.
"""

from boomboard.core.layout import PLAYER, PLY
from boomboard.core.planes import T_ACTION_LIMIT, T_AREA, T_CELLS, T_GRID, fill, signed_heights
from boomboard.jit import njit

from .rules import BOARD, TABLES

PLANES = ("own heights", "opponent heights", "capacity", "to move", "game length")
HIGH = float("inf")  # heights are counts


def grid(game):
    """``(height, width, place)``: each cell's place ``row * width + column`` in a plane."""
    coords = game.board.coords
    height = max(r for r, _ in coords) + 1
    width = max(c for _, c in coords) + 1
    return height, width, [(height - 1 - r) * width + c for r, c in coords]


@njit(cache=True)
def encode_observation(s, params, table, player, out):
    """Write ``s`` seen by ``player`` into the flat ``float32`` array ``out``."""
    out[:] = 0.0
    area, cells = table[T_AREA], table[T_CELLS]
    signed_heights(s, BOARD, table, player, out)
    for cell in range(cells):
        out[2 * area + table[T_GRID + cell]] = params[TABLES + cell]  # TABLES: the capacity table
    fill(out, 3, area, 1.0 if s[PLAYER] == player else 0.0)
    fill(out, 4, area, s[PLY] / table[T_ACTION_LIMIT])
