"""Explocus and HExplocus (Martin Medema): stacks move as far as they are high,
and a stack as high as its cell has neighbours explodes onto them."""

from .boards import Board, hex_board, square_board
from .game import ExplocusGame, ExplocusState, HexplocusGame

__all__ = ["Board", "ExplocusGame", "ExplocusState", "HexplocusGame", "hex_board", "square_board"]
