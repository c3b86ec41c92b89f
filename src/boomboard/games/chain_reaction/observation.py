"""Chain Reaction's observation tensor (:mod:`boomboard.observation`).

Planes: own cells, opponent cells, empty cells (1 where so); orbs (the
count); critical (1 where a cell holds at least its critical mass less one:
one more orb makes it explode); to move (all 1 when the observer is to
move). Row 0 is the top row, as the game draws the grid (``a1`` at the
bottom left).
"""

from boomboard.core.layout import PLAYER
from boomboard.core.planes import T_AREA, T_CELLS, T_GRID, fill
from boomboard.jit import njit

from .rules import COUNT, CRITICAL, EMPTY

PLANES = ("own cells", "opponent cells", "empty cells", "orbs", "critical", "to move")
HIGH = float("inf")  # a finished game may leave a cell with any number of orbs


def grid(game):
    """``(height, width, place)``: each cell's place ``row * width + column`` in a plane."""
    rows, cols = game["rows"], game["cols"]
    return rows, cols, [(rows - 1 - r) * cols + c for r in range(rows) for c in range(cols)]


@njit(cache=True)
def encode_observation(s, params, table, player, out):
    """Write ``s`` seen by ``player`` into the flat ``float32`` array ``out``."""
    out[:] = 0.0
    area, cells = table[T_AREA], table[T_CELLS]
    for cell in range(cells):
        at = table[T_GRID + cell]
        owner = s[COUNT + cells + cell]
        if owner == EMPTY:
            out[2 * area + at] = 1.0
        elif owner == player + 1:
            out[at] = 1.0
        else:
            out[area + at] = 1.0
        orbs = s[COUNT + cell]
        out[3 * area + at] = orbs
        if orbs >= params[CRITICAL + cell] - 1:
            out[4 * area + at] = 1.0
    fill(out, 5, area, 1.0 if s[PLAYER] == player else 0.0)
