"""Kaboom's proof ordering: threats on bitboards, and one key for a position and its mirror image.

The prover (:mod:`boomboard.search.prover`) asks a game for the moves worth
searching, best first (``proof_moves``), and for a key that a position
shares with its mirror image (``mirror_key``): the *proof ordering* items of
the game contract. Kaboom gives them the way Pascal Pons' Connect-4 solver
orders its moves. A side's *threat cells* are the empty cells that would
complete ``connect`` in a row of its pieces (bombs count); on a board that
fits a 64-bit word (:func:`~boomboard.games.kaboom.rules.fits_bitboard`)
they are found with shifts and ANDs, a gap position of the line at a time.

* A drop onto one of the mover's threat cells wins at once (a drop checks
  only the mover's lines, and the position had none), and comes alone.
* A drop whose cell, or the cell it opens above it, leaves the opponent a
  threat cell to drop on loses at once: their drop completes their line
  before anything can go off. It is left out while another move is
  searched that does not lose at once itself; a detonation is never
  claimed to lose or to save anything without being played, as a blast can
  take pieces away.
* In misère a line loses: a drop onto the mover's own threat cell loses at
  once and is left out while another move exists; the opponent's threats
  are no danger to the mover, and fewer own threats is better.
* Drops are ordered by the threat cells the mover has after them (Pons'
  move score; in misère the fewer the better), then toward the centre, a
  piece before a bomb; detonations come after the drops, played first to
  find one that wins at once.

On a board larger than a word every move is listed in action order, or one
that wins at once alone (each move is played to find it).
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import PLAYER, STATUS, cell_hash
from boomboard.games.kaboom.rules import (HAND, HEIGHT, P_COLS, P_CONNECT, P_MISERE, P_ROWS, _bitboards,
                                          apply_action, fits_bitboard, legal_actions)
from boomboard.jit import njit

# Sort keys of moves that are searched last, or not at all while another is.
_DETONATION_KEY = -(1 << 20)
_LOSING_KEY = -(1 << 30)


@njit(cache=True)
def threat_cells(bits, empty, params):
    """The cells of ``empty`` that complete ``connect`` in a row of the
    bitboard ``bits`` (the layout of :mod:`boomboard.games.kaboom.rules`)."""
    return _threats(bits, empty, params, np.empty(params[P_CONNECT], np.uint64))


@njit(cache=True)
def _threats(bits, empty, params, after):
    """:func:`threat_cells`, with room for ``connect`` words in ``after``. A
    cell is a threat when, for some place ``gap`` of it in a line of step
    ``step``, the ``gap`` cells before it and the ``connect - 1 - gap`` after
    it are all set: ``after[m]`` holds the cells whose next ``m`` cells are
    set, and the cells before are gathered as ``gap`` grows."""
    rows, connect = np.int64(params[P_ROWS]), np.int64(params[P_CONNECT])
    found = np.uint64(0)
    for step in (np.int64(1), rows + 1, rows + 2, rows):  # vertical, horizontal, diagonal, anti-diagonal
        if (connect - 1) * step >= 64:
            continue  # no line that long fits this way
        after[0] = ~np.uint64(0)
        for m in range(1, connect):
            after[m] = after[m - 1] & (bits >> np.uint64(m * step))
        before = ~np.uint64(0)
        for gap in range(connect):
            found |= before & after[connect - 1 - gap]
            if gap + 1 < connect:
                before &= bits << np.uint64((gap + 1) * step)
    return found & empty


@njit(cache=True)
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _board_masks(s, params):
    """The board's cells and the cells a drop lands on, as bitboards."""
    rows, cols = params[P_ROWS], params[P_COLS]
    column = (np.uint64(1) << np.uint64(rows)) - np.uint64(1)
    board = np.uint64(0)
    landing = np.uint64(0)
    for c in range(cols):
        base = np.uint64(c * (rows + 1))
        board |= column << base
        if s[HEIGHT + c] < rows:
            landing |= np.uint64(1) << (base + np.uint64(s[HEIGHT + c]))
    return board, landing


@njit(cache=True)
def _wins_first(s, params, out, n):
    """``out[:n]`` as it is, but an action that wins at once alone (each is played)."""
    child = np.empty_like(s)
    for i in range(n):
        child[:] = s
        apply_action(child, params, out[i])
        if child[STATUS] == 1 + s[PLAYER]:
            out[0] = out[i]
            return 1
    return n


