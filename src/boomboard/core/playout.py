"""Random playouts inside compiled code: the engine's raw speed.

:func:`random_playouts` plays whole games from a position, choosing uniformly
among legal actions, without returning to Python between actions. The
benchmarks use it to measure the kernels; agents use it for Monte Carlo
estimates. This module is a kernel template (:func:`boomboard.jit.specialize`):
``game.compiled("boomboard.core.playout")`` binds the game kernels imported
below to one game's own, so the loop is compiled once per game and cached
on disk.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import STATUS, record_position
from boomboard.core.state import State
from boomboard.jit import njit
from boomboard.kernel_interface import apply_action, legal_actions, position_key


@njit(cache=True)
def playouts(start, params, start_keys, n_start_keys, n_games, seed, repetition_limit, action_limit, n_actions,
             results):
    """Play ``n_games`` random games from ``start``; each one's final status to
    ``results``; returns the actions played in all."""
    np.random.seed(seed)
    moves = np.empty(n_actions, np.int32)
    keys = np.empty(start_keys.shape[0], np.uint64)
    tracks = repetition_limit > 0 or action_limit > 0
    total_actions = 0
    for game in range(n_games):
        s = start.copy()
        keys[:n_start_keys] = start_keys[:n_start_keys]
        n_keys = n_start_keys
        while s[STATUS] == 0:
            n = legal_actions(s, params, moves)
            apply_action(s, params, moves[np.random.randint(n)])
            total_actions += 1
            if tracks:
                n_keys = record_position(s, keys, n_keys, position_key(s, params),
                                         repetition_limit, action_limit)
        results[game] = s[STATUS]
    return total_actions


def random_playouts(state: State, n_games: int, seed: int = 0) -> tuple[int, np.ndarray]:
    """Play ``n_games`` uniformly random games to the end from ``state``.

    Returns the number of actions played in all, and each game's final status
    (:class:`boomboard.core.outcome.Status` values).
    """
    game = state.game
    capacity = game.action_limit + 2 if game.tracks_history else 1
    keys = np.zeros(capacity, dtype=np.uint64)
    n_keys = 0
    if state._keys is not None:
        n_keys = state._n_keys
        keys[:n_keys] = state._keys[:n_keys]
    results = np.zeros(n_games, dtype=np.int32)
    kernels = game.compiled("boomboard.core.playout")
    total = kernels.playouts(state._array.copy(), game.params_array, keys, n_keys, n_games, seed,
                             game.repetition_limit, game.action_limit, game.num_distinct_actions(), results)
    return int(total), results
