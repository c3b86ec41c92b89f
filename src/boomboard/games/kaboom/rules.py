"""The rules of Kaboom: connect n on a gravity board, with bombs.

The state array, after the shared header:

* ``s[HAND + p]``: bombs player ``p`` has not dropped yet;
* ``s[ARMED + p]``: player ``p``'s bombs standing on the board;
* ``s[FILLED]``: occupied cells, so a full board is one comparison;
* ``s[HEIGHT + c]``: pieces in column ``c`` (gravity keeps them at the bottom);
* ``s[board + r * cols + c]``: the cell in row ``r`` (0 at the bottom) and
  column ``c`` (0 on the left), with ``board = HEIGHT + cols``.

A cell holds ``0`` (empty) or ``side | bomb``: ``side`` is 1 for X and 2 for
O, ``bomb`` is ``BOMB`` (4) for a bomb, so ``cell & 3`` is the owner's side.
The counters are functions of the board and the hands, so two arrays are
equal exactly when the positions are.

Action ids, ``R`` rows and ``C`` columns: ``c`` drops a piece in column ``c``;
``C + c`` drops a bomb there; ``2C + r*C + c`` detonates the own bomb on row
``r``, column ``c``; ``2C + R*C`` passes (legal only on a full board without
an own bomb, the player's only possible action then).

Why a game ends (and :meth:`KaboomGame.max_game_length`): each detonation
action removes the detonated bomb for good and bombs only ever leave the
hands, so there are at most ``2 * bombs`` bomb drops and ``2 * bombs``
detonations; a pass is always answered by a detonation (the passer's
opponent has a bomb on a full board and nothing else to do), so at most
``2 * bombs`` passes. Each drop fills one cell and only a detonated bomb
empties cells, at most ``K`` each (5 for a bomb, ``rows + cols - 1`` for a
superbomb, never more than the board), so there are at most
``rows * cols + 2 * bombs * K`` drops.
"""

import numpy as np
from boomboard.jit import njit

from boomboard.core.layout import HEADER, PLAYER, PLY, REASON, STATUS, cell_hash, win_status
from boomboard.core.steps import light, record_step, retake_step

HAND = HEADER  # HAND + player: bombs still in hand
ARMED = HEADER + 2  # ARMED + player: own bombs on the board
FILLED = HEADER + 4  # occupied cells
HEIGHT = HEADER + 5  # HEIGHT + column: pieces in that column; the board follows

BOMB = 4  # the bomb bit of a cell; the low two bits are the owner's side (1 X, 2 O)

STATUS_TIE = 3
REASON_CONNECT = 5  # end reason CONNECT (end_reasons in game.py)
REASON_BOTH_CONNECT = 6  # end reason BOTH_CONNECT (end_reasons in game.py)
REASON_NO_ACTIONS = 7  # end reason NO_ACTIONS (end_reasons in game.py)

# The params array: the game's parameters, nothing else (geometry is arithmetic).
P_ROWS = 0
P_COLS = 1
P_CONNECT = 2
P_BOMBS = 3
P_MISERE = 4
P_SUPERBOMB = 5

# The four line directions as (row step, column step); each line is also
# walked backwards.
LINE_DR = (0, 1, 1, 1)
LINE_DC = (1, 0, 1, -1)
# The four orthogonal neighbours a bomb's blast reaches.
NEXT_DR = (1, -1, 0, 0)
NEXT_DC = (0, 0, 1, -1)


def make_params(rows, cols, connect, bombs, misere, superbomb) -> np.ndarray:
    return np.array([rows, cols, connect, bombs, int(misere), int(superbomb)], dtype=np.int32)


@njit(cache=True)
def _run(s, board, rows, cols, r, c, dr, dc, side):
    """How many cells of ``side`` follow (r, c) in direction (dr, dc), (r, c) excluded."""
    count = 0
    r += dr
    c += dc
    while 0 <= r < rows and 0 <= c < cols and (s[board + r * cols + c] & 3) == side:
        count += 1
        r += dr
        c += dc
    return count


@njit(cache=True)
def _connects_through(s, params, r, c):
    """Whether the piece on (r, c) lies on a line of ``connect`` cells of its owner."""
    rows, cols, connect = params[P_ROWS], params[P_COLS], params[P_CONNECT]
    board = HEIGHT + cols
    side = s[board + r * cols + c] & 3
    for d in range(4):
        dr, dc = LINE_DR[d], LINE_DC[d]
        length = 1 + _run(s, board, rows, cols, r, c, dr, dc, side) \
            + _run(s, board, rows, cols, r, c, -dr, -dc, side)
        if length >= connect:
            return True
    return False


