"""Kaboom on bitboards: a position in a few 64-bit words.

The array engine (``rules.py``) stays the reference: this module plays the
same game, with the same action ids and the same results, for the searches
that need speed, on every board whose cells fit one word with a spare bit on
top of each column. ``tests/test_kaboom_bitboard.py`` checks the two engines
against each other.

**Layout** (Pascal Pons' and John Tromp's Connect-4 layout): cell (r, c), row
``r`` from the bottom and column ``c`` from the left, is bit
``c * (rows + 1) + r``. Each column takes ``rows + 1`` bits; the top one is a
guard that no piece ever sets. For 6 rows and 7 columns::

     6 13 20 27 34 41 48    guard bits, always 0
     5 12 19 26 33 40 47
     4 11 18 25 32 39 46
     3 10 17 24 31 38 45
     2  9 16 23 30 37 44
     1  8 15 22 29 36 43
     0  7 14 21 28 35 42

A shift by 1 moves a cell up, by ``rows + 1`` right, by ``rows + 2`` up and
right, by ``rows`` down and right. A line that runs off the top of a column,
or off the bottom going down, meets a guard bit and stops there, so the
board's edges cost no masks. A board fits when ``(rows + 1) * cols <= 64``
(:func:`fits`): rows by at most so many columns, 1 to 4 rows by 12 (the
parameters' limit), 5 by 10, 6 by 9, 7 by 8, 8 by 7, 9 by 6, 10 or 11 by 5,
12 by 4. A larger board keeps the array engine; :func:`geometry` refuses it
in one line.

**A position** is a ``uint64`` array of :data:`WORDS` words. The first four
are the state array's shared header (``PLAYER``, ``STATUS``, ``REASON``,
``PLY``: :mod:`boomboard.core.layout`), so ``pos[STATUS]`` reads the same in
both; then :data:`X_CELLS` and :data:`O_CELLS`, each player's cells with its
bombs (bombs count as their owner's pieces), :data:`BOMB_CELLS`, the cells
holding a bomb of either player (X's bombs are ``pos[BOMB_CELLS] &
pos[X_CELLS]``), and ``HAND + p``, the bombs player ``p`` has not dropped.

**Action ids** are the array engine's: ``c`` drops a piece in column ``c``,
``C + c`` a bomb, ``2C + r*C + c`` detonates the bomb on row ``r``, column
``c``, and ``2C + R*C`` passes.

The kernels read the board's shape and the game's switches from a
``geometry`` array (:func:`geometry`), also ``uint64``: the parameters and
the masks the kernels use, computed once.
"""

from __future__ import annotations

import warnings

import numpy as np

from boomboard.core.errors import ParameterError
from boomboard.core.layout import HEADER, PLAYER, PLY, REASON, STATUS, mix64, win_status
from boomboard.jit import njit
from boomboard.numba_internals import NO_REFERENCE_COUNTING

from . import rules
from .rules import (P_COLS, P_CONNECT, P_MISERE, P_ROWS, P_SUPERBOMB, REASON_BOTH_CONNECT, REASON_CONNECT,
                    REASON_NO_ACTIONS, STATUS_TIE)

# Run as plain Python (kernels not compiled yet, NUMBA_DISABLE_JIT=1), NumPy
# warns when a uint64 wraps around; compiled code simply wraps, as the words want.
warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning, __name__)

# The words of a position, after the shared header.
X_CELLS = HEADER  # X's cells, bombs included; O's are the next word
O_CELLS = HEADER + 1
BOMB_CELLS = HEADER + 2  # cells holding a bomb, either player's
HAND = HEADER + 3  # HAND + player: bombs that player has not dropped
WORDS = HEADER + 5

# The geometry array: the game's parameters, then masks.
G_ROWS = 0
G_COLS = 1
G_CONNECT = 2
G_MISERE = 3
G_SUPERBOMB = 4
G_STRIDE = 5  # bits a column takes: rows + 1
G_BOTTOM = 6  # the bottom cell of every column
G_TOP = 7  # the top cell of every column (not the guard)
G_BOARD = 8  # every cell
G_COLUMN = 9  # G_COLUMN + c: the cells of column c

# The kernels below borrow the arrays they are given and allocate nothing, so
# they are compiled without numba's reference counting (``_nrt=False``, as
# ``boomboard.search.tree.BORROWING``): it counts two atomic operations for
# each array of each call, which made every call more than twice as slow as
# the bit operations it wraps (the perft of 7x6 ran at about half the speed).
# numba refuses to compile such a kernel if it ever allocates. perft, which
# allocates its stack, is compiled as usual.
BORROWING = {"cache": True, **NO_REFERENCE_COUNTING}

