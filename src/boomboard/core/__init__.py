"""The layer every game builds on: errors, outcomes, parameters, the shared
array layout and the :class:`Game` / :class:`State` base classes.

Names are imported on first use, so that ``boomboard.core.errors`` (what the
command line needs to start) costs no NumPy."""

from __future__ import annotations

import importlib

_LAZY = {
    "BoardView": ".board_view", "Cell": ".board_view",
    "BoomboardError": ".errors", "GameOverError": ".errors", "IllegalActionError": ".errors",
    "InvalidPositionError": ".errors", "NotationError": ".errors", "ParameterError": ".errors",
    "UnknownGameError": ".errors",
    "Game": ".game",
    "Outcome": ".outcome", "Reason": ".outcome", "Status": ".outcome",
    "Parameter": ".params",
    "State": ".state", "TERMINAL_PLAYER": ".state",
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'boomboard.core' has no attribute {name!r}")


__all__ = sorted(_LAZY)
