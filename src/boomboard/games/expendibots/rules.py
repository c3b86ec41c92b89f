"""The rules of Expendibots as compiled kernels.

The state array, after the shared header:

* ``s[TOKENS + p]``: how many tokens player ``p`` has (kept in step with the board);
* ``s[BOARD + sq]``: the stack on square ``sq = y*8 + x``: ``+n`` for White's
  ``n`` tokens, ``-n`` for Black's, ``0`` for an empty square.

Action ids (see ``docs/games/expendibots.md``): ``sq`` (0..63) booms the stack
on ``sq``; ``MOVES + (line*12 + m - 1)`` with ``line = (sq*4 + dir)*7 + d - 1``
moves ``m`` tokens ``d`` squares from ``sq`` in direction ``dir`` (up, down,
left, right). Ids grow with (kind, square, direction, distance, count), so
the generator writes them sorted.

The ``params`` array holds two tables: where each ``line`` lands (``-1`` off
the board) and each square's up to eight neighbours (``-1`` padded).
"""

import numpy as np
from boomboard.jit import njit

from boomboard.core.layout import HEADER, PLAYER, PLY, REASON, STATUS, STATUS_TIE, cell_hash, win_status
from boomboard.core.steps import light, record_step

SIZE = 8
SQUARES = SIZE * SIZE
MAX_TOKENS = 12  # a colour never has more, so no stack is higher and no move carries more
MAX_DISTANCE = SIZE - 1
DIRECTIONS = ((0, 1), (0, -1), (-1, 0), (1, 0))  # (dx, dy): up, down, left, right
LINES = SQUARES * len(DIRECTIONS) * MAX_DISTANCE
MOVES = SQUARES  # the first move id; booms come first
NUM_ACTIONS = MOVES + LINES * MAX_TOKENS

TOKENS = HEADER  # TOKENS + player: that player's token count
BOARD = HEADER + 2  # BOARD + square: the signed stack on that square
STATE_SIZE = BOARD + SQUARES

REASON_NO_TOKENS = 1  # end reason NO_TOKENS (end_reasons in game.py)
REASON_BOTH_NO_TOKENS = 2  # end reason BOTH_NO_TOKENS (end_reasons in game.py)

P_LANDING = 0  # P_LANDING + line: the square a move along ``line`` lands on, or -1
P_NEIGHBOURS = LINES  # P_NEIGHBOURS + 8*sq + k: the k-th neighbour of sq, or -1
PARAMS_SIZE = P_NEIGHBOURS + 8 * SQUARES


