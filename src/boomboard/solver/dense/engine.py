"""What the dense solver plays its moves on: the game's state arrays, or its own dense engine.

The dense passes (:mod:`boomboard.solver.dense.kernels`) unrank each
position, play its moves and locate its children with the game's kernels.
A game may give a *dense engine* for that (the optional items of the game
contract of that name): a ``dense_engine.py`` in its folder exporting the
kernels the passes call, over positions of its own that it plays faster
than state arrays (Kaboom's bitboards), with the same tiers, ranks and
levels, and ``Game.dense_engine_params`` giving the ``params`` its kernels
read, or ``None`` where these parameters do not fit it. The passes are then
compiled for the engine's module instead of the game's ``kernels.py``; the
state arrays stay the reference, and the path of every game and board
without an engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

from ...ahead import build_ahead, load_ahead
from ...core.game import Game
from ...jit import announce_if_cold, specialize

PASSES = "boomboard.solver.dense.kernels"


@dataclass(frozen=True)
class DenseEngine:
    """``passes``: the dense passes compiled for these positions;
    ``params``: the array their game kernels read; ``position``: an empty
    position (its size and type); ``load(state)``: the position of a state
    array, as a new array."""

    passes: ModuleType
    params: np.ndarray
    position: np.ndarray
    load: Callable[[np.ndarray], np.ndarray]


def dense_engine(game: Game, ahead: bool = False) -> DenseEngine:
    """The game's dense engine where it has one for these parameters, else
    its state arrays; with ``ahead``, the passes built ahead of time where
    they are built (:mod:`boomboard.ahead`)."""
    params = game.dense_engine_params()
    if params is None:
        return DenseEngine(game.compiled(PASSES, ahead=ahead), game.params_array, game.initial_array().copy(),
                           np.copy)
    engine = game.folder_module("dense_engine")
    passes = load_ahead(PASSES, engine.__name__) if ahead else None
    if passes is None:
        passes = specialize(PASSES, engine.__name__)
        announce_if_cold(passes, game.title)
    return DenseEngine(passes, params, engine.new_position(params), lambda state: engine.load_position(state, params))


def build_passes_ahead(game: Game) -> Path | None:
    """Build the dense passes ahead of time for the positions this game's
    solves play on (its dense engine's where it has one); their path, or
    None where they are built already. :class:`boomboard.ahead.AheadUnavailable`
    where they cannot be built here."""
    params = game.dense_engine_params()
    if params is None:
        if load_ahead(PASSES, game.kernels_module) is not None:
            return None
        return game.build_ahead(PASSES)
    engine = game.folder_module("dense_engine")
    if load_ahead(PASSES, engine.__name__) is not None:
        return None
    return build_ahead(PASSES, engine.__name__, {"params": params, "state": engine.new_position(params)})
