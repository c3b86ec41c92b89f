"""The prover's move ordering for a game that gives none of its own: a kernel template.

The prover (:mod:`boomboard.search.proof_search`) asks the game kernels
``proof_moves`` and ``mirror_key`` for the moves to search and the
transposition table's key. A game that knows its threats gives them (the
*proof ordering* items of the game contract); for any other game the prover
is compiled against this module instead (templates compose:
:func:`boomboard.jit.specialize`), which orders moves by the game's static
evaluation of each child, as the prover always did, and keys positions by
``position_key`` (no mirror images). It passes the game's own
``apply_action`` and ``legal_actions`` through, for the prover to import
with the other two.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import PLAYER, STATUS, STATUS_TIE
from boomboard.jit import njit
from boomboard.kernel_interface import apply_action, evaluate, legal_actions, position_key

__all__ = ["apply_action", "legal_actions", "mirror_key", "proof_moves"]

# A child that loses at once sorts after every other.
_LOSING_KEY = -(1 << 40)


@njit(cache=True)
def proof_moves(s, params, out):
    """Every legal action, the game's evaluation of its child best first, a
    child that loses at once last; an action that wins at once alone."""
    n = legal_actions(s, params, out)
    child = np.empty_like(s)
    keys = np.empty(n, np.int64)
    mover_wins = 1 + s[PLAYER]
    for i in range(n):
        child[:] = s
        apply_action(child, params, out[i])
        status = child[STATUS]
        if status == mover_wins:
            out[0] = out[i]
            return 1
        if status == 0:
            keys[i] = -evaluate(child, params)
        elif status == STATUS_TIE:
            keys[i] = 0
        else:
            keys[i] = _LOSING_KEY
    # insertion sort, stable (few actions; most nodes search only the first)
    for i in range(1, n):
        j, action, key = i, out[i], keys[i]
        while j > 0 and keys[j - 1] < key:
            out[j], keys[j] = out[j - 1], keys[j - 1]
            j -= 1
        out[j], keys[j] = action, key
    return n


@njit(cache=True)
def mirror_key(s, params):
    """The position's own key, the lowest bit cleared: no mirror image shares it."""
    return position_key(s, params) & ~np.uint64(1)
