"""Expendibots (Kues and Farrugia-Roberts, 2020): stacks of bots move as far as
they are high, and a boom sets off every stack around it, either colour."""

from . import notation
from .game import ExpendibotsGame, ExpendibotsState

__all__ = ["ExpendibotsGame", "ExpendibotsState", "notation"]
