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
