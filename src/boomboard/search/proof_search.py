"""Proof by search: a position's exact value, a kernel template compiled once per game.

Pascal Pons' Connect-4 solver is the model: alpha-beta to the end of the game
(no horizon, no evaluation in the result), always with a null window that the
driver (:mod:`boomboard.search.prover`) moves by bisection over the score, a
transposition table of bounds shared by those searches, and good move
ordering. Everything it knows of a game comes from the game kernel interface:
legal actions, playing one, the position key, and the static evaluation,
which only orders moves.

Scores, for the player to move at ``ply`` plies below the search's root: a
win whose last action is the ``d``-th ply from the root scores ``WIN - d``,
a loss ``d - WIN``, a tie 0; so the winner plays the fastest win and the
loser the slowest loss. The table stores scores as distances from the node
itself (the game has no history rules: a position's future does not depend
on how it was reached).

At each node the game gives the moves worth searching, best first
(``proof_moves``: the game's threats where it knows them, the evaluation of
each child otherwise, :mod:`boomboard.search.proof_order`), and an action
that wins at once alone: a node with one move plays it at once, and if it
wins for the mover the node is done (the fastest win there is); otherwise
no win comes before two more plies, so the window's top is
lowered to ``WIN - ply - 2`` (Pons' bound on the score of a position that
cannot win at once), which cuts off most of a deep null-window search. The
table's best move is tried first; the other children are played one at a
time, as the search reaches them (a cut node mostly searches one). The
table is keyed by ``mirror_key``, which a position shares with its mirror
image; its lowest bit says which image stored the best move, which is used
only by the same image.

The loop runs over an explicit stack of frames, one per ply (numba's disk
cache cannot hold recursive functions), and reads the CPU clock every 1024
nodes (:mod:`boomboard.search.clock`): at the node or time budget it stops
and says so (``stats[ABORTED]``); the driver then reports "not proved".
It reads ``stats[NODE_LIMIT]`` at every node, so a driver that sets it to
zero from another thread (on Ctrl-C) stops the search at the next node.
"""

from __future__ import annotations

import numpy as np

from boomboard.core.layout import PLAYER, STATUS, STATUS_TIE
from boomboard.jit import njit
from boomboard.search.clock import cpu_nanoseconds
from boomboard.kernel_interface import apply_action, mirror_key, proof_moves

# A win or loss scores WIN less the plies to it; the driver refuses games that
# can last half as long, so every forced result lies beyond WIN // 2.
WIN = 1 << 15
# The table packs an entry in an int64: lower bound, upper bound (each + BOUND_OFFSET,
# 17 bits), best action + 1 (24 bits) and the image that stored it (the key's lowest bit).
_BOUND_BITS, BOUND_OFFSET, _MOVE_SHIFT, _IMAGE_SHIFT = 17, 1 << 16, 34, 58
_BOUND_MASK = (1 << _BOUND_BITS) - 1
MOVE_MASK = (1 << 24) - 1

# ``stats``: what the search reports (and its budget), shared with the driver.
#   NODES         nodes searched, over all searches of one proof (the driver zeroes it)
#   NODE_LIMIT    the node budget: the search stops on reaching it
#   ABORTED       1 once a search stopped at its node or time budget
#   CLOCK_FUNCTION, CLOCK_KIND   the CPU clock (:mod:`boomboard.search.clock`)
#   DEADLINE_NS   the clock's reading at which to stop (0: no time limit)
NODES, NODE_LIMIT, ABORTED, CLOCK_FUNCTION, CLOCK_KIND, DEADLINE_NS = 0, 1, 2, 3, 4, 5
STATS_SIZE = 6

# ``frames[ply, column]``: the node at that ply of the current path.
#   ALPHA, BETA     its window (ALPHA rises as children return)
#   ORIGINAL_ALPHA  ALPHA when its children were set up (is the result a bound?)
#   BEST, BEST_MOVE its best score so far and the action that scored it
#   INDEX, COUNT    the children searched so far and how many it has
#   KEY             its ``mirror_key`` (the bits of the uint64)
_ALPHA, _BETA, _ORIGINAL_ALPHA, _BEST, _BEST_MOVE, _INDEX, _COUNT, _KEY = 0, 1, 2, 3, 4, 5, 6, 7
_FRAME_COLUMNS = 8