# -- lines on bitboards ----------------------------------------------------------
# Walking runs cell by cell costs a mispredicted branch at the end of every
# run; on a board of at most 64 bits the lines are found with shifts and ANDs
# instead, without a branch that depends on the position. Cell (r, c) is bit
# c * (rows + 1) + r: each column has a spare top bit that stays 0, so a line
# shifted past the top of one column (or past the bottom, for the
# anti-diagonal) lands on a 0 and never continues in the next column.
@njit(cache=True)
def fits_bitboard(params):
    return params[P_COLS] * (params[P_ROWS] + 1) <= 64


@njit(cache=True)
def _bitboards(s, params):
    """Each player's cells (bombs included) as bitboards, X's and O's."""
    rows, cols = params[P_ROWS], params[P_COLS]
    board = HEIGHT + cols
    x = np.uint64(0)
    o = np.uint64(0)
    cell = board
    for r in range(rows):  # every cell, empty or not: the loops' branches stay predictable
        bit = np.uint64(r)
        for _c in range(cols):
            side = s[cell] & 3
            x |= np.uint64(side == 1) << bit
            o |= np.uint64(side == 2) << bit
            cell += 1
            bit += np.uint64(rows + 1)
    return x, o


@njit(cache=True)
def _has_line(bits, params):
    """Whether the bitboard ``bits`` holds ``connect`` cells in a row: a cell
    starts a line in a direction of step ``d`` exactly when it and the cells
    ``d, 2d, ...`` bits above it are all set."""
    rows, connect = np.int64(params[P_ROWS]), params[P_CONNECT]
    for step in (1, rows + 1, rows + 2, rows):  # vertical, horizontal, diagonal, anti-diagonal
        if (connect - 1) * step >= 64:
            continue  # no line that long fits this way (and the shift would be undefined)
        starts = bits
        for k in range(1, connect):
            starts &= bits >> np.uint64(k * step)
        if starts != 0:
            return True
    return False


@njit(cache=True)
def connected_sides(s, params):
    """Which players have ``connect`` in a row: bit 1 for X, bit 2 for O."""
    if fits_bitboard(params):
        x, o = _bitboards(s, params)
        return np.int64(_has_line(x, params)) | np.int64(_has_line(o, params)) << 1
    return _connected_sides_by_runs(s, params)


@njit(cache=True)
def _connected_sides_by_runs(s, params):
    """:func:`connected_sides` on any board: counts each run once, from its
    first cell (the one whose predecessor in the direction is not the same
    owner's)."""
    rows, cols, connect = params[P_ROWS], params[P_COLS], params[P_CONNECT]
    board = HEIGHT + cols
    found = 0
    for c in range(cols):
        for r in range(s[HEIGHT + c]):
            side = s[board + r * cols + c] & 3
            if found & side:
                continue
            for d in range(4):
                dr, dc = LINE_DR[d], LINE_DC[d]
                pr, pc = r - dr, c - dc
                if 0 <= pr < rows and 0 <= pc < cols and (s[board + pr * cols + pc] & 3) == side:
                    continue
                if 1 + _run(s, board, rows, cols, r, c, dr, dc, side) >= connect:
                    found |= side
                    break
    return found


@njit(cache=True)
def settle_result(s, params, connected):
    """Record the result the connect rules give for ``connected`` (bits of
    :func:`connected_sides`); nothing if nobody connected. With ``misere`` the
    one who connects loses."""
    if connected == 3:
        s[STATUS] = STATUS_TIE
        s[REASON] = REASON_BOTH_CONNECT
    elif connected != 0:
        connector = connected - 1
        s[STATUS] = win_status(1 - connector if params[P_MISERE] else connector)
        s[REASON] = REASON_CONNECT


@njit(cache=True)
def nobody_can_act(s, params):
    """A full board without a bomb on it: neither player has an action."""
    return s[FILLED] == params[P_ROWS] * params[P_COLS] and s[ARMED] == 0 and s[ARMED + 1] == 0


