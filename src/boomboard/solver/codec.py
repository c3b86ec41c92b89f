"""Perfect position indexes: every non-terminal position as one ``uint64``, and back.

The solver needs a key that no two positions share (a 64-bit hash would do
for a search, not for a table that claims to be exact), and it needs to turn
a key back into the engine array, so that its tables hold keys alone. Each
game's board is written as the digits of one mixed-radix number:

* Kaboom: each cell 0..4 (empty, X, O, X bomb, O bomb), then the bombs in
  each hand (radix ``bombs + 1``), then the player to move;
* Jump61: each square 0 (white, one spot) or ``1 + (colour - 1) * d + spots - 1``
  (radix ``1 + 2d``, ``d`` its neighbours: a settled square holds at most
  ``d`` spots), then the player to move;
* Explocus: each cell's signed height plus ``capacity - 1`` (radix
  ``2 * capacity - 1``: a settled stack stays below its capacity), then the
  player to move;
* Expendibots endgames (at most ``T`` tokens): up to ``T`` stacks in square
  order, each ``1 + square * 2T + height code`` (0 ends the list), then the
  player to move.

Only non-terminal positions are encoded: a finished position's value is
read off its result, and a finished Jump61 or Explocus board may hold
overfull stacks no radix above covers. :data:`OUTSIDE` marks a position the
encoding cannot hold (a terminal one, or an Expendibots position with more
tokens than the table covers). :func:`codec_spec` checks in Python, with
exact integers, that the largest key fits below :data:`OUTSIDE`.
"""

from __future__ import annotations

import numpy as np
from boomboard.jit import njit

from ..core.errors import BoomboardError
from ..core.game import Game
from ..core.layout import PLAYER, STATUS
from ..games.expendibots import rules as expendibots
from ..games.explocus import rules as explocus
from ..games.jump61 import rules as jump61
from ..games.kaboom import rules as kaboom
from ..search import kernels

OUTSIDE = np.uint64(0xFFFFFFFFFFFFFFFF)  # no position has this key

# spec[0]: the rules id (boomboard.search.kernels); the rest depends on the game.


class PositionSpaceTooLarge(BoomboardError):
    """The positions of this game do not fit the solver's 64-bit index."""


def codec_spec(game: Game, tokens: int = 0) -> np.ndarray:
    """The ``int64`` array :func:`encode` and :func:`decode` read for ``game``
    (``tokens``: the Expendibots endgame size). Raises
    :class:`PositionSpaceTooLarge` if the keys would not fit in 64 bits."""
    rules = kernels.rules_id(game)
    if rules == kernels.KABOOM:
        cells = game["rows"] * game["cols"]
        spec = [rules, cells, game["bombs"] + 1]
        largest = 5 ** cells * (game["bombs"] + 1) ** 2 * 2
    elif rules == kernels.JUMP61:
        params = game.params_array
        cells = int(params[jump61.P_CELLS])
        degrees = [int(d) for d in params[jump61.DEGREE:jump61.DEGREE + cells]]
        spec = [rules, cells]
        largest = 2
        for degree in degrees:
            largest *= 1 + 2 * degree
    elif rules == kernels.EXPLOCUS:
        capacity = game.board.capacity
        spec = [rules, len(capacity), *capacity]
        largest = 2
        for cap in capacity:
            largest *= 2 * cap - 1
    else:
        if tokens < 2:
            raise PositionSpaceTooLarge("Expendibots is solved as endgames: give the most tokens on the "
                                        "board (2 or more), e.g. --tokens 3")
        spec = [rules, tokens]
        largest = (expendibots.SQUARES * 2 * tokens + 1) ** tokens * 2
    if largest >= int(OUTSIDE):
        raise PositionSpaceTooLarge(f"{game} has up to {largest:.3e} encoded positions, more than a 64-bit "
                                    "index holds; choose a smaller board")
    return np.array(spec, dtype=np.int64)


@njit(cache=True)
def encode(spec, s, params):
    """The key of the position ``s`` (``OUTSIDE`` if terminal or not covered)."""
    if s[STATUS] != 0:
        return OUTSIDE
    rules = spec[0]
    if rules == kernels.KABOOM:
        return _encode_kaboom(spec, s)
    if rules == kernels.JUMP61:
        return _encode_jump61(spec, s, params)
    if rules == kernels.EXPLOCUS:
        return _encode_explocus(spec, s)
    return _encode_expendibots(spec, s)


