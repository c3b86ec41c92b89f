"""The rules of Explocus and HExplocus: one set of kernels over board tables.

The two games differ only in their board, so the kernels never look at
coordinates: they read the tables :func:`params_from_board` packs from a
:class:`~boomboard.games.explocus.boards.Board` (capacities, neighbours in
direction order, how far each line runs, where each move lands).

The state array, after the shared header:

* ``s[STONES + p]``: how many stones player ``p`` has (kept in step with the board);
* ``s[BOARD + c]``: the stack on cell ``c``: ``+h`` for White's ``h`` stones,
  ``-h`` for Black's, ``0`` for an empty cell.

An action id is ``(cell * ndirs + direction) * kmax + (k - 1)``: the top ``k``
stones of ``cell`` move ``k`` cells in ``direction``.

Why an explosion cascade always ends: an explosion is a chip-firing move (a
cell holding at least as many stones as it has neighbours sends one along each
of its edges), and the heights do not depend on who owns the stones. By
Björner, Lovász and Shor ("Chip-firing games on graphs", 1991) a
chip-firing game on a connected graph with fewer chips than edges ends after
finitely many firings, whatever the order. Moves and explosions conserve
stones, and positions are refused unless they hold fewer stones than the board
has edges (``Board.max_stones``; the standard starts hold about a quarter of
that), so every cascade stops; stopping early when the opponent runs out
of stones only shortens it.
"""

import numpy as np
from boomboard.jit import njit

from boomboard.core.layout import HEADER, PLAYER, PLY, REASON, STATUS, board_key, win_status
from boomboard.core.steps import light, record_step

STONES = HEADER  # STONES + player: that player's stone count
BOARD = HEADER + 2  # BOARD + cell: the signed stack height on that cell

REASON_NO_TOKENS = 1  # end reason NO_TOKENS (end_reasons in game.py)

# The params array: three sizes, then the tables, each at a fixed place.
P_CELLS = 0
P_DIRS = 1
P_KMAX = 2
TABLES = 3  # capacity[ncells], then neighbour, reach [ncells*ndirs], then landing [ncells*ndirs*kmax]


def params_from_board(board) -> np.ndarray:
    """Pack a board's tables into the ``params`` array the kernels read."""
    neighbours = [n for around in board.neighbours for n in around]
    reach = [len(ray) for rays in board.rays for ray in rays]
    landing = []
    for rays in board.rays:
        for ray in rays:
            landing += ray + [-1] * (board.kmax - len(ray))
    sizes = [board.ncells, board.ndirs, board.kmax]
    return np.array(sizes + board.capacity + neighbours + reach + landing, dtype=np.int32)


@njit(cache=True)
def table_offsets(params):
    """Where the capacity, neighbour, reach and landing tables start in ``params``."""
    ncells, ndirs = params[P_CELLS], params[P_DIRS]
    capacity = TABLES
    neighbour = capacity + ncells
    reach = neighbour + ncells * ndirs
    landing = reach + ncells * ndirs
    return capacity, neighbour, reach, landing


@njit(cache=True)
def legal_actions(s, params, out):
    """Every own stack, every direction, every k from 1 to min(height, room on the line).

    Ids grow with (cell, direction, k), so the loop writes them sorted.
    """
    if s[STATUS] != 0:
        return 0
    ncells, ndirs, kmax = params[P_CELLS], params[P_DIRS], params[P_KMAX]
    reach = table_offsets(params)[2]
    sign = 1 - 2 * s[PLAYER]
    n = 0
    for cell in range(ncells):
        height = s[BOARD + cell] * sign
        if height <= 0:
            continue
        first = cell * ndirs * kmax
        for line in range(cell * ndirs, cell * ndirs + ndirs):
            room = params[reach + line]
            # A plain while loop: numba vectorizes a for loop here, and the
            # vector set-up costs more than the one to eight ids it writes.
            action, end = first, first + (height if height < room else room)
            while action < end:
                out[n] = action
                n += 1
                action += 1
            first += kmax
    return n


