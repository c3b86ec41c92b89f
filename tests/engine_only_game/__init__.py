"""Popline: a game that provides the engine alone (tests/test_capabilities.py).

A line of cells; each player in turn adds an orb to an empty cell or one of
their own. A cell holding one orb more than it has neighbours pops: it
empties, and each neighbour gets one orb and turns the popper's colour (the
extra orb is lost, so every cascade ends). A player with no orbs left, once
both have played, has lost. Its folder holds only what the engine needs:
the game class, the compiled rules and ``kernels.py``; no evaluation, no
pictures, no observation tensor, no rules page.
"""

from .game import PoplineGame

__all__ = ["PoplineGame"]
