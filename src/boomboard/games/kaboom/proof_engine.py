"""Kaboom's proof engine: the prover searches the bitboard positions of ``bitboard.py``.

The prover (:mod:`boomboard.search.prover`) searches a game's own compact
positions where the game gives a *proof engine* (the optional items of the
game contract of that name): Kaboom's is the bitboard engine
(:mod:`boomboard.games.kaboom.bitboard`), on every board that fits its
64-bit words (``KaboomGame.proof_engine_params`` says None for the others,
which the prover then searches as state arrays, ordered by ``threats.py``).
The kernels here take a bitboard position ``s`` and the bitboard geometry
as their ``params``, and order moves as ``threats.py`` does on the state
array, with the same keys, so the two searches visit the same tree but for
the transposition table's hashes:

* a drop onto one of the mover's threat cells (the empty cells that would
  complete ``connect`` in a row of its pieces, bombs counted) wins at once
  and comes alone;
* a drop that leaves the opponent a threat cell to drop on (any other cell
  a drop lands on, or the cell above the drop) loses at once and is left
  out while a move that does not lose at once is searched;
* in misère a line loses: a drop onto the mover's own threat cell is left
  out so, and fewer own threat cells is better;
* drops are ordered by the threat cells the mover has after them (Pascal
  Pons' move score), then toward the centre, a piece before a bomb;
  detonations come after the drops, each played to find one that wins or
  loses at once;
* with no bomb left anywhere (in a hand or on the board) and lines winning,
  the list says so (``PROOF_OWN_MOVE_RESULTS``, and ``PROOF_SAFE`` where no
  listed drop loses at once, ``PROOF_LOST`` where every drop does), so the
  prover bounds the node as Pons does.

The threat cells of every line direction are shifts and ANDs of a whole
board at once (as Pons' ``compute_winning_position``, for any ``connect``).
"""

from __future__ import annotations

import warnings

import numpy as np

from boomboard.core.layout import PLAYER, PROOF_LOST, PROOF_OWN_MOVE_RESULTS, PROOF_SAFE, STATUS, mix64
from boomboard.games.kaboom import bitboard
from boomboard.games.kaboom.bitboard import (BOMB_CELLS, BORROWING, G_BOARD, G_BOTTOM, G_COLS, G_COLUMN, G_CONNECT,
                                             G_MISERE, G_ROWS, G_STRIDE, HAND, O_CELLS, ONE, WORDS, X_CELLS, ZERO)
from boomboard.jit import njit

# Run as plain Python (NUMBA_DISABLE_JIT=1), NumPy warns when a uint64 wraps
# around; compiled code simply wraps, as the hashes and counts want.
warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning, __name__)

# Sort keys: a drop's are 2 and up; the moves searched last, or not at all while another is.
_WINS_AT_ONCE = 1
_DETONATION_KEY = 0
_LOSING_KEY = -1
# Action ids are below this on every board that fits the words (2 * cols + rows * cols + 1 <= cols + 65).
_ACTIONS = 128
_SALT = np.uint64(0x9E3779B97F4A7C15)  # mixed into every key (see _key)


def new_position(params):
    """An empty bitboard position, for :func:`load_position` to fill."""
    return np.zeros(WORDS, np.uint64)


@njit(**BORROWING)
def load_position(state, params, s):
    """Write the position of the state array ``state`` into the bitboard position ``s``."""
    bitboard.from_array(state, params, s)


@njit(**BORROWING)
def apply_action(s, params, action):
    """Play ``action`` on the bitboard position ``s`` (``bitboard.apply_action``)."""
    bitboard.apply_action(s, params, action)


@njit(**BORROWING)
def threat_cells(bits, empty, rows, connect):
    """The cells of ``empty`` that complete ``connect`` in a row of ``bits``
    (:func:`_threats`). The common lengths reach it as constants, so that
    each compiles to straight code: about ten times as fast as its loops
    over a length known only when they run, at twice and more a node."""
    if connect == 4:
        return _threats_of_four(bits, empty, rows)
    if connect == 3:
        return _threats(bits, empty, rows, 3)
    if connect == 5:
        return _threats(bits, empty, rows, 5)
    return _threats(bits, empty, rows, connect)


