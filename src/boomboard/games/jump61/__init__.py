"""Jump61 (the seed's CS61B game): add spots to your squares; a square with more
spots than neighbours jumps, one spot to each neighbour, taking them all."""

from .game import Jump61Game, Jump61State
from .notation import parse_dump, parse_move, write_dump, write_move

__all__ = ["Jump61Game", "Jump61State", "parse_dump", "parse_move", "write_dump", "write_move"]
