"""Expendibots' observation tensor (:mod:`boomboard.observation`).

Planes: own stack heights, opponent stack heights (token counts); to move
(all 1 when the observer is to move); game length (actions played / 500, on
every cell). Row 0 is the board's row 7.
"""

from boomboard.core.layout import PLAYER, PLY
from boomboard.core.planes import T_ACTION_LIMIT, T_AREA, fill, signed_heights
from boomboard.jit import njit

from .rules import BOARD, SIZE, SQUARES

PLANES = ("own heights", "opponent heights", "to move", "game length")
HIGH = float("inf")  # heights are counts


def grid(game):
    """``(height, width, place)``: each square's place ``row * width + column`` in a plane."""
    return SIZE, SIZE, [(SIZE - 1 - sq // SIZE) * SIZE + sq % SIZE for sq in range(SQUARES)]


@njit(cache=True)
def encode_observation(s, params, table, player, out):
    """Write ``s`` seen by ``player`` into the flat ``float32`` array ``out``."""
    out[:] = 0.0
    area = table[T_AREA]
    signed_heights(s, BOARD, table, player, out)
    fill(out, 2, area, 1.0 if s[PLAYER] == player else 0.0)
    fill(out, 3, area, s[PLY] / table[T_ACTION_LIMIT])
