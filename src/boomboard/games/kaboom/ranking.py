"""Kaboom's dense ranking: every position as (tier, rank), for the dense solver.

The kernels of the dense part of the game kernel interface
(:mod:`boomboard.kernel_interface`, :mod:`boomboard.solver.dense.kernels`), exported
by ``kernels.py``. The dense spec is ``[rows, cols, bombs, cells, H, P, K]``
with ``H = (rows + 1) ** cols``, then tables (:func:`dense_spec`).

* **Tier**: the column heights (a number below ``H``, column ``c`` the digit
  of weight ``(rows + 1) ** c``), the plain X pieces on the board, each
  player's bombs on the board and detonated (those in hand follow), and the
  player to move, as one mixed-radix number. With ``bombs=0`` this is
  Connect-n: the heights alone decide the rest.
* **Rank**: the filled cells, column by column from the left and bottom up,
  hold a sequence of X, O, X's bombs and O's bombs with the tier's counts;
  the rank numbers these sequences (a multinomial, as three nested
  combinations in the combinatorial number system: which cells hold bombs,
  which of the bombs are O's, which of the plain pieces are O's).
* **Level**: (bombs detonated, bombs dropped, cells filled), the measure of
  ``codec.py``'s layers: a drop fills a cell, a bomb drop also takes a bomb
  from a hand, a detonation detonates one. A forced pass (a full board, no
  own bomb on it) stays in its level and leads to a position whose moves
  are all detonations: the solver scores it on the spot.
* **Mirror**: left-right; a tier's mirror has its heights reversed.

A tier is empty where its counts cannot occur: more bombs than a player
has, or, before any detonation, piece counts other than the alternation of
turns gives (X has ``ceil(n / 2)`` pieces, O ``floor(n / 2)``, and the
player to move follows, except after a pass on a full board). A rank is no
position (:func:`dense_unrank` returns ``False``) where a line is already
made or the board is full with no bomb on it: those positions are finished.
"""

from __future__ import annotations

import warnings

import numpy as np

from boomboard.core.layout import PLAYER
from boomboard.jit import njit
from boomboard.numba_internals import NO_REFERENCE_COUNTING

from .rules import ARMED, BOMB, FILLED, HAND, HEIGHT, _has_line, connected_sides, fits_bitboard

# Every kernel here borrows the arrays it is given and allocates nothing, so
# it is compiled without numba's reference counting (as bitboard.py's): the
# dense solver calls them for every position and child, and the counting
# of their array arguments cost more than some of their bodies.
BORROWING = {"cache": True, **NO_REFERENCE_COUNTING}

# De Bruijn's multiplication wraps around 64 bits; run as plain Python
# (NUMBA_DISABLE_JIT=1) NumPy warns each time, so it is silenced here.
warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning, __name__)

MAX_CELLS = 60  # binomials up to this many cells; a larger board is not solved densely
MAX_TIER_IDS = 1 << 27  # the solver keeps a few numbers per tier id


def _binomials(n: int) -> np.ndarray:
    table = np.zeros((n + 1, n + 1), dtype=np.int64)
    for i in range(n + 1):
        table[i, 0] = 1
        for k in range(1, i + 1):
            table[i, k] = table[i - 1, k - 1] + table[i - 1, k]
    return table


BINOMIAL = _binomials(MAX_CELLS)  # BINOMIAL[n, k] = C(n, k); C(60, 30) < 2**63


