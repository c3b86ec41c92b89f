"""Jump61's observation tensor (:mod:`boomboard.observation`).

Planes: own squares, opponent squares, white squares (1 where so); spots
(the count); full (1 where spots >= neighbours: one more spot makes it
jump); to move (all 1 when the observer is to move). Row 0 is row 1.
"""

from boomboard.core.layout import PLAYER
from boomboard.core.planes import T_AREA, T_CELLS, T_GRID, fill
from boomboard.jit import njit

from .rules import DEGREE, SPOTS, WHITE

PLANES = ("own squares", "opponent squares", "white squares", "spots", "full", "to move")
HIGH = float("inf")  # spots have no fixed bound


def grid(game):
    """``(height, width, place)``: each square's place ``row * width + column`` in a plane."""
    size = game["size"]
    return size, size, list(range(size * size))


def mirror_actions(game):
    """Each square's id with the board mirrored (the same row, the mirrored column)."""
    size = game["size"]
    return [row * size + size - 1 - column for row in range(size) for column in range(size)]


@njit(cache=True)
def encode_observation(s, params, table, player, out):
    """Write ``s`` seen by ``player`` into the flat ``float32`` array ``out``."""
    out[:] = 0.0
    area, cells = table[T_AREA], table[T_CELLS]
    for cell in range(cells):
        at = table[T_GRID + cell]
        colour = s[SPOTS + cells + cell]
        if colour == WHITE:
            out[2 * area + at] = 1.0
        elif colour == player + 1:
            out[at] = 1.0
        else:
            out[area + at] = 1.0
        spots = s[SPOTS + cell]
        out[3 * area + at] = spots
        if spots >= params[DEGREE + cell]:
            out[4 * area + at] = 1.0
    fill(out, 5, area, 1.0 if s[PLAYER] == player else 0.0)
