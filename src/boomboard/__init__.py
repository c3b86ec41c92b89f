"""boomboard: rules engines, AI players, a solver, an arena and front ends for
chain-reaction board games (Expendibots, Jump61, Kaboom, Explocus, HExplocus,
Chain Reaction).

Start with :func:`load_game`::

    >>> import boomboard
    >>> game = boomboard.load_game("expendibots")
    >>> state = game.new_initial_state()
    >>> len(state.legal_actions())
    50

Importing boomboard is cheap: a game's modules (and numba, which compiles
them) load when the game is first loaded, not before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .core.errors import (
    BoomboardError,
    GameOverError,
    IllegalActionError,
    InvalidPositionError,
    MissingExtraError,
    NotationError,
    ParameterError,
    UnknownGameError,
)
from .core.lazy import lazy_names

__version__ = "0.1.0"

# name -> module it is imported from on first use (PEP 562)
_LAZY = {
    "Game": ".core.game",
    "State": ".core.state",
    "Outcome": ".core.outcome",
    "Reason": ".core.outcome",
    "GameInfo": ".registry",
    "game_names": ".registry",
    "load_game": ".registry",
    "registered_games": ".registry",
}

if TYPE_CHECKING:
    from .core.game import Game
    from .core.outcome import Outcome, Reason
    from .core.state import State
    from .registry import GameInfo, game_names, load_game, registered_games

__getattr__, __dir__ = lazy_names(__name__, _LAZY)


__all__ = [
    "BoomboardError",
    "Game",
    "GameInfo",
    "GameOverError",
    "IllegalActionError",
    "InvalidPositionError",
    "MissingExtraError",
    "NotationError",
    "Outcome",
    "ParameterError",
    "Reason",
    "State",
    "UnknownGameError",
    "game_names",
    "load_game",
    "registered_games",
]
