"""The compiled loops of :class:`~boomboard.vector.VectorEnv`: one call steps
every game of the batch, through the game's own kernels, without returning
to Python in between.

A template (see :func:`boomboard.jit.specialize`): use it through
``game.compiled("boomboard.vector.kernels")``, which binds the game kernels
imported below to one game's own.

Each environment ``i`` is row ``i`` of a few arrays: its engine array
``states[i]``, the keys of its positions so far ``keys[i, :n_keys[i]]`` (for
the repetition and length rules) and its sorted legal actions
``legal[i, :n_legal[i]]``, kept up to date after every step.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import PLAYER, PLY, STATUS, STATUS_TIE, record_position, win_status
from boomboard.jit import njit
from boomboard.kernel_interface import apply_action, encode_observation, legal_actions, position_key


@njit(cache=True)
def is_legal(legal, n, action):
    """Whether ``action`` is among the sorted ``legal[:n]`` (binary search)."""
    low, high = 0, n
    while low < high:
        middle = (low + high) // 2
        if legal[middle] < action:
            low = middle + 1
        else:
            high = middle
    return low < n and legal[low] == action


@njit(cache=True)
def refresh_legal(states, params, legal, n_legal, scratch, i):
    """Recompute environment ``i``'s legal actions; -1 if they overflow its row."""
    n = legal_actions(states[i], params, scratch)
    if n > legal.shape[1]:
        return -1
    legal[i, :n] = scratch[:n]
    n_legal[i] = n
    return n


@njit(cache=True)
def _restart(states, initial, initial_key, keys, n_keys, i):
    """Environment ``i`` back to the first position, with a history of one key."""
    states[i, :] = initial
    keys[i, 0] = initial_key
    n_keys[i] = 1


@njit(cache=True)
def reset_selected(states, params, initial, initial_key, keys, n_keys, legal, n_legal, scratch, selected):
    """The environments where ``selected`` is True back to the first position;
    -1 on a legal-row overflow."""
    for i in range(states.shape[0]):
        if not selected[i]:
            continue
        _restart(states, initial, initial_key, keys, n_keys, i)
        if refresh_legal(states, params, legal, n_legal, scratch, i) < 0:
            return -1
    return 0


@njit(cache=True)
def first_illegal(actions, legal, n_legal):
    """The first environment whose action is not legal there, or -1."""
    for i in range(actions.shape[0]):
        if not is_legal(legal[i], n_legal[i], actions[i]):
            return i
    return -1


@njit(cache=True)
def step_all(states, params, initial, initial_key, keys, n_keys, legal, n_legal, scratch, actions,  # noqa: PLR0913 (a kernel's arrays, one by one)
             repetition_limit, action_limit, rewards, terminated, movers, final_status, lengths):
    """Play ``actions[i]`` in every environment ``i`` and reset the finished ones.

    The caller has checked the actions; an illegal one here loses the game
    for its player (the penalty option). For each environment this writes the
    mover, its reward (+1 won, -1 lost, 0 otherwise), whether the game ended,
    and for ended games their final status and length. Returns -1 if some
    legal-action row overflowed, else 0.
    """
    tracks = repetition_limit > 0 or action_limit > 0
    for i in range(states.shape[0]):
        s = states[i]
        mover = s[PLAYER]
        movers[i] = mover
        action = actions[i]
        if is_legal(legal[i], n_legal[i], action):
            apply_action(s, params, action)
            if tracks:
                n_keys[i] = record_position(s, keys[i], n_keys[i], position_key(s, params),
                                            repetition_limit, action_limit)
            status = s[STATUS]
            length = s[PLY]
        else:
            status = win_status(1 - mover)
            length = s[PLY] + 1
        if status == 0:
            rewards[i] = 0.0
            terminated[i] = False
            final_status[i] = 0
            lengths[i] = 0
        else:
            if status == STATUS_TIE:
                rewards[i] = 0.0
            elif status == win_status(mover):
                rewards[i] = 1.0
            else:
                rewards[i] = -1.0
            terminated[i] = True
            final_status[i] = status
            lengths[i] = length
            _restart(states, initial, initial_key, keys, n_keys, i)
        if refresh_legal(states, params, legal, n_legal, scratch, i) < 0:
            return -1
    return 0


@njit(cache=True)
def scatter_masks(legal, n_legal, masks):
    """Set ``masks[i, a]`` for each legal ``a`` of each environment (``masks`` all False before)."""
    for i in range(legal.shape[0]):
        for k in range(n_legal[i]):
            masks[i, legal[i, k]] = True


@njit(cache=True)
def random_playouts(start, params, start_keys, n_start_keys, repetition_limit, action_limit, scratch,
                    n_games, seed, results):
    """Play ``n_games`` uniformly random games from ``start`` (with its key
    history ``start_keys[:n_start_keys]``) and write each final status to
    ``results``. Compiled for the game and cached, unlike
    :func:`boomboard.core.playout.random_playouts`, which takes the kernels as
    arguments; Monte Carlo evaluators call this one."""
    np.random.seed(seed)
    keys = np.empty(start_keys.shape[0], np.uint64)
    tracks = repetition_limit > 0 or action_limit > 0
    s = np.empty_like(start)
    for game in range(n_games):
        s[:] = start
        keys[:n_start_keys] = start_keys[:n_start_keys]
        n_keys = n_start_keys
        while s[STATUS] == 0:
            n = legal_actions(s, params, scratch)
            apply_action(s, params, scratch[np.random.randint(n)])
            if tracks:
                n_keys = record_position(s, keys, n_keys, position_key(s, params),
                                         repetition_limit, action_limit)
        results[game] = s[STATUS]


@njit(cache=True)
def encode_batch(states, params, table, players, out):
    """The observation of every row of ``states`` seen by ``players[i]`` (``out``:
    one flat row each; see :mod:`boomboard.observation`)."""
    for i in range(states.shape[0]):
        encode_observation(states[i], params, table, players[i], out[i])