ONE = np.uint64(1)
ZERO = np.uint64(0)


def fits(rows: int, cols: int) -> bool:
    """Whether a ``rows`` x ``cols`` board fits a 64-bit word with a guard bit
    on top of each column."""
    return (rows + 1) * cols <= 64


def geometry(params: np.ndarray) -> np.ndarray:
    """The geometry array of a Kaboom ``params`` array (``KaboomGame.params_array``);
    :class:`ParameterError` if the board does not fit a word."""
    rows, cols = int(params[P_ROWS]), int(params[P_COLS])
    if not fits(rows, cols):
        raise ParameterError(f"a {rows}x{cols} Kaboom board does not fit a 64-bit bitboard "
                             f"((rows + 1) * cols = {(rows + 1) * cols}, at most 64); use the array engine")
    stride = rows + 1
    columns = [((1 << rows) - 1) << (c * stride) for c in range(cols)]
    bottom = sum(1 << (c * stride) for c in range(cols))
    return np.array([rows, cols, int(params[P_CONNECT]), int(params[P_MISERE]), int(params[P_SUPERBOMB]), stride,
                     bottom, bottom << (rows - 1), sum(columns), *columns], dtype=np.uint64)


def new_position() -> np.ndarray:
    """An empty position array, for :func:`from_array` to fill."""
    return np.zeros(WORDS, dtype=np.uint64)


@njit(**BORROWING)
def _bit(geo, row, column):
    return ONE << np.uint64(column * np.int64(geo[G_STRIDE]) + row)


# -- conversions -----------------------------------------------------------------
@njit(**BORROWING)
def from_array(s, geo, pos):
    """Write the position of the state array ``s`` into ``pos``."""
    rows, cols = np.int64(geo[G_ROWS]), np.int64(geo[G_COLS])
    board = rules.HEIGHT + cols
    pos[:] = ZERO
    for word in range(HEADER):
        pos[word] = np.uint64(s[word])
    for player in range(2):
        pos[HAND + player] = np.uint64(s[rules.HAND + player])
    for r in range(rows):
        for c in range(cols):
            value = s[board + r * cols + c]
            if value != 0:
                pos[X_CELLS + (value & 3) - 1] |= _bit(geo, r, c)
                if value & rules.BOMB:
                    pos[BOMB_CELLS] |= _bit(geo, r, c)


@njit(**BORROWING)
def to_array(pos, geo, s):
    """Write the position ``pos`` into the state array ``s`` (counters included)."""
    rows, cols = np.int64(geo[G_ROWS]), np.int64(geo[G_COLS])
    board = rules.HEIGHT + cols
    s[:] = 0
    for word in range(HEADER):
        s[word] = np.int64(pos[word])
    for player in range(2):
        s[rules.HAND + player] = np.int64(pos[HAND + player])
    for r in range(rows):
        for c in range(cols):
            bit = _bit(geo, r, c)
            side = 1 if pos[X_CELLS] & bit else (2 if pos[O_CELLS] & bit else 0)
            if side == 0:
                continue
            bomb = (pos[BOMB_CELLS] & bit) != ZERO
            s[board + r * cols + c] = side | (rules.BOMB if bomb else 0)
            s[rules.HEIGHT + c] += 1
            s[rules.FILLED] += 1
            s[rules.ARMED + side - 1] += bomb


# -- lines -----------------------------------------------------------------------
@njit(**BORROWING)
def has_line(bits, rows, connect):
    """Whether ``bits`` holds ``connect`` cells in a row on a board of ``rows``
    rows (:func:`_has_line`). The common lengths reach it as constants, so
    that each compiles to straight code, without the loops' branches."""
    if connect == 4:
        return _has_line(bits, rows, 4)
    if connect == 3:
        return _has_line(bits, rows, 3)
    if connect == 5:
        return _has_line(bits, rows, 5)
    return _has_line(bits, rows, connect)


@njit(**BORROWING)
def _has_line(bits, rows, connect):
    """Whether ``bits`` holds ``connect`` cells in a row. For each direction
    (a bit step), ``starts`` is the cells that begin a run of ``length`` set cells; runs double in length a shift at a time,
    and a last shift by less than ``length`` (the windows overlap) reaches
    ``connect`` exactly, so any ``connect`` takes about log2(connect) shifts
    a direction. (Scalars only: every drop calls it, and numba counts
    references to each array argument of a call it does not inline.)"""
    for step in (1, rows + 1, rows + 2, rows):  # vertical, horizontal, diagonal, anti-diagonal
        if (connect - 1) * step >= 64:
            continue  # no line that long fits this way (and the shift would be undefined)
        starts = bits
        length = 1
        while 2 * length <= connect:
            starts &= starts >> np.uint64(length * step)
            length *= 2
        if length < connect:
            starts &= starts >> np.uint64((connect - length) * step)
        if starts != ZERO:
            return True
    return False


