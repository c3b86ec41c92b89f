"""The layer every game builds on: errors, outcomes, parameters, the shared
array layout and the :class:`Game` / :class:`State` base classes."""

from .board_view import BoardView, Cell
from .errors import (
    BoomboardError,
    GameOverError,
    IllegalActionError,
    InvalidPositionError,
    NotationError,
    ParameterError,
    UnknownGameError,
)
from .game import Game
from .outcome import Outcome, Reason, Status
from .params import Parameter
from .state import TERMINAL_PLAYER, State

__all__ = [
    "BoardView",
    "BoomboardError",
    "Cell",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "InvalidPositionError",
    "NotationError",
    "Outcome",
    "Parameter",
    "ParameterError",
    "Reason",
    "State",
    "Status",
    "TERMINAL_PLAYER",
    "UnknownGameError",
]
