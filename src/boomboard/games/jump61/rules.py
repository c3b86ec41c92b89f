"""The rules of Jump61 as compiled kernels over a square board of N x N squares.

Squares are numbered row by row from the top left: square ``r c`` (both from
1) is ``(r - 1) * N + (c - 1)``, which is also the id of the move onto it.

The state array, after the shared header:

* ``s[COUNT + p]``: how many squares have player ``p``'s colour (red 0,
  blue 1); the board is one colour when a count reaches N * N;
* ``s[SPOTS + q]``: the spots on square ``q`` (at least 1);
* ``s[SPOTS + N*N + q]``: its colour, ``WHITE``, ``RED`` or ``BLUE``
  (``player + 1``).

**Why a move always ends.** A jump is a chip-firing move: a square holding
more spots than it has neighbours sends one spot to each, and keeps at least
one. Think of ``spots - 1`` as chips and this is the chip-firing game of
Björner, Lovász and Shor (1991). Two facts bound every cascade:

* while the board is not one colour, some square ``v`` has never jumped in
  this cascade: take a square not of the mover's colour; a jump gives all its
  neighbours the mover's colour and nothing gives them another, so neither it
  nor any neighbour has jumped;
* with ``f`` the number of jumps of each square and ``v`` fixed at ``f = 0``,
  the spots now are ``x0 - L f`` (``L`` the board graph's Laplacian), so
  ``f = G (x0 - x)`` on the other squares, with ``G`` the inverse of ``L``
  with ``v``'s row and column struck out. ``G`` is non-negative and
  ``G[u, w] <= G[w, w] = R(w, v)``, the effective resistance between ``w``
  and ``v``, at most their distance, ``2 (N - 1)``. As ``x >= 1``, each
  square has jumped at most ``2 (N - 1) (T - N*N)`` times, ``T`` the spots on
  the board.

A settled board has at most as many spots as the sum of the neighbour counts
(``4 N (N - 1)``), and a move adds one, so while the board is not one colour
at most ``jump_limit`` = ``(N*N - 1) * 2 (N - 1) * (4 N (N - 1) + 1 - N*N)``
jumps have been made. The cascade counts its jumps and raises if it is about
to jump with more than that behind it: that would be a bug, not a long game.
"""

import numpy as np
from boomboard.jit import njit

from boomboard.core.layout import HEADER, PLAYER, PLY, REASON, STATUS, cell_hash, win_status
from boomboard.core.steps import light, record_step

COUNT = HEADER  # COUNT + player: squares of that player's colour
SPOTS = HEADER + 2  # SPOTS + square: its spots; SPOTS + N*N + square: its colour

WHITE, RED, BLUE = 0, 1, 2  # a square's colour; a player's colour is player + 1

REASON_ALL_ONE_COLOUR = 8  # end reason ALL_ONE_COLOUR (end_reasons in game.py)

# The params array: three numbers, then the neighbour counts, then the neighbours.
P_SIZE = 0
P_CELLS = 1
P_JUMP_LIMIT = 2
DEGREE = 3  # DEGREE + square: its number of neighbours
# DEGREE + N*N + 4 * square + k: its k-th neighbour (up, left, right, down), -1 off the board

# Neighbour order: row-major (up, left, right, down); it fixes the order of a cascade.
STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))


def neighbour_table(size: int) -> list[list[int]]:
    """For each square, its four neighbours in ``STEPS`` order, -1 off the board."""
    table = []
    for row in range(size):
        for col in range(size):
            around = []
            for dr, dc in STEPS:
                r, c = row + dr, col + dc
                around.append(r * size + c if 0 <= r < size and 0 <= c < size else -1)
            table.append(around)
    return table


def jump_limit(size: int) -> int:
    """More jumps than this in one cascade cannot happen (see the module docstring)."""
    cells = size * size
    most_spots = 4 * size * (size - 1) + 1
    return (cells - 1) * 2 * (size - 1) * (most_spots - cells)


def build_params(size: int) -> np.ndarray:
    table = neighbour_table(size)
    degree = [sum(n >= 0 for n in around) for around in table]
    flat = [n for around in table for n in around]
    return np.array([size, size * size, jump_limit(size)] + degree + flat, dtype=np.int32)