@njit(**BORROWING)
def _threats_of_four(bits, empty, rows):
    """:func:`_threats` of four in a row, as Pons' ``compute_winning_position``
    finds them: along a line, the two cells before a cell and the two after
    it are each found once and shared by the placements that need them (half
    the shifts and ANDs of the general loop, at every node); up a column,
    only the three below count, since pieces never float over an empty cell."""
    one, two, three = np.uint64(1), np.uint64(2), np.uint64(3)
    found = (bits << one) & (bits << two) & (bits << three)
    for step in (rows + 1, rows + 2, rows):  # horizontal, diagonal, anti-diagonal
        if 3 * step >= 64:
            continue  # no line of four fits this way (and the shift would be undefined)
        shift = np.uint64(step)
        before = (bits << shift) & (bits << (two * shift))
        after = (bits >> shift) & (bits >> (two * shift))
        found |= before & ((bits << (three * shift)) | (bits >> shift))
        found |= after & ((bits >> (three * shift)) | (bits << shift))
    return found & empty


@njit(**BORROWING)
def _threats(bits, empty, rows, connect):
    """For each line direction (a bit step) and each place ``gap`` of a cell in
    a line, the ``gap`` cells before it and the ``connect - 1 - gap`` after
    it must be set: ``before`` gathers the first as ``gap`` grows, ``after``
    is ANDed afresh (no array, which would have to be allocated)."""
    found = ZERO
    for step in (1, rows + 1, rows + 2, rows):  # vertical, horizontal, diagonal, anti-diagonal
        if (connect - 1) * step >= 64:
            continue  # no line that long fits this way (and the shift would be undefined)
        before = ~ZERO
        for gap in range(connect):
            after = before
            for m in range(1, connect - gap):
                after &= bits >> np.uint64(m * step)
            found |= after
            if gap + 1 < connect:
                before &= bits << np.uint64((gap + 1) * step)
    return found & empty


@njit(**BORROWING)
def popcount(x):
    x = x - ((x >> ONE) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(**BORROWING)
def _drop_key(params, c, cell, mine, empty, their_threats, landing):
    """The sort key of a drop in column ``c`` onto ``cell`` that does not
    complete a line: :data:`_LOSING_KEY` if it surely loses at once, else
    higher for a better drop (``threats.py``'s order), even (a piece's is
    one more than a bomb's). Before the drop: the mover's cells, the empty
    cells, the opponent's threat cells, and the cells a drop lands on."""
    if not params[G_MISERE]:  # a sure loss first: its threats are not worth counting
        opened = (landing & ~cell) | ((cell << ONE) & params[G_BOARD])
        if their_threats & opened != ZERO:
            return _LOSING_KEY
    rows, cols, connect = np.int64(params[G_ROWS]), np.int64(params[G_COLS]), np.int64(params[G_CONNECT])
    after = popcount(threat_cells(mine | cell, empty & ~cell, rows, connect))
    centre = cols - abs(2 * c - (cols - 1))
    if params[G_MISERE]:  # the opponent's threats are no danger; fewer own ones are better
        return ((64 - after) * 32 + centre) * 2
    return 2 + (after * 32 + centre) * 2


@njit(**BORROWING)
def _detonation_key(s, params, action):
    """A detonation's sort key: it is played, and ``s`` put back as it was
    (its :data:`~boomboard.games.kaboom.bitboard.WORDS` words kept in a tuple: nothing allocated)."""
    kept = (s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8])
    mover_wins = 1 + np.int64(s[PLAYER])
    bitboard.apply_action(s, params, action)
    status = np.int64(s[STATUS])
    for word in range(WORDS):
        s[word] = kept[word]
    if status == mover_wins:
        return _WINS_AT_ONCE
    return _LOSING_KEY if status == 3 - mover_wins else _DETONATION_KEY


@njit(**BORROWING)
def _packed(key, action):
    """A move and its sort key in one entry of ``out``: sorted descending,
    the best key first, and of equal keys the lower action."""
    return key * _ACTIONS + (_ACTIONS - 1 - action)


