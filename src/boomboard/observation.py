"""Observation tensors: each game's board as planes of numbers, for learning.

Every adapter (OpenSpiel's observer, PettingZoo's ``observation``, the
batched :class:`boomboard.vector.VectorEnv`) draws its tensors from here, so a
network trained on one reads the others the same way.

An observation is a ``float32`` array of shape ``(planes, height, width)``
(channels first, as in OpenSpiel), seen **from one player's side**: "own"
planes hold the observing player's pieces, "opponent" planes the other's,
whichever colour each plays. Row 0 of a plane is the top of the board as the
game draws it, so ``tensor[p]`` looks like ``str(state)``.

The planes are the game's own: its folder's ``observation.py`` names them
(``PLANES``, listed in its docstring), bounds them (``HIGH``), places each
cell in the grid (``grid(game)``) and has the compiled encoder
(``encode_observation``, exported by the game's ``kernels.py``: see
:mod:`boomboard.kernel_interface` and :mod:`boomboard.core.planes`).
:attr:`ObservationLayout.planes` names them for any game.

A game whose rules look the same in a mirror (left and right swapped)
says so in its ``observation.py`` with ``mirror_actions(game)``: each
action id's id in the mirrored position, the tensor's columns reversed
(:attr:`ObservationLayout.mirror`). A learner may then read both views of a
position and average them, as AlphaGo did with its board's symmetries.

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

from .core.capabilities import LEARNING, require_capability
from .core.game import Game
from .core.planes import T_ACTION_LIMIT, T_AREA, T_CELLS, T_GRID
from .core.state import State

__all__ = ["ObservationLayout", "T_ACTION_LIMIT", "T_AREA", "T_CELLS", "T_GRID", "observation_layout"]


@dataclass(frozen=True, eq=False)
class ObservationLayout:
    """How one game's states become tensors: the plane names, the shape, the
    largest value (``high``) and the compiled encoder's table. Get one with
    :func:`observation_layout`."""

    game: Game
    planes: tuple[str, ...]
    height: int
    width: int
    table: np.ndarray
    high: float = float("inf")  # the largest value a plane can hold (counts have no fixed bound)
    mirror: np.ndarray | None = None  # action a of a position is mirror[a] of its mirror image; None: no mirror

    @property
    def shape(self) -> tuple[int, int, int]:
        return (len(self.planes), self.height, self.width)

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
        self.game.kernels.encode_observation(array, self.game.params_array, self.table, player, out.reshape(-1))


# Layouts kept per process (LRU): one per game variant in use, as many as
# load_game keeps (registry.GAME_CACHE_SIZE), since each layout holds its game.
LAYOUTS_KEPT = 64


@lru_cache(maxsize=LAYOUTS_KEPT)
def observation_layout(game: Game) -> ObservationLayout:
    """The observation layout of ``game`` (cached per game, the
    :data:`LAYOUTS_KEPT` used last)."""
    require_capability(game, LEARNING, "the observation tensor (training, the vector environment, the RL adapters)")
    module = game.folder_module("observation")
    height, width, grid = module.grid(game)
    table = np.array([height * width, len(grid), game.action_limit, *grid], dtype=np.int32)
    table.flags.writeable = False
    mirror = None
    if hasattr(module, "mirror_actions"):
        mirror = np.array(module.mirror_actions(game), dtype=np.int32)
        identity = np.arange(game.num_distinct_actions())
        if mirror.shape != identity.shape or np.any(np.sort(mirror) != identity) or np.any(mirror[mirror] != identity):
            # learners read a mirror image back through the same table, so it must be its own inverse
            raise ValueError(f"{game}: mirror_actions is not a permutation of the action ids that undoes itself")
        mirror.flags.writeable = False
    return ObservationLayout(game, tuple(module.PLANES), height, width, table, float(module.HIGH), mirror)