@njit(cache=True)
def decode(spec, key, params, s):
    """Write the position of ``key`` into the engine array ``s`` (ply 0, ongoing)."""
    s[:] = 0
    rules = spec[0]
    if rules == kernels.KABOOM:
        _decode_kaboom(spec, key, params, s)
    elif rules == kernels.JUMP61:
        _decode_jump61(spec, key, params, s)
    elif rules == kernels.EXPLOCUS:
        _decode_explocus(spec, key, s)
    else:
        _decode_expendibots(spec, key, s)


# -- Kaboom ------------------------------------------------------------------------
# A cell's digit: 0 empty, 1 X, 2 O, 3 X's bomb, 4 O's bomb. The engine's cell
# values are 0, 1, 2, 5 and 6 (side | BOMB), so digit = side + 2 * bomb and
# back, in arithmetic: no table to load, no branch to mispredict.
@njit(cache=True)
def _kaboom_digit(value):
    return (value & 3) + 2 * (value >> 2)


@njit(cache=True)
def _encode_kaboom(spec, s):
    cells, hand_radix = spec[1], spec[2]
    board = s.shape[0] - cells
    key = np.uint64(s[PLAYER])
    key = key * np.uint64(hand_radix) + np.uint64(s[kaboom.HAND + 1])
    key = key * np.uint64(hand_radix) + np.uint64(s[kaboom.HAND])
    for cell in range(cells - 1, -1, -1):
        key = key * np.uint64(5) + np.uint64(_kaboom_digit(s[board + cell]))
    return key


@njit(cache=True)
def _decode_kaboom(spec, key, params, s):
    """The counters are sums over the cells, so they are added up without
    branching on what each cell holds (half the cells are empty, at random:
    a branch there mispredicts often)."""
    hand_radix = spec[2]
    rows, cols = params[kaboom.P_ROWS], params[kaboom.P_COLS]
    board = kaboom.HEIGHT + cols
    filled, armed_x, armed_o = 0, 0, 0
    for r in range(rows):
        for c in range(cols):
            digit = np.int64(key % np.uint64(5))
            key //= np.uint64(5)
            bomb = digit >= 3
            value = (digit - 2 * bomb) | (kaboom.BOMB * bomb)
            s[board + r * cols + c] = value
            s[kaboom.HEIGHT + c] += value != 0
            filled += value != 0
            armed_x += digit == 3
            armed_o += digit == 4
    s[kaboom.FILLED] = filled
    s[kaboom.ARMED] = armed_x
    s[kaboom.ARMED + 1] = armed_o
    s[kaboom.HAND] = np.int64(key % np.uint64(hand_radix))
    key //= np.uint64(hand_radix)
    s[kaboom.HAND + 1] = np.int64(key % np.uint64(hand_radix))
    key //= np.uint64(hand_radix)
    s[PLAYER] = np.int64(key)


# -- Jump61 ------------------------------------------------------------------------
@njit(cache=True)
def _encode_jump61(spec, s, params):
    cells = spec[1]
    key = np.uint64(s[PLAYER])
    for square in range(cells - 1, -1, -1):
        degree = params[jump61.DEGREE + square]
        spots, colour = s[jump61.SPOTS + square], s[jump61.SPOTS + cells + square]
        if spots > degree:
            return OUTSIDE
        digit = 0 if colour == jump61.WHITE else 1 + (colour - 1) * degree + spots - 1
        key = key * np.uint64(1 + 2 * degree) + np.uint64(digit)
    return key


@njit(cache=True)
def _decode_jump61(spec, key, params, s):
    cells = spec[1]
    for square in range(cells):
        degree = params[jump61.DEGREE + square]
        radix = np.uint64(1 + 2 * degree)
        digit = np.int64(key % radix)
        key //= radix
        if digit == 0:
            s[jump61.SPOTS + square] = 1
        else:
            colour = 1 + (digit - 1) // degree
            s[jump61.SPOTS + square] = 1 + (digit - 1) % degree
            s[jump61.SPOTS + cells + square] = colour
            s[jump61.COUNT + colour - 1] += 1
    s[PLAYER] = np.int64(key)


# -- Explocus ------------------------------------------------------------------------
@njit(cache=True)
def _encode_explocus(spec, s):
    cells = spec[1]
    key = np.uint64(s[PLAYER])
    for cell in range(cells - 1, -1, -1):
        capacity = spec[2 + cell]
        height = s[explocus.BOARD + cell]
        if height >= capacity or height <= -capacity:
            return OUTSIDE
        key = key * np.uint64(2 * capacity - 1) + np.uint64(height + capacity - 1)
    return key


