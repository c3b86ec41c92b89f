"""The rules of Chain Reaction as compiled kernels over an M x N grid.

Cells are numbered row by row from the bottom left: the cell in row ``r``
(0 at the bottom) and column ``c`` (0 on the left) is ``r * cols + c``, which
is also the id of the move that puts an orb there. Its name is the column's
letter and the row's number from 1: cell 0 is ``a1``.

The state array, after the shared header:

* ``s[ORBS + p]``: the orbs of player ``p`` (red 0, green 1) on the board;
* ``s[COUNT + q]``: the orbs in cell ``q`` (0 for an empty cell);
* ``s[COUNT + cells + q]``: its owner, ``EMPTY``, ``RED`` or ``GREEN``
  (``player + 1``); a cell is empty exactly when it holds no orb.

A cell's *critical mass* is its number of orthogonal neighbours (2, 3 or 4);
a cell holding at least that many orbs is *unstable* and explodes: it loses
critical-mass orbs and each neighbour gains one and takes the exploder's
colour. Explosions go in waves: every unstable cell explodes once, all at
once, then the cells unstable after that wave explode, and so on. Every
exploding cell belongs to the mover (the board was stable before the move,
and a cell becomes unstable only by gaining orbs, which makes it the
mover's), and a wave only adds and subtracts orbs and paints cells in the
mover's colour, so the order within a wave cannot change its result.

**Orbs.** No orb is ever created or destroyed except the one each move
places, so the board holds exactly as many orbs as moves have been played
(from the empty start). Hence the side to move is the parity of the orbs,
and "both players have moved" means "at least two orbs".

**The end.** A move never costs the mover an orb (all captures go its way),
so only the opponent can be wiped out. Once both have moved, a player
without orbs loses; the cascade stops after the wave that takes the
opponent's last orb, possibly leaving unstable cells (REASON ``NO_TOKENS``).
No tie can happen: the game ends only by a wipe-out, and the player to move
always has a move (an own cell, or at the first two moves an empty one).

**Why the game ends.** A stable board holds at most ``S = sum(critical - 1)
= 3 * rows * cols - 2 * rows - 2 * cols`` orbs. After every move that does
not end the game the board is stable, and holds as many orbs as moves, so
at most ``S`` moves leave the game going and the next one ends it:
``max_game_length() = S + 1`` (133 on 9x6; reached on 2x2).

**Why a cascade ends.** An endless cascade captures every cell: take
``f(q)``, how often cell ``q`` has exploded. The orbs are fixed during a
cascade, so a cell that stopped exploding while a neighbour went on would
gather orbs without bound; hence, the grid being connected, every cell
explodes for ever, every cell is given an orb, and so every cell is the
mover's: the opponent is wiped out and the stop ends the cascade.

A bound for the guard: while the opponent still owns a cell ``v``, neither
``v`` nor its neighbours have exploded in this cascade (an explosion paints
its neighbours in the mover's colour, and only the mover's cells explode).
An explosion is a chip-firing move (Björner, Lovász and Shor 1991): the orbs
now are ``x = x0 - L f``, ``L`` the grid's Laplacian, so with ``f(v) = 0``,
``f = G (x0 - x)`` off ``v``, ``G`` the inverse of ``L`` with ``v``'s row
and column struck out. ``G`` is non-negative with ``G[u, w] <= G[w, w] =
R(w, v)``, the effective resistance, at most the distance ``rows + cols -
2``; and ``x >= 0``, so each cell has exploded at most ``(rows + cols - 2)
* T`` times, ``T <= S + 1`` the orbs on the board. Every wave starts with
the opponent on the board (the cascade stops after the wave that wipes it
out) and explodes at least one cell, none of them ``v``: so the waves before
the last made at most ``(cells - 1) * (rows + cols - 2) * T`` explosions,
and a cascade has at most ``wave_limit = (cells - 1) * (rows + cols - 2) *
(S + 1) + 1`` waves. The cascade counts its waves and raises ``RuntimeError``
past that: that would be a bug, never a long game.
"""

import numpy as np

from boomboard.core.layout import HEADER, PLAYER, PLY, REASON, STATUS, cell_hash, win_status
from boomboard.core.steps import light, record_step
from boomboard.jit import njit

ORBS = HEADER  # ORBS + player: that player's orbs on the board
COUNT = HEADER + 2  # COUNT + cell: its orbs; COUNT + cells + cell: its owner

EMPTY, RED, GREEN = 0, 1, 2  # a cell's owner; a player's colour is player + 1

REASON_NO_TOKENS = 1  # end reason NO_TOKENS (end_reasons in game.py)

# The params array: five numbers, then the critical masses, then the neighbours.
P_ROWS = 0
P_COLS = 1
P_CELLS = 2
P_WAVE_LIMIT = 3
P_MOST_ORBS = 4  # S + 1: no position holds more orbs
CRITICAL = 5  # CRITICAL + cell: its critical mass (its number of neighbours)
# CRITICAL + cells + 4 * cell + k: its k-th neighbour (up, down, left, right), -1 off the grid

STEPS = ((1, 0), (-1, 0), (0, -1), (0, 1))  # (row, column) steps; rows count up from the bottom


def neighbour_table(rows: int, cols: int) -> list[list[int]]:
    """For each cell, its four neighbours in ``STEPS`` order, -1 off the grid."""
    table = []
    for row in range(rows):
        for col in range(cols):
            around = []
            for dr, dc in STEPS:
                r, c = row + dr, col + dc
                around.append(r * cols + c if 0 <= r < rows and 0 <= c < cols else -1)
            table.append(around)
    return table