def build_params() -> np.ndarray:
    """The landing and neighbour tables, packed into one ``int32`` array."""
    params = np.full(PARAMS_SIZE, -1, dtype=np.int32)
    for sq in range(SQUARES):
        x, y = sq % SIZE, sq // SIZE
        for direction, (dx, dy) in enumerate(DIRECTIONS):
            for d in range(1, MAX_DISTANCE + 1):
                tx, ty = x + d * dx, y + d * dy
                if 0 <= tx < SIZE and 0 <= ty < SIZE:
                    params[P_LANDING + (sq * 4 + direction) * MAX_DISTANCE + d - 1] = ty * SIZE + tx
        around = [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
        on_board = [ty * SIZE + tx for tx, ty in around if 0 <= tx < SIZE and 0 <= ty < SIZE]
        params[P_NEIGHBOURS + 8 * sq:P_NEIGHBOURS + 8 * sq + len(on_board)] = on_board
    return params


@njit(cache=True)
def legal_actions(s, params, out):
    """Every own stack's boom, then every move: each direction, each distance up
    to the stack's height that lands on the board and not on an enemy stack,
    each count up to the height."""
    if s[STATUS] != 0:
        return 0
    sign = 1 - 2 * s[PLAYER]
    n = 0
    for sq in range(SQUARES):
        if s[BOARD + sq] * sign > 0:
            out[n] = sq  # the boom id is the square
            n += 1
    booms = n
    for i in range(booms):
        sq = out[i]
        height = s[BOARD + sq] * sign
        for line in range(sq * 4 * MAX_DISTANCE, (sq * 4 + 4) * MAX_DISTANCE, MAX_DISTANCE):
            for step in range(min(height, MAX_DISTANCE)):
                target = params[P_LANDING + line + step]
                if target < 0:  # off the board, and so is every longer step
                    break
                if s[BOARD + target] * sign < 0:  # an enemy stack: passing over it is fine
                    continue
                first = MOVES + (line + step) * MAX_TOKENS
                for m in range(height):
                    out[n] = first + m
                    n += 1
    return n


@njit(cache=True)
def _remove(s, sq):
    """Take the stack on ``sq`` off the board and out of its owner's count."""
    height = s[BOARD + sq]
    if height > 0:
        s[TOKENS] -= height
    else:
        s[TOKENS + 1] += height
    s[BOARD + sq] = 0


@njit(cache=True)
def _boom(s, params, sq, steps, flashes, n):
    """Explode the stack on ``sq`` and, in turn, every stack around an exploding
    one; returns the step count ``n`` (see :mod:`boomboard.core.steps`).

    A stack is removed the moment it is caught, so each explodes once. The
    set of stacks reached does not depend on the order; they go in waves
    (the first stack, the stacks around it, the stacks around those, ...),
    each wave one step of the animation.
    """
    exploding = np.empty(SQUARES, np.int32)  # every stack caught, in the order caught
    _remove(s, sq)
    exploding[0] = sq
    caught, spread = 1, 0
    if steps is not None:
        n = record_step(s, steps, flashes, n)
        light(flashes, n, sq)
    while spread < caught:
        wave_end = caught
        while spread < wave_end:
            centre = exploding[spread]
            spread += 1
            for k in range(P_NEIGHBOURS + 8 * centre, P_NEIGHBOURS + 8 * centre + 8):
                other = params[k]
                if other < 0:
                    break
                if s[BOARD + other] != 0:
                    _remove(s, other)
                    exploding[caught] = other
                    caught += 1
        if steps is not None and caught > wave_end:
            n = record_step(s, steps, flashes, n)
            for i in range(wave_end, caught):
                light(flashes, n, exploding[i])
    return n


@njit(cache=True)
def _play(s, params, action, steps, flashes):
    """Boom or move, record a side without tokens, count the ply, pass the turn;
    with ``steps`` (not ``None``) record the steps and return their count."""
    player = s[PLAYER]
    n = 0
    if action < MOVES:
        n = _boom(s, params, action, steps, flashes, n)
    else:
        line = (action - MOVES) // MAX_TOKENS
        carried = (1 - 2 * player) * ((action - MOVES) % MAX_TOKENS + 1)
        origin, target = line // (4 * MAX_DISTANCE), params[P_LANDING + line]
        s[BOARD + origin] -= carried
        s[BOARD + target] += carried
        if steps is not None:
            n = record_step(s, steps, flashes, n)
            light(flashes, n, origin)
            light(flashes, n, target)
    end_by_tokens(s)
    s[PLY] += 1
    s[PLAYER] = 1 - player
    return n


@njit(cache=True)
def apply_action(s, params, action):
    """Boom or move, record a side without tokens, count the ply, pass the turn."""
    _play(s, params, action, None, None)


@njit(cache=True)
def apply_action_steps(s, params, action, steps, flashes):
    """:func:`apply_action`, recording a move as one step and a boom as one
    step per wave (:mod:`boomboard.core.steps`); returns how many."""
    return _play(s, params, action, steps, flashes)


@njit(cache=True)
def end_by_tokens(s):
    """End checks 1 and 2: no tokens on either side is a tie; on one side, the other wins."""
    white, black = s[TOKENS], s[TOKENS + 1]
    if white == 0 and black == 0:
        s[STATUS] = STATUS_TIE
        s[REASON] = REASON_BOTH_NO_TOKENS
    elif white == 0 or black == 0:
        s[STATUS] = win_status(0 if black == 0 else 1)
        s[REASON] = REASON_NO_TOKENS


@njit(cache=True)
def position_key(s, params):
    """Every stack (square, colour and size) and the player to move."""
    key = np.uint64(0)
    for sq in range(SQUARES):
        if s[BOARD + sq] != 0:
            key ^= cell_hash(sq, s[BOARD + sq])
    if s[PLAYER] == 1:
        key ^= cell_hash(SQUARES, 0)  # a square past the board stands for "Black to move"
    return key
