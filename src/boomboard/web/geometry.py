"""What the browser draws and clicks: each game's board as placed cells, the
stones on them, and every legal action as a click gesture.

The geometry itself is the game's own (its folder's ``geometry.py``, see
:mod:`boomboard.core.geometry`); this module asks it through
:meth:`Game.geometry <boomboard.core.game.Game.geometry>`. A :class:`Layout`
is fixed per game (cells with names and centres, in cell units, x to the
right and y downward, plus the labels around the board).
:func:`cell_contents` reads an engine array into one entry per layout cell,
so the same code draws the current position and every intermediate step of
an explosion cascade (see :mod:`boomboard.web.cascade`). :func:`move_gestures`
describes each legal action as ``from`` cell, ``to`` cell (or column) and a
count, which is all the page needs to turn clicks into actions.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.game import Game
from ..core.geometry import HEX_ROW_STEP, LABEL_GAP, Layout
from ..core.state import State

__all__ = ["HEX_ROW_STEP", "LABEL_GAP", "Layout", "cell_contents", "layout", "move_gestures", "winning_lines"]


def layout(game: Game) -> Layout:
    """The board of ``game`` (cached per game string)."""
    return _layout(str(game), game)


@lru_cache(maxsize=64)
def _layout(key: str, game: Game) -> Layout:
    del key  # only part of the cache key
    return game.geometry().layout(game)


def cell_contents(game: Game, array: np.ndarray) -> list[list]:
    """One ``[owner, text, mark]`` per layout cell for an engine array: ``owner``
    0, 1 or ``None``; ``text`` what is written on the cell; ``mark`` ``"bomb"``
    for a bomb, else ``""``."""
    return game.geometry().cell_contents(game, array)


def move_gestures(state: State) -> list[dict]:
    """Every legal action as ``{id, text, kind, from, to, count}``.

    ``from`` is the cell clicked first (``None`` for one-click actions), ``to``
    the cell (or column, e.g. Kaboom's) clicked to play it, ``count`` the
    tokens or stones moved where a move carries some; games may add fields
    (a Kaboom drop names the cell where the piece will land, ``land``). The
    kinds are the game's (``move`` where it names none).
    """
    game = state.game
    gesture = game.geometry().gesture
    names = layout(game).names
    gestures = []
    for action in state.legal_actions():
        text = state.action_to_string(action)
        described = {"id": action, "text": text, "kind": "move", "from": None, "to": None, "count": None}
        described.update(gesture(state, action, text, names))
        gestures.append(described)
    return gestures


def winning_lines(state: State) -> list[str]:
    """The cells of what ended a finished game, where the game draws that (the
    n-in-a-row of a Kaboom board, misère included); ``[]`` otherwise."""
    lines = getattr(state.game.geometry(), "winning_lines", None)
    return [] if lines is None else lines(state, layout(state.game).names)
