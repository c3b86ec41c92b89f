"""Jump61's positions ranked densely within tiers, for the dense tier solver.

The ``dense_*`` kernels of the game kernel interface
(:mod:`boomboard.kernel_interface`), exported by ``kernels.py``.

**What a position is.** A square is white with its one starting spot (a
white square was never touched: a spot added or jumped onto a square gives it
a colour), or red or blue with 1 to ``d`` spots, ``d`` its neighbours (a
settled square holds at most ``d``; one that jumps keeps at least one). Call
``spots - 1`` a square's *excess*: a square's states are white (excess 0),
and red or blue with each excess from 0 to ``d - 1``. Every such board is
numbered, reachable or not, and :func:`dense_unrank` says which are no
position: a board of one colour, which is finished, and one where a coloured
square with one spot has a white neighbour. Such a square has jumped (its
colour came with a second spot, and only a jump takes spots away), and its
jump coloured its neighbours for good: no game reaches that board, and no
move leads to it from a board without it, so the solver need not score it.
On 3 x 3 this leaves 3.3 of the 8.4 million records stored (with the
mirror, below) to score.

**Levels.** A level is the number of moves made, the board's excess: every
move adds a spot and a jump only moves spots, so every move leads to the next
level, and the level fixes the player to move (Red on the even ones).

**Tiers, and the mirror.** The board's left-right mirror keeps values, so
each level is cut into tiers by where its excess lies: ``a`` in the left
columns (``c < N // 2``), ``b`` in the right ones, the rest in the middle
column of an odd board. The mirror takes tier ``(a, b)`` to ``(b, a)``, and
the solver stores only the tiers with ``a <= b``: 62% of the records on
3 x 3, 56% on 4 x 4 (the tiers with ``a = b`` are their own mirrors).
A tier's id is ``(level * (H + 1) + a) * (H + 1) + b``, ``H`` the most
excess one side can hold; ids whose middle would need more than it holds
are empty.

**Rank.** A tier's positions are the products of its three regions' boards:
left, middle and right, each holding its share of the excess. Within a
region the squares are the digits of a number whose radix depends on what is
left to share out, as in the combinatorial number system: a square's states
are ordered by excess, then colour (white, red, blue), and the rank adds,
square by square, how many boards agree on the squares before it and put a
smaller state on it. ``ways[i, e]``, the number of boards the region's
squares from its ``i``-th on have with ``e`` excess, counts them. The tier's
rank is ``(left * middle_count + middle) * right_count + right``.

The dense spec (:func:`dense_spec`, an ``int64`` array): the header below,
then each region's block: its square count ``n``, its width ``w`` (the most
excess it holds, plus one), its squares, and ``ways`` row by row
(``(n + 1) * w`` entries).
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import PLAYER
from boomboard.jit import njit

from .rules import COUNT, DEGREE, P_SIZE, SPOTS, WHITE

D_CELLS = 0  # the squares
D_SIZE = 1  # squares along a side
D_SIDE = 2  # H + 1: the excess one side holds, 0 .. H
D_LEVELS = 3  # the levels: 0 .. the board's most excess
D_REGION = 4  # D_REGION + g: where region g's block starts (0 left, 1 middle, 2 right)
LEFT, MIDDLE, RIGHT = 0, 1, 2

_LARGEST = 2 ** 63 - 1  # ranks are int64


def _regions(size: int) -> list[list[int]]:
    """The squares of the left columns, the middle column (odd boards) and the right columns."""
    half = size // 2
    columns = (range(half), range(half, size - half), range(size - half, size))
    return [[row * size + col for row in range(size) for col in cols] for cols in columns]


def _ways(degrees: list[int]) -> list[list[int]]:
    """``ways[i][e]``: the boards of the squares ``i..`` of ``degrees`` holding ``e`` excess."""
    width = sum(degrees) - len(degrees) + 1
    ways = [[0] * width for _ in range(len(degrees) + 1)]
    ways[-1][0] = 1
    for i in range(len(degrees) - 1, -1, -1):
        for e in range(width):
            ways[i][e] = sum((3 if x == 0 else 2) * ways[i + 1][e - x] for x in range(min(e, degrees[i] - 1) + 1))
    return ways


def _tables(params: np.ndarray) -> tuple[int, list[list[int]], list[list[list[int]]]]:
    size = int(params[P_SIZE])
    degrees = params[DEGREE:DEGREE + size * size]
    regions = _regions(size)
    return size, regions, [_ways([int(degrees[q]) for q in squares]) for squares in regions]


def tier_sizes(params: np.ndarray) -> dict[tuple[int, int, int], int]:
    """Every non-empty tier's size by ``(level, a, b)``, as Python integers (they may pass 64 bits)."""
    _, _, ways = _tables(params)
    left, middle, right = (w[0] for w in ways)
    sizes = {}
    for a, b in np.ndindex(len(left), len(right)):
        for m, count in enumerate(middle):
            sizes[(a + b + m, a, b)] = left[a] * count * right[b]
    return sizes