def dense_spec(rows: int, cols: int, bombs: int, superbomb: bool) -> list[int] | None:
    """The dense spec, or ``None`` where the board is too large for it (a
    rank past 63 bits, or too many tier ids to keep a table of).

    ``[rows, cols, bombs, cells, H, P, K]`` (``K``: the most cells one
    bomb's blast empties, its own included), then two tables that spare the
    kernels their divisions: for each heights number below ``H``, the
    heights packed 4 bits a column with the pieces from bit 52; for each of
    the ``P`` other parts of a tier id, (plain X, X's bombs on the board,
    detonated, O's on the board, detonated, player to move) a byte each."""
    cells = rows * cols
    if cells > MAX_CELLS or cols > 12:
        return None
    heights = (rows + 1) ** cols
    parts = 2 * (bombs + 1) ** 4 * (cells + 1)
    largest = max(_multinomial(n, bombs) for n in range(cells + 1))
    if parts * heights > MAX_TIER_IDS or largest >= 1 << 62:
        return None
    blast = min(cells, rows + cols - 1 if superbomb else 5)
    spec = [rows, cols, bombs, cells, heights, parts, blast]
    for hidx in range(heights):
        packed, n = 0, 0
        for c in range(cols):
            h = hidx // (rows + 1) ** c % (rows + 1)
            packed |= h << (4 * c)
            n += h
        spec.append(packed | n << 52)
    for number in range(parts):
        nx, rest = number % (cells + 1), number // (cells + 1)
        fields = [nx]
        for _ in range(4):  # O's detonated, O's on the board, X's detonated, X's on the board
            fields.append(rest % (bombs + 1))
            rest //= bombs + 1
        nx, do, ao, dx, ax = fields
        spec.append(nx | ax << 8 | dx << 16 | ao << 24 | do << 32 | rest << 40)
    return spec


