"""How a table is searched: hashed keys in layers.

A table stores, for each position, ``hashed(key)``: SplitMix64's finaliser
of its codec key (:mod:`boomboard.solver.codec`). The finaliser is a
bijection on 64-bit numbers, so the hashed key still names exactly one
position (:func:`unhashed` gives the key back), and hashed keys are spread
evenly over 64 bits whatever the game: sorted, they are found by
interpolation search in a few probes instead of bisection's dozens.

An **acyclic** game's positions are also split into **layers** by a
measure every move increases (:func:`layer_of`), so a move always leads to a
later layer. The solver then needs only the later layers to solve one
(GAMESMAN's "tiers"), a layer at a time, from the last: that is what lets
it solve games bigger than memory (:mod:`boomboard.solver.tiers`). A table
keeps each layer's hashed keys sorted in one run, ``offsets[l]`` to
``offsets[l + 1]``; a game without layers is one run.

* Kaboom: (bombs detonated, bombs dropped, cells filled): a drop fills a
  cell, a bomb drop also takes a bomb from a hand, a detonation detonates at
  least one bomb (and may empty many cells, hence the order). A pass changes
  only the player to move; it is the one move within that measure, from a
  player who must pass to one who must detonate, so those who must pass
  come first.
* Jump61: the spots on the board (each move adds one; explosions keep them).
"""

from __future__ import annotations

import numpy as np
from boomboard.jit import njit

from ..core.layout import PLAYER, mix64
from ..games.jump61 import rules as jump61
from ..games.kaboom import rules as kaboom
from ..search import kernels
from .codec import decode

_MIX_1_INVERSE = np.uint64(pow(0xBF58476D1CE4E5B9, -1, 1 << 64))
_MIX_2_INVERSE = np.uint64(pow(0x94D049BB133111EB, -1, 1 << 64))
_INTERPOLATION_STEPS = 6  # then bisection: a guard against unlucky spreads


@njit(cache=True)
def hashed(key):
    """The stored form of a codec key (a bijection: see :func:`unhashed`)."""
    return mix64(key)


@njit(cache=True)
def unhashed(h):
    """The codec key of the hashed key ``h``: :func:`hashed` undone step by step
    (an xor-shift by ``k`` >= 32 undoes itself; a multiplication by an odd
    number is undone by its inverse modulo 2**64)."""
    h = h ^ (h >> np.uint64(31)) ^ (h >> np.uint64(62))
    h = h * _MIX_2_INVERSE
    h = h ^ (h >> np.uint64(27)) ^ (h >> np.uint64(54))
    h = h * _MIX_1_INVERSE
    return h ^ (h >> np.uint64(30)) ^ (h >> np.uint64(60))




def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct ``values``, sorted (``np.unique`` without its cost: numpy 2
    answers it by hashing, which is many times slower than a sort here)."""
    values = np.sort(values)
    if len(values) > 1:
        keep = np.empty(len(values), dtype=np.bool_)
        keep[0] = True
        np.not_equal(values[1:], values[:-1], out=keep[1:])
        values = values[keep]
    return values


def is_layered(spec: np.ndarray) -> bool:
    """Whether the game of ``spec`` is acyclic and split into layers."""
    return int(spec[0]) in (kernels.KABOOM, kernels.JUMP61)


def layer_count(spec: np.ndarray, params: np.ndarray) -> int:
    """How many layers :func:`layer_of` numbers (1 for a game without layers)."""
    rules = int(spec[0])
    if rules == kernels.KABOOM:
        cells, bombs = int(spec[1]), int(spec[2]) - 1
        return 2 * (2 * bombs + 1) ** 2 * (cells + 1)
    if rules == kernels.JUMP61:
        cells = int(params[jump61.P_CELLS])
        return int(params[jump61.DEGREE:jump61.DEGREE + cells].sum()) - cells + 1
    return 1


@njit(cache=True)
def layer_of(spec, s, params):
    """The layer of the (non-terminal) position ``s``: every move goes to a
    higher one. 0 for a game without layers."""
    rules = spec[0]
    if rules == kernels.KABOOM:
        cells, bombs = spec[1], spec[2] - 1
        dropped = 2 * bombs - s[kaboom.HAND] - s[kaboom.HAND + 1]
        detonated = dropped - s[kaboom.ARMED] - s[kaboom.ARMED + 1]
        progress = (detonated * (2 * bombs + 1) + dropped) * (cells + 1) + s[kaboom.FILLED]
        must_pass = s[kaboom.FILLED] == cells and s[kaboom.ARMED + s[PLAYER]] == 0
        return 2 * progress + (0 if must_pass else 1)
    if rules == kernels.JUMP61:
        cells = params[jump61.P_CELLS]
        spots = 0
        for square in range(cells):
            spots += s[jump61.SPOTS + square]
        return spots - cells
    return 0


@njit(cache=True)
def hash_and_layer(spec, params, s, keys, hashes, layers):
    """Each key's hash and layer (read off the position, decoded into ``s``)."""
    for i in range(keys.shape[0]):
        hashes[i] = mix64(keys[i])
        decode(spec, keys[i], params, s)
        layers[i] = layer_of(spec, s, params)


@njit(cache=True)
def search(hashes, lo, hi, h):
    """The index of ``h`` in the sorted ``hashes[lo:hi]``, or -1.

    Interpolation search: hashed keys are evenly spread, so the first guess
    lands within a few hundred places of the key and each guess after it
    narrows the gap to about its square root."""
    steps = 0
    while lo < hi:
        first, last = hashes[lo], hashes[hi - 1]
        if h < first or h > last:
            return -1
        if steps < _INTERPOLATION_STEPS and last > first:
            fraction = float(h - first) / float(last - first)
            middle = lo + int(fraction * (hi - 1 - lo))
            steps += 1
        else:
            middle = (lo + hi) // 2
        found = hashes[middle]
        if found == h:
            return middle
        if found < h:
            lo = middle + 1
        else:
            hi = middle
    return -1


@njit(cache=True)
def find(spec, params, hashes, offsets, s, key):
    """The index of the position ``s`` (whose codec key is ``key``) in a table, or -1."""
    layer = layer_of(spec, s, params)
    if layer + 1 >= offsets.shape[0]:
        return -1
    return search(hashes, offsets[layer], offsets[layer + 1], hashed(key))
