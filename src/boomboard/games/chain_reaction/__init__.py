"""Chain Reaction (the phone game): put orbs into your cells; a cell at
critical mass explodes, one orb to each neighbour, taking them all."""

from .game import ChainReactionGame, ChainReactionState
from .notation import cell_name, check_position, parse_cell, parse_position, write_position

__all__ = ["ChainReactionGame", "ChainReactionState", "cell_name", "check_position", "parse_cell",
           "parse_position", "write_position"]