@njit(cache=True)
def to_table(score, ply):
    """A score at ``ply`` as the table keeps it: forced results as distances from the node."""
    if score > 0:
        return score + ply
    if score < 0:
        return score - ply
    return 0


@njit(cache=True)
def from_table(score, ply):
    if score > 0:
        return score - ply
    if score < 0:
        return score + ply
    return 0


@njit(cache=True)
def pack(lower, upper, move, image):
    return ((lower + BOUND_OFFSET) | ((upper + BOUND_OFFSET) << _BOUND_BITS)
            | ((move + 1) << _MOVE_SHIFT) | (image << _IMAGE_SHIFT))


@njit(cache=True)
def unpack(entry, image):
    """``(lower, upper, move)`` of a table entry, read by the mirror ``image``
    (move -1: none, or stored by the other image)."""
    lower = (entry & _BOUND_MASK) - BOUND_OFFSET
    upper = ((entry >> _BOUND_BITS) & _BOUND_MASK) - BOUND_OFFSET
    move = ((entry >> _MOVE_SHIFT) & MOVE_MASK) - 1
    return lower, upper, move if (entry >> _IMAGE_SHIFT) & 1 == image else -1


@njit(cache=True)
def _slot(tt_keys, key):
    """The table slot of a ``mirror_key`` and the key as the table holds it
    (both images alike)."""
    shared = key >> np.uint64(1)
    return shared & np.uint64(tt_keys.shape[0] - 1), shared


@njit(cache=True)
def _store(tt_keys, tt_data, key, ply, best, best_move, original_alpha, beta):
    """Keep what the finished node learnt: ``best`` bounds its value from above
    (all moves failed low), from below (a cut-off) or both; bounds already
    known for the same position are kept where they are tighter."""
    slot, shared = _slot(tt_keys, key)
    image = np.int64(key & np.uint64(1))
    lower, upper = -WIN, WIN
    if tt_keys[slot] == shared:
        lower, upper, _ = unpack(tt_data[slot], image)
    stored = to_table(best, ply)
    if best < beta:
        upper = min(upper, stored)
    if best > original_alpha:
        lower = max(lower, stored)
    tt_keys[slot] = shared
    tt_data[slot] = pack(lower, upper, best_move, image)


@njit(cache=True)
def _out_of_budget(stats, timespec):
    """Count a node; whether the budget is spent (then ``stats[ABORTED]``)."""
    stats[NODES] += 1
    deadline = stats[DEADLINE_NS]
    if stats[NODES] >= stats[NODE_LIMIT] or (
            deadline > 0 and stats[NODES] & 1023 == 0
            and cpu_nanoseconds(stats[CLOCK_FUNCTION], stats[CLOCK_KIND], timespec) >= deadline):
        stats[ABORTED] = 1
        return True
    return False


@njit(cache=True)
def _play_child(params, stack, moves, ply, i):
    """Play the ``i``-th move of the node at ``ply`` into ``stack[ply + 1]``."""
    stack[ply + 1, :] = stack[ply]
    apply_action(stack[ply + 1], params, moves[ply, i])


@njit(cache=True)
def _set_up_children(params, stack, moves, ply, table_move):
    """List the moves of the node at ``ply`` (``proof_moves``) with the
    table's move first, and play the first into ``stack[ply + 1]``. Returns
    how many there are, or -1 if the move wins at once (the game lists
    such a move alone)."""
    n = proof_moves(stack[ply], params, moves[ply])
    for i in range(1, n):
        if moves[ply, i] == table_move:
            moves[ply, 1:i + 1] = moves[ply, 0:i].copy()
            moves[ply, 0] = table_move
            break
    _play_child(params, stack, moves, ply, 0)
    if n == 1 and stack[ply + 1, STATUS] == 1 + stack[ply, PLAYER]:
        return -1
    return n


