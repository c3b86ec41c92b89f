"""The array layout every game engine shares, and the end checks they share.

A position is a 1-D ``int32`` NumPy array. Its first :data:`HEADER` entries
mean the same in every game; the game's own data (its board, bombs left, ...)
follows. Game parameters and precomputed tables travel in a second ``int32``
array, ``params``. Each game's ``rules`` module exposes compiled functions
over these two arrays with the same signatures (see ``docs/explanation/engine.md``):

* ``legal_actions(s, params, out) -> n``: the sorted legal action ids go to
  ``out[:n]``; a finished game has none;
* ``apply_action(s, params, action)``: plays a legal action in place, counts
  the ply, passes the turn and records a result reached by the game's own
  rules (tokens gone, n in a row, one colour);
* ``position_key(s, params) -> uint64``: a 64-bit hash of what the rulebook
  calls "the position" (board and player to move), for repetition.

The rules that depend on history (a 4th repetition, an action limit) are the
same in every game that has them, so they live here, in
:func:`apply_history_rules`, which runs after ``apply_action`` once the new
position's key is appended to the history of keys.
"""

import warnings

import numpy as np
from boomboard.jit import njit

from .outcome import Reason

# The hashes below rely on uint64 arithmetic wrapping around. Compiled, it
# simply wraps; run as plain Python (NUMBA_DISABLE_JIT=1), NumPy warns each
# time, so those warnings are silenced for this module only.
warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning, __name__)

PLAYER = 0  # player to move: 0 or 1
STATUS = 1  # a boomboard.core.outcome.Status
REASON = 2  # a boomboard.core.outcome.Reason
PLY = 3  # actions played since the position the game started from
HEADER = 4

# What a game's proof_moves (the prover's optional move ordering: boomboard.kernel_interface) may add to the count of
# moves it returns, each a fact it vouches for at that node; the prover reads the count as ``listed & PROOF_COUNT``.
PROOF_COUNT = (1 << 16) - 1
PROOF_SAFE = 1 << 16  # no listed action loses at once, nor lets the opponent win with their very next action
PROOF_OWN_MOVE_RESULTS = 1 << 17  # from here to the end, a player wins only by an action of their own
PROOF_LOST = 1 << 18  # every legal action lets the opponent win with their very next action, and none wins at once

STATUS_ONGOING = 0
STATUS_PLAYER0_WINS = 1
STATUS_PLAYER1_WINS = 2
STATUS_TIE = 3

REASON_REPETITION = int(Reason.REPETITION)  # the shared end reasons (a game's own are its end_reasons)
REASON_TURN_LIMIT = int(Reason.TURN_LIMIT)

# The strong solver's perfect position keys (each game's ``kernels.encode``,
# see boomboard.kernel_interface): no position has this key; ``encode``
# returns it for a position its codec does not hold.
OUTSIDE = np.uint64(0xFFFFFFFFFFFFFFFF)

_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def mix64(x):
    """SplitMix64's finaliser: spreads the bits of ``x`` (a uint64) over 64 bits."""
    x = (x ^ (x >> np.uint64(30))) * _MIX_1
    x = (x ^ (x >> np.uint64(27))) * _MIX_2
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def cell_hash(cell, value):
    """The hash of one cell holding ``value``; a position hashes to the XOR of its
    cells, so games can update it incrementally. Unbounded stack heights need no
    table, unlike classic Zobrist hashing."""
    key = np.uint64(cell) * _GOLDEN + np.uint64(value + 0x10000) * _MIX_1
    return mix64(key)


def _cell_multipliers(count):
    """Odd 64-bit constants, one per cell, for :func:`board_key`."""
    cells = np.arange(count, dtype=np.uint64)
    with np.errstate(over="ignore"):  # computed in Python at import: numba loads only when needed
        return mix64.py_func(cells * _GOLDEN + _MIX_2) | np.uint64(1)


MAX_KEYED_CELLS = 1023  # board_key's limit; the largest board (Explocus 16x16) has 256
_CELL_MULTIPLIERS = _cell_multipliers(MAX_KEYED_CELLS + 1)


@njit(cache=True)
def board_key(s, first, count, player):
    """A 64-bit hash of the stacks ``s[first:first + count]`` (signed heights)
    and the ``player`` to move: a multiply-add per cell, mixed once.

    Cheaper than XOR-ing a :func:`cell_hash` per cell (a third of the time on
    Explocus boards). Two positions differing by heights ``d`` collide when
    the sum of ``d[c]`` times cell ``c``'s odd constant is 0 mod 2**64, which
    for the small differences of real games happens about once in 2**58.
    """
    total = np.uint64(player) * _CELL_MULTIPLIERS[count]
    for cell in range(count):
        total += np.uint64(np.int64(s[first + cell])) * _CELL_MULTIPLIERS[cell]
    return mix64(total)


@njit(cache=True)
def win_status(player):
    """The status value for a win by ``player``."""
    return STATUS_PLAYER0_WINS + player


@njit(cache=True)
def apply_history_rules(s, keys, n_keys, repetition_limit, action_limit):
    """Apply the rules that depend on history, after the game's own end check.

    ``keys[:n_keys]`` are the keys of the positions so far, the start counted
    and the current position last. A position seen for the
    ``repetition_limit``-th time is a tie; then reaching ``action_limit``
    actions is a tie (the rulebook's order). 0 disables either rule.
    """
    if s[STATUS] != STATUS_ONGOING:
        return
    if repetition_limit > 0:
        # A branch-free count over all keys compiles to vector code, faster
        # than an early-exit scan for the histories games reach.
        key = keys[n_keys - 1]
        seen = 0
        for i in range(n_keys):
            seen += keys[i] == key
        if seen >= repetition_limit:
            s[STATUS] = STATUS_TIE
            s[REASON] = REASON_REPETITION
            return
    if action_limit > 0 and s[PLY] >= action_limit:
        s[STATUS] = STATUS_TIE
        s[REASON] = REASON_TURN_LIMIT


@njit(cache=True)
def record_position(s, keys, n_keys, key, repetition_limit, action_limit):
    """For compiled loops: append the new position's ``key`` to ``keys[:n_keys]``,
    apply the history rules, and return the new number of keys."""
    keys[n_keys] = key
    apply_history_rules(s, keys, n_keys + 1, repetition_limit, action_limit)
    return n_keys + 1
