"""The steps of one action, for the page to animate: the move itself, then
each explosion of its cascade, in the order the rules play them.

They come from the game's own compiled kernels: its ``apply_action_steps``
(:mod:`boomboard.kernel_interface`) plays the action with the same code as
``apply_action`` and records the position after each step and the cells it
lights (Jump61 and the Explocus games: one step per exploding square or
stack; Expendibots and Kaboom: one per wave of a chain, then Kaboom's fall;
see :mod:`boomboard.core.steps`). Its last step is the engine's result.
"""

from __future__ import annotations

import numpy as np

from ..core.game import Game
from .geometry import cell_contents, layout

MAX_STEPS = 60  # pictures per action at most: a few seconds of animation
_FIRST_BUFFER = 64  # steps recorded on a first try; a longer cascade is played again with room for all


def cascade_steps(game: Game, before, action: int) -> list[dict]:
    """Pictures of ``action`` played on the engine array ``before``: a list of
    ``{"cells": [[owner, text, mark], ...], "flash": [cell names]}``; ``flash``
    names the cells exploding (or, for a plain move, moved) in that step."""
    names = layout(game).names
    return [{"cells": cell_contents(game, picture), "flash": [names[c] for c in flash]}
            for picture, flash in step_pictures(game, before, action)]


def step_pictures(game: Game, before, action: int) -> list[tuple[np.ndarray, list[int]]]:
    """The engine arrays of ``action``'s steps from ``before`` (a long cascade's
    merged, as the page shows them), each with the cell ids it lights."""
    return _merge(record_steps(game, before, action))


def record_steps(game: Game, before, action: int) -> list[tuple[np.ndarray, list[int]]]:
    """The steps the game's kernels record for ``action`` on ``before``: the
    position after each, and the cell ids it lights."""
    before = np.ascontiguousarray(before, dtype=np.int32)
    cells = len(layout(game).names)
    capacity = _FIRST_BUFFER
    while True:
        s = before.copy()
        steps = np.empty((capacity, len(s)), dtype=np.int32)
        flashes = np.empty((capacity, cells), dtype=np.int32)
        n = int(game.kernels.apply_action_steps(s, game.params_array, int(action), steps, flashes))
        if n <= capacity:
            return [(steps[k], [int(c) for c in flashes[k] if c >= 0]) for k in range(n)]
        capacity = n


def _merge(steps: list) -> list:
    """At most :data:`MAX_STEPS` pictures: a long cascade (a big Jump61 board can
    jump hundreds of times) is shown in runs of consecutive explosions, each run
    one picture lighting all its cells; the last picture stays the result."""
    if len(steps) <= MAX_STEPS:
        return steps
    run = -(-len(steps) // MAX_STEPS)
    merged = []
    for start in range(0, len(steps), run):
        chunk = steps[start:start + run]
        flash = list(dict.fromkeys(cell for _, cells in chunk for cell in cells))
        merged.append((chunk[-1][0], flash))
    return merged
