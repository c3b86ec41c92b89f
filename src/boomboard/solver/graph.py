"""The solver's compiled passes over a game's position graph: a template,
compiled once per game.

Positions are the game's codec keys (its ``encode`` and ``decode``) and
moves its rules (``legal_actions``, ``apply_action``), imported below from
the game kernel interface (:mod:`boomboard.kernel_interface`);
``game.compiled("boomboard.solver.graph")`` (:func:`boomboard.jit.specialize`)
binds them to one game's own, so the passes work for every game and a game
compiles alone.

* :func:`expand`: breadth-first enumeration of the positions reachable from
  a start set, deduplicated in the hash index of :mod:`boomboard.solver.index`.
  Each position is numbered in the order found; the same pass writes each
  position's children by number (compressed sparse rows). A finished child
  is not a position of the table: its result is folded into its parent at
  once (``seeds``). The retrograde analysis (:mod:`boomboard.solver.retrograde`)
  then needs no game.
* :func:`score`, :func:`verify_range`: a position's entry from its
  children's, in a table (:func:`find`).
* :func:`expand_layer`, :func:`solve_range`: the layer-at-a-time solve's
  passes (:mod:`boomboard.solver.tiers`), in parallel threads.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from boomboard.core.layout import STATUS, mix64
from boomboard.jit import njit
from boomboard.solver.index import PREFETCH_AHEAD, index_of, prefetch
from boomboard.solver.layers import hashed, search, unhashed
from boomboard.solver.retrograde import (DRAW, LOSE, MAX_REMOTENESS, SEED_TIE, SEED_WIN, TIE, VALUE_SHIFT, WIN,
                                         terminal_value)
from boomboard.kernel_interface import apply_action, decode, encode, layer_of, legal_actions

BLOCKS = 64  # blocks a layer's chunk is split into for the threads


@njit(cache=True)
def copy_position(source, target):
    """``target[:] = source`` as a plain loop: for arrays of a few dozen
    entries, the compiled slice assignment costs several times as much."""
    for i in range(source.shape[0]):
        target[i] = source[i]


# -- the index of a table ------------------------------------------------------------
@njit(cache=True)
def find(spec, params, hashes, offsets, s, key):
    """The index of the position ``s`` (whose codec key is ``key``) in a table
    (``hashes`` sorted within each layer, ``offsets[l]`` where layer ``l``
    begins: see :mod:`boomboard.solver.layers`), or -1."""
    layer = layer_of(spec, s, params)
    if layer + 1 >= offsets.shape[0]:
        return -1
    return search(hashes, offsets[layer], offsets[layer + 1], hashed(key))


@njit(cache=True)
def hash_and_layer(spec, params, s, keys, hashes, layers):
    """Each key's hash and layer (read off the position, decoded into ``s``)."""
    for i in range(keys.shape[0]):
        hashes[i] = mix64(keys[i])
        decode(spec, keys[i], params, s)
        layers[i] = layer_of(spec, s, params)


# -- enumeration in memory -------------------------------------------------------------
@njit(cache=True)
def expand(spec, params, s, child, actions, frontier, start, table, known, room,  # noqa: PLR0913 (a kernel's arrays, one by one)
           new_keys, child_keys, edges, degrees, opens, seeds):
    """Expand ``frontier[start:]``: number each child position (new ones from
    ``known`` on, written to ``new_keys``), write the numbers to ``edges``,
    and for frontier position ``i`` the moves not known to lose to
    ``opens[i]``, its number of child positions (moves that do not end the
    game) to ``degrees[i]`` and what the moves that end it give to ``seeds[i]``.

    The children's keys are all generated first (into ``child_keys``) and
    looked up after, in a tight loop whose independent probes of the large
    index the processor overlaps, instead of one cache miss at a time.
    Stops early when fewer than one position's worth of ``room`` (keys the
    index may still take), ``new_keys`` or ``edges`` is left. Returns (next
    start, new keys written, edges written)."""
    linked = 0
    worst = actions.shape[0]
    stop = frontier.shape[0]
    for i in range(start, frontier.shape[0]):
        if room - linked < worst or new_keys.shape[0] - linked < worst or edges.shape[0] - linked < worst:
            stop = i
            break
        decode(spec, frontier[i], params, s)
        n = legal_actions(s, params, actions)
        open_moves, flags, first = 0, 0, linked
        for a in range(n):
            copy_position(s, child)
            apply_action(child, params, actions[a])
            if child[STATUS] != 0:
                value = terminal_value(child)
                if value == LOSE:
                    flags |= SEED_WIN
                elif value == TIE:
                    flags |= SEED_TIE
                    open_moves += 1
                continue  # a move to a won end is a known loss: not open
            child_keys[linked] = encode(spec, child, params)
            linked += 1
            open_moves += 1
        degrees[i] = linked - first
        opens[i] = open_moves
        seeds[i] = flags
    written = 0
    # Each probe is a cache miss in an index far larger than the cache; a
    # lookup whose outcome (new or known) mispredicts throws away the loads
    # the processor had started for the next ones, so they are requested
    # explicitly, well ahead.
    mask = np.uint64(table.shape[0] - 1)
    rows = table.ctypes.data
    for k in range(linked):
        if k + PREFETCH_AHEAD < linked:
            prefetch(rows + np.intp(mix64(child_keys[k + PREFETCH_AHEAD]) & mask) * table.strides[0])
        j, new = index_of(table, child_keys[k], known + written)
        if new:
            new_keys[written] = child_keys[k]
            written += 1
        edges[k] = j
    return stop, written, linked


