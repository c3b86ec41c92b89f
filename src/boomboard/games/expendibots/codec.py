"""Expendibots endgames: perfect position keys, for the strong solver.

Expendibots is solved as endgames: every position with at most ``T``
tokens on the board (``boomboard solve expendibots --tokens T``). The codec
kernels of the game kernel interface (:mod:`boomboard.kernel_interface`),
exported by ``kernels.py``: a non-terminal position with at most ``T``
tokens is up to ``T`` stacks in square order, each the digit
``1 + square * 2T + height code`` (radix ``64 * 2T + 1``; the slots left
empty hold 0, ending the list), then the player to move. The codec spec is
``[T]``. Stacks move back and forth, so positions repeat: the game has no
layers (:func:`layer_of` is 0).

:func:`placements` lists every endgame the table is solved from.
"""

from __future__ import annotations

from math import comb

import numpy as np

from boomboard.core.layout import OUTSIDE, PLAYER, STATUS
from boomboard.jit import njit

from .rules import BOARD, SQUARES, TOKENS


def codec_spec(tokens: int) -> tuple[list[int], int]:
    """The spec and the number of keys (see :meth:`boomboard.core.game.Game.solver_codec_spec`)."""
    return [tokens], (SQUARES * 2 * tokens + 1) ** tokens * 2


@njit(cache=True)
def encode(spec, s, params):
    """The key of the position ``s`` (``OUTSIDE`` if it is finished or has more than ``spec[0]`` tokens)."""
    if s[STATUS] != 0:
        return OUTSIDE
    tokens = spec[0]
    if s[TOKENS] + s[TOKENS + 1] > tokens:
        return OUTSIDE
    radix = np.uint64(SQUARES * 2 * tokens + 1)
    key = np.uint64(0)
    scale = np.uint64(1)
    for square in range(SQUARES):
        height = s[BOARD + square]
        if height != 0:
            code = height - 1 if height > 0 else tokens - height - 1
            key += scale * np.uint64(1 + square * 2 * tokens + code)
            scale *= radix
    # The slots left empty hold 0; the player goes above all of them.
    return key + np.uint64(s[PLAYER]) * radix ** np.uint64(tokens)


@njit(cache=True)
def decode(spec, key, params, s):
    """Write the position of ``key`` into the engine array ``s`` (ply 0, ongoing)."""
    s[:] = 0
    tokens = spec[0]
    radix = np.uint64(SQUARES * 2 * tokens + 1)
    top = radix ** np.uint64(tokens)
    s[PLAYER] = np.int64(key // top)
    key %= top
    while key != 0:
        digit = np.int64(key % radix) - 1
        key //= radix
        square, code = digit // (2 * tokens), digit % (2 * tokens)
        height = code + 1 if code < tokens else -(code - tokens + 1)
        s[BOARD + square] = height
        if height > 0:
            s[TOKENS] += height
        else:
            s[TOKENS + 1] -= height


@njit(cache=True)
def layer_of(spec, s, params):
    """0: the game has no layers (moves can repeat positions)."""
    return 0


@njit(cache=True)
def _placements(spec, out):
    """Write to ``out`` the keys of every position with at most ``spec[0]``
    tokens, at least one of each colour, either player to move; return how
    many. Stacks are chosen in square order, heights by an odometer."""
    tokens = spec[0]
    radix = np.uint64(SQUARES * 2 * tokens + 1)
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
            while i >= 0 and squares[i] == SQUARES - stacks + i:
                i -= 1
            if i < 0:
                break
            squares[i] += 1
            for j in range(i + 1, stacks):
                squares[j] = squares[j - 1] + 1
    return n


def count_placements(tokens: int) -> int:
    """How many keys :func:`placements` gives (exact): for each number of
    stacks, the squares, the colourings with both colours, the heights, and
    two players to move."""
    total = 0
    for stacks in range(2, tokens + 1):
        heights = sum(comb(sum_ - 1, stacks - 1) for sum_ in range(stacks, tokens + 1))  # each >= 1, sum <= tokens
        total += comb(SQUARES, stacks) * ((1 << stacks) - 2) * heights
    return 2 * total


def placements(tokens: int) -> np.ndarray:
    """The keys of every position with at most ``tokens`` tokens, at least
    one of each colour, either player to move (the endgames a table of
    ``tokens`` tokens is solved from), unsorted."""
    spec = np.array(codec_spec(tokens)[0], dtype=np.int64)
    keys = np.empty(count_placements(tokens), dtype=np.uint64)
    n = _placements(spec, keys)
    return keys[:n]
