"""Monte Carlo tree search kernels (UCT): a template, compiled once per game
(:func:`boomboard.jit.specialize`); :mod:`boomboard.search.mcts` drives them.
"""

from __future__ import annotations

import math

import numpy as np

from boomboard.core.layout import PLAYER, PLY, STATUS, STATUS_TIE
from boomboard.jit import njit
from boomboard.kernel_interface import apply_action, evaluate, legal_actions
from boomboard.search.tree import BORROWING

# slots of the stats array
N_NODES, SIMULATIONS = 0, 1


@njit(**BORROWING)
def _expand(tree, stats, buffer, node, n):
    """Give ``node`` its ``n`` children, the actions in ``buffer[:n]`` in a
    random order (so ties between unvisited children are fair); False if the
    tree is full (the simulation then goes on from ``node`` without growing it)."""
    first_child, n_children, action, parent, visits, values = tree
    start = stats[N_NODES]
    if start + n > first_child.shape[0]:
        return False
    for i in range(n - 1, 0, -1):
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


@njit(**BORROWING)
def _select(first_child, n_children, visits, values, node, exploration):
    """The child of ``node`` with the best UCB1 bound (an unvisited one first).
    (It takes four arrays of the tree rather than the tree: LLVM then inlines it.)"""
    best = first_child[node]
    best_bound = -1e300
    log_parent = math.log(visits[node] + 1.0)
    for child in range(first_child[node], first_child[node] + n_children[node]):
        if visits[child] == 0:
            return child
        bound = values[child] / visits[child] + exploration * math.sqrt(log_parent / visits[child])
        if bound > best_bound:
            best_bound = bound
            best = child
    return best


@njit(**BORROWING)
def _back_up(visits, values, path, depth, root_player, last_player, value):
    """Count the simulation's ``value`` (for ``last_player``, to move where it
    stopped) in every node of ``path[:depth + 1]``: each node keeps the results
    of the player whose move led to it (turns alternate, so the root's player
    moved into odd depths)."""
    for i in range(depth + 1):
        mover = root_player if i % 2 == 1 else 1 - root_player
        visits[path[i]] += 1
        values[path[i]] += value if mover == last_player else -value


@njit(cache=True)
def simulate(params, root, tree, settings, stats, scratch, buffer, path, n_simulations, seed):
    """Run ``n_simulations`` more simulations on the tree rooted at node 0
    (the arrays of a :class:`~boomboard.search.tree.UctTree`, as a plain
    tuple), with :class:`~boomboard.search.tree.UctSettings` ``settings``,
    also as a plain tuple; ``scratch``, ``buffer`` and ``path`` are working
    space (a position, legal actions, the nodes walked)."""
    first_child, n_children, action, _, visits, values = tree
    exploration, playout_plies, evaluation_scale, action_limit = settings
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
                if not _expand(tree, stats, buffer, node, legal_actions(scratch, params, buffer)):
                    break
            node = _select(first_child, n_children, visits, values, node, exploration)
            apply_action(scratch, params, action[node])
            depth += 1
            path[depth] = node
        for _ in range(playout_plies):
            if scratch[STATUS] != 0 or (action_limit > 0 and scratch[PLY] >= action_limit):
                break
            n = legal_actions(scratch, params, buffer)
            apply_action(scratch, params, buffer[np.random.randint(n)])
        value = _leaf_value(params, scratch, action_limit, evaluation_scale)
        _back_up(visits, values, path, depth, root[PLAYER], scratch[PLAYER], value)
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
