"""Observation tensors: each game's board as planes of numbers, for learning.

Every adapter (OpenSpiel's observer, PettingZoo's ``observation``, the
batched :class:`boomboard.vector.VectorEnv`) draws its tensors from here, so a
network trained on one reads the others the same way.

An observation is a ``float32`` array of shape ``(planes, height, width)``
(channels first, as in OpenSpiel), seen **from one player's side**: "own"
planes hold the observing player's pieces, "opponent" planes the other's,
whichever colour each plays. Row 0 of a plane is the top of the board as the
game draws it (Kaboom's top row, Expendibots' row 7, Jump61's row 1), so
``tensor[p]`` looks like ``str(state)``. The planes of each game:

============  =========================================================
game          planes
============  =========================================================
kaboom        own pieces, own bombs, opponent pieces, opponent bombs
              (1 where one stands); own bombs in hand and opponent bombs
              in hand (the whole plane holds the fraction of ``bombs``);
              to move (all 1 when the observer is to move)
jump61        own squares, opponent squares, white squares (1 where so);
              spots (the count); full (1 where spots >= neighbours: one
              more spot makes it jump); to move
expendibots   own stack heights, opponent stack heights (token counts);
              to move; game length (actions played / 500, on every cell)
explocus,     own stack heights, opponent stack heights (stone counts);
hexplocus     capacity (the cell's neighbours; 0 marks a hole); to move;
              game length (actions played / 500)
============  =========================================================

HExplocus's hexagon lies in a ``(2*side - 1)`` square grid in its own
coordinates (row ``A`` at the bottom, diagonal ``1`` at the left): cell
``(row, diagonal)`` is at ``[2*side - 2 - row, diagonal]`` and its neighbours
are the grid's left, right, up, down, up-right and down-left; grid squares
that are not cells have capacity 0 and nothing else.

The history (how often a position occurred) is not in the tensor: the
repetition rule only ends a game on a 4th occurrence, so the tensor is the
position, as in OpenSpiel's own chess observer.

>>> import boomboard
>>> from boomboard.observation import observation_layout
>>> layout = observation_layout(boomboard.load_game("kaboom"))
>>> layout.shape, layout.planes[:2]
((7, 4, 4), ('own pieces', 'own bombs'))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from boomboard.jit import njit

from .core.game import Game
from .core.layout import PLAYER, PLY
from .core.state import State
from .games.expendibots import rules as expendibots
from .games.explocus import rules as explocus
from .games.jump61 import rules as jump61
from .games.kaboom import rules as kaboom
from .search.kernels import EXPENDIBOTS, JUMP61, KABOOM, rules_id

# The layout table a kernel reads: sizes, then each cell's place in the grid.
T_RULES = 0
T_AREA = 1  # height * width, the size of one plane
T_CELLS = 2  # cells on the board
T_ACTION_LIMIT = 3  # for the game-length plane (0: the game has none)
T_GRID = 4  # T_GRID + cell: row * width + column of that cell in a plane

PLANES = {
    "kaboom": ("own pieces", "own bombs", "opponent pieces", "opponent bombs",
               "own bombs in hand", "opponent bombs in hand", "to move"),
    "jump61": ("own squares", "opponent squares", "white squares", "spots", "full", "to move"),
    "expendibots": ("own heights", "opponent heights", "to move", "game length"),
    "explocus": ("own heights", "opponent heights", "capacity", "to move", "game length"),
}
PLANES["hexplocus"] = PLANES["explocus"]


@dataclass(frozen=True, eq=False)
class ObservationLayout:
    """How one game's states become tensors: the plane names, the shape and
    the compiled encoder's table. Get one with :func:`observation_layout`."""

    game: Game
    planes: tuple[str, ...]
    height: int
    width: int
    table: np.ndarray

    @property
    def shape(self) -> tuple[int, int, int]:
        return (len(self.planes), self.height, self.width)

    @property
    def high(self) -> float:
        """The largest value a plane can hold: 1 for Kaboom (all 0/1 or
        fractions); counts (heights, spots) have no fixed bound."""
        return 1.0 if self.game.name == "kaboom" else float("inf")

    @property
    def size(self) -> int:
        return len(self.planes) * self.height * self.width

    def encode(self, state: State, player: int | None = None) -> np.ndarray:
        """The tensor of ``state`` seen by ``player`` (default: the player to move)."""
        out = np.empty(self.shape, dtype=np.float32)
        self.encode_array(state.array, state.player_to_move() if player is None else player, out)
        return out

    def encode_array(self, array: np.ndarray, player: int, out: np.ndarray) -> None:
        """Write the tensor of an engine array into ``out`` (``float32``, this
        layout's shape or flat), overwriting all of it."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        encode(array, self.game.params_array, self.table, player, out.reshape(-1))


@lru_cache(maxsize=None)
def observation_layout(game: Game) -> ObservationLayout:
    """The observation layout of ``game`` (cached per game)."""
    name = game.name
    if name == "kaboom":
        rows, cols = game["rows"], game["cols"]
        height, width = rows, cols
        grid = [(rows - 1 - r) * cols + c for r in range(rows) for c in range(cols)]
    elif name == "jump61":
        height = width = game["size"]
        grid = list(range(height * width))
    elif name == "expendibots":
        height = width = expendibots.SIZE
        grid = [(height - 1 - sq // width) * width + sq % width for sq in range(expendibots.SQUARES)]
    elif name in ("explocus", "hexplocus"):
        coords = game.board.coords
        height = max(r for r, _ in coords) + 1
        width = max(c for _, c in coords) + 1
        grid = [(height - 1 - r) * width + c for r, c in coords]
    else:
        raise NotImplementedError(f"no observation layout for {name!r}")
    table = np.array([rules_id(game), height * width, len(grid), game.action_limit, *grid], dtype=np.int32)
    table.flags.writeable = False
    return ObservationLayout(game, PLANES[name], height, width, table)


@njit(cache=True)
def encode(s, params, table, player, out):
    """Write ``s`` seen by ``player`` into the flat ``float32`` array ``out``."""
    out[:] = 0.0
    rules, area, cells = table[T_RULES], table[T_AREA], table[T_CELLS]
    to_move = 1.0 if s[PLAYER] == player else 0.0
    if rules == KABOOM:
        _encode_kaboom(s, params, table, player, out)
        _fill(out, 6, area, to_move)
    elif rules == JUMP61:
        _encode_jump61(s, params, table, player, out)
        _fill(out, 5, area, to_move)
    else:
        first = expendibots.BOARD if rules == EXPENDIBOTS else explocus.BOARD
        for cell in range(cells):
            height = s[first + cell] if player == 0 else -s[first + cell]
            at = table[T_GRID + cell]
            if height > 0:
                out[at] = height
            elif height < 0:
                out[area + at] = -height
        extra = 2
        if rules != EXPENDIBOTS:
            capacity = explocus.TABLES
            for cell in range(cells):
                out[2 * area + table[T_GRID + cell]] = params[capacity + cell]
            extra = 3
        _fill(out, extra, area, to_move)
        _fill(out, extra + 1, area, s[PLY] / table[T_ACTION_LIMIT])


@njit(cache=True)
def encode_batch(states, params, table, players, out):
    """:func:`encode` for every row of ``states`` (``out``: one flat row each)."""
    for i in range(states.shape[0]):
        encode(states[i], params, table, players[i], out[i])


@njit(cache=True)
def _fill(out, plane, area, value):
    out[plane * area:(plane + 1) * area] = value


@njit(cache=True)
def _encode_kaboom(s, params, table, player, out):
    area, cells = table[T_AREA], table[T_CELLS]
    board = kaboom.HEIGHT + params[kaboom.P_COLS]
    for cell in range(cells):
        value = s[board + cell]
        if value:
            plane = 0 if (value & 3) - 1 == player else 2
            if value & kaboom.BOMB:
                plane += 1
            out[plane * area + table[T_GRID + cell]] = 1.0
    bombs = params[kaboom.P_BOMBS]
    if bombs:
        _fill(out, 4, area, s[kaboom.HAND + player] / bombs)
        _fill(out, 5, area, s[kaboom.HAND + 1 - player] / bombs)


@njit(cache=True)
def _encode_jump61(s, params, table, player, out):
    area, cells = table[T_AREA], table[T_CELLS]
    for cell in range(cells):
        at = table[T_GRID + cell]
        colour = s[jump61.SPOTS + cells + cell]
        if colour == jump61.WHITE:
            out[2 * area + at] = 1.0
        elif colour == player + 1:
            out[at] = 1.0
        else:
            out[area + at] = 1.0
        spots = s[jump61.SPOTS + cell]
        out[3 * area + at] = spots
        if spots >= params[jump61.DEGREE + cell]:
            out[4 * area + at] = 1.0
