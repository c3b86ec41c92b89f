"""The layer every game builds on: errors, outcomes, parameters, the shared
array layout and the :class:`Game` / :class:`State` base classes.

Names are imported on first use, so that ``boomboard.core.errors`` (what the
command line needs to start) costs no NumPy."""

from __future__ import annotations

from .lazy import lazy_names

_LAZY = {
    "BoardView": ".board_view", "Cell": ".board_view",
    "BoomboardError": ".errors", "GameOverError": ".errors", "IllegalActionError": ".errors",
    "InvalidPositionError": ".errors", "MissingExtraError": ".errors", "NotationError": ".errors",
    "ParameterError": ".errors", "UnknownGameError": ".errors", "GameContractError": ".errors",
    "Game": ".game",
    "Presentation": ".geometry",
    "EndReasons": ".outcome", "Outcome": ".outcome", "Reason": ".outcome", "Status": ".outcome",
    "Parameter": ".params",
    "State": ".state", "TERMINAL_PLAYER": ".state",
}

__getattr__, __dir__ = lazy_names(__name__, _LAZY)


__all__ = sorted(_LAZY)
