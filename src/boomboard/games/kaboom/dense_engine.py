"""Kaboom's dense engine: the dense solver plays its moves on bitboards.

The dense solver (:mod:`boomboard.solver.dense.kernels`) unranks every
position of a level, plays each move and locates each child in its tier.
On state arrays most of that time goes to reading and writing cells one by
one; here a position is the bitboard engine's few words
(:mod:`boomboard.games.kaboom.bitboard`, whose ``legal_actions`` and
``apply_action`` the solver calls), and the ranking's kernels work on them:
unranking places the arrangement of ``ranking.py`` with a shift per column,
and locating gathers each column's bits back into that order, then ranks
the O's and the bombs a set bit at a time. The tiers, their ranks and the
levels are exactly ``ranking.py``'s (``tests/test_solver_dense.py`` solves
small boards both ways and compares the tables); the kernels that read only
the dense spec are ``ranking.py``'s own.

``KaboomGame.dense_engine_params`` hands out the bitboard geometry where the
board fits the words, ``None`` elsewhere: larger boards are solved on state
arrays with ``ranking.py``, the reference.
"""

from __future__ import annotations

import warnings

import numpy as np

from boomboard.core.layout import HEADER, PLAYER, PLY, REASON, STATUS
from boomboard.games.kaboom import bitboard, rules
from boomboard.games.kaboom.bitboard import (BOMB_CELLS, BORROWING, G_COLS, G_CONNECT, G_ROWS, HAND, O_CELLS, ONE,
                                             WORDS, X_CELLS, ZERO, has_line)
from boomboard.games.kaboom.ranking import (BINOMIAL, SPEC_TABLES, _ctz, _fields, _join, dense_child_levels,
                                            dense_level_count, dense_mirror_tier, dense_tier_count, dense_tier_level,
                                            dense_tier_size, next_arrangement)
from boomboard.jit import njit

__all__ = ["apply_action", "dense_child_levels", "dense_level_count", "dense_locate", "dense_mirror",
           "dense_mirror_tier", "dense_tier_count", "dense_tier_level", "dense_tier_size", "dense_unrank_next",
           "legal_actions", "load_position", "new_position"]

# Run as plain Python (NUMBA_DISABLE_JIT=1), NumPy warns when a uint64 wraps
# around (the lowest set bit, ``x & -x``); compiled code simply wraps.
warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning, __name__)


def new_position(params):
    """An empty bitboard position, for :func:`load_position` to fill."""
    return np.zeros(WORDS, np.uint64)


def load_position(state, params):
    """The bitboard position of the state array ``state`` (``bitboard.from_array``
    in NumPy: a dense solve whose passes are built ahead of time looks its
    start up without loading numba)."""
    rows, cols = int(params[G_ROWS]), int(params[G_COLS])
    board = np.asarray(state[rules.HEIGHT + cols:rules.HEIGHT + cols + rows * cols]).reshape(rows, cols)
    cell_bits = ONE << (np.arange(cols, dtype=np.uint64) * np.uint64(rows + 1)
                        + np.arange(rows, dtype=np.uint64)[:, None])  # [r, c]: cell (r, c)
    s = new_position(params)
    s[:HEADER] = state[:HEADER]
    s[X_CELLS] = np.bitwise_or.reduce(cell_bits[(board & 3) == 1], initial=ZERO)
    s[O_CELLS] = np.bitwise_or.reduce(cell_bits[(board & 3) == 2], initial=ZERO)
    s[BOMB_CELLS] = np.bitwise_or.reduce(cell_bits[(board & rules.BOMB) != 0], initial=ZERO)
    s[HAND:HAND + 2] = state[rules.HAND:rules.HAND + 2]
    return s


@njit(**BORROWING)
def legal_actions(s, params, out):
    """The legal actions of the bitboard position ``s`` (``bitboard.legal_actions``)."""
    return bitboard.legal_actions(s, params, out)


@njit(**BORROWING)
def apply_action(s, params, action):
    """Play ``action`` on the bitboard position ``s`` (``bitboard.apply_action``)."""
    bitboard.apply_action(s, params, action)