@njit(cache=True)
def legal_actions(s, params, out):
    """Drops into open columns, bomb drops while bombs are in hand, own bombs
    to detonate; a pass when none of these exists. Written in id order."""
    if s[STATUS] != 0:
        return 0
    rows, cols = params[P_ROWS], params[P_COLS]
    player = s[PLAYER]
    n = 0
    # Each candidate is written and then kept or not by counting it: whether
    # a column is open or a cell holds an own bomb varies from position to
    # position, and a branch on it would often mispredict.
    if s[FILLED] < rows * cols:
        for c in range(cols):
            out[n] = c
            n += s[HEIGHT + c] < rows
        if s[HAND + player] > 0:
            for i in range(n):
                out[n + i] = cols + out[i]
            n += n
    if s[ARMED + player] > 0:
        board = HEIGHT + cols
        own_bomb = (player + 1) | BOMB
        for cell in range(rows * cols):
            out[n] = 2 * cols + cell
            n += s[board + cell] == own_bomb
    if n == 0:
        out[0] = 2 * cols + rows * cols
        n = 1
    return n


@njit(cache=True)
def _drop(s, params, c, piece):
    """Put ``piece`` on top of column ``c``; check the mover's lines. Only a
    line through the new piece can be new, and a position still being played
    has no line (the end is checked after every action)."""
    cols = params[P_COLS]
    r = s[HEIGHT + c]
    s[HEIGHT + cols + r * cols + c] = piece
    s[HEIGHT + c] = r + 1
    s[FILLED] += 1
    side = piece & 3
    if fits_bitboard(params):
        x, o = _bitboards(s, params)
        connects = _has_line(x if side == 1 else o, params)
    else:
        connects = _connects_through(s, params, r, c)
    if connects:
        settle_result(s, params, side)
    elif nobody_can_act(s, params):
        s[STATUS] = STATUS_TIE
        s[REASON] = REASON_NO_ACTIONS


# A bomb that a blast has reached but that has not gone off yet is marked on
# the board itself, so the cascade needs no allocated queue (an allocation
# would cost more than the rest of a detonation). The marks are no piece's
# code (those are 0, 1, 2, 5 and 6), and there are two: the bombs primed by
# one wave of explosions get one mark, those the next wave primes the other,
# so the bombs go off wave by wave (which the animation shows, a wave a step).
PRIMED = 8
PRIMED_NEXT = 16


@njit(cache=True)
def _blast(s, board, target, mark, flashes, n):
    """Empty cell ``target``, or prime the bomb standing there with ``mark`` (it
    leaves the board when it goes off); a primed bomb stays primed. Returns 1
    if this primed a bomb, else 0. Lights what it hits in step ``n - 1`` when
    recording (``flashes`` not ``None``)."""
    value = s[board + target]
    if value >= PRIMED:  # either mark
        return 0
    if flashes is not None and value != 0:
        light(flashes, n, target)
    if value & BOMB:
        s[ARMED + (value & 3) - 1] -= 1
        s[board + target] = mark
        return 1
    s[board + target] = 0
    return 0


@njit(cache=True)
def _go_off(s, params, bomb, mark, flashes, n):
    """Bomb ``bomb`` (a cell) goes off: it leaves the board and blasts its four
    orthogonal neighbours, or with ``superbomb`` its whole row and column,
    priming the bombs there with ``mark``. Returns how many bombs it primed
    and the columns it touched (a bit each)."""
    rows, cols = params[P_ROWS], params[P_COLS]
    board = HEIGHT + cols
    s[board + bomb] = 0
    if flashes is not None:
        light(flashes, n, bomb)
    r, c = bomb // cols, bomb % cols
    primed = 0
    if params[P_SUPERBOMB]:
        for tr in range(rows):
            primed += _blast(s, board, tr * cols + c, mark, flashes, n)
        for tc in range(cols):
            primed += _blast(s, board, r * cols + tc, mark, flashes, n)
        return primed, (1 << cols) - 1
    touched = 1 << c
    for d in range(4):
        tr, tc = r + NEXT_DR[d], c + NEXT_DC[d]
        if 0 <= tr < rows and 0 <= tc < cols:
            primed += _blast(s, board, tr * cols + tc, mark, flashes, n)
            touched |= 1 << tc
    return primed, touched


