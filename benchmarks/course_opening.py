"""A course ``Player`` that plays a fixed opening, then hands over to another.

The staff referee always starts from the initial position, and an agent
with an opening book steers every game into its book's lines. To ask what
a different move would have done *in* such a line (as cutechess's
``-openings`` does for chess engines), both players are wrapped in this
module: each plays its colour's moves of the opening, and every action of
the game, its own included, reaches the Player it wraps through
``update``, so the wrapped players follow the opening as if they had chosen
it and play on from there, under the referee's limits.

``BOOMBOARD_WRAP_WHITE`` and ``BOOMBOARD_WRAP_BLACK`` name the wrapped
Players (``module`` or ``module:Class``; a module's class ``Player``),
``BOOMBOARD_OPENING`` the opening (a JSON list of the referee's actions, as
``repr`` of their tuples). The wrapped modules are imported with this one,
as the referee imports players' packages before it starts measuring space.
"""

from __future__ import annotations

import ast
import importlib
import json
import os


def opening_actions(text: str) -> list[tuple]:
    """The opening's actions, from ``BOOMBOARD_OPENING``'s JSON list of tuple reprs."""
    return [ast.literal_eval(action) for action in json.loads(text)]


def _wrapped_class(colour: str) -> type | None:
    module, _, name = os.environ.get(f"BOOMBOARD_WRAP_{colour.upper()}", "").partition(":")
    return getattr(importlib.import_module(module), name or "Player") if module else None


_WRAPPED = {colour: _wrapped_class(colour) for colour in ("white", "black")}


class Player:
    def __init__(self, colour: str):
        self.wrapped = _WRAPPED[colour](colour)
        self.opening = opening_actions(os.environ.get("BOOMBOARD_OPENING", "[]"))
        self.played = 0  # actions of the game so far, both colours'

    def action(self):
        if self.played < len(self.opening):
            return self.opening[self.played]
        return self.wrapped.action()

    def update(self, colour: str, action) -> None:
        self.played += 1
        self.wrapped.update(colour, action)