@njit(cache=True)
def _drop(s, cell, player, stones):
    """Put ``stones`` stones of ``player`` on ``cell``: a stack there becomes theirs whole.

    The stones themselves come from ``player``'s stacks, so only a captured
    stack changes the counts.
    """
    sign = 1 - 2 * player
    height = s[BOARD + cell] * sign
    if height < 0:  # an enemy stack: captured
        s[STONES + 1 - player] += height
        s[STONES + player] -= height
        height = -height
    s[BOARD + cell] = sign * (height + stones)


@njit(cache=True)
def _explode(s, params, start, player, steps, flashes, n):
    """Explode stacks at or over capacity, first in first out, from ``start``;
    returns the step count ``n`` (each explosion is a step, see
    :mod:`boomboard.core.steps`).

    A popped cell still at or over capacity explodes once; then its neighbours
    that reached capacity join the queue (direction order), then the cell
    itself if it is still over. Every stack that can reach capacity is the
    mover's (it is the landing stack or just took a stone from one), so the
    mover owns every explosion. Stops the moment the opponent has no stones.
    """
    ncells, ndirs = params[P_CELLS], params[P_DIRS]
    capacity, neighbour, _, _ = table_offsets(params)
    sign = 1 - 2 * player
    queue = np.empty(ncells, np.int32)  # a ring: each cell is queued at most once
    queued = np.zeros(ncells, np.bool_)
    queue[0] = start
    queued[start] = True
    head, size = 0, 1
    while size > 0:
        cell = queue[head]
        head = (head + 1) % ncells
        size -= 1
        queued[cell] = False
        height = s[BOARD + cell] * sign
        if height < params[capacity + cell]:
            continue
        s[BOARD + cell] = sign * (height - params[capacity + cell])
        around = neighbour + cell * ndirs
        for other in params[around:around + ndirs]:
            if other >= 0:
                _drop(s, other, player, 1)
        if steps is not None:
            n = record_step(s, steps, flashes, n)
            light(flashes, n, cell)
        if s[STONES + 1 - player] == 0:
            return n
        for other in params[around:around + ndirs]:
            if other >= 0 and not queued[other] and s[BOARD + other] * sign >= params[capacity + other]:
                queue[(head + size) % ncells] = other
                queued[other] = True
                size += 1
        if not queued[cell] and s[BOARD + cell] * sign >= params[capacity + cell]:
            queue[(head + size) % ncells] = cell
            queued[cell] = True
            size += 1
    return n


@njit(cache=True)
def _play(s, params, action, steps, flashes):
    """Move the top k stones k cells, capture or merge, explode, pass the turn;
    with ``steps`` (not ``None``) record the steps and return their count."""
    ndirs, kmax = params[P_DIRS], params[P_KMAX]
    capacity, _, _, landing = table_offsets(params)
    player = s[PLAYER]
    sign = 1 - 2 * player
    k = action % kmax + 1
    origin = action // (kmax * ndirs)
    target = params[landing + action]
    s[BOARD + origin] -= sign * k
    _drop(s, target, player, k)
    n = 0
    if steps is not None:
        n = record_step(s, steps, flashes, n)
        light(flashes, n, origin)
        light(flashes, n, target)
    if s[STONES + 1 - player] > 0 and s[BOARD + target] * sign >= params[capacity + target]:
        n = _explode(s, params, target, player, steps, flashes, n)
    if s[STONES + 1 - player] == 0:
        s[STATUS] = win_status(player)
        s[REASON] = REASON_NO_TOKENS
    s[PLY] += 1
    s[PLAYER] = 1 - player
    return n


@njit(cache=True)
def apply_action(s, params, action):
    """Move the top k stones k cells, capture or merge, explode, pass the turn."""
    _play(s, params, action, None, None)


@njit(cache=True)
def apply_action_steps(s, params, action, steps, flashes):
    """:func:`apply_action`, recording the move and then each explosion, in
    order, as steps (:mod:`boomboard.core.steps`); returns how many."""
    return _play(s, params, action, steps, flashes)


@njit(cache=True)
def position_key(s, params):
    """Every stack (owner and height) and the player to move."""
    return board_key(s, BOARD, params[P_CELLS], s[PLAYER])