def stable_capacity(rows: int, cols: int) -> int:
    """``S``: the most orbs a stable board holds, the sum of ``critical - 1``."""
    return 3 * rows * cols - 2 * rows - 2 * cols


def wave_limit(rows: int, cols: int) -> int:
    """More waves than this in one cascade cannot happen (see the module docstring)."""
    return (rows * cols - 1) * (rows + cols - 2) * (stable_capacity(rows, cols) + 1) + 1


def build_params(rows: int, cols: int) -> np.ndarray:
    table = neighbour_table(rows, cols)
    critical = [sum(n >= 0 for n in around) for around in table]
    flat = [n for around in table for n in around]
    head = [rows, cols, rows * cols, wave_limit(rows, cols), stable_capacity(rows, cols) + 1]
    return np.array(head + critical + flat, dtype=np.int32)


@njit(cache=True)
def legal_actions(s, params, out):
    """Every cell that is empty or the mover's, in cell order."""
    if s[STATUS] != 0:
        return 0
    cells = params[P_CELLS]
    theirs = 2 - s[PLAYER]  # the opponent's colour
    owner = COUNT + cells
    n = 0
    for cell in range(cells):
        if s[owner + cell] != theirs:
            out[n] = cell
            n += 1
    return n


@njit(cache=True)
def _gain(s, cells, cell, player):
    """One orb into ``cell``, which takes ``player``'s colour with all its orbs."""
    owner = COUNT + cells + cell
    old = s[owner]
    if old != player + 1:
        if old != EMPTY:
            s[ORBS + old - 1] -= s[COUNT + cell]
        s[ORBS + player] += s[COUNT + cell]
        s[owner] = player + 1
    s[COUNT + cell] += 1
    s[ORBS + player] += 1


@njit(cache=True)
def _cascade(s, params, player, steps, flashes, n):
    """Explode in waves until no cell is unstable or the opponent has no orb;
    returns the step count ``n`` (each wave is a step lighting its exploding
    cells, see :mod:`boomboard.core.steps`).

    Each wave first lists the unstable cells, then explodes each once: it
    loses its critical mass, each neighbour gains one orb and the mover's
    colour. A cell left with no orb is empty.
    """
    cells = params[P_CELLS]
    neighbours = CRITICAL + cells
    owner = COUNT + cells
    wave = np.empty(cells, np.int32)
    waves = 0
    while True:
        n_wave = 0
        for cell in range(cells):
            if s[COUNT + cell] >= params[CRITICAL + cell]:
                wave[n_wave] = cell
                n_wave += 1
        if n_wave == 0:
            return n
        if waves >= params[P_WAVE_LIMIT]:  # the opponent is on the board, so this cannot be
            raise RuntimeError("chain_reaction: a cascade outran its proven bound")
        waves += 1
        for i in range(n_wave):
            cell = wave[i]
            s[COUNT + cell] -= params[CRITICAL + cell]
            s[ORBS + player] -= params[CRITICAL + cell]
            around = neighbours + 4 * cell
            for k in range(4):
                other = params[around + k]
                if other >= 0:
                    _gain(s, cells, other, player)
        for i in range(n_wave):
            cell = wave[i]
            if s[COUNT + cell] == 0:
                s[owner + cell] = EMPTY
        if steps is not None:
            n = record_step(s, steps, flashes, n)
            for i in range(n_wave):
                light(flashes, n, wave[i])
        if s[ORBS + 1 - player] == 0:  # wiped out; a cascade needs two orbs in a cell
            return n  # and the opponent's on the board, so both have moved


@njit(cache=True)
def _play(s, params, action, steps, flashes):
    """Put an orb into cell ``action``, explode in waves, pass the turn; the
    opponent wiped out once both have moved loses. With ``steps`` (not
    ``None``) record the steps and return their count."""
    cells = params[P_CELLS]
    player = s[PLAYER]
    _gain(s, cells, action, player)
    n = 0
    if steps is not None:
        n = record_step(s, steps, flashes, n)
        light(flashes, n, action)
    if s[COUNT + action] >= params[CRITICAL + action]:
        n = _cascade(s, params, player, steps, flashes, n)
    both_moved = s[ORBS] + s[ORBS + 1] >= 2  # the orbs count the moves
    if both_moved and s[ORBS + 1 - player] == 0:
        s[STATUS] = win_status(player)
        s[REASON] = REASON_NO_TOKENS
    s[PLY] += 1
    s[PLAYER] = 1 - player
    return n


@njit(cache=True)
def apply_action(s, params, action):
    """Put an orb into cell ``action``, explode in waves, pass the turn; the
    opponent wiped out once both have moved loses."""
    _play(s, params, action, None, None)


@njit(cache=True)
def apply_action_steps(s, params, action, steps, flashes):
    """:func:`apply_action`, recording the orb's placement and then each wave
    of explosions, in order, as steps (:mod:`boomboard.core.steps`), each wave
    lighting its exploding cells; returns how many."""
    return _play(s, params, action, steps, flashes)


@njit(cache=True)
def position_key(s, params):
    """Every cell's orbs and owner, and the player to move (the game has no
    repetition rule; the key serves tables and tools)."""
    cells = params[P_CELLS]
    key = np.uint64(0)
    for cell in range(cells):
        key ^= cell_hash(cell, s[COUNT + cell] * 3 + s[COUNT + cells + cell])
    if s[PLAYER] == 1:
        key ^= cell_hash(cells, 0)  # a cell past the grid stands for "Green to move"
    return key
