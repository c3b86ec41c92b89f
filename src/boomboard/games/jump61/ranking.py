"""Jump61's positions ranked within their tiers, for the dense tier solver.

**Tiers.** A tier is the number of moves made, ``T - N*N`` with ``T`` the
spots on the board: every move adds a spot and a jump only moves spots, so
every move leads to the next tier, and the tier fixes the player to move (Red
in the even tiers). The last tier, ``sum(d - 1)`` over the squares (``d`` a
square's neighbours), holds every square full to its limit.

**What a tier holds.** A square is white with its one starting spot (a white
square was never touched: a spot added or jumped onto a square gives it a
colour), or red or blue with 1 to ``d`` spots (a settled square holds at most
``d``; one that jumps keeps at least one). Write ``e = spots - 1``, the
square's *excess*: a tier's positions are the ways to share its excess out
among the squares, each taking 0 to ``d - 1``, times the colourings, three a
square without excess (white, red, blue) and two a square with some (red,
blue). This counts every such board, reachable or not; a board of one colour
is finished, and :func:`unrank` writes it so.

**Rank.** The squares in order are the digits of a number whose radix
depends on what is left to share out, as in the combinatorial number system:
a square's states are ordered by excess, then colour (white, red, blue), and
the rank adds, square by square, how many boards agree on the squares before
it and put a smaller state on it. ``ways[q, e]``, the number of ways the
squares from ``q`` on can hold ``e`` excess, counts them; a tier's size is
``ways[0, tier]``. Ranking and unranking cost ``O(N*N * d)`` steps.

The rank spec (:func:`rank_spec`, an ``int64`` array) is the square count, the
tier count, then ``ways`` row by row: the kernels read nothing else of the
game but ``params``' neighbour counts.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.errors import ParameterError
from boomboard.core.layout import PLAYER, REASON, STATUS, win_status
from boomboard.jit import njit

from .rules import COUNT, DEGREE, P_CELLS, P_SIZE, REASON_ALL_ONE_COLOUR, SPOTS, WHITE

R_CELLS = 0  # spec[R_CELLS]: the squares
R_TIERS = 1  # spec[R_TIERS]: the tiers, 0 .. R_TIERS - 1
R_WAYS = 2  # spec[R_WAYS + q * tiers + e]: boards of the squares q.. holding e excess

_LARGEST = 2 ** 63 - 1  # ranks are int64


def tier_counts(params: np.ndarray) -> list[int]:
    """The size of every tier, as Python integers (they may pass 64 bits)."""
    return _ways(params)[0]


def _ways(params: np.ndarray) -> list[list[int]]:
    """``ways[q][e]`` for every square ``q`` (and one row past the last: 1 board of 0 excess)."""
    cells = int(params[P_CELLS])
    degrees = [int(d) for d in params[DEGREE:DEGREE + cells]]
    tiers = sum(degrees) - cells + 1
    ways = [[0] * tiers for _ in range(cells + 1)]
    ways[cells][0] = 1
    for q in range(cells - 1, -1, -1):
        after, here = ways[q + 1], ways[q]
        for e in range(tiers):
            total = 0
            for x in range(min(e, degrees[q] - 1) + 1):
                total += (3 if x == 0 else 2) * after[e - x]
            here[e] = total
    return ways


def rank_spec(params: np.ndarray) -> np.ndarray:
    """The rank spec the kernels read (see the module docstring).

    Raises :class:`~boomboard.core.errors.ParameterError` if a tier holds more
    positions than a 64-bit rank can number."""
    ways = _ways(params)
    biggest = max(ways[0])
    if biggest > _LARGEST:
        size = int(params[P_SIZE])
        raise ParameterError(f"jump61 {size}x{size}: a tier holds {biggest:.3e} positions, more than a "
                             "64-bit rank numbers")
    flat = [len(ways) - 1, len(ways[0])] + [w for row in ways for w in row]
    return np.array(flat, dtype=np.int64)


@njit(cache=True)
def tier_of(spec, s, params):
    """The tier of ``s``: the moves made, its spots less one a square."""
    cells = spec[R_CELLS]
    spots = 0
    for square in range(cells):
        spots += s[SPOTS + square]
    return spots - cells


@njit(cache=True)
def tier_size(spec, tier):
    """How many positions tier ``tier`` holds (0 for a tier past the last)."""
    if tier < 0 or tier >= spec[R_TIERS]:
        return np.int64(0)
    return spec[R_WAYS + tier]


@njit(cache=True)
def rank(spec, s, params):
    """The rank of the settled position ``s`` within its tier (-1 for a board no
    tier holds: an overfull square, a white square with more than one spot)."""
    cells, tiers = spec[R_CELLS], spec[R_TIERS]
    left = tier_of(spec, s, params)
    if left < 0 or left >= tiers:
        return np.int64(-1)
    r = np.int64(0)
    for square in range(cells):
        excess = s[SPOTS + square] - 1
        colour = s[SPOTS + cells + square]
        if excess < 0 or excess >= params[DEGREE + square] or (colour == WHITE and excess > 0):
            return np.int64(-1)
        rest = R_WAYS + (square + 1) * tiers + left
        for smaller in range(excess):
            r += (3 if smaller == 0 else 2) * spec[rest - smaller]
        # the colour's place among the states of this excess: white, red, blue or red, blue
        r += (colour if excess == 0 else colour - 1) * spec[rest - excess]
        left -= excess
    return r


@njit(cache=True)
def unrank(spec, tier, r, params, s):
    """Write the position of rank ``r`` in tier ``tier`` into ``s``: every entry set,
    ply 0, the player to move of its tier, and a one-coloured board won by that colour."""
    cells, tiers = spec[R_CELLS], spec[R_TIERS]
    if r < 0 or r >= tier_size(spec, tier):
        raise ValueError("jump61: no such rank in that tier")
    s[:] = 0
    left = tier
    for square in range(cells):
        rest = R_WAYS + (square + 1) * tiers + left
        excess = 0
        while True:
            block = spec[rest - excess]
            states = 3 if excess == 0 else 2
            if r < states * block:
                break
            r -= states * block
            excess += 1
        place = r // block
        r -= place * block
        colour = place if excess == 0 else place + 1
        s[SPOTS + square] = 1 + excess
        s[SPOTS + cells + square] = colour
        if colour != WHITE:
            s[COUNT + colour - 1] += 1
        left -= excess
    s[PLAYER] = tier % 2
    for player in range(2):
        if s[COUNT + player] == cells:
            s[STATUS] = win_status(player)
            s[REASON] = REASON_ALL_ONE_COLOUR