def _multinomial(n: int, bombs: int) -> int:
    """The most ranks a tier with ``n`` pieces can have (exact integers)."""
    from math import comb

    return max(comb(n, ax + ao) * comb(ax + ao, ao) * comb(n - ax - ao, (n - ax - ao) // 2)
               for ax in range(min(bombs, n) + 1) for ao in range(min(bombs, n - ax) + 1))


SPEC_TABLES = 7  # where the heights table begins in the spec


@njit(**BORROWING)
def _split(dspec, tier):
    """A tier's parts: (heights number, n pieces, plain X, X's bombs on the
    board and detonated, O's on the board and detonated, player to move)."""
    heights = dspec[4]
    hidx = tier % heights
    return _fields(dspec, hidx, dspec[SPEC_TABLES + heights + tier // heights])


@njit(**BORROWING)
def _fields(dspec, hidx, fields):
    n = dspec[SPEC_TABLES + hidx] >> 52
    return (hidx, n, fields & 255, (fields >> 8) & 255, (fields >> 16) & 255, (fields >> 24) & 255,
            (fields >> 32) & 255, fields >> 40)


@njit(**BORROWING)
def _join(dspec, hidx, nx, ax, dx, ao, do, side):
    bombs, cells, heights = dspec[2], dspec[3], dspec[4]
    t = (((side * (bombs + 1) + ax) * (bombs + 1) + dx) * (bombs + 1) + ao) * (bombs + 1) + do
    return (t * (cells + 1) + nx) * heights + hidx


@njit(**BORROWING)
def dense_tier_count(dspec):
    return dspec[4] * dspec[5]


@njit(**BORROWING)
def dense_level_count(dspec):
    bombs, cells = dspec[2], dspec[3]
    return (2 * bombs + 1) ** 2 * (cells + 1)


@njit(**BORROWING)
def dense_tier_size(dspec, tier):
    bombs, cells = dspec[2], dspec[3]
    hidx, n, nx, ax, dx, ao, do, side = _split(dspec, tier)
    nb = ax + ao
    no = n - nx - nb
    if side > 1 or ax + dx > bombs or ao + do > bombs or no < 0:
        return 0
    if dx + do == 0 and (nx + ax != (n + 1) // 2 or (side != n % 2 and n != cells)):
        return 0  # before any detonation the turns alternate: n // 2 pieces are O's
    return BINOMIAL[n, nb] * BINOMIAL[nb, ao] * BINOMIAL[n - nb, no]


@njit(**BORROWING)
def dense_tier_level(dspec, tier):
    bombs, cells = dspec[2], dspec[3]
    hidx, n, nx, ax, dx, ao, do, side = _split(dspec, tier)
    return ((dx + do) * (2 * bombs + 1) + ax + dx + ao + do) * (cells + 1) + n


@njit(**BORROWING)
def dense_child_levels(dspec, level, out):
    bombs, cells = dspec[2], dspec[3]
    n = level % (cells + 1)
    q = level // (cells + 1)
    dropped = q % (2 * bombs + 1)
    detonated = q // (2 * bombs + 1)
    k = 0
    if n < cells:
        out[k] = level + 1  # a drop
        k += 1
        if dropped < 2 * bombs:  # a bomb drop
            out[k] = (detonated * (2 * bombs + 1) + dropped + 1) * (cells + 1) + n + 1
            k += 1
    for later in range(detonated + 1, dropped + 1):
        # each bomb that goes off empties its own cell and at most K in all
        for left in range(max(0, n - (later - detonated) * dspec[6]), n - (later - detonated) + 1):
            out[k] = (later * (2 * bombs + 1) + dropped) * (cells + 1) + left
            k += 1
    return k


@njit(**BORROWING)
def dense_locate(dspec, s, params):
    rows, cols, bombs = dspec[0], dspec[1], dspec[2]
    board = HEIGHT + cols
    i, jb, jp = 0, 0, 0  # cells, bombs and plain pieces seen
    rb, rob, rp = 0, 0, 0  # the three combinations' ranks
    ob, op = 0, 0  # O's bombs and O's plain pieces seen
    hidx, weight = 0, 1
    for c in range(cols):
        h = s[HEIGHT + c]
        hidx += h * weight
        weight *= rows + 1
        for r in range(h):
            v = s[board + r * cols + c]
            if v & BOMB:
                jb += 1
                rb += BINOMIAL[i, jb]
                if (v & 3) == 2:
                    ob += 1
                    rob += BINOMIAL[jb - 1, ob]
            else:  # an O or an X, half and half: no branch on which
                is_o = np.int64(v == 2)
                op += is_o
                rp += BINOMIAL[jp, op] * is_o
                jp += 1
            i += 1
    ax, ao = jb - ob, ob
    dx = bombs - s[HAND] - ax
    do = bombs - s[HAND + 1] - ao
    tier = _join(dspec, hidx, jp - op, ax, dx, ao, do, s[PLAYER])
    return tier, rb + BINOMIAL[i, jb] * (rob + BINOMIAL[jb, ob] * rp)


@njit(**BORROWING)
def _colex(rank, n, k):
    """The ``k``-subset of ``0 .. n - 1`` of colexicographic rank ``rank``, as
    a bit mask. Without a branch on the outcome (it mispredicts half the
    time): where ``k > i`` the binomial is 0, so every remaining element is
    taken, as it must be."""
    mask = np.uint64(0)
    for i in range(n - 1, -1, -1):
        b = BINOMIAL[i, k]
        take = np.int64(b <= rank)
        rank -= b * take
        k -= take
        mask |= np.uint64(take) << np.uint64(i)
    return mask


@njit(**BORROWING)
def dense_unrank(dspec, tier, rank, params, s):
    hidx, n, nx, ax, dx, ao, do, side = _split(dspec, tier)
    nb = ax + ao
    # the arrangement as masks over the filled cells in their order: bombs, O's pieces
    if nb == 0:
        return _place(dspec, hidx, tier // dspec[4], _colex(rank, n, n - nx), np.uint64(0), params, s)
    size_b = BINOMIAL[n, nb]
    size_ob = BINOMIAL[nb, ao]
    bombs_at = _colex(rank % size_b, n, nb)
    q = rank // size_b
    plain_o = _colex(q // size_ob, n - nb, n - nx - nb)
    bomb_o = _colex(q % size_ob, nb, ao)
    return _place(dspec, hidx, tier // dspec[4], _merge(bombs_at, bomb_o, plain_o), bombs_at, params, s)


# ctz of a power of two by de Bruijn's multiplication (numba has no intrinsic for it)
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DE_BRUIJN_SLOTS = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    _DE_BRUIJN_SLOTS[((1 << _bit) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _bit


@njit(**BORROWING)
def _next_subset(mask):
    """The next larger number with as many bits set (Gosper's hack): the
    next combination in colexicographic order."""
    low = mask & (~mask + np.uint64(1))
    ripple = mask + low
    shift = _DE_BRUIJN_SLOTS[(low * _DE_BRUIJN) >> np.uint64(58)] + 2
    return (((ripple ^ mask) >> np.uint64(shift)) | ripple) if shift < 64 else ripple


@njit(**BORROWING)
def _ctz(low):
    """The index of the one bit set in ``low``."""
    return _DE_BRUIJN_SLOTS[(low * _DE_BRUIJN) >> np.uint64(58)]


@njit(**BORROWING)
def _merge(bombs_at, bomb_o, plain_o):
    """The O's among all the filled cells: the plain pieces' (``plain_o``)
    with the bombs' (``bomb_o``) inserted where the bombs are, a bomb at a
    time (few) rather than a cell at a time."""
    merged = plain_o
    rest = bombs_at
    j = np.uint64(0)
    while rest:
        low = rest & (~rest + np.uint64(1))
        at = np.uint64(_ctz(low))
        merged = (merged & (low - np.uint64(1))) | (((bomb_o >> j) & np.uint64(1)) << at) \
            | ((merged >> at) << (at + np.uint64(1)))
        rest ^= low
        j += np.uint64(1)
    return merged


@njit(**BORROWING)
def dense_unrank_next(dspec, tier, rank, params, s, cursor):
    """:func:`dense_unrank`; where the last call was ``rank - 1`` of the same
    tier, steps the fastest combination (the O's without bombs on the board,
    else the bombs' cells) to the next instead of unranking from scratch.
    ``cursor``: the rank, tier, its parts, and the three combinations."""
    hidx, rest, o_at, bombs_at = next_arrangement(dspec, tier, rank, cursor)
    return _place(dspec, hidx, rest, o_at, bombs_at, params, s)


@njit(**BORROWING)
def next_arrangement(dspec, tier, rank, cursor):
    """The arrangement of ``rank`` in ``tier`` as :func:`_place` takes it:
    (heights number, the rest of the tier id, O's pieces and bombs as masks
    over the filled cells in order), stepped from the previous rank where
    ``cursor`` holds it (:func:`dense_unrank_next`). Shared with the
    bitboard engine (``dense_engine.py``), which places it on bitboards."""
    if cursor[0] == rank - 1 and cursor[2] == tier and rank > 0:  # the tier's parts, saved: no division
        hidx, rest, nb = cursor[3], cursor[4], cursor[5]
        if nb == 0:
            o_at = _next_subset(np.uint64(cursor[1]))
            cursor[0], cursor[1] = rank, np.int64(o_at)
            return hidx, rest, o_at, np.uint64(0)
        if cursor[6] + 1 < cursor[9]:  # the bombs move on; the O's among bombs and plain pieces stay
            bombs_at = _next_subset(np.uint64(cursor[7]))
            cursor[0], cursor[6], cursor[7] = rank, cursor[6] + 1, np.int64(bombs_at)
            return hidx, rest, _merge(bombs_at, np.uint64(cursor[8]), np.uint64(cursor[1])), bombs_at
    hidx, n, nx, ax, dx, ao, do, side = _split(dspec, tier)
    nb = ax + ao
    rest = tier // dspec[4]
    cursor[0], cursor[2], cursor[3], cursor[4], cursor[5] = rank, tier, hidx, rest, nb
    if nb == 0:
        o_at = _colex(rank, n, n - nx)
        cursor[1] = np.int64(o_at)
        return hidx, rest, o_at, np.uint64(0)
    size_b = BINOMIAL[n, nb]
    size_ob = BINOMIAL[nb, ao]
    rb = rank % size_b
    q = rank // size_b
    bombs_at = _colex(rb, n, nb)
    plain_o = _colex(q // size_ob, n - nb, n - nx - nb)
    bomb_o = _colex(q % size_ob, nb, ao)
    cursor[1], cursor[6], cursor[7], cursor[8], cursor[9] = np.int64(plain_o), rb, np.int64(bombs_at), \
        np.int64(bomb_o), size_b
    return hidx, rest, _merge(bombs_at, bomb_o, plain_o), bombs_at


@njit(**BORROWING)
def _place(dspec, hidx, rest, o_at, bombs_at, params, s):
    """Write the position of the tier ``rest * H + hidx`` whose filled cells,
    in order, hold O's pieces at the bits of ``o_at`` and bombs at those of
    ``bombs_at``; ``False`` (perhaps without writing) if it is finished."""
    rows, cols, bombs, cells = dspec[0], dspec[1], dspec[2], dspec[3]
    hidx, n, nx, ax, dx, ao, do, side = _fields(dspec, hidx, dspec[SPEC_TABLES + dspec[4] + rest])
    packed = dspec[SPEC_TABLES + hidx]
    if n == cells and ax + ao == 0:
        return False  # a full board with no bomb on it: the game is over
    if fits_bitboard(params):  # the lines first, on bitboards: most ranks with a line are never written
        x_bits, o_bits = np.uint64(0), np.uint64(0)
        first = 0
        for c in range(cols):
            h = (packed >> (4 * c)) & 15
            column = (np.uint64(1) << np.uint64(h)) - np.uint64(1)
            mine = (o_at >> np.uint64(first)) & column
            shift = np.uint64(c * (rows + 1))
            o_bits |= mine << shift
            x_bits |= (column & ~mine) << shift
            first += h
        if _has_line(x_bits, params) or _has_line(o_bits, params):
            return False
    for k in range(HEIGHT):
        s[k] = 0
    s[PLAYER] = side
    s[HAND] = bombs - ax - dx
    s[HAND + 1] = bombs - ao - do
    s[ARMED] = ax
    s[ARMED + 1] = ao
    s[FILLED] = n
    board = HEIGHT + cols
    i = 0
    for c in range(cols):
        h = (packed >> (4 * c)) & 15
        s[HEIGHT + c] = h
        for r in range(rows):
            bit = np.uint64(min(i + r, 63))  # past the column's top the bit is not read
            piece = 1 + np.int64((o_at >> bit) & np.uint64(1)) + BOMB * np.int64((bombs_at >> bit) & np.uint64(1))
            s[board + r * cols + c] = piece * (r < h)
        i += h
    return fits_bitboard(params) or connected_sides(s, params) == 0


@njit(**BORROWING)
def dense_mirror_tier(dspec, tier):
    rows, cols, heights = dspec[0], dspec[1], dspec[4]
    hidx = tier % heights
    packed = dspec[SPEC_TABLES + hidx]
    mirrored = 0
    for c in range(cols):
        mirrored = mirrored * (rows + 1) + ((packed >> (4 * c)) & 15)
    return tier - hidx + mirrored


@njit(**BORROWING)
def dense_mirror(dspec, s, params):
    rows, cols = dspec[0], dspec[1]
    board = HEIGHT + cols
    for c in range(cols // 2):
        m = cols - 1 - c
        s[HEIGHT + c], s[HEIGHT + m] = s[HEIGHT + m], s[HEIGHT + c]
        for r in range(rows):
            s[board + r * cols + c], s[board + r * cols + m] = s[board + r * cols + m], s[board + r * cols + c]
