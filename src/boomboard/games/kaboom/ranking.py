"""Kaboom's dense ranking: every position as (tier, rank), for the dense solver.

The kernels of the dense part of the game kernel interface
(:mod:`boomboard.kernel_interface`, :mod:`boomboard.solver.dense`), exported
by ``kernels.py``. The dense spec is ``[rows, cols, bombs, cells, H]`` with
``H = (rows + 1) ** cols``.

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

import numpy as np

from boomboard.core.layout import PLAYER
from boomboard.jit import njit

from .rules import ARMED, BOMB, FILLED, HAND, HEIGHT, connected_sides

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


def dense_spec(rows: int, cols: int, bombs: int) -> list[int] | None:
    """The dense spec, or ``None`` where the board is too large for it (a
    rank past 63 bits, or too many tier ids to keep a table of)."""
    cells = rows * cols
    if cells > MAX_CELLS:
        return None
    b = bombs
    heights = (rows + 1) ** cols
    tiers = 2 * (b + 1) ** 4 * (cells + 1) * heights
    largest = max(_multinomial(n, b) for n in range(cells + 1))
    if tiers > MAX_TIER_IDS or largest >= 1 << 62:
        return None
    return [rows, cols, b, cells, heights]


def _multinomial(n: int, bombs: int) -> int:
    """The most ranks a tier with ``n`` pieces can have (exact integers)."""
    from math import comb

    return max(comb(n, ax + ao) * comb(ax + ao, ao) * comb(n - ax - ao, (n - ax - ao) // 2)
               for ax in range(min(bombs, n) + 1) for ao in range(min(bombs, n - ax) + 1))


@njit(cache=True)
def _split(dspec, tier):
    """A tier's parts: (heights number, n pieces, plain X, X's bombs on the
    board and detonated, O's on the board and detonated, player to move)."""
    rows, bombs, cells, heights = dspec[0], dspec[2], dspec[3], dspec[4]
    hidx = tier % heights
    t = tier // heights
    nx = t % (cells + 1)
    t //= cells + 1
    do = t % (bombs + 1)
    t //= bombs + 1
    ao = t % (bombs + 1)
    t //= bombs + 1
    dx = t % (bombs + 1)
    t //= bombs + 1
    ax = t % (bombs + 1)
    side = t // (bombs + 1)
    n = 0
    rest = hidx
    while rest > 0:
        n += rest % (rows + 1)
        rest //= rows + 1
    return hidx, n, nx, ax, dx, ao, do, side


@njit(cache=True)
def _join(dspec, hidx, nx, ax, dx, ao, do, side):
    bombs, cells, heights = dspec[2], dspec[3], dspec[4]
    t = (((side * (bombs + 1) + ax) * (bombs + 1) + dx) * (bombs + 1) + ao) * (bombs + 1) + do
    return (t * (cells + 1) + nx) * heights + hidx


@njit(cache=True)
def dense_tier_count(dspec):
    bombs, cells, heights = dspec[2], dspec[3], dspec[4]
    return 2 * (bombs + 1) ** 4 * (cells + 1) * heights


@njit(cache=True)
def dense_level_count(dspec):
    bombs, cells = dspec[2], dspec[3]
    return (2 * bombs + 1) ** 2 * (cells + 1)


@njit(cache=True)
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


@njit(cache=True)
def dense_tier_level(dspec, tier):
    bombs, cells = dspec[2], dspec[3]
    hidx, n, nx, ax, dx, ao, do, side = _split(dspec, tier)
    return ((dx + do) * (2 * bombs + 1) + ax + dx + ao + do) * (cells + 1) + n


@njit(cache=True)
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
    for later in range(detonated + 1, dropped + 1):  # a detonation empties at least its own cell
        for left in range(n):
            out[k] = (later * (2 * bombs + 1) + dropped) * (cells + 1) + left
            k += 1
    return k


@njit(cache=True)
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
            else:
                if v == 2:
                    op += 1
                    rp += BINOMIAL[jp, op]
                jp += 1
            i += 1
    ax, ao = jb - ob, ob
    dx = bombs - s[HAND] - ax
    do = bombs - s[HAND + 1] - ao
    tier = _join(dspec, hidx, jp - op, ax, dx, ao, do, s[PLAYER])
    return tier, rb + BINOMIAL[i, jb] * (rob + BINOMIAL[jb, ob] * rp)


@njit(cache=True)
def dense_unrank(dspec, tier, rank, params, s):
    rows, cols, bombs, cells = dspec[0], dspec[1], dspec[2], dspec[3]
    hidx, n, nx, ax, dx, ao, do, side = _split(dspec, tier)
    nb = ax + ao
    size_b = BINOMIAL[n, nb]
    size_ob = BINOMIAL[nb, ao]
    rb = rank % size_b
    q = rank // size_b
    rob = q % size_ob
    rp = q // size_ob
    board = HEIGHT + cols
    s[:] = 0
    s[PLAYER] = side
    s[HAND] = bombs - ax - dx
    s[HAND + 1] = bombs - ao - do
    s[ARMED] = ax
    s[ARMED + 1] = ao
    s[FILLED] = n
    # from the last cell back: each combination's largest element first
    i, kb, kob, kpo = n, nb, ao, n - nx - nb
    jb, jp = nb, n - nb
    weight = 1
    for c in range(cols - 1):
        weight *= rows + 1
    for c in range(cols - 1, -1, -1):
        h = (hidx // weight) % (rows + 1)
        weight //= rows + 1
        s[HEIGHT + c] = h
        for r in range(h - 1, -1, -1):
            i -= 1
            if kb > 0 and BINOMIAL[i, kb] <= rb:
                rb -= BINOMIAL[i, kb]
                kb -= 1
                jb -= 1
                side_of = 1
                if kob > 0 and BINOMIAL[jb, kob] <= rob:
                    rob -= BINOMIAL[jb, kob]
                    kob -= 1
                    side_of = 2
                s[board + r * cols + c] = side_of | BOMB
            else:
                jp -= 1
                piece = 1
                if kpo > 0 and BINOMIAL[jp, kpo] <= rp:
                    rp -= BINOMIAL[jp, kpo]
                    kpo -= 1
                    piece = 2
                s[board + r * cols + c] = piece
    if n == cells and ax + ao == 0:
        return False  # a full board with no bomb on it: the game is over
    return connected_sides(s, params) == 0


@njit(cache=True)
def dense_mirror_tier(dspec, tier):
    rows, cols, heights = dspec[0], dspec[1], dspec[4]
    hidx = tier % heights
    mirrored, rest = 0, hidx
    for c in range(cols):
        mirrored = mirrored * (rows + 1) + rest % (rows + 1)
        rest //= rows + 1
    return tier - hidx + mirrored


@njit(cache=True)
def dense_mirror(dspec, s, params):
    rows, cols = dspec[0], dspec[1]
    board = HEIGHT + cols
    for c in range(cols // 2):
        m = cols - 1 - c
        s[HEIGHT + c], s[HEIGHT + m] = s[HEIGHT + m], s[HEIGHT + c]
        for r in range(rows):
            s[board + r * cols + c], s[board + r * cols + m] = s[board + r * cols + m], s[board + r * cols + c]
