"""The compiled step of the learner's tree search: one call expands a whole
batch of search nodes, through the game's own kernels.

A template (see :func:`boomboard.jit.specialize`): use it through
``game.compiled("boomboard.learn.kernels")``. The search keeps each node's
position as its engine array; :func:`expand_batch` plays one action in each
and returns what the network and the search need about the child. Unlike
:class:`~boomboard.vector.VectorEnv` it keeps no history of keys: inside the
search a position's repetitions are not counted (the games the search plays
for real are stepped by the environment, which counts them).
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import PLAYER, STATUS, STATUS_TIE, win_status
from boomboard.jit import njit
from boomboard.kernel_interface import apply_action, encode_observation, legal_actions


@njit(cache=True)
def expand_batch(states, params, table, actions, children, rewards, done, observations, masks, decisive, wins_now,  # noqa: PLR0913 (a kernel's arrays, one by one)
                 scratch):
    """Play ``actions[i]`` in ``states[i]`` for every ``i`` into ``children[i]``.

    ``rewards[i]`` is the result for the player who moved (+1 won, -1 lost,
    0 otherwise); ``done[i]`` is whether the child is finished. A node that
    is already finished, or an action that is not legal there (the search
    only tries one where every action is illegal: past the end of a game),
    leaves the position as it is, with reward 0 and ``done`` set.
    ``observations[i]`` (flat) is the child seen by its player to move and
    ``masks[i]`` its legal actions (all False once finished).
    With ``decisive``, ``wins_now[i]`` is whether the child's player to move has a move that
    wins at once: an exact value the search can use where the net's prior
    would never lead it to try that move (Teytaud and Teytaud's "decisive
    moves", 2010).
    """
    probe = np.empty_like(states[0])
    for i in range(states.shape[0]):
        child = children[i]
        child[:] = states[i]
        masks[i, :] = False
        rewards[i] = 0.0
        mover = child[PLAYER]
        legal = child[STATUS] == 0
        if legal:
            n = legal_actions(child, params, scratch)
            legal = False
            for k in range(n):
                if scratch[k] == actions[i]:
                    legal = True
        if legal:
            apply_action(child, params, actions[i])
            status = child[STATUS]
            if status == win_status(mover):
                rewards[i] = 1.0
            elif status != 0 and status != STATUS_TIE:
                rewards[i] = -1.0
        done[i] = not legal or child[STATUS] != 0
        encode_observation(child, params, table, child[PLAYER], observations[i])
        wins_now[i] = False
        if not done[i]:
            n = legal_actions(child, params, scratch)
            winning = win_status(child[PLAYER])
            for k in range(n):
                masks[i, scratch[k]] = True
                if decisive and not wins_now[i]:
                    probe[:] = child
                    apply_action(probe, params, scratch[k])
                    wins_now[i] = probe[STATUS] == winning