@njit(cache=True)
def legal_actions(s, params, out):
    """Every square that is not the opponent's colour, in square order."""
    if s[STATUS] != 0:
        return 0
    cells = params[P_CELLS]
    theirs = 2 - s[PLAYER]  # the opponent's colour
    colour = SPOTS + cells
    n = 0
    for square in range(cells):
        if s[colour + square] != theirs:
            out[n] = square
            n += 1
    return n


@njit(cache=True)
def _add_spot(s, cells, square, player):
    """One spot onto ``square``, which takes ``player``'s colour."""
    s[SPOTS + square] += 1
    old = s[SPOTS + cells + square]
    if old != player + 1:
        if old != WHITE:
            s[COUNT + old - 1] -= 1
        s[COUNT + player] += 1
        s[SPOTS + cells + square] = player + 1


@njit(cache=True)
def _overfull(s, params, square):
    return s[SPOTS + square] > params[DEGREE + square]


@njit(cache=True)
def _cascade(s, params, start, player, steps, flashes, n):
    """Jump overfull squares, first in first out, from ``start``, until none is
    overfull or the board is ``player``'s colour; returns the step count ``n``
    (each jump is a step, see :mod:`boomboard.core.steps`).

    A popped square that is still overfull jumps once; then its neighbours
    that are now overfull and not queued join the queue (up, left, right,
    down), then the square itself if it is still overfull.
    """
    cells = params[P_CELLS]
    neighbours = DEGREE + cells
    queue = np.empty(cells, np.int32)  # a ring: each square is queued at most once
    queued = np.zeros(cells, np.bool_)
    queue[0] = start
    queued[start] = True
    head, size = 0, 1
    jumps = 0
    while size > 0:
        square = queue[head]
        head = (head + 1) % cells
        size -= 1
        queued[square] = False
        if not _overfull(s, params, square):  # the rulebook's skip; never taken, as only
            continue  # its own jump takes spots from a queued square
        if jumps > params[P_JUMP_LIMIT]:  # the board is not one colour, so this cannot be
            raise RuntimeError("jump61: a cascade outran its proven bound")
        jumps += 1
        s[SPOTS + square] -= params[DEGREE + square]
        around = neighbours + 4 * square
        for other in params[around:around + 4]:
            if other >= 0:
                _add_spot(s, cells, other, player)
        if steps is not None:
            n = record_step(s, steps, flashes, n)
            light(flashes, n, square)
        if s[COUNT + player] == cells:
            return n
        for other in params[around:around + 4]:
            if other >= 0 and not queued[other] and _overfull(s, params, other):
                queue[(head + size) % cells] = other
                queued[other] = True
                size += 1
        if _overfull(s, params, square):
            queue[(head + size) % cells] = square
            queued[square] = True
            size += 1
    return n


@njit(cache=True)
def _play(s, params, action, steps, flashes):
    """Add a spot to the square ``action``, let overfull squares jump, pass the
    turn; with ``steps`` (not ``None``) record the steps and return their count."""
    cells = params[P_CELLS]
    player = s[PLAYER]
    _add_spot(s, cells, action, player)
    n = 0
    if steps is not None:
        n = record_step(s, steps, flashes, n)
        light(flashes, n, action)
    if s[COUNT + player] < cells and _overfull(s, params, action):
        n = _cascade(s, params, action, player, steps, flashes, n)
    if s[COUNT + player] == cells:
        s[STATUS] = win_status(player)
        s[REASON] = REASON_ALL_ONE_COLOUR
    s[PLY] += 1
    s[PLAYER] = 1 - player
    return n


@njit(cache=True)
def apply_action(s, params, action):
    """Add a spot to the square ``action``, let overfull squares jump, pass the turn."""
    _play(s, params, action, None, None)


@njit(cache=True)
def apply_action_steps(s, params, action, steps, flashes):
    """:func:`apply_action`, recording the spot's landing and then each jump, in
    order, as steps (:mod:`boomboard.core.steps`); returns how many."""
    return _play(s, params, action, steps, flashes)


@njit(cache=True)
def position_key(s, params):
    """Every square's spots and colour, and the player to move (the game has no
    repetition rule; the key serves tables and tools)."""
    cells = params[P_CELLS]
    key = np.uint64(0)
    for square in range(cells):
        key ^= cell_hash(square, s[SPOTS + square] * 3 + s[SPOTS + cells + square])
    if s[PLAYER] == 1:
        key ^= cell_hash(cells, 0)  # a square past the board stands for "Blue to move"
    return key