def dense_spec(params: np.ndarray) -> np.ndarray | None:
    """The dense spec the kernels read (see the module docstring), or ``None`` for a
    board whose tiers hold more positions than a 64-bit rank numbers (5 x 5 and up)."""
    if max(tier_sizes(params).values()) > _LARGEST:
        return None
    size, regions, ways = _tables(params)
    header = [size * size, size, len(ways[LEFT][0]), sum(len(w[0]) - 1 for w in ways) + 1]
    blocks, start = [], len(header) + len(regions)
    for squares, table in zip(regions, ways):
        header.append(start + len(blocks))
        blocks += [len(squares), len(table[0])] + squares + [x for row in table for x in row]
    return np.array(header + blocks, dtype=np.int64)


# -- tiers and levels --------------------------------------------------------------
@njit(cache=True)
def _tier_parts(dspec, tier):
    """``(level, a, b, middle)`` of a tier id."""
    side = dspec[D_SIDE]
    level = tier // (side * side)
    a = tier // side % side
    b = tier % side
    return level, a, b, level - a - b


@njit(cache=True)
def _region_count(dspec, region, excess):
    """The boards of a region holding ``excess``."""
    block = dspec[D_REGION + region]
    n, width = dspec[block], dspec[block + 1]
    if excess < 0 or excess >= width:
        return np.int64(0)
    return dspec[block + 2 + n + excess]


@njit(cache=True)
def dense_tier_count(dspec):
    """Every level's ``(H + 1) ** 2`` tier ids, some empty."""
    return dspec[D_LEVELS] * dspec[D_SIDE] * dspec[D_SIDE]


@njit(cache=True)
def dense_level_count(dspec):
    return dspec[D_LEVELS]


@njit(cache=True)
def dense_tier_size(dspec, tier):
    if tier < 0 or tier >= dense_tier_count(dspec):
        return np.int64(0)
    level, a, b, middle = _tier_parts(dspec, tier)
    return _region_count(dspec, LEFT, a) * _region_count(dspec, MIDDLE, middle) * _region_count(dspec, RIGHT, b)


@njit(cache=True)
def dense_tier_level(dspec, tier):
    return tier // (dspec[D_SIDE] * dspec[D_SIDE])


@njit(cache=True)
def dense_child_levels(dspec, level, out):
    """Every move adds a spot: the next level, if there is one."""
    if level + 1 >= dspec[D_LEVELS]:
        return 0
    out[0] = level + 1
    return 1


@njit(cache=True)
def dense_mirror_tier(dspec, tier):
    """The left and right excess swapped."""
    side = dspec[D_SIDE]
    level, a, b, middle = _tier_parts(dspec, tier)
    return (level * side + b) * side + a


