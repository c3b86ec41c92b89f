"""The retrograde analysis over numbered positions: game-independent.

The values are those of :mod:`boomboard.solver.format.values`.
:func:`seed_wins_and_losses`, :func:`propagate`, :func:`seed_ties`:
retrograde analysis, as in GAMESMAN's loopy solver and chess tablebases,
over the positions :func:`boomboard.solver.hashed.graph.expand` numbered. Solved
positions wait in a first-in first-out queue, which keeps them in order of
remoteness: a position with a losing child wins, in one more than the first
(nearest) such child; a position whose children all win loses, in one more
than the last (farthest). Once no win or loss is left to find, ties spread
the same way from the positions next to a tied end (a tie with the fewest
moves to it). What is still unknown then is a draw: neither player can
force an end they prefer.
"""

from __future__ import annotations

import numpy as np

from boomboard.jit import njit
from boomboard.solver.format.values import DRAW, LOSE, TIE, VALUE_SHIFT, WIN

UNKNOWN = 255

SEED_WIN = 1  # a move ends the game, won by the player making it
SEED_TIE = 2  # a move ends the game in a tie


@njit(cache=True)
def link_parents(child_offsets, edges, parent_offsets, parents):
    """Turn the child lists around: ``parents[parent_offsets[j]:...]`` lists
    ``j``'s parents (once per move that reaches it)."""
    fill = parent_offsets[:-1].copy()
    for i in range(child_offsets.shape[0] - 1):
        for k in range(child_offsets[i], child_offsets[i + 1]):
            j = edges[k]
            parents[fill[j]] = i
            fill[j] += 1


@njit(cache=True)
def seed_wins_and_losses(remaining, seed, value, remoteness, queue):
    """Positions one move from their end: a winning move, or only losing ones."""
    tail = 0
    for i in range(value.shape[0]):
        if seed[i] & SEED_WIN:
            value[i], remoteness[i] = WIN, 1
        elif remaining[i] == 0:
            value[i], remoteness[i] = LOSE, 1
        else:
            continue
        queue[tail] = i
        tail += 1
    return tail


@njit(cache=True)
def seed_ties(seed, value, remoteness, queue, tail):
    """Unsolved positions one move from a tied end."""
    for i in range(value.shape[0]):
        if value[i] == UNKNOWN and seed[i] & SEED_TIE:
            value[i], remoteness[i] = TIE, 1
            queue[tail] = i
            tail += 1
    return tail


@njit(cache=True)
def propagate(offsets, parents, remaining, value, remoteness, queue, head, tail, stop):
    """Solve the parents of the queued positions ``queue[head:]`` (until
    ``stop`` of them are done); returns (head, tail)."""
    while head < tail and head < stop:
        c = queue[head]
        head += 1
        v = value[c]
        r = remoteness[c] + 1
        for k in range(offsets[c], offsets[c + 1]):
            p = parents[k]
            if value[p] != UNKNOWN:
                continue
            if v == TIE:
                value[p] = TIE
            elif v == LOSE:
                value[p] = WIN
            else:
                remaining[p] -= 1
                if remaining[p] != 0:
                    continue
                value[p] = LOSE
            remoteness[p] = r
            queue[tail] = p
            tail += 1
    return head, tail


@njit(cache=True)
def pack(value, remoteness, out):
    """Entries as stored: ``value << 14 | remoteness``; unknown ones are draws."""
    for i in range(value.shape[0]):
        if value[i] == UNKNOWN:
            out[i] = DRAW << VALUE_SHIFT
        else:
            out[i] = (np.uint16(value[i]) << VALUE_SHIFT) | np.uint16(remoteness[i])
