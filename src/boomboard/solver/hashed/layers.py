"""How a table is searched: hashed keys in layers.

A table stores, for each position, ``hashed(key)``: SplitMix64's finaliser
of its codec key (the game's ``encode``: :mod:`boomboard.kernel_interface`).
The finaliser is a bijection on 64-bit numbers, so the hashed key still
names exactly one position (:func:`unhashed` gives the key back), and hashed
keys are spread evenly over 64 bits whatever the game: sorted, they are
found by interpolation search in a few probes instead of bisection's dozens.

An **acyclic** game's positions are also split into **layers** by a
measure every move increases (the game's ``layer_of``; the game sets
``solver_layered``), so a move always leads to a later layer. The solver
then needs only the later layers to solve one (GAMESMAN's "tiers"), a layer
at a time, from the last: that is what lets it solve games bigger than
memory (:mod:`boomboard.solver.hashed.tiers`). A table keeps each layer's hashed
keys sorted in one run, ``offsets[l]`` to ``offsets[l + 1]``; a game
without layers is one run. Each game's ``codec.py`` says what its layers are.

The functions here do not depend on the game; finding a position, which
needs its layer, is :func:`boomboard.solver.hashed.graph.find`.
"""

from __future__ import annotations

import warnings

import numpy as np

from boomboard.core.layout import mix64
from boomboard.jit import njit

# unhashed relies on uint64 multiplication wrapping around, as core.layout's hashes do.
warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning, __name__)

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
