"""Jump61 (the seed's CS61B game): add spots to your squares; a square with more
spots than neighbours jumps, one spot to each neighbour, taking them all.

Names are imported on first use, so that the command line can load the
game's course program (:mod:`.course`) without loading the game."""

from ...core.lazy import lazy_names

_LAZY = {"Jump61Game": ".game", "Jump61State": ".game", "parse_dump": ".notation", "parse_move": ".notation",
         "write_dump": ".notation", "write_move": ".notation"}
__getattr__, __dir__ = lazy_names(__name__, _LAZY)
__all__ = list(_LAZY)