@njit(**BORROWING)
def proof_moves(s, params, out):
    """The moves worth searching, best first, or one that wins at once alone
    (the module's docstring says how). Drops are listed column by column from
    the cells they land on (a piece and a bomb land alike: one key for both),
    then the mover's detonations in action order; each move's sort key is
    packed with it into ``out`` while they are sorted (nothing allocated)."""
    player = np.int64(s[PLAYER])
    rows, cols, connect = np.int64(params[G_ROWS]), np.int64(params[G_COLS]), np.int64(params[G_CONNECT])
    mine, theirs = s[X_CELLS + player], s[X_CELLS + 1 - player]
    occupied = mine | theirs
    landing = (occupied + params[G_BOTTOM]) & params[G_BOARD]  # each column's carry stops at its first empty cell
    empty = params[G_BOARD] & ~occupied
    threats = threat_cells(mine, empty, rows, connect)
    if threats & landing != ZERO and not params[G_MISERE]:  # a drop wins at once: the first in action order
        for c in range(cols):
            if threats & landing & params[G_COLUMN + c] != ZERO:
                out[0] = c
                return 1
    their_threats = threat_cells(theirs, empty, rows, connect)
    bombs = s[HAND + player] != ZERO
    n = kept = 0
    for c in range(cols):
        cell = landing & params[G_COLUMN + c]
        if cell == ZERO:
            continue
        key = _LOSING_KEY if threats & cell != ZERO else _drop_key(params, c, cell, mine, empty, their_threats,
                                                                    landing)
        out[n] = _packed(key + 1 if key != _LOSING_KEY else key, c)
        n += 1
        if bombs:
            out[n] = _packed(key, cols + c)
            n += 1
        kept += (1 + bombs) * (key != _LOSING_KEY)
    own_bombs = s[BOMB_CELLS] & mine
    if own_bombs != ZERO:
        for r in range(rows):  # in action order: row by row, each row left to right
            if own_bombs & (params[G_BOTTOM] << np.uint64(r)) == ZERO:
                continue
            for c in range(cols):
                if (own_bombs >> np.uint64(c * np.int64(params[G_STRIDE]) + r)) & ONE == ZERO:
                    continue
                action = 2 * cols + r * cols + c
                key = _detonation_key(s, params, action)
                if key == _WINS_AT_ONCE:
                    out[0] = action
                    return 1
                out[n] = _packed(key, action)
                n += 1
                kept += key != _LOSING_KEY
    if n == 0:  # nothing else to do: pass
        out[0] = 2 * cols + rows * cols
        return 1
    _sort_descending(out, n)
    for i in range(n):
        out[i] = _ACTIONS - 1 - (out[i] & (_ACTIONS - 1))
    # With no bomb in a hand or on the board, and lines winning (not misère), this is Connect-4 from here on: a
    # line is only made by its owner's drop, and a drop left out here is every one that lets the opponent win next.
    if params[G_MISERE] or s[HAND] != ZERO or s[HAND + 1] != ZERO or s[BOMB_CELLS] != ZERO:
        return kept if kept > 0 else n
    return (kept | PROOF_SAFE | PROOF_OWN_MOVE_RESULTS) if kept > 0 else (n | PROOF_OWN_MOVE_RESULTS | PROOF_LOST)


@njit(**BORROWING)
def _sort_descending(out, n):
    for i in range(1, n):  # insertion sort: a handful of moves
        j, value = i, out[i]
        while j > 0 and out[j - 1] < value:
            out[j] = out[j - 1]
            j -= 1
        out[j] = value


@njit(**BORROWING)
def _mirrored(word, params):
    """``word`` with its columns in reverse order."""
    cols, stride = np.int64(params[G_COLS]), np.int64(params[G_STRIDE])
    column = (ONE << np.uint64(stride)) - ONE
    image = ZERO
    for c in range(cols):
        image |= ((word >> np.uint64(c * stride)) & column) << np.uint64((cols - 1 - c) * stride)
    return image


@njit(**BORROWING)
def _rest(bombs, rest):
    """The key's part for the bombs on the board, the hands and the player to
    move (the salt keeps an empty board off key 0, which ``mix64`` keeps
    and which the table's empty slots hold)."""
    return mix64(mix64(bombs) ^ rest ^ _SALT)


@njit(**BORROWING)
def mirror_key(s, params):
    """The smaller of the keys of the position and of its mirror image, the
    lowest bit saying which image this is: 0 where its own is the smaller.
    A key is ``mix64`` (a bijection) of the board exactly, ``x + (x | o)``
    (Pons' key: the cells of each column are a run from the bottom, which
    the sum marks one bit above), XORed with :func:`_rest`: no two boards
    with the same bombs, hands and player share one. The sum mirrors
    column by column as its words do (no carry crosses a column)."""
    rest = s[HAND] | (s[HAND + 1] << np.uint64(16)) | (s[PLAYER] << np.uint64(32))
    x, bombs = s[X_CELLS], s[BOMB_CELLS]
    board = x + (x | s[O_CELLS])
    own_rest = _rest(bombs, rest)
    key = mix64(board ^ own_rest)
    image_rest = _rest(_mirrored(bombs, params), rest) if bombs != ZERO else own_rest
    image = mix64(_mirrored(board, params) ^ image_rest)
    return (key & ~ONE) if key <= image else (image & ~ONE) | ONE
