"""Perfect position indexes: every non-terminal position as one ``uint64``, and back.

The solver needs a key that no two positions share (a 64-bit hash would do
for a search, not for a table that claims to be exact), and it needs to turn
a key back into the engine array, so that its tables hold keys alone. Each
game brings its own codec, in its folder's ``codec.py``: the kernels
``encode`` and ``decode`` (and ``layer_of``) of the game kernel interface
(:mod:`boomboard.kernel_interface`), which read a small ``int64`` array, the
codec spec, that the game computes (:meth:`boomboard.core.game.Game.solver_codec_spec`).
Typically a board is written as the digits of one mixed-radix number, then
the player to move.

Only non-terminal positions are encoded: a finished position's value is
read off its result. :data:`OUTSIDE` marks a position the encoding cannot
hold (a terminal one, or one the spec does not cover, such as an endgame
with more tokens than the table's). :func:`codec_spec` checks in Python,
with exact integers, that every key fits below :data:`OUTSIDE`.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import BoomboardError
from ..core.game import Game
from ..core.layout import OUTSIDE

__all__ = ["OUTSIDE", "PositionSpaceTooLarge", "codec_spec", "is_endgames", "is_layered", "layer_count"]


class PositionSpaceTooLarge(BoomboardError):
    """The positions of this game do not fit the solver's 64-bit index."""


def is_endgames(game: Game) -> bool:
    """Whether ``game`` is solved as endgames of at most ``tokens`` tokens, not from its start."""
    return game.solver_min_tokens > 0


def codec_spec(game: Game, tokens: int = 0) -> np.ndarray:
    """The ``int64`` array ``game``'s ``encode`` and ``decode`` read
    (``tokens``: the endgame size of a game solved as endgames). Raises
    :class:`PositionSpaceTooLarge` if the keys would not fit in 64 bits."""
    least = game.solver_min_tokens
    if least and tokens < least:
        raise PositionSpaceTooLarge(f"{game.title} is solved as endgames: give the most tokens on the board "
                                    f"({least} or more), e.g. --tokens {least + 1}")
    described = game.solver_codec_spec(tokens if least else 0)
    if described is None:
        raise BoomboardError(f"{game.title} cannot be solved: it has no position codec for the solver")
    spec, keys = described
    if keys >= int(OUTSIDE):
        raise PositionSpaceTooLarge(f"{game} has up to {keys:.3e} encoded positions, more than a 64-bit "
                                    "index holds; choose a smaller board")
    return np.array(spec, dtype=np.int64)


def is_layered(game: Game) -> bool:
    """Whether ``game`` is acyclic and split into layers every move climbs."""
    return bool(game.solver_layered)


def layer_count(game: Game, spec: np.ndarray) -> int:
    """How many layers ``game``'s ``layer_of`` numbers (1 for a game without layers)."""
    return int(game.solver_layer_count(spec)) if game.solver_layered else 1