@njit(cache=True)
def _drop_key(s, params, action, boards, scratch):
    """A drop's sort key, or 1 if it wins at once; :data:`_LOSING_KEY` if it
    surely loses at once. ``boards``: the mover's pieces, the mover's and
    the opponent's threat cells, the empty cells, the board's cells and the
    cells a drop lands on, before the drop; ``scratch``, room for :func:`_threats`."""
    mine, threats, their_threats, empty, board, landing = boards
    rows, cols = params[P_ROWS], params[P_COLS]
    c = action % cols
    cell = np.uint64(1) << np.uint64(c * (rows + 1) + s[HEIGHT + c])
    completes = threats & cell
    after = _popcount(_threats(mine | cell, empty & ~cell, params, scratch))
    centre = cols - abs(2 * c - (cols - 1))
    if params[P_MISERE]:
        if completes:
            return _LOSING_KEY
        return ((64 - after) * 32 + centre) * 2 + (action < cols)
    if completes:
        return 1
    opened = (landing & ~cell) | ((cell << np.uint64(1)) & board)
    if their_threats & ~cell & opened:
        return _LOSING_KEY
    return 2 + (after * 32 + centre) * 2 + (action < cols)


@njit(cache=True)
def _detonation_key(s, params, action):
    """A detonation's sort key, or 1 if it wins at once (it is played)."""
    child = s.copy()
    apply_action(child, params, action)
    status = child[STATUS]
    if status == 1 + s[PLAYER]:
        return 1
    return _LOSING_KEY if status == 2 - s[PLAYER] else _DETONATION_KEY


@njit(cache=True)
def proof_moves(s, params, out):
    """The moves worth searching, best first (the module's docstring says how)."""
    n = legal_actions(s, params, out)
    if n == 1 or not fits_bitboard(params):
        return _wins_first(s, params, out, n)
    x, o = _bitboards(s, params)
    mine, theirs = (x, o) if s[PLAYER] == 0 else (o, x)
    board, landing = _board_masks(s, params)
    empty = board & ~(x | o)
    scratch = np.empty(params[P_CONNECT], np.uint64)
    boards = (mine, _threats(mine, empty, params, scratch), _threats(theirs, empty, params, scratch), empty, board,
              landing)
    keys = np.empty(n, np.int64)
    kept = 0
    for i in range(n):
        action = out[i]
        if action < 2 * params[P_COLS]:
            key = _drop_key(s, params, action, boards, scratch)
        else:
            key = _detonation_key(s, params, action)
        if key == 1:
            out[0] = action
            return 1
        keys[i] = key
        kept += key != _LOSING_KEY
    return _sorted(out, keys, n, kept)


@njit(cache=True)
def _sorted(out, keys, n, kept):
    """Sort ``out[:n]`` by ``keys``, best first, and keep the ``kept`` moves
    that do not lose at once, or all of them where none is kept."""
    for i in range(1, n):  # insertion sort: a handful of moves
        j, action, key = i, out[i], keys[i]
        while j > 0 and keys[j - 1] < key:
            out[j], keys[j] = out[j - 1], keys[j - 1]
            j -= 1
        out[j], keys[j] = action, key
    return kept if kept > 0 else n


@njit(cache=True)
def mirror_key(s, params):
    """The smaller of the position's key and its mirror image's (each as
    :func:`~boomboard.games.kaboom.rules.position_key` hashes), the lowest bit
    saying which image this is: 0 where its own key is the smaller."""
    rows, cols = params[P_ROWS], params[P_COLS]
    board = HEIGHT + cols
    key = np.uint64(0)
    image = np.uint64(0)
    for r in range(rows):
        for c in range(cols):
            value = s[board + r * cols + c]
            if value != 0:
                key ^= cell_hash(r * cols + c, value)
                image ^= cell_hash(r * cols + cols - 1 - c, value)
    ncells = rows * cols
    rest = cell_hash(ncells, s[HAND]) ^ cell_hash(ncells + 1, s[HAND + 1])
    if s[PLAYER] == 1:
        rest ^= cell_hash(ncells + 2, 0)
    key ^= rest
    image ^= rest
    low = np.uint64(1)
    return (key & ~low) if key <= image else (image & ~low) | low
