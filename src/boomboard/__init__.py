"""boomboard: rules engines, AI players, a solver, an arena and front ends for
chain-reaction board games (Expendibots, Jump61, Kaboom, Explocus, HExplocus).

Start with :func:`load_game`::

    >>> import boomboard
    >>> game = boomboard.load_game("expendibots")
    >>> state = game.new_initial_state()
    >>> len(state.legal_actions())
    50
"""

from .core import (
    BoomboardError,
    Game,
    GameOverError,
    IllegalActionError,
    InvalidPositionError,
    NotationError,
    Outcome,
    ParameterError,
    Reason,
    State,
    UnknownGameError,
)
from .registry import GameInfo, game_names, load_game, registered_games

__version__ = "0.1.0"

__all__ = [
    "BoomboardError",
    "Game",
    "GameInfo",
    "GameOverError",
    "IllegalActionError",
    "InvalidPositionError",
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