@njit(cache=True)
def dense_mirror(dspec, s, params):
    """The board reflected left to right (the colour counts and the player to move stay)."""
    size, cells = dspec[D_SIZE], dspec[D_CELLS]
    for row in range(size):
        for col in range(size // 2):
            q, image = row * size + col, row * size + size - 1 - col
            for plane in (SPOTS, SPOTS + cells):
                s[plane + q], s[plane + image] = s[plane + image], s[plane + q]


# -- rank and unrank -----------------------------------------------------------------
@njit(cache=True)
def _region_excess(dspec, region, s, params):
    """A region's excess, or -1 if one of its squares is in no state a rank covers
    (overfull, or white with more than its one spot)."""
    block = dspec[D_REGION + region]
    cells = dspec[D_CELLS]
    total = 0
    for i in range(dspec[block]):
        q = dspec[block + 2 + i]
        excess = s[SPOTS + q] - 1
        if excess < 0 or excess >= params[DEGREE + q] or (s[SPOTS + cells + q] == WHITE and excess > 0):
            return -1
        total += excess
    return total


@njit(cache=True)
def _region_rank(dspec, region, s, left):
    """The rank of a region's board among those holding its excess, ``left``."""
    block = dspec[D_REGION + region]
    n, width = dspec[block], dspec[block + 1]
    ways = block + 2 + n
    cells = dspec[D_CELLS]
    r = np.int64(0)
    for i in range(n):
        q = dspec[block + 2 + i]
        excess = s[SPOTS + q] - 1
        colour = s[SPOTS + cells + q]
        rest = ways + (i + 1) * width + left
        for smaller in range(excess):
            r += (3 if smaller == 0 else 2) * dspec[rest - smaller]
        # the colour's place among the states of this excess: white, red, blue or red, blue
        r += (colour if excess == 0 else colour - 1) * dspec[rest - excess]
        left -= excess
    return r


@njit(cache=True)
def _region_unrank(dspec, region, left, r, s):
    """Write the region's board of rank ``r`` among those holding ``left`` excess into ``s``."""
    block = dspec[D_REGION + region]
    n, width = dspec[block], dspec[block + 1]
    ways = block + 2 + n
    cells = dspec[D_CELLS]
    for i in range(n):
        q = dspec[block + 2 + i]
        rest = ways + (i + 1) * width + left
        excess = 0
        while True:
            count = dspec[rest - excess]
            states = 3 if excess == 0 else 2
            if r < states * count:
                break
            r -= states * count
            excess += 1
        place = r // count
        r -= place * count
        colour = place if excess == 0 else place + 1
        s[SPOTS + q] = 1 + excess
        s[SPOTS + cells + q] = colour
        if colour != WHITE:
            s[COUNT + colour - 1] += 1
        left -= excess


@njit(cache=True)
def dense_locate(dspec, s, params):
    """``(tier, rank)`` of the settled position ``s``; ``(-1, -1)`` for a board no
    tier holds (an overfull square, a white square with more than one spot)."""
    a = _region_excess(dspec, LEFT, s, params)
    middle = _region_excess(dspec, MIDDLE, s, params)
    b = _region_excess(dspec, RIGHT, s, params)
    if a < 0 or middle < 0 or b < 0:
        return np.int64(-1), np.int64(-1)
    side = dspec[D_SIDE]
    tier = ((a + b + middle) * side + a) * side + b
    r = _region_rank(dspec, LEFT, s, a) * _region_count(dspec, MIDDLE, middle) + _region_rank(dspec, MIDDLE, s, middle)
    return np.int64(tier), r * _region_count(dspec, RIGHT, b) + _region_rank(dspec, RIGHT, s, b)


@njit(cache=True)
def _jumped_beside_white(s, params, cells):
    """Whether a coloured square with one spot (one that has jumped) has a white neighbour."""
    for q in range(cells):
        if s[SPOTS + q] == 1 and s[SPOTS + cells + q] != WHITE:
            for k in range(4):
                other = params[DEGREE + cells + 4 * q + k]
                if other >= 0 and s[SPOTS + cells + other] == WHITE:
                    return True
    return False


@njit(cache=True)
def dense_unrank(dspec, tier, rank, params, s):
    """Write the board of ``rank`` in ``tier`` into ``s`` (ply 0, the player to
    move of its level) and return ``True``; ``False`` for a board that is no
    position (one colour everywhere, a jumped square beside a white one: see
    the module docstring). A rank past the tier raises."""
    if rank < 0 or rank >= dense_tier_size(dspec, tier):
        raise ValueError("jump61: no such rank in that tier")
    level, a, b, middle = _tier_parts(dspec, tier)
    right_count = _region_count(dspec, RIGHT, b)
    middle_count = _region_count(dspec, MIDDLE, middle)
    s[:] = 0
    _region_unrank(dspec, RIGHT, b, rank % right_count, s)
    rank //= right_count
    _region_unrank(dspec, MIDDLE, middle, rank % middle_count, s)
    _region_unrank(dspec, LEFT, a, rank // middle_count, s)
    s[PLAYER] = level % 2
    cells = dspec[D_CELLS]
    return s[COUNT] < cells and s[COUNT + 1] < cells and not _jumped_beside_white(s, params, cells)


@njit(cache=True)
def dense_unrank_next(dspec, tier, rank, params, s, cursor):
    """:func:`dense_unrank` from scratch: it costs a few steps a square, little
    beside scoring the position's moves, so nothing is kept in ``cursor``."""
    return dense_unrank(dspec, tier, rank, params, s)