@njit(cache=True)
def _detonate(s, params, start, steps, flashes, n):
    """Detonate the bomb on cell ``start`` and every bomb its blasts reach,
    then let the columns fall and check both players' lines; returns the step
    count ``n`` (each wave, then the fall, is a step: :mod:`boomboard.core.steps`).

    Which cells go does not depend on the order the bombs go off in; they go
    in waves (the first bomb, the bombs it primed, the bombs those primed,
    ...), each wave a sweep over the board for the bombs with the wave's mark
    (most detonations reach no other bomb and need no sweep).
    """
    rows, cols = params[P_ROWS], params[P_COLS]
    board = HEIGHT + cols
    s[ARMED + (s[board + start] & 3) - 1] -= 1
    if steps is not None:  # the step is taken now and its picture retaken after the wave
        n = record_step(s, steps, flashes, n)
    waiting, touched = _go_off(s, params, start, PRIMED, flashes, n)
    going = PRIMED
    while waiting > 0:
        if steps is not None:
            retake_step(s, steps, n)
            n = record_step(s, steps, flashes, n)
        mark = PRIMED + PRIMED_NEXT - going  # the other mark, for the next wave
        for cell in range(rows * cols):
            if s[board + cell] == going:
                primed, columns = _go_off(s, params, cell, mark, flashes, n)
                waiting += primed - 1
                touched |= columns
        going = mark
    if steps is not None:
        retake_step(s, steps, n)
    # Gravity, in the touched columns only: every emptied cell now holds 0,
    # so each column keeps its nonzero cells, in order, at the bottom. The
    # copy is unconditional (a zero is written where the next kept cell
    # goes) to save a branch that depends on the position.
    for c in range(cols):
        if not touched & (1 << c):
            continue
        height = s[HEIGHT + c]
        kept = 0
        for r in range(height):
            value = s[board + r * cols + c]
            s[board + kept * cols + c] = value
            kept += value != 0
        for r in range(kept, height):
            s[board + r * cols + c] = 0
        s[FILLED] -= height - kept
        s[HEIGHT + c] = kept
    if steps is not None:
        n = record_step(s, steps, flashes, n)
    settle_result(s, params, connected_sides(s, params))
    return n


@njit(cache=True)
def _play(s, params, action, steps, flashes):
    """Drop, drop a bomb, detonate or pass; check the end; pass the turn; with
    ``steps`` (not ``None``) record the steps and return their count."""
    rows, cols = params[P_ROWS], params[P_COLS]
    player = s[PLAYER]
    n = 0
    if action < 2 * cols:
        column = action % cols
        if action < cols:
            _drop(s, params, column, player + 1)
        else:
            s[HAND + player] -= 1
            s[ARMED + player] += 1
            _drop(s, params, column, (player + 1) | BOMB)
        if steps is not None:
            n = record_step(s, steps, flashes, n)
            light(flashes, n, (s[HEIGHT + column] - 1) * cols + column)
    elif action < 2 * cols + rows * cols:
        n = _detonate(s, params, action - 2 * cols, steps, flashes, n)
    elif steps is not None:  # a pass: one step, nothing lit
        n = record_step(s, steps, flashes, n)
    s[PLY] += 1
    s[PLAYER] = 1 - player
    return n


@njit(cache=True)
def apply_action(s, params, action):
    """Drop, drop a bomb, detonate or pass; check the end; pass the turn."""
    _play(s, params, action, None, None)


@njit(cache=True)
def apply_action_steps(s, params, action, steps, flashes):
    """:func:`apply_action`, recording a drop or a pass as one step and a
    detonation as one step per wave of explosions, then one for the fall
    (:mod:`boomboard.core.steps`); returns how many. A primed bomb (a value
    of at least ``PRIMED``) in a step's picture has left the board."""
    return _play(s, params, action, steps, flashes)


@njit(cache=True)
def position_key(s, params):
    """Every cell, the bombs in each hand and the player to move (Kaboom has
    no repetition rule; the key serves transposition tables)."""
    ncells = params[P_ROWS] * params[P_COLS]
    board = HEIGHT + params[P_COLS]
    key = np.uint64(0)
    for cell in range(ncells):
        if s[board + cell] != 0:
            key ^= cell_hash(cell, s[board + cell])
    key ^= cell_hash(ncells, s[HAND]) ^ cell_hash(ncells + 1, s[HAND + 1])
    if s[PLAYER] == 1:
        key ^= cell_hash(ncells + 2, 0)
    return key
