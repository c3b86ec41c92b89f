"""The dense solver's compiled passes: a template, compiled once per game.

A game that ranks its positions (the ``dense_*`` kernels of
:mod:`boomboard.kernel_interface`) is solved without keys: each tier is a
dense array of 2-byte records (``value << 14 | remoteness``, as in
:mod:`boomboard.solver.hashed.retrograde`) indexed by rank, and a rank that is no
position holds :data:`NO_POSITION`. Every move leaves its level for a higher
one, so a level is solved in one scan from the levels its moves reach,
already solved: a position's children are played with the game's rules
(``legal_actions``, ``apply_action``), located (``dense_locate``) and their
records read; the position's record follows as in
:func:`boomboard.solver.hashed.graph.score`. A move to a position of the same level
(Kaboom's forced pass) is scored on the spot from that position's own
children, which all leave the level.

With symmetry, only the canonical tiers (``tier <= dense_mirror_tier(tier)``)
are solved and stored; a child in another tier is mirrored first. The
threads of :func:`solve_level` each scan their own block of the level.
``game.compiled("boomboard.solver.dense.kernels")`` binds the kernels to one game's,
:func:`boomboard.solver.dense.engine.dense_engine` to its dense engine's where it has one.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from boomboard.core.layout import STATUS
from boomboard.jit import njit
from boomboard.solver.dense.store import NO_POSITION
from boomboard.solver.format.values import LOSE, MAX_REMOTENESS, TIE, VALUE_SHIFT, WIN, terminal_value
from boomboard.kernel_interface import (apply_action, dense_child_levels, dense_level_count, dense_locate,
                                        dense_mirror, dense_mirror_tier, dense_tier_count, dense_tier_level,
                                        dense_tier_size, dense_unrank_next, legal_actions)

MISSING = -1  # a child whose tier is not loaded: a game whose levels do not climb
BLOCKS = 64  # blocks a level is split into for the threads

# What a solve and a table call from Python, with their signatures, for a
# build ahead of time (boomboard.ahead; {params} and {state} are the game's
# arrays): a one-thread solve then runs without numba.
AHEAD = {
    "counts": "UniTuple(int64, 2)(int64[::1])",
    "tier_table": "void(int64[::1], boolean, int64[::1], int64[::1], boolean[::1])",
    "child_levels": "int64(int64[::1], int64, int64[::1])",
    "solve_level": "int64(int64[::1], {params}, {state}, int64, int64, int64[::1], int64[::1], int64, int64, "
                   "uint16[::1], boolean, uint16[::1], int64[::1])",
    "tally": "int64(uint16[::1], int64[::1])",
    "lookup": "UniTuple(int64, 2)(int64[::1], {params}, {state}, boolean, int64[::1], int64[::1])",
}


@njit(cache=True)
def tier_table(dspec, symmetric, sizes, levels, stored):
    """Each tier id's size, level and whether it is stored (non-empty and,
    with ``symmetric``, canonical)."""
    for t in range(sizes.shape[0]):
        sizes[t] = dense_tier_size(dspec, t)
        levels[t] = dense_tier_level(dspec, t)
        stored[t] = sizes[t] > 0 and (not symmetric or t <= dense_mirror_tier(dspec, t))


@njit(cache=True)
def counts(dspec):
    """The number of tier ids and of levels."""
    return dense_tier_count(dspec), dense_level_count(dspec)


@njit(cache=True)
def child_levels(dspec, level, out):
    """The game's ``dense_child_levels``: the levels ``level``'s moves reach, into ``out``; how many."""
    return dense_child_levels(dspec, level, out)


@njit(cache=True)
def _copy(source, target):
    for i in range(source.shape[0]):
        target[i] = source[i]


@njit(cache=True)
def locate_stored(dspec, params, s, symmetric):
    """The stored tier and rank of the non-terminal position ``s`` (mirrored
    in place first when its own tier is not canonical)."""
    tier, rank = dense_locate(dspec, s, params)
    if symmetric and dense_mirror_tier(dspec, tier) < tier:
        dense_mirror(dspec, s, params)
        tier, rank = dense_locate(dspec, s, params)
    return tier, rank


@njit(cache=True)
def _child_entry(dspec, params, child, symmetric, records, bases):
    """The record of the non-terminal position ``child`` (mirrored in place
    if its mirror image is what is loaded), or MISSING if its tier is not
    loaded. A child is located once: its tier, loaded or not, says whether
    the mirror image is needed."""
    tier, rank = dense_locate(dspec, child, params)
    base = bases[tier]
    if base < 0 and symmetric:
        image = dense_mirror_tier(dspec, tier)
        if image < tier and bases[image] >= 0:
            dense_mirror(dspec, child, params)
            tier, rank = dense_locate(dspec, child, params)
            base = bases[tier]
    if base < 0:
        return MISSING
    return np.int64(records[base + rank])


@njit(cache=True)
def _combine(v, r, best):
    """Fold a child's value and remoteness into ``best`` = [least losing,
    least tying, most winning remoteness] (a game whose levels climb is
    acyclic: no child is a draw)."""
    if v == LOSE:
        best[0] = min(best[0], r)
    elif v == TIE:
        best[1] = min(best[1], r)
    else:
        best[2] = max(best[2], r)


@njit(cache=True)
def _record(best):
    if best[0] <= MAX_REMOTENESS:
        return (WIN << VALUE_SHIFT) | (best[0] + 1)
    if best[1] <= MAX_REMOTENESS:
        return (TIE << VALUE_SHIFT) | (best[1] + 1)
    return (LOSE << VALUE_SHIFT) | (best[2] + 1)


@njit(cache=True)
def _fresh(best):
    best[0] = MAX_REMOTENESS + 1
    best[1] = MAX_REMOTENESS + 1
    best[2] = -1


@njit(cache=True)
def _score_leaf(dspec, params, s, child, actions, symmetric, records, bases, level, best):
    """The record of ``s``, whose moves must all leave ``level``; MISSING if one does not.
    :func:`score`'s loop without its forced-pass case, which calls this: numba's
    disk cache cannot hold a function that calls itself (numba issue #6061)."""
    _fresh(best)
    n = legal_actions(s, params, actions)
    for a in range(n):
        _copy(s, child)
        apply_action(child, params, actions[a])
        if child[STATUS] != 0:
            v = terminal_value(child)
            if v == LOSE:  # a move that wins at once: nothing scores better, the rest need not be played
                return (WIN << VALUE_SHIFT) | 1
            _combine(v, 0, best)
            continue
        entry = _child_entry(dspec, params, child, symmetric, records, bases)
        if entry < 0:
            return MISSING
        _combine(entry >> VALUE_SHIFT, entry & MAX_REMOTENESS, best)
    return _record(best)


@njit(cache=True)
def score(dspec, params, s, work, actions, symmetric, records, bases, level, best):
    """The record of the position ``s`` of ``level`` from its children's
    records (``records[bases[tier] + rank]``); ``work``: two scratch
    positions; ``best``: six scratch numbers (the position's, then a forced
    pass's). MISSING if a child's tier is not loaded."""
    child = work[0]
    _fresh(best)
    n = legal_actions(s, params, actions)
    for a in range(n):
        _copy(s, child)
        apply_action(child, params, actions[a])
        if child[STATUS] != 0:
            v = terminal_value(child)
            if v == LOSE:  # a move that wins at once: nothing scores better, the rest need not be played
                return (WIN << VALUE_SHIFT) | 1
            _combine(v, 0, best)
            continue
        entry = _child_entry(dspec, params, child, symmetric, records, bases)
        if entry < 0 and dense_tier_level(dspec, dense_locate(dspec, child, params)[0]) == level:
            # a forced pass: the position it leads to has moves that all leave the level
            entry = _score_leaf(dspec, params, child, work[1], actions[n:], symmetric, records, bases, level,
                                best[3:])
        if entry < 0:
            return MISSING
        _combine(entry >> VALUE_SHIFT, entry & MAX_REMOTENESS, best)
    return _record(best)


@njit(cache=True, parallel=True)
def solve_level(dspec, params, scratch, width, level, tiers, starts, lo, hi, out, symmetric, records, bases):  # noqa: PLR0913 (a kernel's arrays, one by one)
    """Score the records ``lo .. hi - 1`` of a level (its stored tiers
    ``tiers``, in order, tier ``tiers[k]``'s records from ``starts[k]`` to
    ``starts[k + 1]``) into ``out[:hi - lo]``, from the records of the levels
    its moves reach (``records``, tier ``t``'s from ``bases[t]``, -1 where
    not loaded). Returns how many positions had a child missing (0 in a
    sound game)."""
    total = hi - lo
    blocks = min(BLOCKS, max(total, 1))
    missing = np.zeros(blocks, dtype=np.int64)
    for b in prange(blocks):
        first, last = lo + b * total // blocks, lo + (b + 1) * total // blocks
        s = scratch.copy()
        work = np.empty((2, scratch.shape[0]), dtype=scratch.dtype)
        actions = np.empty(2 * width, dtype=np.int32)
        best = np.empty(6, dtype=np.int64)  # the position's, then a forced pass's
        cursor = np.empty(16, dtype=np.int64)
        k = np.searchsorted(starts, first, side="right") - 1
        i = first
        while i < last:
            tier = tiers[k]
            end = min(last, starts[k + 1])
            cursor[0] = -1
            for rank in range(i - starts[k], end - starts[k]):
                at = starts[k] + rank - lo
                if not dense_unrank_next(dspec, tier, rank, params, s, cursor):
                    out[at] = NO_POSITION
                    continue
                entry = score(dspec, params, s, work, actions, symmetric, records, bases, level, best)
                if entry < 0:
                    missing[b] += 1
                    entry = NO_POSITION
                out[at] = entry
            i = end
            k += 1
    return missing.sum()


@njit(cache=True)
def tally(records, counts):
    """Add the values of the records that are positions to ``counts`` (by
    value); returns the largest remoteness among them."""
    largest = 0
    for i in range(records.shape[0]):
        entry = records[i]
        if entry != NO_POSITION:
            counts[entry >> VALUE_SHIFT] += 1
            largest = max(largest, entry & MAX_REMOTENESS)
    return largest


@njit(cache=True)
def lookup(dspec, params, s, symmetric, levels, starts):
    """Where the non-terminal position ``s`` is stored: (level, index in the
    level's records), or (-1, -1). ``s`` may be mirrored in place."""
    tier, rank = locate_stored(dspec, params, s, symmetric)
    if starts[tier] < 0:  # an empty tier: counts the game never reaches
        return -1, -1
    return levels[tier], starts[tier] + rank