@njit(**BORROWING)
def connected_sides(pos, geo):
    """Which players have ``connect`` in a row: bit 1 for X, bit 2 for O."""
    rows, connect = np.int64(geo[G_ROWS]), np.int64(geo[G_CONNECT])
    return np.int64(has_line(pos[X_CELLS], rows, connect)) | np.int64(has_line(pos[O_CELLS], rows, connect)) << 1


@njit(**BORROWING)
def _settle(pos, geo, connected):
    """Record the result of ``connected`` (bits of :func:`connected_sides`), as
    ``rules.settle_result`` does: both is a tie, and misère turns a line into a loss."""
    if connected == 3:
        pos[STATUS] = np.uint64(STATUS_TIE)
        pos[REASON] = np.uint64(REASON_BOTH_CONNECT)
    elif connected != 0:
        connector = connected - 1
        pos[STATUS] = np.uint64(win_status(1 - connector if geo[G_MISERE] else connector))
        pos[REASON] = np.uint64(REASON_CONNECT)


# -- actions ---------------------------------------------------------------------
@njit(**BORROWING)
def legal_actions(pos, geo, out):
    """The legal action ids, in increasing order, into ``out``; returns how
    many. A finished game has none; a player with nothing else passes."""
    if pos[STATUS] != ZERO:
        return 0
    rows, cols, stride = np.int64(geo[G_ROWS]), np.int64(geo[G_COLS]), np.int64(geo[G_STRIDE])
    player = np.int64(pos[PLAYER])
    n = 0
    open_tops = geo[G_TOP] & ~(pos[X_CELLS] | pos[O_CELLS])
    if open_tops != ZERO:
        top = ONE << np.uint64(rows - 1)  # column c's top cell
        for c in range(cols):  # written, then kept by counting: no branch on the position
            out[n] = c
            n += (open_tops & top) != ZERO
            top <<= np.uint64(stride)
        if pos[HAND + player] != ZERO:
            for i in range(n):
                out[n + i] = cols + out[i]
            n += n
    own_bombs = pos[BOMB_CELLS] & pos[X_CELLS + player]
    if own_bombs != ZERO:  # in id order: row by row, each row left to right
        for r in range(rows):
            if own_bombs & (geo[G_BOTTOM] << np.uint64(r)) == ZERO:
                continue
            for c in range(cols):
                out[n] = 2 * cols + r * cols + c
                n += np.int64((own_bombs >> np.uint64(c * stride + r)) & ONE)
    if n == 0:
        out[0] = 2 * cols + rows * cols
        n = 1
    return n


@njit(**BORROWING)
def _superbomb_reach(bombs, geo):
    """The rows and columns of every cell of ``bombs``."""
    rows, cols, stride = np.int64(geo[G_ROWS]), np.int64(geo[G_COLS]), np.int64(geo[G_STRIDE])
    reach = ZERO
    rows_hit = ZERO  # bit r: a bomb on row r
    for c in range(cols):
        in_column = bombs & geo[G_COLUMN + c]
        if in_column != ZERO:
            reach |= geo[G_COLUMN + c]
            rows_hit |= in_column >> np.uint64(c * stride)
    for r in range(rows):
        if (rows_hit >> np.uint64(r)) & ONE:
            reach |= geo[G_BOTTOM] << np.uint64(r)
    return reach


@njit(**BORROWING)
def blast(start, bombs, geo):
    """The cells a detonation of the bomb ``start`` (one bit) empties: each bomb
    that goes off empties its cell and its orthogonal neighbours (with
    superbombs, its row and column), and every bomb among them goes off in
    turn. Whole waves go off at once, as sets of bits; which cells go does
    not depend on the order, so this is the array engine's cascade."""
    stride = geo[G_STRIDE]
    fired = ZERO
    emptied = ZERO
    wave = start
    while wave != ZERO:
        fired |= wave
        if geo[G_SUPERBOMB]:
            reach = _superbomb_reach(wave, geo)
        else:  # neighbours off the board land on guard bits or outside the board, masked away
            reach = wave | (wave << ONE) | (wave >> ONE) | (wave << stride) | (wave >> stride)
        reach &= geo[G_BOARD]
        emptied |= reach
        wave = reach & bombs & ~fired
    return emptied