@njit(cache=True)
def _enter(params, stack, moves, frames, ply, tt_keys, tt_data):
    """Score the node at ``ply`` at once if it can be (returns ``True, value``),
    or set up its children and play the first (``False, 0``)."""
    s = stack[ply]
    if s[STATUS] != 0:
        if s[STATUS] == STATUS_TIE:
            return True, 0
        return True, (WIN - ply) if s[STATUS] == 1 + s[PLAYER] else (ply - WIN)
    key = mirror_key(s, params)
    slot, shared = _slot(tt_keys, key)
    table_move = -1
    alpha, beta = frames[ply, _ALPHA], frames[ply, _BETA]
    if tt_keys[slot] == shared:
        lower, upper, table_move = unpack(tt_data[slot], np.int64(key & np.uint64(1)))
        lower, upper = from_table(lower, ply), from_table(upper, ply)
        if lower >= beta:
            return True, lower
        if upper <= alpha:
            return True, upper
        if lower == upper:
            return True, lower
        alpha, beta = max(alpha, lower), min(beta, upper)
    n = _set_up_children(params, stack, moves, ply, table_move)
    if n < 0:
        return True, WIN - ply - 1
    top = WIN - ply - 2  # no win at once: none before two more plies
    if beta > top:
        beta = top
        if alpha >= beta:
            return True, top
    frames[ply, _ALPHA], frames[ply, _BETA], frames[ply, _ORIGINAL_ALPHA] = alpha, beta, alpha
    frames[ply, _BEST], frames[ply, _BEST_MOVE] = -WIN, moves[ply, 0]
    frames[ply, _INDEX], frames[ply, _COUNT], frames[ply, _KEY] = 0, n, np.int64(key)
    return False, 0


@njit(cache=True, nogil=True)  # without the interpreter's lock: see boomboard.search.interruptible
def prove_window(params, stack, root_ply, alpha, beta, moves, table, stats):
    """Alpha-beta to the end of the game from ``stack[root_ply]`` with the window
    ``alpha, beta`` (fail-soft: a result at or below ``alpha`` is an upper
    bound, at or above ``beta`` a lower bound, between them exact). Scores
    count plies from ``root_ply``'s parent as ply 0, so a search of one root
    move's child (``root_ply`` 1) returns the move's value negated. Returns
    the value; meaningless once ``stats[ABORTED]`` is set."""
    tt_keys, tt_data = table
    timespec = np.zeros(2, np.int64)
    frames = np.zeros((stack.shape[0], _FRAME_COLUMNS), np.int64)
    frames[root_ply, _ALPHA], frames[root_ply, _BETA] = alpha, beta
    ply = root_ply
    entering = True
    value = 0
    while True:
        if entering:
            if _out_of_budget(stats, timespec):
                return 0
            done, value = _enter(params, stack, moves, frames, ply, tt_keys, tt_data)
            if not done:  # its first child is in place
                frames[ply + 1, _ALPHA], frames[ply + 1, _BETA] = -frames[ply, _BETA], -frames[ply, _ALPHA]
                ply += 1
                continue
            entering = False
        # the node at ``ply`` is done with ``value``: take it back to its parent
        if ply == root_ply:
            return value
        if stats[ABORTED]:
            return 0
        ply -= 1
        n = frames[ply, _COUNT]
        action = moves[ply, frames[ply, _INDEX]]
        score = -value
        if score > frames[ply, _BEST]:
            frames[ply, _BEST], frames[ply, _BEST_MOVE] = score, action
        if score > frames[ply, _ALPHA]:
            frames[ply, _ALPHA] = score
        frames[ply, _INDEX] += 1
        if frames[ply, _ALPHA] >= frames[ply, _BETA] or frames[ply, _INDEX] == n:
            value = frames[ply, _BEST]
            _store(tt_keys, tt_data, np.uint64(frames[ply, _KEY]), ply, value, frames[ply, _BEST_MOVE],
                   frames[ply, _ORIGINAL_ALPHA], frames[ply, _BETA])
            continue
        _play_child(params, stack, moves, ply, frames[ply, _INDEX])
        frames[ply + 1, _ALPHA], frames[ply + 1, _BETA] = -frames[ply, _BETA], -frames[ply, _ALPHA]
        ply += 1
        entering = True
