"""The table an observation encoder reads (:mod:`boomboard.observation`).

Each game's compiled ``encode_observation(s, params, table, player, out)``
(its folder's ``observation.py``, exported by its ``kernels.py``) writes the
planes of one position into a flat ``float32`` array, placing cell ``c`` of
the game at ``table[T_GRID + c]`` within each plane.
"""

from boomboard.jit import njit

T_AREA = 0  # height * width, the size of one plane
T_CELLS = 1  # cells on the board
T_ACTION_LIMIT = 2  # for a game-length plane (0: the game has none)
T_GRID = 3  # T_GRID + cell: row * width + column of that cell in a plane


@njit(cache=True)
def fill(out, plane, area, value):
    """Every entry of plane ``plane`` (of ``area`` entries) set to ``value``."""
    out[plane * area:(plane + 1) * area] = value


@njit(cache=True)
def signed_heights(s, board, table, player, out):
    """Planes 0 and 1 of a board of signed stack heights (``s[board + c]`` is
    ``+h`` for player 0's stack of ``h``, ``-h`` for player 1's, 0 for none):
    the heights of ``player``'s stacks, then of the opponent's."""
    area, cells = table[T_AREA], table[T_CELLS]
    for cell in range(cells):
        height = s[board + cell] if player == 0 else -s[board + cell]
        at = table[T_GRID + cell]
        if height > 0:
            out[at] = height
        elif height < 0:
            out[area + at] = -height
