"""Expendibots (Kues and Farrugia-Roberts, 2020): stacks of bots move as far as
they are high, and a boom sets off every stack around it, either colour.

Names are imported on first use, so that the command line can load the
game's course programs (:mod:`.course`) without loading the game."""

from ...core.lazy import lazy_names

_LAZY = {"ExpendibotsGame": ".game", "ExpendibotsState": ".game"}
__getattr__, __dir__ = lazy_names(__name__, _LAZY)
__all__ = ["ExpendibotsGame", "ExpendibotsState"]