@njit(cache=True)
def _decode_explocus(spec, key, s):
    cells = spec[1]
    for cell in range(cells):
        capacity = spec[2 + cell]
        radix = np.uint64(2 * capacity - 1)
        height = np.int64(key % radix) - (capacity - 1)
        key //= radix
        s[explocus.BOARD + cell] = height
        if height > 0:
            s[explocus.STONES] += height
        else:
            s[explocus.STONES + 1] -= height
    s[PLAYER] = np.int64(key)


# -- Expendibots endgames --------------------------------------------------------------
@njit(cache=True)
def _encode_expendibots(spec, s):
    tokens = spec[1]
    if s[expendibots.TOKENS] + s[expendibots.TOKENS + 1] > tokens:
        return OUTSIDE
    radix = np.uint64(expendibots.SQUARES * 2 * tokens + 1)
    key = np.uint64(0)
    scale = np.uint64(1)
    for square in range(expendibots.SQUARES):
        height = s[expendibots.BOARD + square]
        if height != 0:
            code = height - 1 if height > 0 else tokens - height - 1
            key += scale * np.uint64(1 + square * 2 * tokens + code)
            scale *= radix
    # The slots left empty hold 0; the player goes above all of them.
    return key + np.uint64(s[PLAYER]) * radix ** np.uint64(tokens)


@njit(cache=True)
def _decode_expendibots(spec, key, s):
    tokens = spec[1]
    radix = np.uint64(expendibots.SQUARES * 2 * tokens + 1)
    top = radix ** np.uint64(tokens)
    s[PLAYER] = np.int64(key // top)
    key %= top
    while key != 0:
        digit = np.int64(key % radix) - 1
        key //= radix
        square, code = digit // (2 * tokens), digit % (2 * tokens)
        height = code + 1 if code < tokens else -(code - tokens + 1)
        s[expendibots.BOARD + square] = height
        if height > 0:
            s[expendibots.TOKENS] += height
        else:
            s[expendibots.TOKENS + 1] -= height


@njit(cache=True)
def expendibots_placements(spec, out):
    """Write to ``out`` the keys of every Expendibots position with at most
    ``spec[1]`` tokens, at least one of each colour, either player to move;
    return how many. Stacks are chosen in square order, heights by an odometer."""
    tokens = spec[1]
    radix = np.uint64(expendibots.SQUARES * 2 * tokens + 1)
    top = radix ** np.uint64(tokens)
    squares = np.zeros(tokens, np.int64)
    codes = np.zeros(tokens, np.int64)
    n = 0
    for stacks in range(2, tokens + 1):
        for i in range(stacks):
            squares[i] = i
        while True:
            for i in range(stacks):
                codes[i] = 0
            while True:
                total, white, black = 0, 0, 0
                for i in range(stacks):
                    height = codes[i] + 1 if codes[i] < tokens else codes[i] - tokens + 1
                    total += height
                    if codes[i] < tokens:
                        white += 1
                    else:
                        black += 1
                if total <= tokens and white > 0 and black > 0:
                    key = np.uint64(0)
                    scale = np.uint64(1)
                    for i in range(stacks):
                        key += scale * np.uint64(1 + squares[i] * 2 * tokens + codes[i])
                        scale *= radix
                    out[n] = key
                    out[n + 1] = key + top
                    n += 2
                i = 0  # next height codes
                while i < stacks and codes[i] == 2 * tokens - 1:
                    codes[i] = 0
                    i += 1
                if i == stacks:
                    break
                codes[i] += 1
            i = stacks - 1  # next squares, ascending combination
            while i >= 0 and squares[i] == expendibots.SQUARES - stacks + i:
                i -= 1
            if i < 0:
                break
            squares[i] += 1
            for j in range(i + 1, stacks):
                squares[j] = squares[j - 1] + 1
    return n


def count_expendibots_placements(tokens: int) -> int:
    """How many keys :func:`expendibots_placements` writes (exact, for sizing ``out``):
    for each number of stacks, the squares, the colourings with both colours,
    the heights, and two players to move."""
    from math import comb

    total = 0
    for stacks in range(2, tokens + 1):
        heights = sum(comb(sum_ - 1, stacks - 1) for sum_ in range(stacks, tokens + 1))  # each >= 1, sum <= tokens
        total += comb(expendibots.SQUARES, stacks) * ((1 << stacks) - 2) * heights
    return 2 * total
