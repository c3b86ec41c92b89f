"""Monte Carlo tree search kernels (UCT): a template, compiled once per game
(:func:`boomboard.jit.specialize`); :mod:`boomboard.search.mcts` drives them.
"""

from __future__ import annotations

import math

import numpy as np

from boomboard.core.layout import PLAYER, PLY, STATUS, STATUS_TIE
from boomboard.jit import njit
from boomboard.kernel_interface import apply_action, evaluate, legal_actions

# slots of the stats array
N_NODES, SIMULATIONS = 0, 1


@njit(cache=True)
def _expand(params, s, node, first_child, n_children, action, parent, visits, values, stats, buffer):
    n = legal_actions(s, params, buffer)
    start = stats[N_NODES]
    if start + n > first_child.shape[0]:
        return False  # the tree is full: keep simulating from here without growing it
    for i in range(n - 1, 0, -1):  # a random order, so ties between unvisited children are fair
        j = np.random.randint(i + 1)
        buffer[i], buffer[j] = buffer[j], buffer[i]
    for i in range(n):
        child = start + i
        action[child] = buffer[i]
        parent[child] = node
        first_child[child] = -1
        n_children[child] = 0
        visits[child] = 0
        values[child] = 0.0
    first_child[node] = start
    n_children[node] = n
    stats[N_NODES] = start + n
    return True


@njit(cache=True)
def simulate(params, root, n_simulations, seed, exploration, playout_plies, evaluation_scale,
             action_limit, first_child, n_children, action, parent, visits, values, stats, scratch, buffer,
             path):
    """Run ``n_simulations`` more simulations on the tree rooted at node 0."""
    np.random.seed(seed)
    for _ in range(n_simulations):
        scratch[:] = root
        node = 0
        depth = 0
        path[0] = 0
        while scratch[STATUS] == 0 and not (action_limit > 0 and scratch[PLY] >= action_limit):
            if first_child[node] < 0:
                if node != 0 and visits[node] == 0:
                    break
                if not _expand(params, scratch, node, first_child, n_children, action, parent, visits,
                               values, stats, buffer):
                    break
            best = first_child[node]
            best_bound = -1e300
            log_parent = math.log(visits[node] + 1.0)
            for child in range(first_child[node], first_child[node] + n_children[node]):
                if visits[child] == 0:
                    best = child
                    break
                bound = values[child] / visits[child] + exploration * math.sqrt(log_parent / visits[child])
                if bound > best_bound:
                    best_bound = bound
                    best = child
            node = best
            apply_action(scratch, params, action[node])
            depth += 1
            path[depth] = node

        for _ in range(playout_plies):
            if scratch[STATUS] != 0 or (action_limit > 0 and scratch[PLY] >= action_limit):
                break
            n = legal_actions(scratch, params, buffer)
            apply_action(scratch, params, buffer[np.random.randint(n)])
        value = _leaf_value(params, scratch, action_limit, evaluation_scale)
        # ``value`` is for the player to move where the simulation stopped;
        # each node keeps the results of the player whose move led to it
        # (turns alternate, so the root's player moved into odd depths).
        last_player = scratch[PLAYER]
        for i in range(depth + 1):
            mover = root[PLAYER] if i % 2 == 1 else 1 - root[PLAYER]
            visits[path[i]] += 1
            values[path[i]] += value if mover == last_player else -value
        stats[SIMULATIONS] += 1


@njit(cache=True)
def _leaf_value(params, s, action_limit, evaluation_scale):
    status = s[STATUS]
    if status == 0:
        if action_limit > 0 and s[PLY] >= action_limit:
            return 0.0
        return math.tanh(evaluate(s, params) / evaluation_scale)
    if status == STATUS_TIE:
        return 0.0
    return 1.0 if status == 1 + s[PLAYER] else -1.0