@njit(**BORROWING)
def _fall(pos, geo, holes):
    """Empty the cells ``holes`` and let the pieces above each fall: column by
    column, the lowest hole is closed by shifting the column's cells above it
    down one bit, in every plane (a software ``pext`` of the column)."""
    cols = np.int64(geo[G_COLS])
    for c in range(cols):
        column_cells = geo[G_COLUMN + c]
        column_holes = holes & column_cells
        while column_holes != ZERO:
            lowest = column_holes & (ZERO - column_holes)
            above = column_cells & ~((lowest << ONE) - ONE)
            for word in (X_CELLS, O_CELLS, BOMB_CELLS):
                plane = pos[word]
                pos[word] = (plane & ~above & ~lowest) | ((plane & above) >> ONE)
            column_holes = (column_holes & above) >> ONE


@njit(**BORROWING)
def _detonate(pos, geo, cell):
    """Detonate the bomb on ``cell`` (``r * cols + c``), let the columns fall
    and check both players' lines."""
    cols = np.int64(geo[G_COLS])
    start = _bit(geo, cell // cols, cell % cols)
    occupied = pos[X_CELLS] | pos[O_CELLS]
    _fall(pos, geo, blast(start, pos[BOMB_CELLS], geo) & occupied)
    _settle(pos, geo, connected_sides(pos, geo))


@njit(**BORROWING)
def apply_action(pos, geo, action):
    """Drop, drop a bomb, detonate or pass; check the end; pass the turn. A
    drop, the common action, is written out here rather than in a helper
    taking the arrays: numba counts references to each array argument of a
    call it does not inline, and a drop measured about a third faster here
    than in a helper."""
    rows, cols = np.int64(geo[G_ROWS]), np.int64(geo[G_COLS])
    player = np.int64(pos[PLAYER])
    if action < 2 * cols:
        column_cells = geo[G_COLUMN + (action if action < cols else action - cols)]
        occupied = pos[X_CELLS] | pos[O_CELLS]
        # Adding the column's bottom bit carries through its filled cells to the first empty one.
        cell = (occupied + (geo[G_BOTTOM] & column_cells)) & column_cells
        mine = pos[X_CELLS + player] | cell
        pos[X_CELLS + player] = mine
        if action >= cols:
            pos[BOMB_CELLS] |= cell
            pos[HAND + player] -= ONE
        if has_line(mine, rows, np.int64(geo[G_CONNECT])):  # only the mover can have a new line
            _settle(pos, geo, player + 1)
        elif occupied | cell == geo[G_BOARD] and pos[BOMB_CELLS] == ZERO:  # nobody can act
            pos[STATUS] = np.uint64(STATUS_TIE)
            pos[REASON] = np.uint64(REASON_NO_ACTIONS)
    elif action < 2 * cols + rows * cols:
        _detonate(pos, geo, action - 2 * cols)
    pos[PLY] += ONE
    pos[PLAYER] = np.uint64(1 - player)


@njit(**BORROWING)
def position_key(pos, geo):
    """A 64-bit hash of the board, the hands and the player to move, for
    transposition tables (not the array engine's key: the two never share a table)."""
    key = mix64(pos[X_CELLS] ^ np.uint64(0x9E3779B97F4A7C15))
    key = mix64(key ^ pos[O_CELLS])
    key = mix64(key ^ pos[BOMB_CELLS])
    return mix64(key ^ (pos[HAND] | pos[HAND + 1] << np.uint64(16) | pos[PLAYER] << np.uint64(32)))


# -- perft -----------------------------------------------------------------------
@njit(cache=True)
def perft(pos, geo, depth):
    """Sequences of exactly ``depth`` legal actions from ``pos``, as
    ``boomboard.core.perft`` counts them. A loop over a stack of positions
    allocated once, not a recursion: numba's cache loads a recursive kernel
    badly (it crashed when loaded from the cache)."""
    if depth == 0:
        return 1
    rows, cols = np.int64(geo[G_ROWS]), np.int64(geo[G_COLS])
    stack = np.empty((depth, WORDS), dtype=np.uint64)
    moves = np.empty((depth, 2 * cols + rows * cols + 1), dtype=np.int32)
    counts = np.zeros(depth, dtype=np.int64)  # legal actions at each level
    tried = np.zeros(depth, dtype=np.int64)  # of which played so far
    stack[0] = pos
    counts[0] = legal_actions(stack[0], geo, moves[0])
    if depth == 1:
        return counts[0]
    total = 0
    level = 0
    while level >= 0:
        if tried[level] == counts[level]:
            level -= 1
            continue
        child = stack[level + 1]
        for word in range(WORDS):
            child[word] = stack[level, word]
        apply_action(child, geo, moves[level, tried[level]])
        tried[level] += 1
        if level + 2 == depth:  # the child's legal actions are the count
            total += legal_actions(child, geo, moves[level + 1])
        else:
            level += 1
            counts[level] = legal_actions(child, geo, moves[level])
            tried[level] = 0
    return total
