"""Perft: the number of action sequences of a given length from a position.

Chess programmers use node counts like these to catch move-generation bugs;
here they are regression tests for every game, confirmed by the simple
reference engines under ``tests/``. A line that ends the game early is not
counted: ``perft(s, d)`` counts sequences of exactly ``d`` actions.

:func:`perft` runs through the public :class:`State` API;
:func:`compiled_perft` runs the same count inside the game's compiled kernels
(history rules included), for depths the Python loop would take too long on.

This module is also a kernel template (:func:`boomboard.jit.specialize`): the
game kernels imported below are bound to one game's own by
``game.compiled("boomboard.core.perft")``, so the count is compiled once per
game and cached on disk.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import STATUS, record_position
from boomboard.core.state import State
from boomboard.jit import njit
from boomboard.kernel_interface import apply_action, legal_actions, position_key


def perft(state: State, depth: int) -> int:
    """Sequences of exactly ``depth`` legal actions from ``state``."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft(state.child(action), depth - 1) for action in actions)


def perft_divide(state: State, depth: int) -> dict[str, int]:
    """Perft below each legal action, keyed by the action's notation."""
    return {
        state.action_to_string(action): perft(state.child(action), depth - 1)
        for action in state.legal_actions()
    }


@njit(cache=True)
def count(s, params, keys, n_keys, depth, repetition_limit, action_limit, n_actions):
    """:func:`perft` of the position ``s`` (``keys[:n_keys]``: its history's
    position keys, where the game has history rules)."""
    if depth == 0:
        return 1
    if s[STATUS] != 0:
        return 0
    moves = np.empty(n_actions, np.int32)
    n = legal_actions(s, params, moves)
    if depth == 1:
        return n
    total = 0
    tracks = repetition_limit > 0 or action_limit > 0
    for i in range(n):
        child = s.copy()
        apply_action(child, params, moves[i])
        child_keys = n_keys
        if tracks:
            child_keys = record_position(child, keys, n_keys, position_key(child, params),
                                         repetition_limit, action_limit)
        total += count(child, params, keys, child_keys, depth - 1, repetition_limit, action_limit, n_actions)
    return total


def compiled_perft(state: State, depth: int) -> int:
    """:func:`perft` computed in compiled code (the first call compiles it
    for the game, once: a few seconds)."""
    game = state.game
    keys = np.zeros(game.action_limit + depth + 2, dtype=np.uint64)
    n_keys = 0
    if state._keys is not None:
        n_keys = state._n_keys
        keys[:n_keys] = state._keys[:n_keys]
    kernels = game.compiled("boomboard.core.perft")
    return int(kernels.count(state._array.copy(), game.params_array, keys, n_keys, depth,
                             game.repetition_limit, game.action_limit, game.num_distinct_actions()))