# -- a position from its children ------------------------------------------------------
@njit(cache=True)
def score(spec, params, s, child, actions, hashes, entries, offsets):
    """The packed entry of the position ``s`` computed from its children's
    entries in a table (``hashes``, ``entries``, ``offsets``: see
    :mod:`boomboard.solver.layers`), or -1 if a child is not in it.

    A losing child makes a win, one move more than the nearest such child; a
    tied one a tie, one more than the nearest; a drawn child with no better
    move a draw; a position whose children all win loses, one move more than
    the farthest."""
    n = legal_actions(s, params, actions)
    min_lose, min_tie, max_win = MAX_REMOTENESS + 1, MAX_REMOTENESS + 1, -1
    draws = 0
    for a in range(n):
        copy_position(s, child)
        apply_action(child, params, actions[a])
        if child[STATUS] != 0:
            v, r = terminal_value(child), 0
        else:
            i = find(spec, params, hashes, offsets, child, encode(spec, child, params))
            if i < 0:
                return -1
            entry = np.int64(entries[i])
            v, r = entry >> VALUE_SHIFT, entry & MAX_REMOTENESS
        if v == LOSE:
            min_lose = min(min_lose, r)
        elif v == TIE:
            min_tie = min(min_tie, r)
        elif v == WIN:
            max_win = max(max_win, r)
        else:
            draws += 1
    if min_lose <= MAX_REMOTENESS:
        return (WIN << VALUE_SHIFT) | (min_lose + 1)
    if min_tie <= MAX_REMOTENESS:
        return (TIE << VALUE_SHIFT) | (min_tie + 1)
    if draws == 0 and n > 0:
        return (LOSE << VALUE_SHIFT) | (max_win + 1)
    return DRAW << VALUE_SHIFT


@njit(cache=True)
def verify_range(spec, params, s, child, actions, hashes, entries, offsets, lo, hi):
    """Recompute each entry of ``lo..hi-1`` from its children's entries;
    return the first index that disagrees, or -1."""
    for i in range(lo, hi):
        decode(spec, unhashed(hashes[i]), params, s)
        if score(spec, params, s, child, actions, hashes, entries, offsets) != np.int64(entries[i]):
            return i
    return -1


# -- a layer at a time (boomboard.solver.tiers) ------------------------------------------
@njit(cache=True, parallel=True)
def expand_layer(spec, params, scratch, width, hashes, children, child_layers, counts):
    """The children of the positions ``hashes`` (hashed keys): position ``i``'s
    non-terminal children to ``children[i * width:]`` (``width``: the most
    actions a position has), their layers beside them, how many to
    ``counts[i]``. ``scratch[b]``: two engine arrays for block ``b``."""
    n = hashes.shape[0]
    blocks = min(BLOCKS, n)
    for b in prange(blocks):
        s, child = scratch[b, 0].copy(), scratch[b, 1].copy()
        actions = np.empty(width, dtype=np.int32)
        for i in range(b * n // blocks, (b + 1) * n // blocks):
            decode(spec, unhashed(hashes[i]), params, s)
            m = legal_actions(s, params, actions)
            found = 0
            for a in range(m):
                copy_position(s, child)
                apply_action(child, params, actions[a])
                if child[STATUS] == 0:
                    children[i * width + found] = hashed(encode(spec, child, params))
                    child_layers[i * width + found] = layer_of(spec, child, params)
                    found += 1
            counts[i] = found


@njit(cache=True, parallel=True)
def solve_range(spec, params, scratch, width, hashes, entries, offsets, lo, hi):
    """Score the positions ``lo..hi-1`` from their children's entries (all in
    later layers, already solved); returns how many had a child missing (0
    in a sound table)."""
    n = hi - lo
    blocks = min(BLOCKS, n)
    missing = np.zeros(max(blocks, 1), dtype=np.int64)
    for b in prange(blocks):
        s, child = scratch[b, 0].copy(), scratch[b, 1].copy()
        actions = np.empty(width, dtype=np.int32)
        for i in range(lo + b * n // blocks, lo + (b + 1) * n // blocks):
            decode(spec, unhashed(hashes[i]), params, s)
            entry = score(spec, params, s, child, actions, hashes, entries, offsets)
            if entry < 0:
                missing[b] += 1
            else:
                entries[i] = entry
    return missing.sum()