@njit(**BORROWING)
def dense_unrank_next(dspec, tier, rank, params, s, cursor):
    """``ranking.dense_unrank_next`` onto the bitboard position ``s``: the
    same arrangement, placed a column at a time; ``False`` (``s`` perhaps
    not written) where the rank is no position."""
    hidx, rest, o_at, bombs_at = next_arrangement(dspec, tier, rank, cursor)
    rows, cols, bombs, cells = dspec[0], dspec[1], dspec[2], dspec[3]
    hidx, n, nx, ax, dx, ao, do, side = _fields(dspec, hidx, dspec[SPEC_TABLES + dspec[4] + rest])
    if n == cells and ax + ao == 0:
        return False  # a full board with no bomb on it: the game is over
    packed = dspec[SPEC_TABLES + hidx]
    x_bits, o_bits, bomb_bits = ZERO, ZERO, ZERO
    first = np.uint64(0)
    for c in range(cols):
        h = np.uint64((packed >> (4 * c)) & 15)
        column = (ONE << h) - ONE
        shift = np.uint64(c * (rows + 1))
        mine = (o_at >> first) & column
        o_bits |= mine << shift
        x_bits |= (column & ~mine) << shift
        bomb_bits |= ((bombs_at >> first) & column) << shift
        first += h
    connect = np.int64(params[G_CONNECT])
    if has_line(x_bits, rows, connect) or has_line(o_bits, rows, connect):
        return False  # a line is made: the game is over
    s[PLAYER] = np.uint64(side)
    s[STATUS] = ZERO
    s[REASON] = ZERO
    s[PLY] = ZERO
    s[X_CELLS] = x_bits
    s[O_CELLS] = o_bits
    s[BOMB_CELLS] = bomb_bits
    s[HAND] = np.uint64(bombs - ax - dx)
    s[HAND + 1] = np.uint64(bombs - ao - do)
    return True


@njit(**BORROWING)
def _colex_rank(subset):
    """The colexicographic rank of the set bits of ``subset``, and how many there are."""
    rank = 0
    k = 0
    while subset != ZERO:
        low = subset & (ZERO - subset)
        k += 1
        rank += BINOMIAL[_ctz(low), k]
        subset ^= low
    return rank, k


@njit(**BORROWING)
def _squeeze(bits, holes):
    """``bits`` with the positions of ``holes`` taken out, the bits above each
    closing down (``ranking._merge`` undone)."""
    removed = ZERO
    while holes != ZERO:
        low = holes & (ZERO - holes)
        at = np.uint64(_ctz(low)) - removed  # where it is now, the holes below it closed
        bits = (bits & ((ONE << at) - ONE)) | ((bits >> (at + ONE)) << at)
        holes ^= low
        removed += ONE
    return bits


@njit(**BORROWING)
def dense_locate(dspec, s, params):
    """``ranking.dense_locate`` of the bitboard position ``s``: the filled
    cells' owners and bombs gathered, column by column from the bottom, into
    masks over the filled cells in order, then ranked as combinations."""
    rows, cols, bombs = dspec[0], dspec[1], dspec[2]
    stride = np.uint64(rows + 1)
    below_guard = (ONE << np.uint64(rows)) - ONE
    occupied = s[X_CELLS] | s[O_CELLS]
    o_at, bombs_at = ZERO, ZERO
    n = np.uint64(0)
    hidx, weight = 0, 1
    shift = ZERO
    for _ in range(cols):
        column = (occupied >> shift) & below_guard  # the filled cells, from the bottom up
        h = _ctz(column + ONE)
        o_at |= ((s[O_CELLS] >> shift) & column) << n
        bombs_at |= ((s[BOMB_CELLS] >> shift) & column) << n
        n += np.uint64(h)
        hidx += h * weight
        weight *= rows + 1
        shift += stride
    filled = np.int64(n)
    if bombs_at == ZERO:
        rank, no = _colex_rank(o_at)
        tier = _join(dspec, hidx, filled - no, 0, bombs - np.int64(s[HAND]), 0, bombs - np.int64(s[HAND + 1]),
                     np.int64(s[PLAYER]))
        return tier, rank
    rb, rob, nb, ob = 0, 0, 0, 0  # the bombs' cells, and which bombs are O's
    rest = bombs_at
    while rest != ZERO:
        low = rest & (ZERO - rest)
        nb += 1
        rb += BINOMIAL[_ctz(low), nb]
        if o_at & low:
            ob += 1
            rob += BINOMIAL[nb - 1, ob]
        rest ^= low
    rp, op = _colex_rank(_squeeze(o_at, bombs_at))
    ax, ao = nb - ob, ob
    tier = _join(dspec, hidx, filled - nb - op, ax, bombs - np.int64(s[HAND]) - ax, ao,
                 bombs - np.int64(s[HAND + 1]) - ao, np.int64(s[PLAYER]))
    return tier, rb + BINOMIAL[filled, nb] * (rob + BINOMIAL[nb, ob] * rp)


@njit(**BORROWING)
def dense_mirror(dspec, s, params):
    """``ranking.dense_mirror`` of the bitboard position ``s``: its columns reversed, in place."""
    rows, cols = dspec[0], dspec[1]
    stride = np.uint64(rows + 1)
    column = (ONE << np.uint64(rows)) - ONE
    last = np.uint64(cols - 1) * stride
    for word in (X_CELLS, O_CELLS, BOMB_CELLS):
        plane = s[word]
        mirrored = ZERO
        shift = ZERO
        for _ in range(cols):
            mirrored |= ((plane >> shift) & column) << (last - shift)
            shift += stride
        s[word] = mirrored
