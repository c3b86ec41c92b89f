"""Playing an action and recording it for the history rules, in one compiled call.

A game with history rules (a position's n-th occurrence, an action limit:
``repetition_limit``, ``action_limit``) has every :class:`~boomboard.core.state.State`
keep the keys of the positions it passed through. This module is a kernel
template (:func:`boomboard.jit.specialize`): ``game.compiled("boomboard.core.history")``
(kept as ``game.history_kernels``) binds the game kernels imported below to
one game's own, so every game shares this one definition and still calls
its rules directly. One compiled call instead of three (play, key, record)
is a quarter of the Python ``State``'s time per action.
"""

from __future__ import annotations

from boomboard.core.layout import record_position
from boomboard.jit import njit
from boomboard.kernel_interface import apply_action, position_key


@njit(cache=True)
def apply_and_record(s, params, action, keys, n_keys, repetition_limit, action_limit):
    """``apply_action``, then append the new position's key to ``keys[:n_keys]``
    and apply the history rules (:func:`boomboard.core.layout.apply_history_rules`);
    returns the new number of keys."""
    apply_action(s, params, action)
    return record_position(s, keys, n_keys, position_key(s, params), repetition_limit, action_limit)
